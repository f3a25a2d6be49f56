"""Any supported source → one Markdown-style text (headings + form-feed page breaks).

Placeholder dispatch (Markdown and plain text only) until the format readers land.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from ..errors import DocumentReadError, EmptyDocumentError, UnsupportedFormatError
from ..limits import DEFAULT_LIMITS, Limits


@dataclass
class SourceText:
    text: str  # Markdown-style headings, "\f" between pages
    source_type: str  # pdf | docx | html | url | markdown | text
    file_name: str
    source: str  # absolute path, or the URL
    content_hash: str  # sha256 of the raw bytes
    byte_size: int
    page_count: int | None = None
    title: str | None = None


def read_source(path_or_url: str, limits: Limits = DEFAULT_LIMITS) -> SourceText:
    path = os.path.abspath(path_or_url)
    ext = os.path.splitext(path)[1].lower()
    if ext not in {".md", ".markdown", ".txt"}:
        raise UnsupportedFormatError(f"Unsupported file type {ext!r}.")
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise DocumentReadError(f"Cannot read {os.path.basename(path)}: {exc.strerror}") from exc
    text = data.decode("utf-8", errors="replace")
    if not text.strip():
        raise EmptyDocumentError(f"{os.path.basename(path)} is empty: there is nothing to index.")
    return SourceText(
        text=text,
        source_type="markdown" if ext != ".txt" else "text",
        file_name=os.path.basename(path),
        source=path,
        content_hash=hashlib.sha256(data).hexdigest(),
        byte_size=len(data),
    )


def read_file(path_or_url: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """The seed's ``read_file``: the source as Markdown-style text."""
    return read_source(path_or_url, limits).text
