"""``ask`` / ``aask`` / ``ask_multi`` / ``aask_multi``: thin drivers over one pipeline.

navigate → prepare (:mod:`.context`) → answer → result (:mod:`.result`). Two model calls
per question on a document whose outline fits the search budget: the search model reads the
outline and names sections; the answer model reads only those sections' text, quoted as
data. Several documents are navigated concurrently and answered in ONE call; every
reference names its ``doc_id`` and ``file_name`` so two documents' node ``0000`` never
collide. The drivers differ only in how they wait (blocking or awaited) and whether they
stream; every step between is shared.

Failure policy: a failed or unusable *search* falls back to the offline ranking (the trace
says so); a failed *answer* call raises :class:`LLMError` with a readable message — in a
stream, after the chunks already delivered — because an answer that silently stops is
worse than a visible error.

Conversation: ``history=`` (the earlier turns, oldest first, each ``{"question", "answer",
"references"}``) reaches both calls as a compact block within ``retriever.history_tokens``,
and the offline engine resolves an elliptical follow-up from it (:mod:`.history`,
:mod:`.followup`); still two calls per question.

Access: with ``principal=``, every document (a dict or a ``doc_id``) must be one the
principal may read in ``registry_path``, checked by id before anything is navigated, so a
forbidden document is never read into an answer or a reference. Ids are loaded from the
registry; without a principal nothing is checked.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..access.documents import resolve_documents
from ..access.principal import Principal
from ..errors import TreeragError
from ..llm.call import LLMReply, StreamState, ainvoke, astream, invoke, stream
from ..store.base import DEFAULT_REGISTRY, RegistryLike
from ..types import Document
from .context import Prepared, prepare_answer
from .history import Conversation, conversation
from .result import AnswerMessage, final_chunk, finish, needs_model, offline_reply
from .retriever import Retriever

# Documents navigated at once by the blocking driver (each may wait on a search model).
MAX_PARALLEL_NAVIGATIONS = 4

Answer = AnswerMessage | dict[str, Any]


def ask(
    query: str,
    document: Document | str,
    retriever: Retriever,
    extra_context: str = "",
    stream: bool = False,
    return_raw: bool = True,
    verbose: bool = False,
    *,
    principal: Principal | None = None,
    registry_path: RegistryLike = DEFAULT_REGISTRY,
    history: list[dict[str, Any]] | None = None,
) -> Answer | Iterator[str | dict[str, Any]]:
    """Answer ``query`` from ``document``: navigate the outline, then answer from the text.

    ``stream=True`` returns a generator of text chunks ending with one
    ``{"__references__": [...], "trace": ..., "usage": ...}`` dict. ``history``: the
    conversation's earlier turns, oldest first (see the module docstring).
    """
    return ask_multi(
        query, [document], retriever, extra_context, stream, return_raw, verbose,
        principal=principal, registry_path=registry_path, history=history,
    )  # fmt: skip


def ask_multi(
    query: str,
    documents: list[Document | str],
    retriever: Retriever,
    extra_context: str = "",
    stream: bool = False,
    return_raw: bool = True,
    verbose: bool = False,
    *,
    principal: Principal | None = None,
    registry_path: RegistryLike = DEFAULT_REGISTRY,
    history: list[dict[str, Any]] | None = None,
) -> Answer | Iterator[str | dict[str, Any]]:
    """One answer over several documents: navigate each (in parallel), merge, answer once."""
    documents = _checked(query, documents, principal, registry_path)
    talk = conversation(query, history, retriever.history_tokens)
    if stream:
        return _stream(query, documents, retriever, extra_context, verbose, talk)
    prepared = _prepare(query, documents, retriever, extra_context, talk)
    reply = (
        invoke(retriever.llm, prepared.system, prepared.user, what="answer")
        if needs_model(prepared, retriever)
        else offline_reply(query, prepared)
    )
    return finish(prepared, reply, retriever, return_raw, verbose)


async def aask(
    query: str,
    document: Document | str,
    retriever: Retriever,
    extra_context: str = "",
    stream: bool = False,
    return_raw: bool = True,
    verbose: bool = False,
    *,
    principal: Principal | None = None,
    registry_path: RegistryLike = DEFAULT_REGISTRY,
    history: list[dict[str, Any]] | None = None,
) -> Answer | AsyncIterator[str | dict[str, Any]]:
    """Async :func:`ask`. With ``stream=True``: ``async for chunk in await aask(...)``."""
    return await aask_multi(
        query, [document], retriever, extra_context, stream, return_raw, verbose,
        principal=principal, registry_path=registry_path, history=history,
    )  # fmt: skip


async def aask_multi(
    query: str,
    documents: list[Document | str],
    retriever: Retriever,
    extra_context: str = "",
    stream: bool = False,
    return_raw: bool = True,
    verbose: bool = False,
    *,
    principal: Principal | None = None,
    registry_path: RegistryLike = DEFAULT_REGISTRY,
    history: list[dict[str, Any]] | None = None,
) -> Answer | AsyncIterator[str | dict[str, Any]]:
    """Async :func:`ask_multi`: the documents are navigated concurrently."""
    documents = _checked(query, documents, principal, registry_path)
    talk = conversation(query, history, retriever.history_tokens)
    if stream:
        return _astream(query, documents, retriever, extra_context, verbose, talk)
    prepared = await _aprepare(query, documents, retriever, extra_context, talk)
    reply = (
        await ainvoke(retriever.llm, prepared.system, prepared.user, what="answer")
        if needs_model(prepared, retriever)
        else offline_reply(query, prepared)
    )
    return finish(prepared, reply, retriever, return_raw, verbose)


# --- the shared steps, blocking and awaited -----------------------------------------------


def _prepare(
    query: str,
    documents: list[Document],
    retriever: Retriever,
    extra_context: str,
    talk: Conversation,
) -> Prepared:
    workers = max(1, min(MAX_PARALLEL_NAVIGATIONS, len(documents)))
    if workers == 1:  # one document: no thread to start
        navs = [retriever.navigate(query, documents[0], extra_context, talk)]
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            navs = list(
                pool.map(lambda d: retriever.navigate(query, d, extra_context, talk), documents)
            )
    return prepare_answer(query, documents, navs, retriever, extra_context, talk)


async def _aprepare(
    query: str,
    documents: list[Document],
    retriever: Retriever,
    extra_context: str,
    talk: Conversation,
) -> Prepared:
    navs = await asyncio.gather(
        *(retriever.anavigate(query, d, extra_context, talk) for d in documents)
    )
    return prepare_answer(query, documents, list(navs), retriever, extra_context, talk)


def _stream(
    query: str,
    documents: list[Document],
    retriever: Retriever,
    extra: str,
    verbose: bool,
    talk: Conversation,
) -> Iterator[str | dict[str, Any]]:
    """Navigation starts when the caller starts iterating (the seed's generator contract)."""
    prepared = _prepare(query, documents, retriever, extra, talk)
    if not needs_model(prepared, retriever):
        reply = offline_reply(query, prepared)
        yield from reply.text.splitlines(keepends=True)
        yield final_chunk(prepared, reply, retriever, verbose)
        return
    state = StreamState()
    yield from stream(
        retriever.llm, prepared.system, prepared.user, state,
        max_chars=retriever.answer_max_chars, max_seconds=retriever.answer_max_seconds,
    )  # fmt: skip
    yield final_chunk(prepared, _streamed(state), retriever, verbose)


async def _astream(
    query: str,
    documents: list[Document],
    retriever: Retriever,
    extra: str,
    verbose: bool,
    talk: Conversation,
) -> AsyncIterator[str | dict[str, Any]]:
    prepared = await _aprepare(query, documents, retriever, extra, talk)
    if not needs_model(prepared, retriever):
        reply = offline_reply(query, prepared)
        for line in reply.text.splitlines(keepends=True):
            yield line
        yield final_chunk(prepared, reply, retriever, verbose)
        return
    state = StreamState()
    async for chunk in astream(
        retriever.llm, prepared.system, prepared.user, state,
        max_chars=retriever.answer_max_chars, max_seconds=retriever.answer_max_seconds,
    ):  # fmt: skip
        yield chunk
    yield final_chunk(prepared, _streamed(state), retriever, verbose)


def _streamed(state: StreamState) -> LLMReply:
    return state.reply or LLMReply(text="".join(state.parts))


def _checked(
    query: str,
    documents: list[Document | str],
    principal: Principal | None,
    registry_path: RegistryLike,
) -> list[Document]:
    """The documents, each once; a readable error for an empty question or a non-document."""
    if not str(query or "").strip():
        raise TreeragError("The question is empty: type a question first.")
    documents = resolve_documents(documents, registry_path, principal)
    unique: dict[str, Document] = {}
    for doc in documents:
        if not isinstance(doc, dict) or "flat_nodes" not in doc:
            raise TreeragError(
                "That is not an indexed document: pass the dict index_document returned."
            )
        unique.setdefault(doc.get("doc_id") or str(id(doc)), doc)
    return list(unique.values())
