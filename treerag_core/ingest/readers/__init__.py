"""Any supported source → one Markdown-style text (headings + form-feed page breaks).

``read_source`` takes a path or an http(s) URL; ``read_bytes`` takes the raw bytes of an
upload or a fetched body. Both dispatch on the type to one reader module per format and
return a :class:`SourceText` with the text and facts about the source.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Collection
from dataclasses import dataclass
from urllib.parse import urlsplit

from ...errors import (
    DocumentReadError,
    DocumentTooLargeError,
    EmptyDocumentError,
    UnsupportedFormatError,
)
from ...limits import DEFAULT_LIMITS, Limits
from ._result import ReadResult
from .netguard import Resolver

EXTENSIONS = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
}
# Text-like kinds have their own, smaller size limit (parsing cost grows with the text).
TEXT_KINDS = {"html", "markdown", "text"}
SUPPORTED_TYPES = "PDF (.pdf), Word (.docx), HTML (.html, .htm), Markdown (.md), text (.txt)"


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
    content_type: str | None = None  # for URLs: the server's Content-Type


def size_limit(kind: str, limits: Limits) -> int:
    """Bytes we accept for this kind: text-like sources have the smaller text limit too."""
    if kind in TEXT_KINDS:
        return min(limits.max_text_bytes, limits.max_file_bytes)
    return limits.max_file_bytes


def is_url(path_or_url: str) -> bool:
    return path_or_url.strip().lower().startswith(("http://", "https://"))


def source_kind(file_name: str) -> str:
    """Reader kind for a file name, or UnsupportedFormatError naming the supported types."""
    ext = os.path.splitext(file_name)[1].lower()
    kind = EXTENSIONS.get(ext)
    if kind is None:
        shown = ext or "(no extension)"
        raise UnsupportedFormatError(
            f"Unsupported file type {shown} for {os.path.basename(file_name)!r}. "
            f"Supported: {SUPPORTED_TYPES}, or an http(s) URL."
        )
    return kind


def read_source(
    path_or_url: str,
    limits: Limits = DEFAULT_LIMITS,
    resolver: Resolver | None = None,
    allowed_ips: Collection[str] = (),
) -> SourceText:
    """Read a local file or an http(s) URL into a SourceText."""
    if is_url(path_or_url):
        return read_url(path_or_url, limits, resolver, allowed_ips)
    path = os.path.abspath(path_or_url)
    name = os.path.basename(path)
    kind = source_kind(path)
    try:
        size = os.stat(path).st_size
    except OSError as exc:
        raise DocumentReadError(f"Cannot read {name}: {exc.strerror or exc}.") from exc
    limit = size_limit(kind, limits)
    if size > limit:
        raise DocumentTooLargeError(
            f"{name} is {size:,} bytes; the limit for this type is {limit:,} bytes."
        )
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise DocumentReadError(f"Cannot read {name}: {exc.strerror or exc}.") from exc
    return read_bytes(data, name, limits, source=path, kind=kind)


def read_bytes(
    data: bytes,
    file_name: str,
    limits: Limits = DEFAULT_LIMITS,
    source: str | None = None,
    kind: str | None = None,
) -> SourceText:
    """Read raw bytes (an upload, a fetched body); the kind comes from the name if not given."""
    kind = kind or source_kind(file_name)
    if not data.strip():
        raise EmptyDocumentError(f"{file_name} is empty: there is nothing to index.")
    limit = size_limit(kind, limits)
    if len(data) > limit:
        raise DocumentTooLargeError(
            f"{file_name} is {len(data):,} bytes; the limit for this type is {limit:,} bytes."
        )
    result = _READERS[kind](data, limits, file_name)
    if not result.text.replace("\f", "").strip():
        raise EmptyDocumentError(f"{file_name} contains no text: there is nothing to index.")
    return SourceText(
        text=result.text,
        source_type=kind,
        file_name=file_name,
        source=source or file_name,
        content_hash=hashlib.sha256(data).hexdigest(),
        byte_size=len(data),
        page_count=result.page_count,
        title=result.title,
    )


def read_url(
    url: str,
    limits: Limits = DEFAULT_LIMITS,
    resolver: Resolver | None = None,
    allowed_ips: Collection[str] = (),
) -> SourceText:
    """Fetch a URL through the network guard and read the body by its content type."""
    from .url import content_kind, fetch_url

    body, content_type, final_url = fetch_url(url, limits, resolver, allowed_ips)
    kind = content_kind(content_type)
    parts = urlsplit(final_url)
    readable = f"{parts.hostname or ''}{parts.path.rstrip('/')}" or final_url
    st = read_bytes(body, readable, limits, source=url.strip(), kind=kind)
    st.source_type = "url"
    st.content_type = content_type
    return st


def read_file(path_or_url: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """The seed's ``read_file``: the source as Markdown-style text."""
    return read_source(path_or_url, limits).text


def _read_pdf(data: bytes, limits: Limits, name: str) -> ReadResult:
    from .pdf import read_pdf

    return read_pdf(data, limits, name)


def _read_docx(data: bytes, limits: Limits, name: str) -> ReadResult:
    from .docx import read_docx

    return read_docx(data, limits, name)


def _read_html(data: bytes, limits: Limits, name: str) -> ReadResult:
    from .html import read_html

    return read_html(data)


def _read_markdown(data: bytes, limits: Limits, name: str) -> ReadResult:
    from .text import read_markdown

    return read_markdown(data)


def _read_text(data: bytes, limits: Limits, name: str) -> ReadResult:
    from .text import read_text

    return read_text(data)


_READERS: dict[str, Callable[[bytes, Limits, str], ReadResult]] = {
    "pdf": _read_pdf,
    "docx": _read_docx,
    "html": _read_html,
    "markdown": _read_markdown,
    "text": _read_text,
}

__all__ = [
    "EXTENSIONS",
    "SourceText",
    "is_url",
    "read_bytes",
    "read_file",
    "read_source",
    "read_url",
    "source_kind",
]
