"""The storage seam: what every registry backend provides, and how a name picks one.

Callers never build a backend themselves: they pass what the seed's API calls
``registry_path`` (a registry file, or a store object) to ``open_store`` (in the package). A store owns
everything that lives beside a registry: the documents, the uploaded source files and the
caches (model replies, page texts), so a second backend replaces all of it at once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

from ..types import Document

DEFAULT_REGISTRY = "indexed_docs.json"
# Document ids name files and URL parameters: a closed alphabet keeps them inert.
DOC_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class Cache(Protocol):
    """A key → JSON-object cache. A miss, a corrupt entry or a failed write is never an
    error: a cache only ever saves work."""

    def get(self, key: str) -> dict[str, Any] | None: ...

    def put(self, key: str, value: dict[str, Any]) -> None: ...


class SourceFiles(Protocol):
    """The uploaded originals, kept so pages can be shown and evidence drawn later."""

    def location_for(self, name: str, data: bytes, separate: bool = False) -> str:
        """Where an upload of this name is kept (its identity in the registry)."""
        ...

    def staged(self, location: str, data: bytes) -> AbstractContextManager[str]:
        """Store ``data`` at ``location`` for the block; restore what was there on error."""
        ...

    def read(self, location: str) -> bytes | None:
        """The stored bytes, or ``None`` when the source is gone."""
        ...


@runtime_checkable
class DocumentStore(Protocol):
    """Documents and what belongs to them. Writes are atomic; readers never see half a
    document; a registry that cannot be read raises ``RegistryError`` and is left as is."""

    location: str  # what to show people: a registry file, a database URL
    sources: SourceFiles

    def list(self) -> list[dict[str, Any]]:
        """Metadata of every document, newest first, without reading any document."""
        ...

    def meta(self, doc_id: str) -> dict[str, Any] | None: ...

    def get(self, doc_id: str) -> Document:
        """The full document, derived fields (tree, outline) included."""
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


RegistryLike = str | os.PathLike[str] | DocumentStore


def iter_documents(store: DocumentStore) -> Iterator[Document]:
    """Every full document, newest first: reads them all (tooling, not hot paths)."""
    for row in store.list():
        yield store.get(row["doc_id"])
