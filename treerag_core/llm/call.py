"""One place that talks to LangChain chat models: invoke, stream, usage, errors, cache.

Every model call in treerag goes through here, so token accounting, the cache and the
translation of client exceptions into :class:`LLMError` are the same for summaries, search
and answers, and for OpenAI, Ollama or any other LangChain chat model.

Blocking and async are written once. A call is a plan, the way navigation is one
(:func:`~treerag_core.navigate.plan.plan_navigation`): a generator that checks the cache,
yields the prompt, receives the model's message and returns the :class:`LLMReply`;
``_drive_sync`` sends the prompt to ``llm.invoke``, ``_drive_async`` awaits
``llm.ainvoke``, and that is all they do. A stream cannot be driven that way (its chunks
go to the caller as they come), so :class:`_Streaming` holds what is done with each chunk
and at the end, and :func:`stream` and :func:`astream` are only the two loops over the
model's chunks. Nothing is generated from the other twin (psycopg 3's cure), so there is
no build step. The twins' signatures are the API and stay written out, two lines each.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import AsyncIterator, Callable, Generator, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import LLMError, StreamBudgetError
from ..store.base import Cache
from ..text.messages import Phrase, raised
from ..text.tokens import estimate_tokens
from .clean import StreamCleaner, clean_answer
from .shapes import Shapes, bounded

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage


@dataclass
class LLMReply:
    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    model: str = ""
    seconds: float = 0.0
    cached: bool = False
    estimated: bool = False  # usage guessed from characters: the server reported none
    finish_reason: str | None = None

    def usage(self) -> dict[str, Any]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "total_tokens": self.input_tokens + self.output_tokens,
            "model": self.model,
            "cached": self.cached,
            "estimated": self.estimated,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class StreamState:
    """Filled while a stream runs; complete once the generator is exhausted. ``parts`` is
    what the caller was given (the model's text, our prompt markup taken out); ``error``,
    set by a driver that caught it, why the stream ended early."""

    parts: list[str] = field(default_factory=list)
    reply: LLMReply | None = None
    error: LLMError | None = None


def model_name(llm: Any) -> str:
    """The model's name as the provider knows it (``gpt-4o-mini``, ``llama3``…)."""
    for attr in ("model_name", "model", "model_id"):
        value = getattr(llm, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(llm).__name__


def model_identity(llm: Any) -> str:
    """Model + endpoint + sampling settings: what makes two replies comparable (cache key)."""
    parts = [type(llm).__name__, model_name(llm)]
    for attr in ("openai_api_base", "base_url", "temperature", "top_p", "seed", "reasoning"):
        value = getattr(llm, attr, None)
        if value is not None:
            parts.append(f"{attr}={value}")
    return "|".join(parts)


def build_messages(system: str, user: str) -> list[BaseMessage]:
    """A call's messages. LangChain is imported here, by the first model call, not with the
    core: a server or program on the offline engine never loads it (about 0.15 s and
    pydantic's v1 layer, requests and urllib3 at every start)."""
    from langchain_core.messages import HumanMessage, SystemMessage

    return [SystemMessage(content=system), HumanMessage(content=user)]


def _text_of(message: Any) -> str:
    content = getattr(message, "content", message)
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content blocks
        return "".join(
            b if isinstance(b, str) else str(b.get("text", "")) if isinstance(b, dict) else ""
            for b in content
        )
    return str(content or "")


def _reply_from_message(message: Any, llm: Any, prompt_chars: int, seconds: float) -> LLMReply:
    text = _text_of(message)
    meta = getattr(message, "response_metadata", None) or {}
    usage = getattr(message, "usage_metadata", None) or {}
    tin = usage.get("input_tokens")
    tout = usage.get("output_tokens")
    if tin is None:
        raw = meta.get("token_usage") or {}
        tin = raw.get("prompt_tokens", meta.get("prompt_eval_count"))
        tout = raw.get("completion_tokens", meta.get("eval_count"))
    estimated = tin is None
    return LLMReply(
        text=text,
        input_tokens=int(tin) if tin is not None else estimate_tokens("x" * prompt_chars),
        output_tokens=int(tout) if tout is not None else estimate_tokens(text),
        model=str(meta.get("model_name") or meta.get("model") or model_name(llm)),
        seconds=seconds,
        estimated=estimated,
        finish_reason=meta.get("finish_reason") or meta.get("done_reason"),
    )


def describe_error(exc: BaseException, what: str, llm: Any) -> str:
    """A message a person can act on; never the request (it may hold the document)."""
    name = type(exc).__name__
    detail = " ".join(str(exc).split())[:300]
    if "timeout" in name.lower() or "timed out" in detail.lower():
        return f"The {what} model ({model_name(llm)}) timed out: {detail or name}."
    if "connect" in name.lower() or "connect" in detail.lower():
        return (
            f"Cannot reach the {what} model ({model_name(llm)}): {detail or name}. "
            "Check the server address and that it is running."
        )
    return f"The {what} model ({model_name(llm)}) failed: {name}: {detail}"


@contextmanager
def _translated(what: str, llm: Any, streaming: bool = False) -> Iterator[None]:
    """Any client error becomes one typed error. In a stream, an :class:`LLMError` of ours
    (a runaway) passes as it is, and the message says the answer was cut off."""
    try:
        yield
    except Exception as exc:
        if streaming and isinstance(exc, LLMError):
            raise
        cut = " (the answer was cut off)" if streaming else ""
        raise LLMError(describe_error(exc, what, llm) + cut) from exc


def _cache_key(llm: Any, system: str, user: str) -> str:
    """The same model, settings and prompt give the same key: a repeat costs no call."""
    payload = [model_identity(llm), [("system", system), ("user", user)]]
    raw = json.dumps(payload, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(raw.encode()).hexdigest()


def _from_cache(cache: Cache | None, key: str) -> LLMReply | None:
    hit = cache.get(key) if cache is not None else None
    if hit is None or not isinstance(hit.get("text"), str):
        return None
    return LLMReply(text=hit["text"], model=str(hit.get("model", "")), cached=True)


def _to_cache(cache: Cache | None, key: str, reply: LLMReply) -> None:
    if cache is not None:
        cache.put(key, {"text": reply.text, "model": reply.model})


def _check_not_empty(text: str, llm: Any, what: str) -> None:
    """An empty answer is a failure to report, not an answer to show."""
    if what == "answer" and not text.strip():
        raise raised(LLMError, "error.model_empty_reply", what=what, model=model_name(llm))


# --- one call: a plan, and its blocking and awaited drivers --------------------------------

# Yields (system, user) for the model; receives the model's message; returns the reply.
CallPlan = Generator[tuple[str, str], Any, LLMReply]


def _call_plan(
    llm: Any,
    system: str,
    user: str,
    what: str,
    cache: Cache | None,
    cacheable: Callable[[str], bool] | None,
) -> CallPlan:
    """The one body of invoke and ainvoke: a cache hit costs no call; after the call, record
    usage, refuse an empty answer, keep what ``cacheable`` finds worth keeping."""
    key = _cache_key(llm, system, user) if cache is not None else ""
    hit = _from_cache(cache, key)
    if hit:
        return hit
    started = time.perf_counter()
    message = yield system, user
    elapsed = time.perf_counter() - started
    reply = _reply_from_message(message, llm, len(system) + len(user), elapsed)
    if what == "answer":  # a small model echoes our markup or prompt: never the person's
        reply.text = clean_answer(reply.text, system)
    _check_not_empty(reply.text, llm, what)
    if cacheable is None or cacheable(reply.text):
        _to_cache(cache, key, reply)
    return reply


def _drive_sync(plan: CallPlan, llm: Any, what: str, schema: Mapping[str, Any] | None) -> LLMReply:
    """Run a call plan, blocking: every prompt it yields goes to ``llm.invoke`` (again in
    the next schema dialect, remembered, when the server refuses one)."""
    shapes = Shapes(llm, what, schema)
    try:
        prompt = next(plan)
        while True:
            with _translated(what, llm):
                model, message = shapes.model, None
                while message is None:
                    try:
                        message = model.invoke(build_messages(*prompt))
                    except Exception as exc:
                        model = shapes.refused(exc)
            prompt = plan.send(message)
    except StopIteration as done:
        return done.value


async def _drive_async(
    plan: CallPlan, llm: Any, what: str, schema: Mapping[str, Any] | None
) -> LLMReply:
    """Run a call plan, awaited: every prompt it yields goes to ``llm.ainvoke``."""
    shapes = Shapes(llm, what, schema)
    try:
        prompt = next(plan)
        while True:
            with _translated(what, llm):
                model, message = shapes.model, None
                while message is None:
                    try:
                        message = await model.ainvoke(build_messages(*prompt))
                    except Exception as exc:
                        model = shapes.refused(exc)
            prompt = plan.send(message)
    except StopIteration as done:
        return done.value


def invoke(
    llm: Any, system: str, user: str, *, what: str = "language", cache: Cache | None = None,
    cacheable: Callable[[str], bool] | None = None, schema: Mapping[str, Any] | None = None,
) -> LLMReply:  # fmt: skip
    """One blocking call. Raises :class:`LLMError`; a cache hit costs nothing.

    ``cacheable(text)`` decides whether a reply is worth keeping (a garbage reply is not);
    ``schema``: the JSON Schema the reply should follow, where the server can be told.
    """
    plan = _call_plan(llm, system, user, what, cache, cacheable)
    return _drive_sync(plan, llm, what, schema)


async def ainvoke(
    llm: Any, system: str, user: str, *, what: str = "language", cache: Cache | None = None,
    cacheable: Callable[[str], bool] | None = None, schema: Mapping[str, Any] | None = None,
) -> LLMReply:  # fmt: skip
    """The async twin of :func:`invoke` (``ainvoke`` on the model)."""
    plan = _call_plan(llm, system, user, what, cache, cacheable)
    return await _drive_async(plan, llm, what, schema)


# --- one stream: what each chunk does, and the blocking and awaited loops -----------------

# A model that never stops (a loop, a broken server) must not hold a session forever; the
# client's read timeout cannot see it because bytes keep arriving.
DEFAULT_STREAM_MAX_CHARS = 40_000
DEFAULT_STREAM_MAX_SECONDS = 180.0


# Clients known to report how a stream ended; for them, no end marker means a cut stream.
_REPORTS_FINISH = {"ChatOpenAI", "AzureChatOpenAI", "ChatOllama"}


def _check_complete(total: Any, llm: Any, what: str) -> None:
    """A stream that stops without its finish marker was cut: say so instead of passing a
    truncated answer off as complete."""
    if type(llm).__name__ not in _REPORTS_FINISH:
        return
    meta = getattr(total, "response_metadata", None) or {}
    if not (meta.get("finish_reason") or meta.get("done_reason") or meta.get("done")):
        raise raised(LLMError, "error.stream_no_end", what=what, model=model_name(llm))


@dataclass
class _Streaming:
    """The one body of stream and astream: each chunk's text and checks, and the end."""

    llm: Any
    what: str
    state: StreamState
    max_chars: int
    max_seconds: float
    prompt_chars: int
    started: float = field(default_factory=time.perf_counter)
    # The chunks, added up once at the end (the message with the usage and the end marker):
    # adding each to the sum so far made a long stream quadratic.
    chunks: list[Any] = field(default_factory=list)
    size: int = 0  # characters given so far
    cleaner: StreamCleaner = field(default_factory=StreamCleaner)

    def take(self, chunk: Any) -> Iterator[str]:
        """The chunk's text without our markup, if any; once the caller has it, refuse a
        runaway stream."""
        self.chunks.append(chunk)
        yield from self._give(self.cleaner.feed(_text_of(chunk)))

    def _give(self, text: str) -> Iterator[str]:
        if text:
            self.state.parts.append(text)
            self.size += len(text)
            yield text
        size = self.size
        elapsed = time.perf_counter() - self.started
        if size > self.max_chars or elapsed > self.max_seconds:
            limit = (
                Phrase("error.limit_chars", count=f"{self.max_chars:,}")
                if size > self.max_chars
                else f"{self.max_seconds:.0f} s"
            )
            raise raised(
                StreamBudgetError, "error.stream_past_limit", what=self.what,
                model=model_name(self.llm), limit=limit,
            )  # fmt: skip

    def finish(self) -> Iterator[str]:
        """After the last chunk: what the cleaner held back; then refuse a cut or empty
        stream, and record text and usage."""
        yield from self._give(self.cleaner.close())
        total = _added(self.chunks)
        _check_complete(total, self.llm, self.what)
        text = "".join(self.state.parts)
        _check_not_empty(text, self.llm, self.what)
        elapsed = time.perf_counter() - self.started
        message = total if total is not None else ""
        self.state.reply = _reply_from_message(message, self.llm, self.prompt_chars, elapsed)
        self.state.reply.text = text


def _added(chunks: list[Any]) -> Any:
    """A stream's chunks as one message (None for none)."""
    if not chunks:
        return None
    from langchain_core.messages import AIMessageChunk
    from langchain_core.messages.ai import add_ai_message_chunks

    first, *rest = chunks
    if all(isinstance(c, AIMessageChunk) for c in chunks):
        return add_ai_message_chunks(first, *rest)
    for chunk in rest:
        first = first + chunk
    return first


def stream(
    llm: Any, system: str, user: str, state: StreamState, *, what: str = "answer",
    max_chars: int = DEFAULT_STREAM_MAX_CHARS, max_seconds: float = DEFAULT_STREAM_MAX_SECONDS,
) -> Iterator[str]:  # fmt: skip
    """Yield text chunks (our prompt markup taken out: :mod:`.clean`); ``state.reply``
    holds the full text and usage at the end.

    A failure before or during the stream raises :class:`LLMError` (chunks already yielded
    stay yielded: the caller shows the error after them).
    """
    run = _Streaming(llm, what, state, max_chars, max_seconds, len(system) + len(user))
    with _translated(what, llm, streaming=True):
        for chunk in bounded(llm, what).stream(build_messages(system, user)):
            yield from run.take(chunk)
    yield from run.finish()


async def astream(
    llm: Any, system: str, user: str, state: StreamState, *, what: str = "answer",
    max_chars: int = DEFAULT_STREAM_MAX_CHARS, max_seconds: float = DEFAULT_STREAM_MAX_SECONDS,
) -> AsyncIterator[str]:  # fmt: skip
    """The async twin of :func:`stream` (``astream`` on the model)."""
    run = _Streaming(llm, what, state, max_chars, max_seconds, len(system) + len(user))
    with _translated(what, llm, streaming=True):
        async for chunk in bounded(llm, what).astream(build_messages(system, user)):
            for text in run.take(chunk):
                yield text
    for text in run.finish():
        yield text
