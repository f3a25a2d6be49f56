"""The seed's registry functions, each a thin wrapper that opens the store.

``registry_path`` is what the seed calls it: a registry file path, or any
:class:`~.base.DocumentStore` (so a library user can hand in their own backend).
"""

from __future__ import annotations

from typing import Any

from ..errors import DocumentNotFoundError
from ..types import Document
from . import open_store
from .base import DEFAULT_REGISTRY, RegistryLike, iter_documents


def list_documents(registry_path: RegistryLike = DEFAULT_REGISTRY) -> list[dict[str, Any]]:
    """Every indexed document's metadata (``name``, ``doc_id``, ``total_sections``, …)."""
    return open_store(registry_path).list()


def get_document_by_id(doc_id: str, registry_path: RegistryLike = DEFAULT_REGISTRY) -> Document:
    """The full document by its UUID: a keyed lookup plus one file read."""
    return open_store(registry_path).get(doc_id)


def get_document(file_name: str, registry_path: RegistryLike = DEFAULT_REGISTRY) -> Document:
    """The most recently indexed document with this file name (names may repeat)."""
    store = open_store(registry_path)
    for row in store.list():
        if row.get("file_name") == file_name:
            return store.get(row["doc_id"])
    raise DocumentNotFoundError(f"No document named {file_name!r} in {store.location}.")


def delete_document(doc_id: str, registry_path: RegistryLike = DEFAULT_REGISTRY) -> bool:
    """Delete one document; returns False when it was not there."""
    return open_store(registry_path).delete(doc_id)


def save_document(document: Document, registry_path: RegistryLike = DEFAULT_REGISTRY) -> Document:
    """Insert or replace one document (used by ``index_document`` and imports)."""
    return open_store(registry_path).save(document)


def load_registry(registry_path: RegistryLike = DEFAULT_REGISTRY) -> dict[str, Document]:
    """Every full document, keyed by doc_id. Reads every document: for tooling."""
    return {doc["doc_id"]: doc for doc in iter_documents(open_store(registry_path))}


def save_registry(
    registry: dict[str, Document], registry_path: RegistryLike = DEFAULT_REGISTRY
) -> None:
    """Make the registry hold exactly these documents (migrations, restores)."""
    open_store(registry_path).replace_all(registry)
