"""The seed's registry functions: list, get, delete, move, save and load documents.

``registry_path`` is what the seed calls it: a registry file path, a ``postgresql://`` URL
or any :class:`~treerag_core.store.base.DocumentStore` (so a library user can hand in their
own backend). ``principal`` (optional): the person asking; their access rules apply
(:mod:`treerag_core.access.rules`) and what they change is in the audit log. Without one,
nothing is filtered. Every document read goes through :func:`load_document`, the one place
that rebuilds what the stores leave out (the nested tree and the outline).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..access.audit import audited
from ..access.collections import check_collection_name
from ..access.principal import Principal
from ..access.rules import (
    EDITOR_ROLE,
    not_found,
    readable_rows,
    require_collection,
    require_document,
)
from ..errors import DocumentNotFoundError
from ..store import open_store
from ..store.base import DocumentStore, RegistryLike, collection_of
from ..text.messages import raised
from ..tree.nodes import with_derived_fields
from ..types import Document


def load_document(store: DocumentStore, doc_id: str) -> Document:
    """One stored document with its derived fields rebuilt: the only way the layers above
    the store read a document, so no backend has to rebuild them."""
    return with_derived_fields(store.get(doc_id))


def iter_documents(store: DocumentStore) -> Iterator[Document]:
    """Every full document, newest first: reads them all (tooling, not hot paths)."""
    for row in store.list():
        yield load_document(store, row["doc_id"])


def list_documents(
    registry_path: RegistryLike | None = None, principal: Principal | None = None
) -> list[dict[str, Any]]:
    """Every indexed document's metadata (``name``, ``doc_id``, ``collection``, …) that the
    principal may read."""
    store = open_store(registry_path)
    return readable_rows(store.list(), store, principal)


def get_document_by_id(
    doc_id: str,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> Document:
    """The full document by its UUID: a keyed lookup plus one file read."""
    store = open_store(registry_path)
    require_document(store, principal, doc_id)
    return load_document(store, doc_id)


def get_document(
    file_name: str,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> Document:
    """The most recently indexed document with this file name (names may repeat) among those
    the principal may read."""
    store = open_store(registry_path)
    for row in readable_rows(store.list(), store, principal):
        if row.get("file_name") == file_name:
            return load_document(store, row["doc_id"])
    if principal is not None:
        raise not_found(file_name)
    raise raised(
        DocumentNotFoundError, "error.no_document_named", name=repr(file_name), where=store.location
    )


def delete_document(
    doc_id: str,
    registry_path: RegistryLike | None = None,
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


def move_document(
    doc_id: str,
    collection: str,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> None:
    """Move a document to another collection (an editor of both, when a principal is given)."""
    store = open_store(registry_path)
    with audited(store, principal, "move", doc_id=doc_id) as audit:
        row = require_document(store, principal, doc_id, EDITOR_ROLE)
        if row is None:
            raise raised(
                DocumentNotFoundError, "error.no_document_id", id=doc_id, where=store.location
            )
        target = check_collection_name(collection)
        audit.note(document=row.get("file_name"), collection=target)
        audit.note(detail=f"from {collection_of(row)}")
        require_collection(store, principal, target, EDITOR_ROLE)
        if not store.set_document_collection(doc_id, target):
            raise raised(DocumentNotFoundError, "error.document_deleted", id=doc_id)


def save_document(document: Document, registry_path: RegistryLike | None = None) -> Document:
    """Insert or replace one document as it is (imports, restores; no access rules)."""
    return open_store(registry_path).save(document)


def load_registry(registry_path: RegistryLike | None = None) -> dict[str, Document]:
    """Every full document, keyed by doc_id. Reads every document: for tooling."""
    return {doc["doc_id"]: doc for doc in iter_documents(open_store(registry_path))}


def save_registry(registry: dict[str, Document], registry_path: RegistryLike | None = None) -> None:
    """Make the registry hold exactly these documents (migrations, restores)."""
    open_store(registry_path).replace_all(registry)
