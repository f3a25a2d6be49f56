"""One place that talks to LangChain chat models: invoke, stream, usage, errors, cache.

Every model call in treerag goes through here, so token accounting, the cache and the
translation of client exceptions into :class:`LLMError` are the same for summaries, search
and answers, and for OpenAI, Ollama or any other LangChain chat model.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from ..errors import LLMError
from ..store.base import Cache
from ..text.tokens import estimate_tokens


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
    """Filled while a stream runs; complete once the generator is exhausted."""

    parts: list[str] = field(default_factory=list)
    reply: LLMReply | None = None


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


def _finish_reply(
    message: Any,
    llm: Any,
    system: str,
    user: str,
    started: float,
    what: str,
    cache: Cache | None,
    key: str,
    cacheable: Callable[[str], bool] | None,
) -> LLMReply:
    """After a blocking or awaited call: record usage, refuse an empty answer, cache."""
    elapsed = time.perf_counter() - started
    reply = _reply_from_message(message, llm, len(system) + len(user), elapsed)
    _check_not_empty(reply.text, llm, what)
    if cacheable is None or cacheable(reply.text):
        _to_cache(cache, key, reply)
    return reply


def invoke(
    llm: Any,
    system: str,
    user: str,
    *,
    what: str = "language",
    cache: Cache | None = None,
    cacheable: Callable[[str], bool] | None = None,
) -> LLMReply:
    """One blocking call. Raises :class:`LLMError`; a cache hit costs nothing.

    ``cacheable(text)`` decides whether a reply is worth keeping (a garbage reply is not).
    """
    key = _cache_key(llm, system, user) if cache is not None else ""
    hit = _from_cache(cache, key)
    if hit:
        return hit
    started = time.perf_counter()
    try:
        message = llm.invoke(build_messages(system, user))
    except Exception as exc:  # any client error becomes one typed error
        raise LLMError(describe_error(exc, what, llm)) from exc
    return _finish_reply(message, llm, system, user, started, what, cache, key, cacheable)


async def ainvoke(
    llm: Any,
    system: str,
    user: str,
    *,
    what: str = "language",
    cache: Cache | None = None,
    cacheable: Callable[[str], bool] | None = None,
) -> LLMReply:
    """The async twin of :func:`invoke` (``ainvoke`` on the model)."""
    key = _cache_key(llm, system, user) if cache is not None else ""
    hit = _from_cache(cache, key)
    if hit:
        return hit
    started = time.perf_counter()
    try:
        message = await llm.ainvoke(build_messages(system, user))
    except Exception as exc:
        raise LLMError(describe_error(exc, what, llm)) from exc
    return _finish_reply(message, llm, system, user, started, what, cache, key, cacheable)


# A model that never stops (a loop, a broken server) must not hold a session forever; the
# client's read timeout cannot see it because bytes keep arriving.
DEFAULT_STREAM_MAX_CHARS = 40_000
DEFAULT_STREAM_MAX_SECONDS = 180.0


def _check_runaway(
    state: StreamState, started: float, max_chars: int, max_seconds: float, llm: Any, what: str
) -> None:
    size = sum(len(part) for part in state.parts)
    elapsed = time.perf_counter() - started
    if size > max_chars or elapsed > max_seconds:
        limit = f"{max_chars:,} characters" if size > max_chars else f"{max_seconds:.0f} s"
        raise LLMError(
            f"The {what} model ({model_name(llm)}) kept streaming past {limit}: "
            "the answer was cut off."
        )


def _check_not_empty(text: str, llm: Any, what: str) -> None:
    """An empty answer is a failure to report, not an answer to show."""
    if what == "answer" and not text.strip():
        raise LLMError(f"The {what} model ({model_name(llm)}) returned an empty reply.")


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


def _finish_stream(
    state: StreamState, total: Any, llm: Any, what: str, prompt_chars: int, started: float
) -> None:
    """After the last chunk: refuse a cut or empty stream, then record text and usage."""
    _check_complete(total, llm, what)
    text = "".join(state.parts)
    _check_not_empty(text, llm, what)
    elapsed = time.perf_counter() - started
    state.reply = _reply_from_message(
        total if total is not None else "", llm, prompt_chars, elapsed
    )
    state.reply.text = text


def stream(
    llm: Any,
    system: str,
    user: str,
    state: StreamState,
    *,
    what: str = "answer",
    max_chars: int = DEFAULT_STREAM_MAX_CHARS,
    max_seconds: float = DEFAULT_STREAM_MAX_SECONDS,
) -> Iterator[str]:
    """Yield text chunks; ``state.reply`` holds the full text and usage at the end.

    A failure before or during the stream raises :class:`LLMError` (chunks already yielded
    stay yielded: the caller shows the error after them).
    """
    started = time.perf_counter()
    total: Any = None
    try:
        for chunk in llm.stream(build_messages(system, user)):
            total = chunk if total is None else total + chunk
            text = _text_of(chunk)
            if text:
                state.parts.append(text)
                yield text
            _check_runaway(state, started, max_chars, max_seconds, llm, what)
    except LLMError:
        raise
    except Exception as exc:
        raise LLMError(describe_error(exc, what, llm) + " (the answer was cut off)") from exc
    _finish_stream(state, total, llm, what, len(system) + len(user), started)


async def astream(
    llm: Any,
    system: str,
    user: str,
    state: StreamState,
    *,
    what: str = "answer",
    max_chars: int = DEFAULT_STREAM_MAX_CHARS,
    max_seconds: float = DEFAULT_STREAM_MAX_SECONDS,
) -> AsyncIterator[str]:
    """The async twin of :func:`stream` (``astream`` on the model)."""
    started = time.perf_counter()
    total: Any = None
    try:
        async for chunk in llm.astream(build_messages(system, user)):
            total = chunk if total is None else total + chunk
            text = _text_of(chunk)
            if text:
                state.parts.append(text)
                yield text
            _check_runaway(state, started, max_chars, max_seconds, llm, what)
    except LLMError:
        raise
    except Exception as exc:
        raise LLMError(describe_error(exc, what, llm) + " (the answer was cut off)") from exc
    _finish_stream(state, total, llm, what, len(system) + len(user), started)
