"""``ask`` / ``aask`` / ``ask_multi`` / ``aask_multi``: thin drivers over one pipeline.

navigate → prepare (:mod:`.context`) → answer → result (:mod:`.result`). Two model calls
per question on a document whose outline fits the search budget: the search model reads the
outline and names sections; the answer model reads only those sections' text, quoted as
data. Several documents are navigated concurrently and answered in ONE call; every
reference names its ``doc_id`` and ``file_name`` so two documents' node ``0000`` never
collide.

One body, two drivers: :func:`_plan` is the pipeline as a generator, the way
:func:`~.navigate.plan_navigation` is navigation. Where it must wait it yields a step
(navigate the documents; the answerer's call of the answer model, or its stream) and is
sent the step's result; whatever else it yields goes to the caller (a stream's chunks and
closing dict, or the one finished answer). ``_drive_sync`` serves the steps blocking
(threads for several documents), ``_drive_async`` awaits them (gathered). The public
functions hand their arguments over as one :class:`_Question` and pick a driver; their
signatures are the API, so each is still written out (grouped, four lines). A parameter
dataclass alone would share the arguments but not the steps; the generator shares both,
with no build step (psycopg 3 generates its sync code from the async code instead).

Answering: :func:`answerer_for` picks the :class:`~.base.Answerer`, the answer model's
(:mod:`.model`) or the offline engine's (:mod:`.offline.answerer`), and the plan runs its
``answer`` or ``stream`` plan inside its own.

Failure policy: degrade, don't fail. A failed or unusable *search* falls back to the
offline ranking (the trace says so). A failed *answer* call gives the offline engine's
answer from the same sections after a note naming what failed (:mod:`.model`).

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
from collections.abc import AsyncIterator, Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from ..access.principal import Principal
from ..errors import LLMError, TreeragError
from ..library.asking import resolve_documents
from ..llm.call import ainvoke, astream, invoke, stream
from ..navigate.base import NavigationResult
from ..navigate.history import Conversation, conversation
from ..store.base import RegistryLike
from ..text.messages import raised
from ..types import Document
from .base import Answerer, AnswerStep, ModelCall, ModelStream
from .context import Prepared, prepare_answer
from .model import ModelAnswerer
from .offline.answerer import OfflineAnswerer
from .overview import asks_about_whole, prepare_overview
from .result import final_chunk, finish
from .retriever import Retriever

if TYPE_CHECKING:
    from .message import AnswerMessage

# Documents navigated at once by the blocking driver (each may wait on a search model).
MAX_PARALLEL_NAVIGATIONS = 4

Answer: TypeAlias = "AnswerMessage | dict[str, Any]"


def ask(
    query: str, document: Document | str, retriever: Retriever, extra_context: str = "",
    stream: bool = False, return_raw: bool = True, verbose: bool = False,
    *, principal: Principal | None = None, registry_path: RegistryLike | None = None,
    history: list[dict[str, Any]] | None = None,
) -> Answer | Iterator[str | dict[str, Any]]:  # fmt: skip
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
    query: str, documents: list[Document | str], retriever: Retriever, extra_context: str = "",
    stream: bool = False, return_raw: bool = True, verbose: bool = False,
    *, principal: Principal | None = None, registry_path: RegistryLike | None = None,
    history: list[dict[str, Any]] | None = None,
) -> Answer | Iterator[str | dict[str, Any]]:  # fmt: skip
    """One answer over several documents: navigate each (in parallel), merge, answer once."""
    return _blocking(_Question(
        query, documents, retriever, extra_context, stream, return_raw, verbose,
        principal, registry_path, history,
    ))  # fmt: skip


async def aask(
    query: str, document: Document | str, retriever: Retriever, extra_context: str = "",
    stream: bool = False, return_raw: bool = True, verbose: bool = False,
    *, principal: Principal | None = None, registry_path: RegistryLike | None = None,
    history: list[dict[str, Any]] | None = None,
) -> Answer | AsyncIterator[str | dict[str, Any]]:  # fmt: skip
    """Async :func:`ask`. With ``stream=True``: ``async for chunk in await aask(...)``."""
    return await aask_multi(
        query, [document], retriever, extra_context, stream, return_raw, verbose,
        principal=principal, registry_path=registry_path, history=history,
    )  # fmt: skip


async def aask_multi(
    query: str, documents: list[Document | str], retriever: Retriever, extra_context: str = "",
    stream: bool = False, return_raw: bool = True, verbose: bool = False,
    *, principal: Principal | None = None, registry_path: RegistryLike | None = None,
    history: list[dict[str, Any]] | None = None,
) -> Answer | AsyncIterator[str | dict[str, Any]]:  # fmt: skip
    """Async :func:`ask_multi`: the documents are navigated concurrently."""
    return await _awaited(_Question(
        query, documents, retriever, extra_context, stream, return_raw, verbose,
        principal, registry_path, history,
    ))  # fmt: skip


# --- the one body: a plan of steps --------------------------------------------------------


@dataclass(frozen=True)
class _Question:
    """What the four public functions are given, named once."""

    query: str
    documents: list[Document | str]
    retriever: Retriever
    extra_context: str
    stream: bool
    return_raw: bool
    verbose: bool
    principal: Principal | None
    registry_path: RegistryLike | None
    history: list[dict[str, Any]] | None

    def plan(self) -> Plan:
        """Checked now (a stream too, before its first chunk is asked for); run lazily."""
        documents = _checked(self.query, self.documents, self.principal, self.registry_path)
        talk = conversation(self.query, self.history, self.retriever.history_tokens)
        return _plan(self, documents, talk)


@dataclass(frozen=True)
class _Navigate:
    """Step: navigate every document; its result, their navigations in the same order."""

    retriever: Retriever
    query: str
    documents: list[Document]
    extra_context: str
    talk: Conversation

    def navigate(self, document: Document) -> NavigationResult:
        return self.retriever.navigate(self.query, document, self.extra_context, self.talk)

    async def anavigate(self, document: Document) -> NavigationResult:
        return await self.retriever.anavigate(self.query, document, self.extra_context, self.talk)


Output: TypeAlias = "str | Answer"  # what the caller receives
Plan: TypeAlias = "Generator[_Navigate | AnswerStep | Output, Any, None]"


def _plan(question: _Question, documents: list[Document], talk: Conversation) -> Plan:
    """Navigate, prepare, answer (or stream the answer), finish: for all four functions."""
    query, retriever, extra = question.query, question.retriever, question.extra_context
    whole = [document for document in documents if asks_about_whole(query, document)]
    if whole:  # "Summarise the Boeing 10-K": its card and parts, nothing searched
        prepared = prepare_overview(query, whole, retriever, extra, talk)
    else:
        navs = yield _Navigate(retriever, query, documents, extra, talk)
        prepared = prepare_answer(query, documents, navs, retriever, extra, talk)
    answerer = answerer_for(prepared, retriever)
    if question.stream:
        reply = yield from answerer.stream(query, prepared)
        yield final_chunk(prepared, reply, retriever, question.verbose)
    else:
        reply = yield from answerer.answer(query, prepared)
        yield finish(prepared, reply, retriever, question.return_raw, question.verbose)


def answerer_for(prepared: Prepared, retriever: Retriever) -> Answerer:
    """The one place the way of answering is picked: the answer model when there is one and
    something to read, else the offline engine."""
    if retriever.llm is not None and prepared.references:
        return ModelAnswerer(
            retriever.llm, retriever.answer_max_chars, retriever.answer_max_seconds
        )
    return OfflineAnswerer()


# --- the two drivers ------------------------------------------------------------------------


def _advance(plan: Plan, result: Any) -> Any:
    """The plan's next step or output, given the last step's result; None once it is done."""
    try:
        return plan.send(result)
    except StopIteration:
        return None


def _drive_sync(plan: Plan) -> Iterator[Output]:
    """Serve the plan's steps blocking; pass everything else on to the caller."""
    step = _advance(plan, None)
    while step is not None:
        result: Any = None  # Any: each kind of step has its own result
        if isinstance(step, _Navigate):
            result = _navigate_all(step)
        elif isinstance(step, ModelCall):
            try:
                result = invoke(step.llm, step.system, step.user, what="answer")
            except LLMError as exc:
                result = exc
        elif isinstance(step, ModelStream):
            try:
                yield from stream(step.llm, step.system, step.user, step.state, **step.limits)
            except LLMError as exc:
                step.state.error = exc
        else:
            yield step
        step = _advance(plan, result)


