"""A node's own pages cut out of the source PDF, so a person can check the source.

A small PDF of just those pages (pypdf) is shown inline with ``st.pdf`` (its viewer is the
``streamlit-pdf`` package in requirements.txt) and offered for download; where that
package is missing (an older install), only the download is offered.
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
