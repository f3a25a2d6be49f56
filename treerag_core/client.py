"""``Library``: the client a program holds, the way httpx offers a ``Client`` beside
``httpx.get``.

The seed's functions (``index_document``, ``ask``, ``list_documents``, …) open what they need
on every call; a program that does more than one thing opens a ``Library`` once and keeps it:
it holds the store (a PostgreSQL connection pool, opened once), the models made from the
settings, the signed-in person, the caches paid for (model replies, OCR, the offline
ranking's statistics), and hands them to every call. It is a context manager that closes
what it opened. ``as_person`` gives a server one view per signed-in person that shares all
of that, so many people cost one pool and one set of caches.

Answers come back typed: :class:`Answer` (text, references, trace, usage), and a stream is
:class:`TextDelta` events ending in the ``Answer``.
"""

from __future__ import annotations

import builtins  # a class here has a method named list: its annotations say builtins.list
import os
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .access.principal import Principal
from .answer.ask import aask_multi, ask_multi
from .answer.library import aask_library, ask_library, lasting_ranking_memory
from .answer.retriever import Retriever, make_retriever
from .chat import threads
from .library import catalog, documents, indexing, transfer
from .llm.providers import make_llms
from .settings import Settings, load
from .store import DocumentStore, open_store
from .summarize.summarizers import make_summarizer
from .sync import run as sync_run
from .sync import sources as sync_sources
from .types import Document, SummarizerFn

Reference = dict[str, Any]  # node_id, doc_id, title, path, file_name, pages, cited, quote


@dataclass(frozen=True)
class Answer:
    """An answer with the sections it came from: ``references`` are those it cites first,
    then those read but not cited (``cited`` is False), each with its pages."""

    text: str
    references: list[Reference] = field(default_factory=list)
    trace: dict[str, Any] = field(default_factory=dict)
    usage: dict[str, Any] = field(default_factory=dict)
    # Each sentence checked against its sources (answer/support.py): per sentence its
    # verdict and the passage and page that support it; a score for the whole answer.
    support: dict[str, Any] | None = None
    # The model's reply when it was set aside for the offline answer (it could not be
    # checked against the document); "" otherwise.
    model_answer: str = ""

    @property
    def cited(self) -> list[Reference]:
        """The references the answer's text cites."""
        return [ref for ref in self.references if ref.get("cited", True)]

    @classmethod
    def of(cls, result: Any) -> Answer:
        """From what the pipeline returns: its message, its dict, or a stream's closing dict."""
        if isinstance(result, Mapping):
            refs = result.get("references", result.get("__references__"))
            return cls(
                str(result.get("answer") or ""), list(refs or []), dict(result.get("trace") or {}),
                dict(result.get("usage") or {}), result.get("support"),
                str(result.get("model_answer") or ""),
            )  # fmt: skip
        return cls(
            str(result.content), list(getattr(result, "references", None) or []),
            dict(getattr(result, "trace", None) or {}),
            dict(getattr(result, "response_metadata", {}).get("token_usage") or {}),
            getattr(result, "support", None), str(getattr(result, "model_answer", "") or ""),
        )  # fmt: skip


@dataclass(frozen=True)
class TextDelta:
    """A piece of an answer as the model writes it."""

    text: str


AnswerEvent = TextDelta | Answer
Source = str | os.PathLike[str] | bytes