async def _drive_async(plan: Plan) -> AsyncIterator[Output]:
    """Serve the plan's steps awaited; pass everything else on to the caller."""
    step = _advance(plan, None)
    while step is not None:
        result: Any = None  # Any: each kind of step has its own result
        if isinstance(step, _Navigate):
            result = await _anavigate_all(step)
        elif isinstance(step, ModelCall):
            try:
                result = await ainvoke(step.llm, step.system, step.user, what="answer")
            except LLMError as exc:
                result = exc
        elif isinstance(step, ModelStream):
            chunks = astream(step.llm, step.system, step.user, step.state, **step.limits)
            try:
                async for chunk in chunks:
                    yield chunk
            except LLMError as exc:
                step.state.error = exc
        else:
            yield step
        step = _advance(plan, result)


def _navigate_all(step: _Navigate) -> list[NavigationResult]:
    """Blocking: one document in this thread, several in up to four threads at once."""
    workers = max(1, min(MAX_PARALLEL_NAVIGATIONS, len(step.documents)))
    if workers == 1:  # one document: no thread to start
        return [step.navigate(step.documents[0])]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(step.navigate, step.documents))


async def _anavigate_all(step: _Navigate) -> list[NavigationResult]:
    """Awaited: every document's navigation at once."""
    return list(await asyncio.gather(*(step.anavigate(d) for d in step.documents)))


def _blocking(question: _Question) -> Answer | Iterator[str | dict[str, Any]]:
    """A blocking question's end: the stream (run as it is read), or its one answer."""
    run = _drive_sync(question.plan())
    return run if question.stream else list(run)[-1]  # type: ignore[return-value]  # a stream's last item is its Answer


async def _awaited(question: _Question) -> Answer | AsyncIterator[str | dict[str, Any]]:
    """An awaited question's end: the stream (run as it is read), or its one answer."""
    run = _drive_async(question.plan())
    return run if question.stream else [out async for out in run][-1]  # type: ignore[return-value]  # the last item is the Answer


def _checked(
    query: str,
    documents: list[Document | str],
    principal: Principal | None,
    registry_path: RegistryLike | None,
) -> list[Document]:
    """The documents, each once; a readable error for an empty question or a non-document."""
    if not str(query or "").strip():
        raise raised(TreeragError, "error.empty_question")
    documents = resolve_documents(documents, registry_path, principal)
    unique: dict[str, Document] = {}
    for doc in documents:
        if not isinstance(doc, dict) or "flat_nodes" not in doc:
            raise TreeragError(
                "That is not an indexed document: pass the dict index_document returned."
            )
        unique.setdefault(doc.get("doc_id") or str(id(doc)), doc)
    return list(unique.values())
