"""The seed's registry functions, each a thin wrapper that opens the store.

``registry_path`` is what the seed calls it: a registry file path, or any
:class:`~.base.DocumentStore` (so a library user can hand in their own backend).
``principal`` (optional): the person asking; their access rules apply
(:mod:`treerag_core.access.rules`). Without one, nothing is filtered.
"""

from __future__ import annotations

from typing import Any

from ..access.audit import audited
from ..access.principal import Principal
from ..access.rules import EDITOR_ROLE, not_found, readable_rows, require_document
from ..errors import DocumentNotFoundError
from ..types import Document
from . import open_store
from .base import DEFAULT_REGISTRY, RegistryLike, collection_of, iter_documents


def list_documents(
    registry_path: RegistryLike = DEFAULT_REGISTRY, principal: Principal | None = None
) -> list[dict[str, Any]]:
    """Every indexed document's metadata (``name``, ``doc_id``, ``collection``, …) that the
    principal may read."""
    store = open_store(registry_path)
    return readable_rows(store.list(), store, principal)


def get_document_by_id(
    doc_id: str,
    registry_path: RegistryLike = DEFAULT_REGISTRY,
    principal: Principal | None = None,
) -> Document:
    """The full document by its UUID: a keyed lookup plus one file read."""
    store = open_store(registry_path)
    require_document(store, principal, doc_id)
    return store.get(doc_id)


def get_document(
    file_name: str,
    registry_path: RegistryLike = DEFAULT_REGISTRY,
    principal: Principal | None = None,
) -> Document:
    """The most recently indexed document with this file name (names may repeat) among those
    the principal may read."""
    store = open_store(registry_path)
    for row in readable_rows(store.list(), store, principal):
        if row.get("file_name") == file_name:
            return store.get(row["doc_id"])
    if principal is not None:
        raise not_found(file_name)
    raise DocumentNotFoundError(f"No document named {file_name!r} in {store.location}.")


def delete_document(
    doc_id: str,
    registry_path: RegistryLike = DEFAULT_REGISTRY,
    principal: Principal | None = None,
) -> bool:
    """Delete one document; returns False when it was not there (without a principal; with
    one, a missing or hidden document raises ``AccessDeniedError``, and only the
    collection's editors may delete). Logged in the audit log either way."""
    store = open_store(registry_path)
    with audited(store, principal, "delete", doc_id=doc_id) as audit:
        row = require_document(store, principal, doc_id, EDITOR_ROLE)
        if row is not None:
            audit.note(document=row.get("file_name"), collection=collection_of(row))
        deleted = store.delete(doc_id)
        audit.skip = not deleted
    return deleted


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
