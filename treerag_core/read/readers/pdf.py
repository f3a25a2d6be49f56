"""PDF → rich pages, bookmarks and title.

pypdf opens the file (decryption, metadata) and turns every failure a hostile or broken
file can raise into a DocumentReadError; PDFium (:mod:`.pdfium_pages`) reads the bookmarks,
the page labels and each page's lines with their typography, a long PDF's with a second
process, and pypdf covers whatever PDFium cannot read. Structure is found afterwards,
by the PDF format's strategies.
"""

from __future__ import annotations

import hashlib
import io
import re
from typing import Any

from ...errors import DocumentReadError, DocumentTooLargeError
from ...limits import Limits
from ...structure.pages import NO_OPTIONS, OutlineEntry, ReadOptions, ReadResult, RichPage
from ...text.messages import raised
from ...tree.sections import DEEPEST_HEADING
from ..ocr.scan import ocr_pdf_pages
from .pdfium_helper import PageHelper
from .pdfium_pages import Bookmark, document_marks, page_count, page_helper, pdfium_pages

# Bookmark trees are bounded: a hostile outline must not cost unbounded time or depth.
MAX_OUTLINE_ENTRIES = 5000
MAX_OUTLINE_DEPTH = DEEPEST_HEADING
# Bookmarks that point at attached or remote files ("Ex 21 Q4 2022.pdf") are not sections.
_FILE_TITLE = re.compile(r"\.(pdf|htm|html|docx?|xlsx?|txt)$", re.IGNORECASE)


def read_pdf(
    data: bytes, limits: Limits, name: str = "the PDF", options: ReadOptions = NO_OPTIONS
) -> ReadResult:
    """Every page with its lines (scanned pages read by OCR), plus the bookmarks.

    A long PDF's helper process (see :mod:`.pdfium_helper`) starts first and reads pages from
    the end while this process opens the file with pypdf and reads its bookmarks and labels."""
    with page_helper(data, limits.pdf_helper, limits.max_pages) as helper:
        reader = open_pdf(data, name)
        count = _page_count(data, reader, name, limits)
        marks = document_marks(data, count, MAX_OUTLINE_DEPTH + 1, MAX_OUTLINE_ENTRIES)
        outline = _outline(_pypdf_bookmarks(reader) if marks is None else marks.bookmarks, count)
        labels = _page_labels(reader) if marks is None else marks.labels
        title = _title(reader)
        extracted = extract_pages(data, reader, count, helper)
    pages, scan = ocr_pdf_pages(data, extracted, limits, options, hashlib.sha256(data).hexdigest())
    return ReadResult(
        pages=pages,
        outline=outline,
        page_count=count,
        title=title,
        warnings=scan.warnings,
        page_labels=labels,
        ocr_language=scan.language,
    )


def _page_count(data: bytes, reader: Any, name: str, limits: Limits) -> int:
    """The pages PDFium counts, within ``limits``; for a file PDFium cannot open, the pages
    in pypdf's page tree. PDFium's count costs a millisecond; pypdf walks the whole tree for
    it (50 ms on a typical 10-K, 0.5 s on PepsiCo's 2022 one), which only bookmarks, page
    labels and a page PDFium cannot read still need."""
    count = page_count(data)
    if not count:
        try:
            count = len(reader.pages)
        except Exception as exc:  # noqa: BLE001 - any pypdf failure means a broken file
            raise raised(DocumentReadError, "error.pdf_page_tree", name=name) from exc
    if count > limits.max_pages:
        raise raised(
            DocumentTooLargeError,
            "error.pages_too_many",
            name=name,
            count=f"{count:,}",
            limit=f"{limits.max_pages:,}",
        )
    return count


def open_pdf(data: bytes, name: str) -> Any:
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    if not data.lstrip()[:1024].count(b"%PDF"):
        raise raised(DocumentReadError, "error.pdf_no_header", name=name)
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")
            except (NotImplementedError, DependencyError) as exc:
                raise raised(
                    DocumentReadError, "error.pdf_encryption", name=name, reason=str(exc)
                ) from exc
            if not ok:
                raise raised(DocumentReadError, "error.pdf_password", name=name)
        return reader
    except DocumentReadError:
        raise
    except FileNotDecryptedError as exc:
        raise raised(DocumentReadError, "error.pdf_locked", name=name) from exc
    except (PdfReadError, Exception) as exc:  # noqa: B014 - pypdf raises many types
        raise raised(
            DocumentReadError, "error.pdf_damaged", name=name, kind=type(exc).__name__
        ) from exc


def extract_pages(
    data: bytes, reader: Any, count: int, helper: PageHelper | None = None
) -> list[RichPage]:
    """Every page, read by PDFium (with ``helper``, a process reading from the last page
    down, if one was started); a page PDFium cannot read comes from pypdf (text only)."""
    pages: list[RichPage | None] = pdfium_pages(data, count, helper)
    return [
        page if page is not None else RichPage(index + 1, _page_text(reader, index))
        for index, page in enumerate(pages)
    ]


def _page_text(reader: Any, index: int) -> str:
    try:
        text = reader.pages[index].extract_text() or ""
    except Exception:  # noqa: BLE001 - one bad page must not lose the document
        return ""
    return text.replace("\x00", "").replace("\f", "\n")


def _title(reader: Any) -> str | None:
    try:
        meta = reader.metadata
        title = str(meta.title).strip() if meta and meta.title else ""
    except Exception:  # noqa: BLE001
        return None
    return title or None


def _page_labels(reader: Any) -> list[str]:
    """The page numbers of a file PDFium cannot open (see :class:`.pdfium_pages.Marks`)."""
    try:
        if "/PageLabels" not in reader.trailer["/Root"]:
            return []
        return [str(label) for label in reader.page_labels]
    except Exception:  # noqa: BLE001 - broken labels are no labels
        return []


def _outline(marks: list[Bookmark], page_count: int) -> list[OutlineEntry]:
    """The bookmarks to a page of this file that have a title, as outline entries."""
    out: list[OutlineEntry] = []
    for title, depth, page in marks:
        if page is None or not 0 <= page < page_count or not title.strip():
            continue
        if _FILE_TITLE.search(title.strip()):
            continue  # bookmarks to attached/remote files ("Ex 21 Q4 2022.pdf"), not sections
        out.append(OutlineEntry(" ".join(title.split()), min(depth, MAX_OUTLINE_DEPTH), page))
    return out


def _pypdf_bookmarks(reader: Any) -> list[Bookmark]:
    """The bookmarks of a file PDFium cannot open, as :func:`.pdfium_pages.document_marks`
    gives them (bounded in count and depth; [] when absent or broken)."""
    try:
        tree = reader.outline
    except Exception:  # noqa: BLE001 - cyclic or over-limit outlines: ignore them
        return []
    out: list[Bookmark] = []
    stack: list[tuple[list[Any], int, int]] = [(list(tree), 0, 1)]  # (items, index, level)
    while stack and len(out) < MAX_OUTLINE_ENTRIES:
        items, i, level = stack.pop()
        if i >= len(items):
            continue
        stack.append((items, i + 1, level))
        item = items[i]
        if isinstance(item, list):  # nested lists in pypdf follow their parent entry
            if level < MAX_OUTLINE_DEPTH + 1:
                stack.append((item, 0, level + 1))
            continue
        try:
            out.append((str(item.title or ""), level, reader.get_destination_page_number(item)))
        except Exception:  # noqa: BLE001
            continue
    return out
