"""A node's own pages cut out of the source PDF, so a person can check the source.

A small PDF of just those pages (pypdf) is shown inline with ``st.pdf`` (its viewer is the
``streamlit-pdf`` package in requirements.txt) and offered for download; where that
package is missing (an older install), only the download is offered.
"""

from __future__ import annotations

import importlib.util
import io
from collections.abc import Mapping
from typing import Any

import streamlit as st

from treerag_core.store import open_store

from . import state

MAX_PAGES = 30


def can_show_inline() -> bool:
    return importlib.util.find_spec("streamlit_pdf") is not None


@st.cache_data(max_entries=32, show_spinner=False)
def page_range_pdf(content_hash: str, start: int, end: int, _data: bytes) -> bytes:
    """Pages ``start``..``end`` (1-based, inclusive, capped at MAX_PAGES) as a new PDF.
    pypdf is imported here, when a person first opens a section's pages: every page of the
    app is imported when the server starts, and most servers never cut a PDF."""
    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(io.BytesIO(_data))
    if reader.is_encrypted:
        reader.decrypt("")
    writer = PdfWriter()
    last = min(end, start + MAX_PAGES - 1, len(reader.pages))
    for index in range(start - 1, last):
        writer.add_page(reader.pages[index])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def pages_for(document: Mapping[str, Any], start: int, end: int) -> bytes | None:
    """The page range as PDF bytes, or ``None`` when the source is gone or unreadable."""
    data = open_store(state.registry_path()).sources.read(str(document.get("file_path") or ""))
    if data is None:
        return None
    try:
        return page_range_pdf(str(document.get("content_hash") or ""), start, end, data)
    except Exception:  # a damaged source only hides this preview
        return None
