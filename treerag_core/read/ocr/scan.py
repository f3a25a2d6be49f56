"""Which pages need OCR, and running it: in parallel, within a budget, cached per page.

Pages are rendered one at a time (PDFium is not thread-safe) and recognised by up to one
Tesseract process per core; at most two images per worker wait in memory, in the scan's
own language (see ``languages``). Results are cached by (source hash, page, resolution,
language), so re-indexing a scan — or changing a summary prompt — never repeats OCR, and a
language pack installed since reads it again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import closing
from dataclasses import dataclass, field

from ...errors import DocumentReadError, DocumentTooLargeError
from ...limits import Limits
from ...structure.pages import ReadOptions, RichPage, TextLine
from ...text.messages import raised
from .languages import ENGLISH, OcrLanguage
from .page_cache import PageCache
from .rows import fix_bars, join_rows, line_size
from .scan_language import Probe, settled_language
from .tesseract import (
    OcrLine,
    OcrPage,
    installed_languages,
    recognise,
    require_tesseract,
    tesseract_path,
)

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


@dataclass
class Scan:
    """Pages read by OCR (page number → RichPage), the Tesseract languages they were read
    in (their cache entries are kept under it), and what the document should say."""

    pages: dict[int, RichPage] = field(default_factory=dict)
    language: str = ""
    warnings: list[str] = field(default_factory=list)


def ocr_pages(
    jobs: list[PageJob], source_hash: str, limits: Limits, options: ReadOptions, text: str = ""
) -> Scan:
    """Recognise every page of ``jobs`` in the scan's language (see ``languages``);
    ``text``: the document's own text on its other pages, the first witness of it."""
    if not jobs:
        return Scan()
    if len(jobs) > limits.ocr_max_pages:
        raise raised(
            DocumentTooLargeError, "error.ocr_pages", count=f"{len(jobs):,}",
            limit=f"{limits.ocr_max_pages:,}",
        )  # fmt: skip
    started = time.perf_counter()
    pages = PageCache(options.ocr_cache, source_hash, limits)
    program = tesseract_path()
    installed = installed_languages(program) if program else None  # None: not known here
    chosen = settled_language(limits, options, text, installed)
    if chosen is not None:
        out = _read_in(chosen.code, jobs, pages, limits, options, started)
    else:  # read in English while the first pages tell the scan's language
        probe = Probe([(n, render) for n, render, _w, _h in jobs], pages, installed)
        out = _read_in(ENGLISH, jobs, pages, limits, options, started, probe)
        chosen = probe.decided or OcrLanguage(ENGLISH)
        if chosen.code != ENGLISH:
            if options.progress is not None:
                options.progress(0, len(jobs), f"Reading the scan again in {chosen.code}")
            out = _read_in(chosen.code, jobs, pages, limits, options, started)
    return Scan(out, chosen.code, [chosen.warning] if chosen.warning else [])


def _read_in(
    code: str,
    jobs: list[PageJob],
    pages: PageCache,
    limits: Limits,
    options: ReadOptions,
    started: float,
    probe: Probe | None = None,
) -> dict[int, RichPage]:
    """Every page of ``jobs`` read in ``code``: from the cache, else by Tesseract. With a
    ``probe``, each first page is shown to it, and reading stops once it tells another
    language (the pages read so far stay cached under ``code``)."""
    report = options.progress or (lambda done, total, message: None)
    out: dict[int, RichPage] = {}

    def keep(number: int, page: OcrPage, width: float, height: float) -> bool:
        out[number] = to_rich_page(number, page, width, height)
        if probe is not None:
            probe.tell(number, page)
        return probe is None or probe.decided is None or probe.decided.code == code

    todo = []
    for job in jobs:
        hit = pages.get(job[0], code)
        if hit is None:
            todo.append(job)
        elif not keep(job[0], hit, job[2], job[3]):
            return out
    if todo:
        require_tesseract()
    with closing(_recognise_all(todo, limits, code, started)) as results:
        for number, page in results:
            pages.put(number, code, page)
            _, _, width, height = next(job for job in todo if job[0] == number)
            going_on = keep(number, page, width, height)
            report(len(out), len(jobs), f"OCR page {len(out)} of {len(jobs)}")
            if not going_on:
                break
    return out


def _recognise_all(
    jobs: list[PageJob], limits: Limits, language: str, started: float
) -> Generator[tuple[int, OcrPage], None, None]:
    workers = workers_for(limits)
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="treerag-ocr")
    pending: dict[Future[OcrPage], int] = {}
    queue = list(jobs)
    try:
        while queue or pending:
            while queue and len(pending) < workers * QUEUED_PER_WORKER:
                number, render, _w, _h = queue.pop(0)
                png = render()
                future = pool.submit(recognise, png, language, limits.ocr_page_timeout_s)
                pending[future] = number
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for future in done:
                number = pending.pop(future)
                yield number, future.result()
            if time.perf_counter() - started > limits.ocr_timeout_s:
                raise raised(
                    DocumentReadError, "error.ocr_timeout", seconds=f"{limits.ocr_timeout_s:.0f}"
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


def ocr_pdf_pages(
    data: bytes, pages: list[RichPage], limits: Limits, options: ReadOptions, source_hash: str
) -> tuple[list[RichPage], Scan]:
    """The PDF's pages with every scanned one replaced by its OCR; and what OCR did.

    A page with real text is never OCR'd (unless ``TREERAG_OCR=force``), and tells the
    scanned pages' language. Without Tesseract a wholly scanned PDF is refused with the
    package to install; a PDF with some text keeps its text pages and says how many scanned
    pages were left unread.
    """
    from .tesseract import INSTALL_HINT

    scanned = [p for p in pages if needs_ocr(p, limits.ocr)]
    if not scanned:
        return pages, Scan()
    if tesseract_path() is None and any(p.text_chars for p in pages):
        return pages, Scan(
            warnings=[f"{len(scanned)} scanned page(s) were not read. {INSTALL_HINT}"]
        )
    # With OCR forced the text layer is the one in doubt: it tells nothing.
    text = "" if limits.ocr == "force" else "\n".join(p.text for p in pages if p not in scanned)
    with _PdfRenderer(data) as renderer:
        jobs = [
            (p.number, renderer.png_of(p.number, limits.ocr_dpi), p.width, p.height)
            for p in scanned
        ]
        scan = ocr_pages(jobs, source_hash, limits, options, text)
    return [scan.pages.get(p.number, p) for p in pages], scan


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
