"""Registry reads for the pages, cached once per process so a rerun reads nothing again.

The listing is keyed by the registry file's modification time (every document change
rewrites it), a document by its ``indexed_at`` (a re-index replaces it): many sessions
asking at once share one parsed copy of each document and its outline.
"""

from __future__ import annotations

import os
from typing import Any

import streamlit as st

from treerag_core import AccessDeniedError, Document, get_document_by_id
from treerag_core.access import readable_rows
from treerag_core.store import DocumentStore, open_store

from . import state
from .i18n import t


def _stamp(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


@st.cache_resource(max_entries=8, show_spinner=False)
def _listing(registry_abs: str, stamp: int) -> list[dict[str, Any]]:
    """Shared read-only metadata rows of one registry version."""
    return open_store(registry_abs).list()


def rows() -> list[dict[str, Any]]:
    """Metadata of every document the person may read in the session's registry."""
    store = open_store(state.registry_path())
    if os.path.isfile(store.location):
        listed = _listing(store.location, _stamp(store.location))
    else:  # a database: other replicas change it, so no file stamp can tell; one query
        listed = store.list()
    return [dict(r) for r in readable_rows(listed, store, state.principal())]


@st.cache_resource(max_entries=8, show_spinner=False)
def _load(_store: DocumentStore, location: str, doc_id: str, stamp: str) -> Document:
    """Shared read-only copy, keyed by the registry's location (the store object itself is
    not hashed); ``stamp`` (indexed_at) invalidates it after a re-index."""
    return get_document_by_id(doc_id, _store)


def load(doc_id: str, stamp: str | None = None) -> Document:
    """The full document (tree, outline, text), if the person may read it (the core's
    filter decides). Callers must not mutate it."""
    row = next((r for r in rows() if r["doc_id"] == doc_id), None)
    if row is None and state.principal() is not None:
        raise AccessDeniedError(t("who.no_document", doc_id=repr(doc_id)))
    store = open_store(state.registry_path())
    if stamp is None:
        stamp = str((row or store.meta(doc_id) or {}).get("indexed_at") or "")
    return _load(store, store.location, doc_id, stamp)


def label(row: dict[str, Any]) -> str:
    """How a document is named in pickers: file name, collection and when it was indexed."""
    where = f" · {row['collection']}" if row.get("collection", "default") != "default" else ""
    return f"{row.get('file_name') or row.get('doc_id')}{where} · {row.get('indexed_at') or ''}"