class Library:
    """One open library: its store, models, signed-in person and caches."""

    def __init__(
        self, store: DocumentStore, settings: Settings, *, principal: Principal | None = None,
        retriever: Retriever | None = None, summarizer: SummarizerFn | None = None,
    ) -> None:  # fmt: skip
        self.store, self.settings, self.principal = store, settings, principal
        self._retriever, self._summarizer = retriever, summarizer
        self._owner = True

    @classmethod
    def open(
        cls, target: Settings | str | os.PathLike[str] | DocumentStore | None = None, *,
        principal: Principal | None = None, retriever: Retriever | None = None,
        summarizer: SummarizerFn | None = None,
    ) -> Library:  # fmt: skip
        """A library from settings (None: the environment and ``.env``), a registry path or
        ``postgresql://`` URL (the other settings from the environment), or a store."""
        if isinstance(target, Settings):
            settings, store = target, open_store(target.registry)
        elif isinstance(target, str | os.PathLike) or target is None:
            settings = load() if target is None else load(registry=os.fspath(target))
            store = open_store(settings.registry)
        else:
            settings, store = load(), target
        return cls(store, settings, principal=principal, retriever=retriever, summarizer=summarizer)

    # --- lifecycle
    def close(self) -> None:
        """Close the store (a database pool); views made by ``as_person`` close nothing."""
        if self._owner and hasattr(self.store, "close"):
            self.store.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def as_person(self, principal: Principal | None) -> Library:
        """This library as another signed-in person sees it: the same store, models and
        caches (nothing opened again); closing it closes nothing."""
        view = Library(self.store, self.settings, principal=principal,
                       retriever=self.retriever, summarizer=self.summarizer)  # fmt: skip
        view._owner = False
        return view

    # --- models and caches, made once on first use
    @property
    def retriever(self) -> Retriever:
        """The models and caches every question uses (from the settings unless given)."""
        if self._retriever is None:
            search_llm, answer_llm = make_llms(self.settings)
            self._retriever = make_retriever(
                answer_llm, search_llm=search_llm, sources=self.store.sources,
                cache=self.store.cache("llm") if search_llm is not None else None,
                ocr_cache=self.store.cache("ocr"),
                ranking_memory=lasting_ranking_memory(self.store),
            )  # fmt: skip
        return self._retriever

    @property
    def summarizer(self) -> SummarizerFn:
        """What summarises sections while indexing: the search model, else offline."""
        if self._summarizer is None:
            model = self.retriever.search_llm
            cache = self.store.cache("llm") if model is not None else None
            self._summarizer = make_summarizer(model, cache=cache)
        return self._summarizer

    def with_models(self, retriever: Retriever) -> Library:
        """This library answering with other models (the same store and person)."""
        view = Library(self.store, self.settings, principal=self.principal, retriever=retriever)
        view._owner = False
        return view

    # --- indexing
    def index(
        self, source: Source, *, name: str | None = None, collection: str | None = None,
        overwrite: bool = False, summarizer: SummarizerFn | None = None, **options: Any,
    ) -> Document:  # fmt: skip
        """Read, structure, summarise and store a file path, URL or uploaded bytes (with
        ``name``); an unchanged source returns what is stored unless ``overwrite``."""
        common = dict(
            summarizer=summarizer or self.summarizer, registry_path=self.store,
            overwrite=overwrite, limits=self.settings.limits(), collection=collection,
            principal=self.principal, **options,
        )  # fmt: skip
        if isinstance(source, bytes):
            if not name:
                raise ValueError("Uploaded bytes need a name (the file name, for its format).")
            return indexing.index_upload(name, source, **common)
        return indexing.index_document(os.fspath(source), verbose=False, **common)

    # --- asking
    def ask(
        self, question: str, documents: list[Document | str] | None = None, *,
        history: list[dict[str, Any]] | None = None, extra_context: str = "",
        collection: str | None = None,
    ) -> Answer:  # fmt: skip
        """Answer from the documents given (dicts or ids), or, with none, from the whole
        library (each question routed to the documents it is about)."""
        return Answer.of(self._ask(question, documents, history, extra_context, collection, False))

    def stream(
        self, question: str, documents: list[Document | str] | None = None, *,
        history: list[dict[str, Any]] | None = None, extra_context: str = "",
        collection: str | None = None,
    ) -> Iterator[AnswerEvent]:  # fmt: skip
        """The answer as it is written: ``TextDelta`` pieces, then the ``Answer``."""
        chunks = self._ask(question, documents, history, extra_context, collection, True)
        written: list[str] = []
        for chunk in chunks:
            yield _event(chunk, written)

    async def aask(
        self, question: str, documents: list[Document | str] | None = None, *,
        history: list[dict[str, Any]] | None = None, extra_context: str = "",
        collection: str | None = None,
    ) -> Answer:  # fmt: skip
        """Awaited :meth:`ask`: documents navigated concurrently, models awaited."""
        result = await self._aask(question, documents, history, extra_context, collection, False)
        return Answer.of(result)

    async def astream(
        self, question: str, documents: list[Document | str] | None = None, *,
        history: list[dict[str, Any]] | None = None, extra_context: str = "",
        collection: str | None = None,
    ) -> AsyncIterator[AnswerEvent]:  # fmt: skip
        """Awaited :meth:`stream`."""
        chunks = await self._aask(question, documents, history, extra_context, collection, True)
        written: list[str] = []
        async for chunk in chunks:
            yield _event(chunk, written)

    def _ask(
        self, question: str, documents: list[Document | str] | None,
        history: list[dict[str, Any]] | None, extra: str, collection: str | None, stream: bool,
    ) -> Any:  # fmt: skip
        """The one place a question goes in: the library when no document is named."""
        if not documents:
            return ask_library(
                question, self.retriever, registry_path=self.store, principal=self.principal,
                collection=collection, stream=stream, history=history, extra_context=extra,
                return_raw=False,
            )  # fmt: skip
        return ask_multi(
            question, list(documents), self.retriever, extra, stream, False, False,
            principal=self.principal, registry_path=self.store, history=history,
        )  # fmt: skip

    async def _aask(
        self, question: str, documents: list[Document | str] | None,
        history: list[dict[str, Any]] | None, extra: str, collection: str | None, stream: bool,
    ) -> Any:  # fmt: skip
        if not documents:
            return await aask_library(
                question, self.retriever, registry_path=self.store, principal=self.principal,
                collection=collection, stream=stream, history=history, extra_context=extra,
                return_raw=False,
            )  # fmt: skip
        return await aask_multi(
            question, list(documents), self.retriever, extra, stream, False, False,
            principal=self.principal, registry_path=self.store, history=history,
        )  # fmt: skip

    # --- what the library holds
    @property
    def documents(self) -> Documents:
        return Documents(self.store, self.principal)

    @property
    def sources(self) -> Sources:
        return Sources(self.store, self.principal, self)

    @property
    def conversations(self) -> Conversations:
        return Conversations(self.store, self.principal)


