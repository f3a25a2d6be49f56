"""The storage seam: what every registry backend provides, and how a name picks one.

Callers never build a backend themselves: they pass what the seed's API calls
``registry_path`` (a registry file, or a store object) to ``open_store`` (in the package). A store owns
everything that lives beside a registry: the documents, the uploaded source files and the
caches (model replies, page texts), so a second backend replaces all of it at once.
"""

from __future__ import annotations

import builtins  # a class here has a method named list: its annotations say builtins.list
import os
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

from ..types import Document, LibraryEntry

# Document ids name files and URL parameters: a closed alphabet keeps them inert.
DOC_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# Every document belongs to one collection; registries older than collections migrate here.
DEFAULT_COLLECTION = "default"
# Collection names appear in pickers, audit lines and (later) SQL rows: a closed alphabet.
COLLECTION_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$")
# Rebuilt from flat_nodes whenever a document is loaded (by the library layer above the
# stores), so no backend stores them twice or has to remember to rebuild them.
DERIVED_FIELDS = ("tree", "tree_outline")
# A document's metadata that every backend keeps apart from its body, for listing without
# opening any document.
LISTED_FIELDS = (
    "doc_id",
    "file_name",
    "file_path",
    "source_type",
    "structure_source",
    "content_hash",
    "indexed_at",
    "total_sections",
    "total_pages",
    "source_chars",
    "engine",
    "collection",
    "summary_fallbacks",
    "language",
    "origin",  # a synced document's source, path and fingerprint: a sync plans from the list
)


class Cache(Protocol):
    """A key → JSON-object cache. A miss, a corrupt entry or a failed write is never an
    error: a cache only ever saves work."""

    def get(self, key: str) -> dict[str, Any] | None: ...

    def put(self, key: str, value: dict[str, Any]) -> None: ...


class SourceFiles(Protocol):
    """The uploaded originals, kept so pages can be shown and evidence drawn later."""

    def location_for(
        self, name: str, data: bytes, separate: bool = False, collection: str = DEFAULT_COLLECTION
    ) -> str:
        """Where an upload of this name is kept (its identity in the registry); uploads to
        different collections never share a location."""
        ...

    def staged(self, location: str, data: bytes) -> AbstractContextManager[str]:
        """Store ``data`` at ``location`` for the block; restore what was there on error."""
        ...

    def read(self, location: str) -> bytes | None:
        """The stored bytes, or ``None`` when the source is gone."""
        ...

    def discard(self, location: str) -> None:
        """Forget the bytes kept at ``location`` (a synced file removed or moved); nothing
        when there are none."""
        ...


class SyncSources(Protocol):
    """The folders and buckets the library follows (``treerag_core.sync.run``): each
    source's settings and the state of its syncs, and the lock that lets one sync of a
    source run at a time. Credentials are never stored here, only a reference to them."""

    def all(self) -> list[dict[str, Any]]:
        """Every source, oldest first (``source_id``, ``kind``, ``location``, …, ``state``)."""
        ...

    def get(self, source_id: str) -> dict[str, Any] | None: ...

    def put(self, source: dict[str, Any]) -> None:
        """Insert or replace a source's settings; its ``state`` is kept as it is."""
        ...

    def remove(self, source_id: str) -> bool: ...

    def update_state(
        self, source_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any] | None:
        """Read, ``change`` and write a source's state as one step (workers recording
        their files' outcomes at once lose none); the new state, or None if the source is
        gone."""
        ...

    def lock(self, source_id: str) -> AbstractContextManager[None]:
        """Hold the source's sync lock for the block, or raise ``SyncBusyError`` at once
        when another sync (thread, process, machine) holds it. A holder that dies frees it."""
        ...

    def held(self, source_id: str) -> list[dict[str, Any]]:
        """The listed rows of the documents that came from this source."""
        ...


class LibraryIndex(Protocol):
    """Every document's card and section statistics, read without opening a document
    (what a question over the whole library is routed by). Derived data: the library layer writes
    entries and repairs the index from the documents; a search only returns documents the
    registry still lists, among the ones the caller names."""

    def put(self, entry: LibraryEntry) -> None: ...

    def remove(self, doc_id: str) -> None: ...

    def move(self, doc_id: str, collection: str) -> None: ...

    def clear(self) -> None: ...

    def stamps(self) -> dict[str, str]:
        """What each indexed document was indexed from, by doc_id."""
        ...

    def cards(self, doc_ids: Collection[str]) -> dict[str, dict[str, Any]]: ...

    def totals(self, doc_ids: Collection[str] | None) -> dict[str, dict[str, Any]]:
        """Each document's totals among ``doc_ids`` (None: all): its sections, their summed
        field lengths, its card's field lengths, its language. Summed over the documents a
        question may read, they are its ranking statistics, and no one else's."""
        ...

    def postings(
        self, terms: Collection[str], doc_ids: Collection[str] | None
    ) -> dict[str, dict[str, Sequence[int]]]:
        """``{term: {doc_id: [section, tf by field..., section, ...]}}`` for the given
        terms, among ``doc_ids`` (None: all)."""
        ...

    def lengths(self, doc_ids: Collection[str]) -> dict[str, Sequence[int]]:
        """Each document's sections' field lengths, flat: ``[title, summary, text, ...]``."""
        ...

    def sections(self, doc_ids: Collection[str]) -> dict[str, dict[str, list[str]]]:
        """Each document's ``{"nodes": [...], "titles": [...]}`` in section order."""
        ...


