"""``ask_library``: a question over the whole library, for people who do not know which
document holds the answer.

Routing picks the few documents the question is about (:mod:`treerag_core.route.routing`,
from the library index: no document is opened to choose), then ``ask_multi`` navigates
only those and answers once, so a question costs about the same over 1,000 documents as
over the right one. The answer is ``ask``'s (references name their document); its trace
gains ``library``: the documents considered, why each was kept or dropped, which were
opened.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeAlias

from ..access.principal import Principal
from ..errors import LLMError
from ..llm.call import LLMReply, ainvoke, invoke
from ..navigate.history import conversation
from ..navigate.ranking import RankingMemory
from ..route.routing import (
    DEFAULT_K,
    Routing,
    RoutingCall,
    checked_choice,
    model_choice,
    route,
    routing_call,
)
from ..store import open_store
from ..store.base import RegistryLike
from ..text import ENGINE_NAME
from ..text.messages import message
from ..tree.passages import RANKING_CACHE
from .ask import aask_multi, ask_multi
from .retriever import Retriever

if TYPE_CHECKING:
    from .message import AnswerMessage

NOTHING_FOUND = message("note.nothing_found")  # English's; the question's language is used

Answer: TypeAlias = "AnswerMessage | dict[str, Any]"


def ask_library(
    query: str, retriever: Retriever, *, registry_path: RegistryLike | None = None,
    principal: Principal | None = None, collection: str | None = None, stream: bool = False,
    return_raw: bool = True, history: list[dict[str, Any]] | None = None,
    extra_context: str = "", k: int = DEFAULT_K,
) -> Answer | Iterator[str | dict[str, Any]]:  # fmt: skip
    """Ask every document the principal may read (in ``collection``, if given): routed to
    at most ``k`` of them, then answered as ``ask_multi`` answers."""
    store = open_store(registry_path)
    routing, call = _offline(query, store, principal, collection, k, retriever, history,
                             extra_context)  # fmt: skip
    if call is not None:
        routing = _with_reply(routing, call, k, retriever, lambda: invoke(
            retriever.search_llm, call.system, call.user, what="search", cache=retriever.cache,
            schema=call.schema,
        ))  # fmt: skip
    if not routing.picked:
        return _nothing(routing, stream, return_raw)
    answer = ask_multi(*_multi(query, routing, retriever, extra_context, stream, return_raw, store),
                       principal=principal, registry_path=store, history=history)  # fmt: skip
    return _traced_stream(answer, routing) if stream else _traced(answer, routing)  # type: ignore[arg-type]


async def aask_library(
    query: str, retriever: Retriever, *, registry_path: RegistryLike | None = None,
    principal: Principal | None = None, collection: str | None = None, stream: bool = False,
    return_raw: bool = True, history: list[dict[str, Any]] | None = None,
    extra_context: str = "", k: int = DEFAULT_K,
) -> Answer | AsyncIterator[str | dict[str, Any]]:  # fmt: skip
    """Async :func:`ask_library` (routing reads the index; the documents are navigated
    concurrently)."""
    store = open_store(registry_path)
    routing, call = _offline(query, store, principal, collection, k, retriever, history,
                             extra_context)  # fmt: skip
    if call is not None:
        try:
            reply: LLMReply | LLMError = await ainvoke(retriever.search_llm, call.system, call.user, what="search",
                                  cache=retriever.cache, schema=call.schema)  # fmt: skip
        except LLMError as exc:
            reply = exc
        routing = _with_reply(routing, call, k, retriever, lambda: reply)
    if not routing.picked:
        nothing = _nothing(routing, stream, return_raw)
        return _as_async(nothing) if stream else nothing
    answer = await aask_multi(
        *_multi(query, routing, retriever, extra_context, stream, return_raw, store),
        principal=principal, registry_path=store, history=history,
    )  # fmt: skip
    if stream:
        return _traced_async_stream(answer, routing)  # type: ignore[arg-type]
    return _traced(answer, routing)  # type: ignore[arg-type]


def _multi(
    query: str, routing: Routing, retriever: Retriever, extra_context: str, stream: bool,
    return_raw: bool, store: Any,
) -> tuple[Any, ...]:  # fmt: skip
    """``ask_multi``'s positional arguments for the routed documents. Without a ranking
    memory of the caller's, the documents' ranking statistics are read from (or, the first
    time a document is asked, kept in) the store's ``ranking`` cache: a library question
    does not tokenise the documents it opens again in every process."""
    if retriever.ranking_memory is None:
        retriever = replace(retriever, ranking_memory=lasting_ranking_memory(store))
    return query, routing.doc_ids, retriever, extra_context, stream, return_raw, False


def lasting_ranking_memory(store: Any) -> RankingMemory:
    """A ranking memory whose whole-document statistics last in the store's cache."""
    return RankingMemory(lasting=store.cache(RANKING_CACHE))


