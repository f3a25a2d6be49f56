"""Registry reads for the pages, cached so a rerun does not re-read a large document."""

from __future__ import annotations

from typing import Any

import streamlit as st

from treerag_core import list_documents, open_store
from treerag_core.types import Document

from . import state


def rows() -> list[dict[str, Any]]:
    """Metadata of every document in the session's registry (newest first)."""
    return list_documents(state.registry_path())


@st.cache_resource(max_entries=8, show_spinner=False)
def _load(registry_abs: str, doc_id: str, stamp: str) -> Document:
    """Shared read-only copy; ``stamp`` (indexed_at) invalidates it after a re-index."""
    return open_store(registry_abs).get(doc_id)


def load(doc_id: str, stamp: str | None = None) -> Document:
    """The full document (tree, outline, text). Callers must not mutate it."""
    store = open_store(state.registry_path())
    if stamp is None:
        meta = store.meta(doc_id) or {}
        stamp = str(meta.get("indexed_at") or "")
    return _load(store.location, doc_id, stamp)


def label(row: dict[str, Any]) -> str:
    """How a document is named in pickers: file name and when it was indexed."""
    return f"{row.get('file_name') or row.get('doc_id')} · {row.get('indexed_at') or ''}"
