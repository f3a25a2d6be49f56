"""Any supported source → one Markdown-style text (headings + form-feed page breaks).

``read_source`` takes a path or an http(s) URL; ``read_bytes`` takes the raw bytes of an
upload or a fetched body. Both pick the format from :mod:`.formats`, run its reader, then
its structure strategies, and return a :class:`SourceText` with the text and facts about
the source (including which strategy gave the structure).
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ..errors import DocumentReadError, DocumentTooLargeError, EmptyDocumentError
from ..limits import DEFAULT_LIMITS, Limits
from ..structure import apply_strategies
from ..structure.pages import NO_OPTIONS, ReadOptions
from ..text.messages import raised
from .formats import Format, content_format, format_for_name, format_of, size_limit
from .readers.netguard import Resolver
from .readers.text import as_utf8


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
    structure_source: str = ""  # bookmarks, heading styles, numbering and keywords, …
    # headings per source where a strategy mixes them: {"bookmarks": 43, "typography": 120}
    structure_parts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)  # parts not read, and why
    ocr_pages: int = 0  # pages whose text was recognised from their image
    ocr_language: str = ""  # the Tesseract languages they were read in
    structure_check: dict[str, Any] | None = None  # what a model's heading check set aside
    metadata: dict[str, Any] = field(default_factory=dict)  # title, authors, sender, …
    page_unit: str = "page"  # what a page is: "slide" in a deck, "sheet" in a workbook
    # a PDF's bytes, kept for the build to find its table cells' boxes (not stored)
    pdf_data: bytes | None = field(default=None, repr=False, compare=False)


def is_url(path_or_url: str) -> bool:
    return path_or_url.strip().lower().startswith(("http://", "https://"))


def read_source(
    path_or_url: str,
    limits: Limits = DEFAULT_LIMITS,
    resolver: Resolver | None = None,
    allowed_ips: Collection[str] = (),
    options: ReadOptions = NO_OPTIONS,
) -> SourceText:
    """Read a local file or an http(s) URL into a SourceText."""
    if is_url(path_or_url):
        return read_url(path_or_url, limits, resolver, allowed_ips, options)
    path = os.path.abspath(path_or_url)
    name = os.path.basename(path)
    fmt = format_for_name(path)
    try:
        size = os.stat(path).st_size
    except OSError as exc:
        raise raised(
            DocumentReadError, "error.cannot_read", name=name, reason=str(exc.strerror or exc)
        ) from exc
    limit = size_limit(fmt, limits)
    if size > limit:
        raise raised(
            DocumentTooLargeError,
            "error.bytes_too_large",
            name=name,
            size=f"{size:,}",
            limit=f"{limit:,}",
        )
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise raised(
            DocumentReadError, "error.cannot_read", name=name, reason=str(exc.strerror or exc)
        ) from exc
    return read_bytes(data, name, limits, source=path, kind=fmt.kind, options=options)


def read_bytes(
    data: bytes,
    file_name: str,
    limits: Limits = DEFAULT_LIMITS,
    source: str | None = None,
    kind: str | None = None,
    options: ReadOptions = NO_OPTIONS,
) -> SourceText:
    """Read raw bytes (an upload, a fetched body); the format comes from the name if not given."""
    fmt: Format = format_of(kind) if kind else format_for_name(file_name)
    if not data.strip():
        raise raised(EmptyDocumentError, "error.empty", name=file_name)
    limit = size_limit(fmt, limits)
    if len(data) > limit:
        raise raised(
            DocumentTooLargeError,
            "error.bytes_too_large",
            name=file_name,
            size=f"{len(data):,}",
            limit=f"{limit:,}",
        )
    result = fmt.read(data, limits, file_name, options)
    if options.heading_judge is not None:
        result.heading_judge = functools.partial(_judged, options, file_name)
    structured = apply_strategies(result, fmt.strategies, limits)
    if not structured.text.replace("\f", "").strip():
        raise raised(EmptyDocumentError, "error.no_text", name=file_name)
    return SourceText(
        text=structured.text,
        source_type=fmt.kind,
        file_name=file_name,
        source=source or file_name,
        content_hash=hashlib.sha256(data).hexdigest(),
        byte_size=len(data),
        page_count=result.page_count,
        title=result.title,
        structure_source=structured.source,
        structure_parts=dict(structured.parts),
        warnings=list(result.warnings),
        ocr_pages=sum(page.ocr for page in result.pages or []),
        ocr_language=result.ocr_language,
        structure_check=result.measured.get("heading_check"),
        metadata=dict(result.metadata),
        page_unit=result.page_unit,
        pdf_data=data if fmt.kind == "pdf" else None,
    )


def _judged(options: ReadOptions, file_name: str, doubts: list[Any]) -> set[int]:
    """The model's heading check, said in the progress (a model may take a while)."""
    if options.progress is not None:
        options.progress(
            0, 1, f"Checking {len(doubts)} headings found by their look with the model"
        )
    return options.heading_judge(file_name, doubts)  # type: ignore[misc]


def read_url(
    url: str,
    limits: Limits = DEFAULT_LIMITS,
    resolver: Resolver | None = None,
    allowed_ips: Collection[str] = (),
    options: ReadOptions = NO_OPTIONS,
) -> SourceText:
    """Fetch a URL through the network guard and read the body by its content type."""
    from .readers.url import fetch_url

    body, content_type, final_url = fetch_url(url, limits, resolver, allowed_ips)
    fmt = content_format(content_type)
    if fmt.text_like:
        body = as_utf8(body, content_type)
    parts = urlsplit(final_url)
    readable = f"{parts.hostname or ''}{parts.path.rstrip('/')}" or final_url
    st = read_bytes(body, readable, limits, source=url.strip(), kind=fmt.kind, options=options)
    st.source_type = "url"
    st.content_type = content_type
    return st


def read_file(path_or_url: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """The seed's ``read_file``: the source as Markdown-style text."""
    return read_source(path_or_url, limits).text