@runtime_checkable
class WithLibraryIndex(Protocol):
    """A store that can be asked as a library (both of ours): ``library_index()`` is its
    index, which its ``delete`` and ``set_document_collection`` keep in step themselves. A
    store of a caller's own may leave it out; its documents are then asked by id."""

    def library_index(self) -> LibraryIndex: ...


@runtime_checkable
class WithSyncSources(Protocol):
    """A store that can follow folders and buckets (both of ours). A store of a caller's
    own may leave it out; adding a source to it is then refused with a message."""

    sync_sources: SyncSources


@runtime_checkable
class DocumentStore(Protocol):
    """Documents and what belongs to them. Writes are atomic; readers never see half a
    document; a registry that cannot be read raises ``RegistryError`` and is left as is."""

    location: str  # what to show people: a registry file, a database URL

    @property
    def sources(self) -> SourceFiles:
        """The uploaded originals (read-only here: each store holds its own kind)."""
        ...

    def list(self) -> list[dict[str, Any]]:
        """Metadata of every document, newest first, without reading any document."""
        ...

    def meta(self, doc_id: str) -> dict[str, Any] | None: ...

    def get(self, doc_id: str) -> Document:
        """The document as stored: without the ``DERIVED_FIELDS``, which the library layer
        rebuilds (``treerag_core.library.load_document``)."""
        ...

    def find_by_source(self, source: str) -> dict[str, Any] | None: ...

    def save(self, document: Document) -> Document:
        """Insert or replace; a document of the same source keeps its doc_id."""
        ...

    def delete(self, doc_id: str) -> bool: ...

    def replace_all(self, documents: dict[str, Document]) -> None: ...

    def stored_size(self, doc_id: str) -> int:
        """Bytes the stored document takes (for the registry table)."""
        ...

    def cache(self, name: str) -> Cache:
        """The named cache of this registry (``llm``, ``page_texts``, …)."""
        ...

    # -- access: collections and the audit log (rules: ``treerag_core.access``) ----------
    def collections(self) -> dict[str, dict[str, Any]]:
        """Access entries by collection name: ``{"readers": [...], "editors": [...]}``."""
        ...

    def set_collection(
        self, name: str, readers: builtins.list[str], editors: builtins.list[str]
    ) -> None:
        """Create or replace one collection's members (under the same lock as documents)."""
        ...

    def set_document_collection(self, doc_id: str, collection: str) -> bool:
        """Move a document to ``collection``; False when the document is not there."""
        ...

    def append_audit(self, entry: dict[str, Any]) -> None:
        """Append one entry to the audit log. Never rewrites or drops earlier entries, and
        concurrent writers (threads, processes) never lose one."""
        ...

    def audit_log(self) -> builtins.list[dict[str, Any]]:
        """Every audit entry, oldest first."""
        ...

    # -- conversations: each person's chat threads (rules: ``treerag_core.chat``) ---------
    def threads(self, owner: str) -> builtins.list[dict[str, Any]]:
        """The owner's threads without their turns (``thread_id``, ``title``, ``doc_ids``,
        ``created_at``, ``updated_at``, ``turns`` = how many), most recently updated first."""
        ...

    def get_thread(self, owner: str, thread_id: str) -> dict[str, Any] | None:
        """One whole thread of ``owner`` (turns included); None when it is not theirs or gone."""
        ...

    def save_thread(self, thread: dict[str, Any]) -> None:
        """Insert or replace a thread (it names its ``owner``), atomically."""
        ...

    def update_thread(
        self, owner: str, thread_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any] | None:
        """Read, ``change`` and write one thread as one step under the store's lock (two
        tabs answering in one thread lose no turn); the changed thread, or None if gone."""
        ...

    def delete_thread(self, owner: str, thread_id: str) -> bool: ...

    # -- the regression set: questions people turned from answers into evaluation rows ----
    def saved_questions(self) -> builtins.list[dict[str, Any]]:
        """Every saved evaluation question, oldest first."""
        ...

    def save_question(self, row: dict[str, Any]) -> None:
        """Insert or replace one saved question (by its ``id``)."""
        ...

    def delete_saved_question(self, question_id: str) -> bool: ...


RegistryLike = str | os.PathLike[str] | DocumentStore


def collection_of(row: Mapping[str, Any]) -> str:
    """The collection a listed row or document belongs to (older rows: the default one)."""
    return str(row.get("collection") or DEFAULT_COLLECTION)


def stored_form(document: Document) -> dict[str, Any]:
    """What a backend keeps of a document: everything but the derived fields."""
    return {k: v for k, v in document.items() if k not in DERIVED_FIELDS}


def listed_row(document: Document) -> dict[str, Any]:
    """The metadata a backend lists a document by."""
    return {key: document.get(key) for key in LISTED_FIELDS}
