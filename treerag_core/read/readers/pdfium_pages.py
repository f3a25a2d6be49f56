"""Every page's lines with their typography, read by PDFium (pypdfium2).

pypdf's extraction is pure Python: a real 306-page 10-K took 19 s; PDFium reads it in about
1 s and splits fewer words ("B USINESS"). Style is sampled twice per line (its first and last
visible characters' font, size, weight and box), not per character: per-character calls cost
about five times the whole text extraction.
"""

from __future__ import annotations

import ctypes
import math
import re
import threading
from typing import Any

from ...structure.pages import RichPage, TextLine

# PDFium is not thread-safe, and the app indexes from several sessions' threads at once.
PDFIUM_LOCK = threading.Lock()
# PDFium marks a hyphenated line break with U+FFFE before its generated CR LF.
_HYPHEN_BREAK = "\ufffe"
# Weight 600 (semibold) and above reads as bold; PDF font descriptor flag 7 is italic.
BOLD_WEIGHT = 600
_ITALIC_FLAG = 1 << 6
# Bold by name when the font declares no weight: "Arial-BoldMT", "Inter-Black", and TeX's
# bold extended faces ("CMBX12", "SFBX1000", "LMRoman10-Bold").
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demibold|(?:cm|sf|lm|ec)bx", re.IGNORECASE)
_ITALIC_NAMES = ("italic", "oblique")
# Images are counted only on pages with less visible text than this: a scan candidate.
# Counting objects on every page would cost as much as reading the text again.
THIN_TEXT_CHARS = 50
# A line whose first and last characters span more than 1.6 font sizes in height may be two
# printed rows run together; only those are looked at character by character.
ROWS_HEIGHT_RATIO = 1.6
# A heading's line is shorter than this; a longer regular-weight line is body text.
MAX_HEADING_LINE_CHARS = 120
# Two characters whose sizes differ by less than this (points) are set in one size.
SAME_SIZE = 0.3


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
                lines, split = _lines(textpage.raw, raw)
            finally:
                textpage.close()
            # A line PDFium ran over two rows was split: the text follows the lines then.
            text = "\n".join(line.text for line in lines) if split else _clean(raw)
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


def _lines(textpage: Any, raw: str) -> tuple[list[TextLine], bool]:
    """One TextLine per line of ``_clean(raw)``, in the same order; and whether a line that
    PDFium ran over two rows ("… Disclosures 15" + "Part II" below) had to be split.

    Character indexes of the text page equal positions in ``raw`` (PDFium counts its
    generated line breaks as characters), so a line's first and last visible characters
    can be asked for their font and box directly.
    """
    style = _Styler(textpage, raw)
    lines: list[TextLine] = []
    pending: tuple[str, int] | None = None  # a hyphenated line waiting for its rest
    split = False
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
        joined = pending is not None
        pending = None
        line = style(_clean_line(text), start, end)
        rows = [] if joined else style.rows(line, start, end)
        if len(rows) > 1:
            lines.extend(style(_clean_line(raw[a:b]), a, b) for a, b in rows)
            split = True
        else:
            lines.append(line)
    if pending is not None:
        lines.append(style(_clean_line(pending[0]), pending[1], len(raw)))
    return lines, split


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
        self.flags_ref = ctypes.byref(self.flags)
        self.matrix = pdfium_c.FS_MATRIX()
        self.matrix_ref = ctypes.byref(self.matrix)
        self.box = [ctypes.c_double() for _ in range(4)]
        self.refs = [ctypes.byref(v) for v in self.box]
        self.scale = 1.0  # the text matrix's scale at the current line's first character

    def __call__(self, text: str, start: int, end: int) -> TextLine:
        raw = self.raw
        end = min(end, len(raw))
        first = start
        while first < end and raw[first].isspace():
            first += 1
        if first >= end or not text.strip():
            return TextLine(text)
        last = end - 1
        while last > first and (raw[last].isspace() or raw[last] == _HYPHEN_BREAK):
            last -= 1
        size, bold, italic, font = self._style(first)
        last_size, last_bold = size, bold
        # A long line that starts in a regular weight is body text whatever it ends in: only
        # a line that could be a heading pays for a look at its last character.
        if last > first and (bold or len(text) <= MAX_HEADING_LINE_CHARS):
            last_size, last_bold, _, _ = self._style(last, self.scale)
        left, right, bottom, top = self._char_box(first)
        left2, right2, bottom2, top2 = self._char_box(last)
        box = (min(left, left2), min(bottom, bottom2), max(right, right2), max(top, top2))
        uniform = abs(last_size - size) < SAME_SIZE and last_bold == bold
        return TextLine(text, round(size, 2), bold, italic, font, box, uniform)

    def rows(self, line: TextLine, start: int, end: int) -> list[tuple[int, int]]:
        """Raw ranges of the rows a line really spans: one, unless its last character sits
        wholly below its first (PDFium ran two printed lines together)."""
        if line.box is None or line.box[3] - line.box[1] < ROWS_HEIGHT_RATIO * line.size:
            return []  # one row high: nothing to split (the usual case, decided for free)
        raw = self.raw
        first = next((i for i in range(start, end) if not raw[i].isspace()), end)
        last = next((i for i in range(end - 1, first, -1) if not raw[i].isspace()), first)
        _, _, bottom, _ = self._char_box(first)
        _, _, _, last_top = self._char_box(last)
        if last <= first or last_top >= bottom:
            return []
        cuts = [start]
        row_bottom = bottom
        for i in range(first + 1, last + 1):
            if raw[i].isspace():
                continue
            _, _, b, t = self._char_box(i)
            # Wholly below the current row, after a space: a new printed line (a word
            # hyphenated across rows is one word, and PDFium has already joined it).
            if t < row_bottom and not raw[i - 1].isalnum():
                cuts.append(i)
            row_bottom = min(row_bottom, b) if t >= row_bottom else b
        cuts.append(end)
        return [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if raw[a:b].strip()]

    def _style(self, index: int, scale: float | None = None) -> tuple[float, bool, bool, str]:
        """(size as printed, bold, italic, font name) of one character; ``scale`` reuses the
        text matrix already read for the line's first character."""
        c, tp = self.c, self.textpage
        size = float(c.FPDFText_GetFontSize(tp, index))
        if scale is None:
            scale = 1.0
            if c.FPDFText_GetMatrix(tp, index, self.matrix_ref):
                m = self.matrix  # a font set at 1 pt and scaled by the text matrix prints larger
                scale = math.sqrt(abs(m.a * m.d - m.b * m.c)) or 1.0
            self.scale = scale
        size *= scale
        weight = int(c.FPDFText_GetFontWeight(tp, index))
        c.FPDFText_GetFontInfo(tp, index, self.font, len(self.font), self.flags_ref)
        font = self.font.value.decode("latin-1", "replace").split("+", 1)[-1]
        bold = weight >= BOLD_WEIGHT or bool(_BOLD_NAME.search(font))
        italic = bool(self.flags.value & _ITALIC_FLAG) or any(
            n in font.lower() for n in _ITALIC_NAMES
        )
        return size, bold, italic, font

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