def _event(chunk: str | dict[str, Any], written: list[str]) -> AnswerEvent:
    """A stream's piece as an event; its closing dict as the ``Answer`` of all the pieces."""
    if isinstance(chunk, dict):
        return Answer.of({"answer": "".join(written), **chunk})
    written.append(chunk)
    return TextDelta(chunk)


@dataclass(frozen=True)
class Documents:
    """The documents the person may read, and what they may do with them."""

    store: DocumentStore
    principal: Principal | None

    def list(self) -> list[dict[str, Any]]:
        return documents.list_documents(self.store, self.principal)

    def get(self, doc_id: str) -> Document:
        return documents.get_document_by_id(doc_id, self.store, self.principal)

    def find(self, file_name: str) -> Document:
        """The newest document indexed from a file of this name."""
        return documents.get_document(file_name, self.store, self.principal)

    def delete(self, doc_id: str) -> bool:
        return documents.delete_document(doc_id, self.store, self.principal)

    def move(self, doc_id: str, collection: str) -> None:
        documents.move_document(doc_id, collection, self.store, self.principal)

    def card(self, doc_id: str) -> dict[str, Any]:
        """What the library routes questions by: kind, periods, names, description."""
        return catalog.get_card(doc_id, self.store, self.principal)

    def edit_card(self, doc_id: str, changes: dict[str, Any]) -> dict[str, Any]:
        return catalog.edit_card(doc_id, changes, self.store, self.principal)

    def export(self, doc_ids: builtins.list[str] | None = None) -> bytes:
        return transfer.export_registry(doc_ids, self.store, self.principal)

    def import_(self, data: bytes, collection: str | None = None) -> builtins.list[Document]:
        return transfer.import_documents(data, self.store, self.principal, collection)


@dataclass(frozen=True)
class Sources:
    """The folders and buckets the library follows (administrators change them)."""

    store: DocumentStore
    principal: Principal | None
    library: Library

    def list(self) -> list[dict[str, Any]]:
        return sync_sources.list_sources(self.store, self.principal)

    def add(self, kind: str, location: str, **options: Any) -> dict[str, Any]:
        return sync_sources.add_source(
            kind, location, registry_path=self.store, principal=self.principal, **options
        )

    def edit(self, source_id: str, **changes: Any) -> dict[str, Any]:
        return sync_sources.edit_source(
            source_id, registry_path=self.store, principal=self.principal, **changes
        )

    def remove(self, source_id: str, keep_documents: bool = False) -> dict[str, Any]:
        return sync_sources.remove_source(source_id, keep_documents, self.store, self.principal)

    def sync(self, source_id: str, **options: Any) -> dict[str, Any]:
        """Bring the library in step with the source now; returns the sync's report."""
        options.setdefault("summarizer", self.library.summarizer)
        options.setdefault("limits", self.library.settings.limits())
        return sync_run.sync_source(source_id, self.store, self.principal, **options)


@dataclass(frozen=True)
class Conversations:
    """The signed-in person's conversations (threads of turns)."""

    store: DocumentStore
    principal: Principal | None

    def list(self) -> list[dict[str, Any]]:
        return threads.list_threads(self.store, self.principal)

    def get(self, thread_id: str) -> dict[str, Any]:
        return threads.get_thread(thread_id, self.store, self.principal)

    def create(self, doc_ids: builtins.list[str], title: str) -> dict[str, Any]:
        return threads.create_thread(doc_ids, title, self.store, self.principal)

    def add_turn(self, thread_id: str, turn: dict[str, Any]) -> dict[str, Any]:
        return threads.add_turn(thread_id, turn, self.store, self.principal)

    def rename(self, thread_id: str, title: str) -> dict[str, Any]:
        return threads.rename_thread(thread_id, title, self.store, self.principal)

    def delete(self, thread_id: str) -> bool:
        return threads.delete_thread(thread_id, self.store, self.principal)

    def history(self, thread_id: str) -> builtins.list[dict[str, Any]]:
        """The thread's turns as ``ask(history=...)`` takes them."""
        return threads.history_of(self.get(thread_id))


__all__ = ["Answer", "AnswerEvent", "Library", "TextDelta"]
