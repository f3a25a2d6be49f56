"""A node's own pages cut out of the source PDF, so a person can check the source.

``st.pdf`` needs the optional ``streamlit-pdf`` package, which is not a dependency here;
a small PDF of just those pages (pypdf, already required) is offered for download and
shown inline only when that package is installed.
"""

from __future__ import annotations

import importlib.util
import io
import os

import streamlit as st
from pypdf import PdfReader, PdfWriter

MAX_PAGES = 30


def can_show_inline() -> bool:
    return importlib.util.find_spec("streamlit_pdf") is not None


@st.cache_data(max_entries=32, show_spinner=False)
def page_range_pdf(path: str, start: int, end: int, mtime: float) -> bytes:
    """Pages ``start``..``end`` (1-based, inclusive, capped at MAX_PAGES) as a new PDF."""
    reader = PdfReader(path)
    if reader.is_encrypted:
        reader.decrypt("")
    writer = PdfWriter()
    last = min(end, start + MAX_PAGES - 1, len(reader.pages))
    for index in range(start - 1, last):
        writer.add_page(reader.pages[index])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def pages_for(path: str, start: int, end: int) -> bytes | None:
    """The page range as PDF bytes, or ``None`` when the source file is gone or unreadable."""
    try:
        return page_range_pdf(path, start, end, os.path.getmtime(path))
    except Exception:  # a missing, moved or damaged source only hides this preview
        return None
