"""Registry reads for the pages, cached so a rerun does not re-read a large document."""

from __future__ import annotations

from typing import Any

import streamlit as st

from treerag_core import AccessDeniedError, DocumentStore, list_documents, open_store
from treerag_core.types import Document

from . import state


def rows() -> list[dict[str, Any]]:
    """Metadata of every document the person may read in the session's registry."""
    return list_documents(state.registry_path(), state.principal())


@st.cache_resource(max_entries=8, show_spinner=False)
def _load(_store: DocumentStore, location: str, doc_id: str, stamp: str) -> Document:
    """Shared read-only copy, keyed by the registry's location (the store object itself is
    not hashed); ``stamp`` (indexed_at) invalidates it after a re-index."""
    return _store.get(doc_id)


def load(doc_id: str, stamp: str | None = None) -> Document:
    """The full document (tree, outline, text), if the person may read it (the core's
    filter decides). Callers must not mutate it."""
    if state.principal() is not None and doc_id not in {r["doc_id"] for r in rows()}:
        raise AccessDeniedError(f"There is no document {doc_id!r} that you may read.")
    store = open_store(state.registry_path())
    if stamp is None:
        meta = store.meta(doc_id) or {}
        stamp = str(meta.get("indexed_at") or "")
    return _load(store, store.location, doc_id, stamp)


def label(row: dict[str, Any]) -> str:
    """How a document is named in pickers: file name, collection and when it was indexed."""
    where = f" · {row['collection']}" if row.get("collection", "default") != "default" else ""
    return f"{row.get('file_name') or row.get('doc_id')}{where} · {row.get('indexed_at') or ''}"