def _offline(
    query: str, store: Any, principal: Principal | None, collection: str | None, k: int,
    retriever: Retriever, history: list[dict[str, Any]] | None, extra_context: str,
) -> tuple[Routing, RoutingCall | None]:  # fmt: skip
    """The offline routing, and the search model's call over its shortlist (None without a
    search model). A follow-up is routed as it is resolved, with what it leaves out borrowed
    from the question before ("And in 2018?"); a question about another document, entity
    or topic is routed on its own (see :func:`~..navigate.history.conversation`)."""
    talk = conversation(query, history)
    followup = bool(talk.resolution and talk.resolution.followup)
    earlier = " ".join(str(t.get("question") or "") for t in talk.turns[-1:]) if followup else ""
    routing = route(talk.searched_as if followup else query, store, principal, collection, k)
    if retriever.search_llm is None or retriever.navigation.search_mode == "offline":
        return routing, None
    index = store.library_index()
    return routing, routing_call(query, routing, index, k, earlier, extra_context)


def _with_reply(
    routing: Routing, call: RoutingCall, k: int, retriever: Retriever,
    reply: Callable[[], LLMReply | LLMError],
) -> Routing:  # fmt: skip
    """The routing the search model's reply makes, checked against the offline one as the
    retriever's search mode says; its call's cost in ``usage``."""
    try:
        got = reply()
    except LLMError as exc:
        got = exc
    if isinstance(got, LLMError):
        return model_choice(routing, call, None, str(got), k)
    chosen = model_choice(routing, call, got.text, "", k)
    if retriever.navigation.search_mode == "checked":
        chosen = checked_choice(chosen, routing, k)
    chosen.usage = {"calls": 1, **got.usage()}
    return chosen


def _traced(result: Answer, routing: Routing) -> Answer:
    if not isinstance(result, dict):  # an AnswerMessage
        meta = result.response_metadata
        meta["trace"]["library"] = routing.trace()
        if routing.usage:
            meta["llm_calls"] = meta.get("llm_calls", 0) + 1
            for key, name in (("prompt_tokens", "input_tokens"),
                              ("completion_tokens", "output_tokens")):  # fmt: skip
                meta["token_usage"][key] += routing.usage[name]
            meta["token_usage"]["total_tokens"] += routing.usage["total_tokens"]
        return result
    return _with_library(result, routing)  # type: ignore[return-value]


def _with_library(chunk: str | dict[str, Any], routing: Routing) -> str | dict[str, Any]:
    """The answer's dict (or a stream's last chunk) with the routing's trace and cost."""
    if isinstance(chunk, dict) and "trace" in chunk:
        chunk["trace"]["library"] = routing.trace()
        use = chunk.get("usage")
        if routing.usage and use:
            use["routing"] = routing.usage
            use["llm_calls"] += 1
            for key in ("input_tokens", "output_tokens", "total_tokens"):
                use[key] += routing.usage[key]
    return chunk


def _traced_stream(chunks: Iterator[str | dict[str, Any]], routing: Routing) -> Iterator:
    for chunk in chunks:
        yield _with_library(chunk, routing)


async def _traced_async_stream(chunks: AsyncIterator, routing: Routing) -> AsyncIterator:
    async for chunk in chunks:
        yield _with_library(chunk, routing)


def _nothing(routing: Routing, stream: bool, return_raw: bool) -> Any:
    """The answer when no document matches: said plainly, with the routing's trace."""
    trace = {"documents": [], "library": routing.trace()}
    use = {"llm_calls": 0, "input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
    nothing = message("note.nothing_found", routing.language)  # the question's, none opened
    if stream:
        return iter([nothing, {"__references__": [], "trace": trace, "usage": use,
                                     "model_name": ENGINE_NAME}])  # fmt: skip
    if not return_raw:
        return {"answer": nothing, "references": [], "trace": trace, "usage": use}
    from .message import AnswerMessage  # LangChain, only for the seed's message

    return AnswerMessage(
        content=nothing,
        references=[],
        response_metadata={"trace": trace, "llm_calls": 0, "model_name": ENGINE_NAME},
    )


async def _as_async(chunks: Iterator) -> AsyncIterator:
    for chunk in chunks:
        yield chunk
