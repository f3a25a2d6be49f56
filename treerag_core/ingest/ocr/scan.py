"""Which pages need OCR, and running it: in parallel, within a budget, cached per page.

Pages are rendered one at a time (PDFium is not thread-safe) and recognised by up to one
Tesseract process per core; at most two images per worker wait in memory. Results are
cached by (source hash, page, resolution, language), so re-indexing a scan — or changing
a summary prompt — never repeats OCR.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

from ...errors import DocumentReadError, DocumentTooLargeError
from ...limits import Limits
from ...store.base import Cache
from ..pages import ReadOptions, RichPage, TextLine
from .rows import fix_bars, join_rows, line_size
from .tesseract import OcrLine, OcrPage, recognise, require_tesseract

# A page with less visible text than this, carrying an image, is a scan (a page number or
# a running header alone does not make a text layer).
THIN_TEXT_CHARS = 50
QUEUED_PER_WORKER = 2  # rendered images waiting per worker: bounded memory, busy workers
# A line whose strokes are this much thicker than the page's body text is set bold (bold
# sans strokes are about 1.5-2x as thick, a 9-point bold Times about 1.27x; regular lines
# vary by about 10% with their letters, and by under 5% on one page of prose).
BOLD_INK_RATIO = 1.2
# A line whose strokes stand sharper with italic's lean taken out than as they are leans:
# it is set in italic (see ``tesseract._slant``).
ITALIC_SLANT = 1.0
# Lines with at least this many words stand for the body when the page's usual ink is taken.
BODY_LINE_WORDS = 6
Box = tuple[float, float, float, float]
CACHE_VERSION = 7  # part of the cache key: bump when recognition or parsing changes
POINTS_PER_INCH = 72

# (page number, a function that renders the page to PNG, page width and height in points)
PageJob = tuple[int, Callable[[], bytes], float, float]


def needs_ocr(page: RichPage, mode: str) -> bool:
    if mode == "force":
        return True
    if mode == "off":
        return False
    return page.text_chars < THIN_TEXT_CHARS and page.image_count > 0


def workers_for(limits: Limits) -> int:
    return max(1, limits.ocr_workers or os.cpu_count() or 1)


def ocr_pages(
    jobs: list[PageJob], source_hash: str, limits: Limits, options: ReadOptions
) -> dict[int, RichPage]:
    """Recognise every page of ``jobs``: page number → its RichPage from OCR."""
    if not jobs:
        return {}
    if len(jobs) > limits.ocr_max_pages:
        raise DocumentTooLargeError(
            f"{len(jobs):,} pages need OCR, over the limit of {limits.ocr_max_pages:,} "
            "(TREERAG_OCR_MAX_PAGES)."
        )
    out: dict[int, RichPage] = {}
    todo = []
    for number, render, width, height in jobs:
        hit = _cached(options.ocr_cache, _key(source_hash, number, limits))
        if hit is not None:
            out[number] = to_rich_page(number, hit, width, height)
        else:
            todo.append((number, render, width, height))
    report = options.progress or (lambda done, total, message: None)
    total = len(jobs)
    if todo:
        require_tesseract()
    started = time.perf_counter()
    for number, page in _recognise_all(todo, limits, started):
        key = _key(source_hash, number, limits)
        if options.ocr_cache is not None:
            options.ocr_cache.put(key, _to_json(page))
        _, _, width, height = next(job for job in todo if job[0] == number)
        out[number] = to_rich_page(number, page, width, height)
        report(len(out), total, f"OCR page {len(out)} of {total}")
    return out


def _recognise_all(
    jobs: list[PageJob], limits: Limits, started: float
) -> Iterator[tuple[int, OcrPage]]:
    workers = workers_for(limits)
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="treerag-ocr")
    pending: dict[Future[OcrPage], int] = {}
    queue = list(jobs)
    try:
        while queue or pending:
            while queue and len(pending) < workers * QUEUED_PER_WORKER:
                number, render, _w, _h = queue.pop(0)
                png = render()
                future = pool.submit(recognise, png, limits.ocr_language, limits.ocr_page_timeout_s)
                pending[future] = number
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for future in done:
                number = pending.pop(future)
                yield number, future.result()
            if time.perf_counter() - started > limits.ocr_timeout_s:
                raise DocumentReadError(
                    f"OCR took longer than {limits.ocr_timeout_s:.0f} s "
                    "(TREERAG_OCR_TIMEOUT_S); nothing was stored."
                )
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def to_rich_page(number: int, ocr: OcrPage, width_pt: float, height_pt: float) -> RichPage:
    """Image pixels → PDF points (origin at the bottom left, as PDFium's lines)."""
    sx = width_pt / ocr.width if ocr.width else 1.0
    sy = height_pt / ocr.height if ocr.height else 1.0
    body_ink = _body_ink(ocr.lines)
    for line in ocr.lines:
        line.size = line_size(line.words, line.word_boxes) or float(line.box[3] - line.box[1])
        line.words = [fix_bars(word) for word in line.words]
    # A printed row is one line, as in a PDF's text: a contents entry with its page number.
    joined = OcrPage(ocr.width, ocr.height, join_rows(ocr.lines))
    lines = []
    for line in joined.lines:
        left, top, right, bottom = line.box
        box = (left * sx, height_pt - bottom * sy, right * sx, height_pt - top * sy)
        # The size read from the glyphs' heights (a row keeps its first part's, as a PDF
        # line its first character's): scans carry no font information.
        bold = _bold(line.ink, body_ink)
        # Style is the first part's; a row whose last part is set otherwise is not uniform.
        uniform = line.tail_ink is None or _bold(line.tail_ink, body_ink) == bold
        lines.append(
            TextLine(
                " ".join(line.words),
                round(line.size * sy, 2),
                bold=bold,
                italic=line.slant > ITALIC_SLANT,
                box=box,
                uniform=uniform,
            )
        )
    return RichPage(number, joined.text, lines, width_pt, height_pt, image_count=1, ocr=True)


def _bold(ink: float, body_ink: float) -> bool:
    return body_ink > 0 and ink >= BOLD_INK_RATIO * body_ink


def _body_ink(lines: list[OcrLine]) -> float:
    """The page's usual ink share: the median over lines of running text (several words)."""
    inks = sorted(line.ink for line in lines if len(line.words) >= BODY_LINE_WORDS and line.ink)
    return inks[len(inks) // 2] if inks else 0.0


def _key(source_hash: str, number: int, limits: Limits) -> str:
    return (
        f"ocr-v{CACHE_VERSION}-{source_hash[:32]}-{number}-{limits.ocr_dpi}-{limits.ocr_language}"
    )


def cached_words(
    cache: Cache | None,
    source_hash: str,
    number: int,
    width_pt: float,
    height_pt: float,
    limits: Limits,
) -> list[tuple[str, Box]] | None:
    """The words OCR read on page ``number`` (1-based) when it was indexed, each with its
    box in PDF points (left, bottom, right, top): how a scan's evidence is highlighted, as
    it has no text layer to search. None when the page was not read by OCR (or with other
    settings)."""
    page = _cached(cache, _key(source_hash, number, limits))
    if page is None or not page.width or not page.height:
        return None
    sx, sy = width_pt / page.width, height_pt / page.height
    return [
        (fix_bars(word), (left * sx, height_pt - bottom * sy, right * sx, height_pt - top * sy))
        for line in page.lines
        for word, (left, top, right, bottom) in zip(line.words, line.word_boxes, strict=False)
    ]


def _cached(cache: Cache | None, key: str) -> OcrPage | None:
    hit = cache.get(key) if cache is not None else None
    if not hit:
        return None
    try:
        lines = [
            OcrLine(
                list(row[0]),
                tuple(row[1]),  # type: ignore[arg-type]
                int(row[2]),
                float(row[3]),
                [tuple(b) for b in row[4]],  # type: ignore[misc]
                slant=float(row[5]),
            )
            for row in hit["lines"]
        ]
        return OcrPage(int(hit["width"]), int(hit["height"]), lines)
    except (KeyError, TypeError, ValueError):
        return None  # a damaged entry is a miss


def _to_json(page: OcrPage) -> dict[str, Any]:
    return {
        "width": page.width,
        "height": page.height,
        "lines": [
            [
                line.words,
                list(line.box),
                line.block,
                line.ink,
                [list(b) for b in line.word_boxes],
                line.slant,
            ]
            for line in page.lines
        ],
    }


def ocr_pdf_pages(
    data: bytes, pages: list[RichPage], limits: Limits, options: ReadOptions, source_hash: str
) -> tuple[list[RichPage], list[str]]:
    """The PDF's pages with every scanned one replaced by its OCR; and warnings.

    A page with real text is never OCR'd (unless ``TREERAG_OCR=force``). Without Tesseract a
    wholly scanned PDF is refused with the package to install; a PDF with some text keeps
    its text pages and says how many scanned pages were left unread.
    """
    from .tesseract import INSTALL_HINT, tesseract_path

    scanned = [p for p in pages if needs_ocr(p, limits.ocr)]
    if not scanned:
        return pages, []
    if tesseract_path() is None and any(p.text_chars for p in pages):
        return pages, [f"{len(scanned)} scanned page(s) were not read. {INSTALL_HINT}"]
    with _PdfRenderer(data) as renderer:
        jobs = [
            (p.number, renderer.png_of(p.number, limits.ocr_dpi), p.width, p.height)
            for p in scanned
        ]
        recognised = ocr_pages(jobs, source_hash, limits, options)
    return [recognised.get(p.number, p) for p in pages], []


class _PdfRenderer:
    """Renders pages of one PDF to grayscale PNG; PDFium is touched only under its lock."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __enter__(self) -> _PdfRenderer:
        import pypdfium2 as pdfium

        from ..readers.pdfium_pages import PDFIUM_LOCK

        self.lock = PDFIUM_LOCK
        with self.lock:
            self.document = pdfium.PdfDocument(self.data, password="")
        return self

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.document.close()

    def png_of(self, number: int, dpi: int) -> Callable[[], bytes]:
        def render() -> bytes:
            import io

            with self.lock:
                page = self.document[number - 1]
                try:
                    image = page.render(scale=dpi / POINTS_PER_INCH, grayscale=True).to_pil()
                finally:
                    page.close()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", compress_level=1)
            return buffer.getvalue()

        return render
