"""The PDF a document's cited pages are drawn from: a PDF source itself, or a slide deck
rendered to PDF by LibreOffice (one page per slide, so slide 4 is page 4).

A deck is rendered the first time one of its slides is shown as evidence and the PDF kept
in the registry's evidence cache under the deck's content hash, so later views cost a
cache read; without LibreOffice a deck's evidence stays its quoted text.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Callable

from ..errors import TreeragError
from ..read.readers.libreoffice import convert, soffice
from ..settings import load
from ..store.base import Cache
from ..types import Document
from .locate import is_pdf

RENDERED_VERSION = 1  # part of the cache key: bump when the rendering changes


def pages_pdf(
    document: Document, read_source: Callable[[Document], bytes | None], cache: Cache | None
) -> bytes | None:
    """The PDF to draw the document's pages from, or None (no pages to draw)."""
    if is_pdf(document):
        return read_source(document)
    if document.get("page_unit") != "slide" or soffice() is None:
        return None
    key = f"slides-pdf-{RENDERED_VERSION}-{document.get('content_hash')}"
    hit = cache.get(key) if cache is not None else None
    if hit is not None:
        return base64.b64decode(hit["pdf"])
    data = read_source(document)
    if data is None:
        return None
    name = str(document.get("file_name") or "the deck")
    ext = os.path.splitext(str(document.get("file_path") or name))[1].lower() or ".pptx"
    try:
        pdf = convert(data, name, ext, "pdf", load().limits())
    except TreeragError:
        return None  # a deck LibreOffice cannot draw: its evidence stays the quoted text
    if cache is not None:
        cache.put(key, {"pdf": base64.b64encode(pdf).decode("ascii")})
    return pdf
