"""``ask_library``: a question over the whole library, for people who do not know which
document holds the answer.

Routing picks the few documents the question is about (:mod:`treerag_core.library.routing`,
from the library index: no document is opened to choose), then ``ask_multi`` navigates
only those and answers once, so a question costs about the same over 1,000 documents as
over the right one. The answer is ``ask``'s (references name their document); its trace
gains ``library``: the documents considered, why each was kept or dropped, which were
opened.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from ..access.principal import Principal
from ..library.routing import DEFAULT_K, Routing, route
from ..store import open_store
from ..store.base import DEFAULT_REGISTRY, RegistryLike
from ..text import ENGINE_NAME
from .answer import aask_multi, ask_multi
from .result import AnswerMessage
from .retriever import Retriever

NOTHING_FOUND = (
    "No document you can read matches this question: try the words the documents would use, "
    "or pick the documents to ask."
)

Answer = AnswerMessage | dict[str, Any]


def ask_library(
    query: str, retriever: Retriever, *, registry_path: RegistryLike = DEFAULT_REGISTRY,
    principal: Principal | None = None, collection: str | None = None, stream: bool = False,
    return_raw: bool = True, history: list[dict[str, Any]] | None = None,
    extra_context: str = "", k: int = DEFAULT_K,
) -> Answer | Iterator[str | dict[str, Any]]:  # fmt: skip
    """Ask every document the principal may read (in ``collection``, if given): routed to
    at most ``k`` of them, then answered as ``ask_multi`` answers."""
    store = open_store(registry_path)
    routing = route(query, store, principal, collection, k)
    if not routing.picked:
        return _nothing(routing, stream, return_raw)
    result = ask_multi(
        query, routing.doc_ids, retriever, extra_context, stream, return_raw,
        principal=principal, registry_path=store, history=history,
    )  # fmt: skip
    if stream:
        return _traced_stream(result, routing)  # type: ignore[arg-type]
    return _traced(result, routing)  # type: ignore[arg-type]


async def aask_library(
    query: str, retriever: Retriever, *, registry_path: RegistryLike = DEFAULT_REGISTRY,
    principal: Principal | None = None, collection: str | None = None, stream: bool = False,
    return_raw: bool = True, history: list[dict[str, Any]] | None = None,
    extra_context: str = "", k: int = DEFAULT_K,
) -> Answer | AsyncIterator[str | dict[str, Any]]:  # fmt: skip
    """Async :func:`ask_library` (routing reads the index; the documents are navigated
    concurrently)."""
    store = open_store(registry_path)
    routing = route(query, store, principal, collection, k)
    if not routing.picked:
        nothing = _nothing(routing, stream, return_raw)
        return _as_async(nothing) if stream else nothing  # type: ignore[arg-type]
    result = await aask_multi(
        query, routing.doc_ids, retriever, extra_context, stream, return_raw,
        principal=principal, registry_path=store, history=history,
    )  # fmt: skip
    if stream:
        return _traced_async_stream(result, routing)  # type: ignore[arg-type]
    return _traced(result, routing)  # type: ignore[arg-type]


def _traced(result: Answer, routing: Routing) -> Answer:
    trace = result.response_metadata["trace"] if isinstance(result, AnswerMessage) else None
    trace = trace if trace is not None else result["trace"]  # type: ignore[index]
    trace["library"] = routing.trace()
    return result


def _with_library(chunk: str | dict[str, Any], routing: Routing) -> str | dict[str, Any]:
    if isinstance(chunk, dict) and "trace" in chunk:
        chunk["trace"]["library"] = routing.trace()
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
    if stream:
        return iter([NOTHING_FOUND, {"__references__": [], "trace": trace, "usage": use,
                                     "model_name": ENGINE_NAME}])  # fmt: skip
    if not return_raw:
        return {"answer": NOTHING_FOUND, "references": [], "trace": trace, "usage": use}
    return AnswerMessage(
        content=NOTHING_FOUND,
        references=[],
        response_metadata={"trace": trace, "llm_calls": 0, "model_name": ENGINE_NAME},
    )


async def _as_async(chunks: Iterator) -> AsyncIterator:
    for chunk in chunks:
        yield chunk
