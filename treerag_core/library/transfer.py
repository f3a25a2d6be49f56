"""Export documents from a registry and import an export into one, under the access rules.

The file format and its validation are :mod:`treerag_core.store.export`'s; this module decides who may take
what out and put what in, and logs both in the audit log.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..access.audit import audited
from ..access.collections import check_collection_name
from ..access.principal import Principal
from ..access.rules import EDITOR_ROLE, readable_rows, require_collection, require_document
from ..store import open_store
from ..store.base import RegistryLike, collection_of
from ..store.export import export_documents, parse_import
from ..types import Document
from .catalog import index_entry
from .documents import load_document


def export_registry(
    doc_ids: Sequence[str] | None = None,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> bytes:
    """The chosen documents (``None``: every one the principal may read) as one export file.

    A reader may export; naming a document the principal may not read raises
    ``AccessDeniedError`` and exports nothing.
    """
    store = open_store(registry_path)
    detail = "all readable documents" if doc_ids is None else f"{len(doc_ids)} document(s)"
    with audited(store, principal, "export", detail=detail) as audit:
        if doc_ids is None:
            doc_ids = [row["doc_id"] for row in readable_rows(store.list(), store, principal)]
        for doc_id in doc_ids:
            require_document(store, principal, doc_id)
        documents = [load_document(store, doc_id) for doc_id in doc_ids]
        if len(documents) == 1:
            audit.note(doc_id=documents[0]["doc_id"], document=documents[0].get("file_name"))
        return export_documents(documents)


def import_documents(
    data: bytes,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
    collection: str | None = None,
) -> list[Document]:
    """Validate an export file, then store every document in it; returns them as stored.

    ``collection`` puts them all there (default: the collection each was exported from).
    With a principal, it must edit every target collection and every collection whose
    document an imported one would replace (same id or same source); otherwise nothing is
    stored. A file that fails validation stores nothing either.
    """
    store = open_store(registry_path)
    with audited(store, principal, "import", collection=collection) as audit:
        documents = parse_import(data)
        target = check_collection_name(collection) if collection else None
        planned = []
        for document in documents:
            into = target or collection_of(document)
            require_collection(store, principal, into, EDITOR_ROLE)
            existing = store.meta(document["doc_id"]) or store.find_by_source(document["file_path"])
            if existing is not None:
                require_document(store, principal, existing["doc_id"], EDITOR_ROLE)
            planned.append({**document, "collection": into})
        saved = [store.save(document) for document in planned]  # type: ignore[arg-type]  # checked by parse_import
        for document in saved:
            index_entry(store, document)
        audit.note(detail=", ".join(str(d.get("file_name")) for d in saved)[:300])
    return saved
