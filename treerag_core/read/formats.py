"""The one table of formats: extensions, MIME types, reader and structure strategies.

Registering a format is one row here; the URL reader, the upload widget and the error
messages all derive what they accept from it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import DocumentTooLargeError, FetchError, UnsupportedFormatError
from ..limits import Limits
from ..structure import Strategy
from ..structure.page_groups import structure_by_page_groups
from ..structure.pages import ReadOptions, ReadResult
from ..structure.skeleton import structure_from_bookmarks
from ..structure.text_rules import structure_by_text_rules, structure_whole_text
from ..structure.typeset import (
    CONTENTS_SOURCE,
    TYPOGRAPHY_SOURCE,
    structure_by_typography,
    structure_from_contents,
)
from ..text.messages import message, raised
from .readers.delimited import read_delimited
from .readers.docx import read_docx
from .readers.epub import read_epub
from .readers.html import read_html
from .readers.image import read_image
from .readers.libreoffice import Converted
from .readers.mail import read_eml, read_mbox
from .readers.msg import read_msg
from .readers.odf import read_odp, read_odt
from .readers.ods import read_ods
from .readers.pdf import read_pdf
from .readers.pptx import read_pptx
from .readers.text import read_markdown, read_text
from .readers.xlsx import read_xlsx

Reader = Callable[[bytes, Limits, str, ReadOptions], ReadResult]

PAGED_STRATEGIES = (
    Strategy("bookmarks", structure_from_bookmarks),
    Strategy(CONTENTS_SOURCE, structure_from_contents),
    Strategy(TYPOGRAPHY_SOURCE, structure_by_typography),
    Strategy("numbering and keywords", structure_by_text_rules),
    Strategy("page groups", structure_by_page_groups),
)
RUNNING_TEXT_STRATEGIES = (Strategy("numbering and keywords", structure_whole_text),)
# A Word document without heading styles: paragraphs set bold or larger, then the rules.
WORD_STRATEGIES = (Strategy(TYPOGRAPHY_SOURCE, structure_by_typography), *RUNNING_TEXT_STRATEGIES)


@dataclass(frozen=True)
class Format:
    kind: str  # stored as the document's source_type
    label: str  # how people call it
    extensions: tuple[str, ...]
    mime_types: tuple[str, ...]
    read: Reader
    strategies: tuple[Strategy, ...] = ()
    # Text-like sources have a smaller size limit too: parsing cost grows with the text.
    text_like: bool = False


FORMATS: tuple[Format, ...] = (
    Format("pdf", "PDF", (".pdf",), ("application/pdf",), read_pdf, PAGED_STRATEGIES),
    Format(
        "docx",
        "Word",
        (".docx",),
        ("application/vnd.openxmlformats-officedocument.wordprocessingml.document",),
        read_docx,
        WORD_STRATEGIES,
    ),
    Format(
        "pptx",
        "PowerPoint",
        (".pptx",),
        ("application/vnd.openxmlformats-officedocument.presentationml.presentation",),
        read_pptx,
    ),
    Format(
        "xlsx",
        "Excel",
        (".xlsx", ".xlsm"),
        (
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "application/vnd.ms-excel.sheet.macroEnabled.12",
        ),
        read_xlsx,
    ),
    Format(
        "csv",
        "CSV",
        (".csv", ".tsv"),
        ("text/csv", "text/tab-separated-values"),
        read_delimited,
        text_like=True,
    ),
    Format(
        "odt",
        "OpenDocument text",
        (".odt",),
        ("application/vnd.oasis.opendocument.text",),
        read_odt,
    ),
    Format(
        "ods",
        "OpenDocument spreadsheet",
        (".ods",),
        ("application/vnd.oasis.opendocument.spreadsheet",),
        read_ods,
    ),
    Format(
        "odp",
        "OpenDocument presentation",
        (".odp",),
        ("application/vnd.oasis.opendocument.presentation",),
        read_odp,
    ),
    # Legacy binary Office files and RTF: converted by LibreOffice, then read as above.
    Format(
        "doc",
        "Word 97-2003",
        (".doc",),
        ("application/msword",),
        Converted(".doc", "docx", read_docx),
        WORD_STRATEGIES,
    ),
    Format(
        "rtf",
        "RTF",
        (".rtf",),
        ("application/rtf", "text/rtf"),
        Converted(".rtf", "docx", read_docx),
        WORD_STRATEGIES,
    ),
    Format(
        "xls",
        "Excel 97-2003",
        (".xls",),
        ("application/vnd.ms-excel",),
        Converted(".xls", "xlsx", read_xlsx),
    ),
    Format(
        "ppt",
        "PowerPoint 97-2003",
        (".ppt",),
        ("application/vnd.ms-powerpoint",),
        Converted(".ppt", "pptx", read_pptx),
    ),
    Format(
        "html",
        "HTML",
        (".html", ".htm"),
        ("text/html", "application/xhtml+xml"),
        read_html,
        text_like=True,
    ),
    Format(
        "markdown",
        "Markdown",
        (".md", ".markdown"),
        ("text/markdown", "text/x-markdown"),
        read_markdown,
        text_like=True,
    ),
    Format("text", "text", (".txt",), ("text/plain",), read_text, RUNNING_TEXT_STRATEGIES, True),
    Format("epub", "e-book", (".epub",), ("application/epub+zip",), read_epub),
    Format("eml", "e-mail", (".eml",), ("message/rfc822",), read_eml),
    Format("mbox", "mailbox", (".mbox",), ("application/mbox",), read_mbox),
    Format("msg", "Outlook message", (".msg",), ("application/vnd.ms-outlook",), read_msg),
    Format(
        "image",
        "image (read by OCR)",
        (".png", ".jpg", ".jpeg", ".tif", ".tiff"),
        ("image/png", "image/jpeg", "image/tiff"),
        read_image,
        PAGED_STRATEGIES,
    ),
)
_BY_KIND = {fmt.kind: fmt for fmt in FORMATS}


def supported_types() -> str:
    """``PDF (.pdf), Word (.docx), …`` for messages."""
    return ", ".join(f"{f.label} ({', '.join(f.extensions)})" for f in FORMATS)


def accepted_extensions() -> list[str]:
    """Extensions without dots, for an upload widget."""
    return [ext.lstrip(".") for fmt in FORMATS for ext in fmt.extensions]


def format_of(kind: str) -> Format:
    return _BY_KIND[kind]


def format_for_name(file_name: str) -> Format:
    """The format of a file name, or UnsupportedFormatError naming the supported types."""
    ext = os.path.splitext(file_name)[1].lower()
    for fmt in FORMATS:
        if ext in fmt.extensions:
            return fmt
    raise raised(
        UnsupportedFormatError,
        "error.unsupported_format",
        kind=ext or message("error.no_extension"),
        name=repr(os.path.basename(file_name)),
        supported=", ".join(f.label for f in FORMATS),
    )


def format_for_mime(content_type: str) -> Format | None:
    mime = content_type.split(";", 1)[0].strip().lower()
    return next((fmt for fmt in FORMATS if mime in fmt.mime_types), None)


def content_format(content_type: str) -> Format:
    """The format of a Content-Type header, or FetchError for types we do not read."""
    fmt = format_for_mime(content_type)
    if fmt is None:
        mime = content_type.split(";", 1)[0].strip().lower()
        raise raised(
            FetchError,
            "error.content_type",
            mime=repr(mime or "unknown"),
            supported=", ".join(f.label for f in FORMATS),
        )
    return fmt


def accepted_mime_types() -> list[str]:
    return [mime for fmt in FORMATS for mime in fmt.mime_types]


def size_limit(fmt: Format, limits: Limits) -> int:
    """Bytes we accept for this format."""
    if fmt.text_like:
        return min(limits.max_text_bytes, limits.max_file_bytes)
    return limits.max_file_bytes


def check_upload(name: str, size: int, limits: Limits) -> None:
    """Refuse a file of an unsupported type or over its size limit, before storing it."""
    fmt = format_for_name(name)
    limit = size_limit(fmt, limits)
    if size > limit:
        raise raised(
            DocumentTooLargeError,
            "error.upload_too_large",
            name=name,
            size=f"{size / 1e6:.1f}",
            limit=f"{limit / 1e6:.0f}",
            kind=fmt.label,
        )
