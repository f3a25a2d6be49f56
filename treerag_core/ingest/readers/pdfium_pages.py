"""Every page's lines with their typography, read by PDFium (pypdfium2).

pypdf's extraction is pure Python: a real 306-page 10-K took 19 s; PDFium reads it in about
1 s and splits fewer words ("B USINESS"). Style is sampled once per line (its first visible
character's font, size and weight, and the boxes of its first and last characters), not per
character: per-character calls cost about five times the whole text extraction.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any

from ..pages import RichPage, TextLine

# PDFium is not thread-safe, and the app indexes from several sessions' threads at once.
PDFIUM_LOCK = threading.Lock()
# PDFium marks a hyphenated line break with U+FFFE before its generated CR LF.
_HYPHEN_BREAK = "\ufffe"
# Weight 600 (semibold) and above reads as bold; PDF font descriptor flag 7 is italic.
BOLD_WEIGHT = 600
_ITALIC_FLAG = 1 << 6
_BOLD_NAMES = ("bold", "black", "heavy", "semibold", "demibold")
_ITALIC_NAMES = ("italic", "oblique")
# Images are counted only on pages with less visible text than this: a scan candidate.
# Counting objects on every page would cost as much as reading the text again.
THIN_TEXT_CHARS = 50


def pdfium_pages(data: bytes, count: int) -> list[RichPage | None]:
    """``count`` pages; ``None`` for a page PDFium cannot read (or every page, if it cannot
    open the file), so the caller can read those another way."""
    pages: list[RichPage | None] = [None] * count
    try:
        import pypdfium2 as pdfium

        with PDFIUM_LOCK:
            document = pdfium.PdfDocument(data, password="")
            try:
                for index in range(min(count, len(document))):
                    pages[index] = _read_page(document, index)
            finally:
                document.close()
    except Exception:  # noqa: BLE001 - PDFium refusing a file is not fatal: pypdf reads it
        pass
    return pages


def _read_page(document: Any, index: int) -> RichPage | None:
    try:
        page = document[index]
        try:
            width, height = page.get_size()
            textpage = page.get_textpage()
            try:
                raw = textpage.get_text_range()
                lines = _lines(textpage.raw, raw)
            finally:
                textpage.close()
            text = _clean(raw)
            rich = RichPage(index + 1, text, lines, float(width), float(height))
            if rich.text_chars < THIN_TEXT_CHARS:
                rich.image_count = _image_count(page)
            return rich
        finally:
            page.close()
    except Exception:  # noqa: BLE001 - one bad page must not lose the document
        return None


def _clean(raw: str) -> str:
    """The page text as structure detection reads it: hyphenated breaks joined, LF lines."""
    text = raw.replace(_HYPHEN_BREAK + "\r\n", "").replace(_HYPHEN_BREAK, "")
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").replace("\f", "\n")


def _lines(textpage: Any, raw: str) -> list[TextLine]:
    """One TextLine per line of ``_clean(raw)``, in the same order.

    Character indexes of the text page equal positions in ``raw`` (PDFium counts its
    generated line breaks as characters), so a line's first and last visible characters
    can be asked for their font and box directly.
    """
    style = _Styler(textpage, raw)
    lines: list[TextLine] = []
    pending: tuple[str, int] | None = None  # a hyphenated line waiting for its rest
    pos = 0
    for segment in raw.split("\r\n"):
        start, end = pos, pos + len(segment)
        pos = end + 2
        text = segment
        if pending is not None:
            text, start = pending[0] + segment, pending[1]
        if text.endswith(_HYPHEN_BREAK):
            pending = (text[: -len(_HYPHEN_BREAK)], start)
            continue
        pending = None
        lines.append(style(_clean_line(text), start, end))
    if pending is not None:
        lines.append(style(_clean_line(pending[0]), pending[1], len(raw)))
    return lines


def _clean_line(text: str) -> str:
    return text.replace(_HYPHEN_BREAK, "").replace("\x00", "").replace("\f", "").replace("\r", "")


class _Styler:
    """Asks PDFium for a line's style; ctypes buffers are made once per page, not per call."""

    def __init__(self, textpage: Any, raw: str) -> None:
        import pypdfium2.raw as pdfium_c

        self.c = pdfium_c
        self.textpage = textpage
        self.raw = raw
        self.font = ctypes.create_string_buffer(128)
        self.flags = ctypes.c_int(0)
        self.box = [ctypes.c_double() for _ in range(4)]
        self.refs = [ctypes.byref(v) for v in self.box]

    def __call__(self, text: str, start: int, end: int) -> TextLine:
        raw, c, tp = self.raw, self.c, self.textpage
        end = min(end, len(raw))
        first = start
        while first < end and raw[first].isspace():
            first += 1
        if first >= end or not text.strip():
            return TextLine(text)
        last = end - 1
        while last > first and (raw[last].isspace() or raw[last] == _HYPHEN_BREAK):
            last -= 1
        size = float(c.FPDFText_GetFontSize(tp, first))
        weight = int(c.FPDFText_GetFontWeight(tp, first))
        c.FPDFText_GetFontInfo(tp, first, self.font, len(self.font), ctypes.byref(self.flags))
        font = self.font.value.decode("latin-1", "replace").split("+", 1)[-1]
        lowered = font.lower()
        bold = weight >= BOLD_WEIGHT or any(name in lowered for name in _BOLD_NAMES)
        italic = bool(self.flags.value & _ITALIC_FLAG) or any(n in lowered for n in _ITALIC_NAMES)
        left, right, bottom, top = self._char_box(first)
        left2, right2, bottom2, top2 = self._char_box(last)
        box = (min(left, left2), min(bottom, bottom2), max(right, right2), max(top, top2))
        return TextLine(text, round(size, 2), bold, italic, font, box)

    def _char_box(self, index: int) -> tuple[float, float, float, float]:
        self.c.FPDFText_GetCharBox(self.textpage, index, *self.refs)
        left, right, bottom, top = (v.value for v in self.box)
        return left, right, bottom, top


def _image_count(page: Any) -> int:
    import pypdfium2.raw as pdfium_c

    raw = page.raw
    return sum(
        pdfium_c.FPDFPageObj_GetType(pdfium_c.FPDFPage_GetObject(raw, i))
        == pdfium_c.FPDF_PAGEOBJ_IMAGE
        for i in range(pdfium_c.FPDFPage_CountObjects(raw))
    )
