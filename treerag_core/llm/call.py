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
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from ..errors import LLMError, StreamBudgetError
from ..store.base import Cache
from ..text.tokens import estimate_tokens
from .budgets import budget_of
from .clean import StreamCleaner, clean_answer


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


# What a model's client calls its output cap; clients other than OpenAI's and Ollama's are
# called as they are. The caps and timeouts themselves: :mod:`.budgets`.
_CAP_FIELD = {
    "ChatOpenAI": "max_tokens",
    "AzureChatOpenAI": "max_tokens",
    "ChatOllama": "num_predict",
}


def bounded(llm: Any, what: str) -> Any:
    """The model with this kind of call's budget (:mod:`.budgets`): its output cap, unless
    the caller set the model's own; its timeout, when the budget came with the model."""
    field_name = _CAP_FIELD.get(type(llm).__name__)
    budget, carried = budget_of(llm, what)
    if field_name is None or budget is None:
        return llm
    update: dict[str, Any] = {}
    if getattr(llm, field_name, None) is None:
        update[field_name] = budget.max_tokens
    if carried and field_name == "num_predict":  # Ollama: the timeout is its client's
        update["client_kwargs"] = {**(llm.client_kwargs or {}), "timeout": budget.timeout_s}
    try:
        capped = llm.model_copy(update=update) if update else llm
        if "client_kwargs" in update:
            capped._set_clients()  # the copy's own clients, with its timeout
    except Exception:  # noqa: BLE001 - a client that cannot be copied is called as it is
        return llm
    if carried and field_name == "max_tokens":  # OpenAI: a per-request option
        return capped.bind(timeout=budget.timeout_s)
    return capped


# How a reply's JSON Schema is sent, tried in this order until the server takes one:
# "json_schema" is OpenAI's response_format (vLLM, LM Studio and llama.cpp's own server
# take it too); "json_object" with a "schema" is llama-cpp-python's server's; "none" sends
# no schema. Ollama takes its ``format`` or nothing. The one a server took is remembered in
# the model object's ``metadata`` under SCHEMA_KEY: asked once per model, not per call.
SCHEMA_DIALECTS = ("json_schema", "json_object", "none")
SCHEMA_KEY = "treerag_schema_dialect"
_RESPONSE_FORMAT = {"ChatOpenAI", "AzureChatOpenAI"}  # OpenAI-compatible: response_format


def _dialects(llm: Any) -> tuple[str, ...]:
    """The dialects this model's client can send, from the one it was last taken in."""
    name = type(llm).__name__
    if name in _RESPONSE_FORMAT:
        kinds = SCHEMA_DIALECTS
    elif name == "ChatOllama":
        kinds = ("json_schema", "none")
    else:
        return ("none",)
    known = (getattr(llm, "metadata", None) or {}).get(SCHEMA_KEY)
    return kinds[kinds.index(known) :] if known in kinds else kinds


def with_schema(llm: Any, schema: Mapping[str, Any] | None, dialect: str) -> Any:
    """The model asked for replies that follow ``schema`` in ``dialect``."""
    if schema is None or dialect == "none":
        return llm
    if type(llm).__name__ == "ChatOllama":
        return llm.model_copy(update={"format": dict(schema)})
    if dialect == "json_schema":
        spec = {"name": "reply", "schema": dict(schema), "strict": True}
        return llm.bind(response_format={"type": "json_schema", "json_schema": spec})
    return llm.bind(response_format={"type": "json_object", "schema": dict(schema)})


def _refused_schema(exc: BaseException) -> bool:
    """A server that does not take a schema this way answers 400 or 422 (llama-cpp-python:
    500 naming the response_format)."""
    status = getattr(exc, "status_code", None) or getattr(getattr(exc, "response", None),
                                                          "status_code", None)  # fmt: skip
    return status in (400, 422) or status == 500 and "response_format" in str(exc)


class _Shapes:
    """One call's way through the dialects: the model to call now, and the next one when
    the server refuses it (remembered on the model); any other failure is raised again."""

    def __init__(self, llm: Any, what: str, schema: Mapping[str, Any] | None) -> None:
        self.llm, self.schema, self.capped = llm, schema, bounded(llm, what)
        self.left = list(_dialects(llm) if schema is not None else ("none",))

    @property
    def model(self) -> Any:
        return with_schema(self.capped, self.schema, self.left[0])

    def refused(self, exc: Exception) -> Any:
        if len(self.left) == 1 or not _refused_schema(exc):
            raise exc
        self.left.pop(0)
        try:
            self.llm.metadata = {**(getattr(self.llm, "metadata", None) or {}),
                                 SCHEMA_KEY: self.left[0]}  # fmt: skip
        except (AttributeError, TypeError, ValueError):
            pass  # a model that keeps no metadata is asked the first way again, and refused
        return self.model


def build_messages(system: str, user: str) -> list[BaseMessage]:
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
        raise LLMError(f"The {what} model ({model_name(llm)}) returned an empty reply.")


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
    shapes = _Shapes(llm, what, schema)
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
    shapes = _Shapes(llm, what, schema)
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
        raise LLMError(
            f"The {what} model ({model_name(llm)}) stream ended without its end marker: "
            "the answer was cut off."
        )


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
    total: Any = None  # the chunks added up: the message with the usage and the end marker
    cleaner: StreamCleaner = field(default_factory=StreamCleaner)

    def take(self, chunk: Any) -> Iterator[str]:
        """The chunk's text without our markup, if any; once the caller has it, refuse a
        runaway stream."""
        self.total = chunk if self.total is None else self.total + chunk
        yield from self._give(self.cleaner.feed(_text_of(chunk)))

    def _give(self, text: str) -> Iterator[str]:
        if text:
            self.state.parts.append(text)
            yield text
        size = sum(len(part) for part in self.state.parts)
        elapsed = time.perf_counter() - self.started
        if size > self.max_chars or elapsed > self.max_seconds:
            limit = (
                f"{self.max_chars:,} characters"
                if size > self.max_chars
                else f"{self.max_seconds:.0f} s"
            )
            raise StreamBudgetError(
                f"The {self.what} model ({model_name(self.llm)}) kept streaming past {limit}: "
                "the answer was cut off."
            )

    def finish(self) -> Iterator[str]:
        """After the last chunk: what the cleaner held back; then refuse a cut or empty
        stream, and record text and usage."""
        yield from self._give(self.cleaner.close())
        _check_complete(self.total, self.llm, self.what)
        text = "".join(self.state.parts)
        _check_not_empty(text, self.llm, self.what)
        elapsed = time.perf_counter() - self.started
        message = self.total if self.total is not None else ""
        self.state.reply = _reply_from_message(message, self.llm, self.prompt_chars, elapsed)
        self.state.reply.text = text


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
