"""Every page's lines with their typography, read by PDFium (pypdfium2).

:mod:`.pdfium_read` reads one page into plain tuples; this module opens the document, reads
its pages (a long one with the help of a second process, :mod:`.pdfium_helper`) and turns the
tuples into ``RichPage``s, the same way whichever process read a page.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import islice
from typing import Any, NamedTuple

from ...structure.pages import RichPage, TextLine
from .pdfium_helper import PageHelper
from .pdfium_read import Page, read_page

Bookmark = tuple[str, int, "int | None"]  # title, depth (1: top level), 0-based page
# PDFium is not thread-safe, and the app indexes from several sessions' threads at once.
PDFIUM_LOCK = threading.Lock()
# A PDF with fewer pages is read in this process alone. The helper costs this process about
# 10 ms to start, and needs about 0.1 s (an interpreter and pypdfium2) before its first page;
# a page takes 0.5-10 ms. Measured on the shared filings: from 57 pages up (3-9 ms a page)
# the pages were read in 0.5-0.8 of the time; under 40 pages this process reads them all
# before the helper could give one (a generated 80-page PDF of 0.6 ms pages lost 15 ms).
HELPER_MIN_PAGES = 40


@contextmanager
def page_helper(data: bytes, enabled: bool, max_pages: int) -> Iterator[PageHelper | None]:
    """A helper process already reading ``data``'s pages from the last one down, when it is
    ``enabled``, the machine has a second core and the PDF is long (and within
    ``max_pages``); None otherwise. Started before the caller opens the file with pypdf, so
    that work is done while the helper reads; killed and reaped on leaving, error or not."""
    count = page_count(data) if enabled and _cores() > 1 else 0
    if not HELPER_MIN_PAGES <= count <= max_pages:
        yield None
        return
    helper = PageHelper(data, count)
    try:
        yield helper
    finally:
        helper.close()


def pdfium_pages(
    data: bytes, count: int, helper: PageHelper | None = None
) -> list[RichPage | None]:
    """``count`` pages; ``None`` for a page PDFium cannot read (or every page, if it cannot
    open the file), so the caller can read those another way. ``helper``: a process reading
    the pages from the last one down, whose pages are taken from where the two meet."""
    pages: list[RichPage | None] = [None] * count
    try:
        import pypdfium2 as pdfium

        with PDFIUM_LOCK:
            document = pdfium.PdfDocument(data, password="")
            try:
                _read(document, pages, min(count, len(document)), helper)
            finally:
                document.close()
    except Exception:  # noqa: BLE001 - PDFium refusing a file is not fatal: pypdf reads it
        pass
    return pages


def _read(
    document: Any, pages: list[RichPage | None], total: int, helper: PageHelper | None
) -> None:
    """The first ``total`` pages: from the first one up until the helper's run down from the
    last one begins; from there, the helper's (all there once ``low`` names their start)."""
    met = total if helper is None else min(total, helper.low)
    index = 0
    while index < met:
        pages[index] = rich_page(index, read_page(document, index))
        index += 1
        if helper is not None:
            met = min(total, helper.low)
    for at in range(met, total):
        pages[at] = rich_page(at, helper.pages[at])  # type: ignore[union-attr]


def page_count(data: bytes) -> int:
    """PDFium's count of the pages (0 when it cannot open the file)."""
    try:
        import pypdfium2 as pdfium

        with PDFIUM_LOCK:
            document = pdfium.PdfDocument(data, password="")
            try:
                return len(document)
            finally:
                document.close()
    except Exception:  # noqa: BLE001 - pypdf has the last word on a file PDFium refuses
        return 0


class Marks(NamedTuple):
    """What a PDF says of its pages besides their text: bookmarks (in reading order, each
    as title, depth from 1 and 0-based page or None) and the PDF's own page numbers ("iv",
    "12"; [] when it declares none)."""

    bookmarks: list[Bookmark]
    labels: list[str]


def document_marks(data: bytes, count: int, max_depth: int, limit: int) -> Marks | None:
    """The first ``limit`` bookmarks, ``max_depth`` levels deep, and the labels of the first
    ``count`` pages; None when PDFium cannot open the file. Read here rather than by pypdf,
    which had to parse the document's catalog first, in Python: half a second on a filing
    whose catalog sits in a large object stream (PepsiCo's 2023 8-K), then built every named
    destination (0.38 s more on its 2022 10-K, which has no bookmarks at all)."""
    try:
        import pypdfium2 as pdfium

        with PDFIUM_LOCK:
            document = pdfium.PdfDocument(data, password="")
            try:
                marks = islice(document.get_toc(max_depth=max_depth), limit)
                found = [(m.get_title() or "", m.level + 1, _page_of(m)) for m in marks]
                labels = [document.get_page_label(i) for i in range(min(count, len(document)))]
                return Marks(found, labels if any(labels) else [])
            finally:
                document.close()
    except Exception:  # noqa: BLE001 - pypdf reads what PDFium cannot
        return None


def _page_of(mark: Any) -> int | None:
    dest = mark.get_dest()
    return None if dest is None else dest.get_index()


def rich_page(index: int, page: Page | None) -> RichPage | None:
    """Page ``index`` (0-based) as structure detection reads it."""
    if page is None:
        return None
    text, lines, width, height, images = page
    return RichPage(index + 1, text, [TextLine(*line) for line in lines], width, height, images)


def _cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1
