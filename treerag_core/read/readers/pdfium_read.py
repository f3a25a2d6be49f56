"""One page's lines with their typography, read by PDFium (pypdfium2), as plain data.

pypdf's extraction is pure Python: a real 306-page 10-K took 19 s; PDFium reads it in about
1 s and splits fewer words ("B USINESS"). Style is sampled twice per line (its first and last
visible characters' font, size, weight and box), not per character: per-character calls cost
about five times the whole text extraction.

This module imports nothing of treerag, only the standard library and pypdfium2, and returns
tuples rather than ``RichPage``: the helper process of :mod:`.pdfium_helper` runs it as a
script (``python -P pdfium_read.py``), and importing the package there would cost more than
the pages it reads (``import treerag_core`` takes about a second). :mod:`.pdfium_pages`
turns its tuples into pages, whichever process read them.
"""

from __future__ import annotations

import ctypes
import math
import pickle
import re
import struct
import sys
from typing import Any

# PDFium marks a hyphenated line break with U+FFFE before its generated CR LF.
_HYPHEN_BREAK = "\ufffe"
# A combining accent with no letter before it: TeX's quotes (`stable') set as a grave accent
# that PDFium places after a space or at a line's end, where it stands between a contents
# entry's leaders and its page number. It modifies nothing, so it is left out.
_ORPHAN_MARKS = re.compile(r"(?:(?<=\s)|^)[\u0300-\u036f]+", re.MULTILINE)
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
# How the helper's answers are framed on its standard output: a page's length, then it.
FRAME = struct.Struct(">I")

# A line: (text, size, bold, italic, font, box, uniform), ``TextLine``'s fields in order.
Line = tuple[str, float, bool, bool, str, "tuple[float, float, float, float] | None", bool]
# A page: (text, lines, width, height, image count), ``RichPage``'s fields after its number.
Page = tuple[str, list[Line], float, float, int]


def plain_line(text: str) -> Line:
    """A line without a visible character: no style to read."""
    return (text, 0.0, False, False, "", None, True)


def read_page(document: Any, index: int) -> Page | None:
    """Page ``index`` (0-based) of an open ``PdfDocument``; None when PDFium cannot read it
    (the caller reads it another way)."""
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
            text = "\n".join(line[0] for line in lines) if split else _clean(raw)
            images = _image_count(page) if len("".join(text.split())) < THIN_TEXT_CHARS else 0
            return (text, lines, float(width), float(height), images)
        finally:
            page.close()
    except Exception:  # noqa: BLE001 - one bad page must not lose the document
        return None


def _clean(raw: str) -> str:
    """The page text as structure detection reads it: hyphenated breaks joined, LF lines."""
    text = raw.replace(_HYPHEN_BREAK + "\r\n", "").replace(_HYPHEN_BREAK, "")
    text = _ORPHAN_MARKS.sub("", text)
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").replace("\f", "\n")


def _lines(textpage: Any, raw: str) -> tuple[list[Line], bool]:
    """One line per line of ``_clean(raw)``, in the same order; and whether a line that
    PDFium ran over two rows ("… Disclosures 15" + "Part II" below) had to be split.

    Character indexes of the text page equal positions in ``raw`` (PDFium counts its
    generated line breaks as characters), so a line's first and last visible characters
    can be asked for their font and box directly.
    """
    style = _Styler(textpage, raw)
    lines: list[Line] = []
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
    text = _ORPHAN_MARKS.sub("", text)
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

    def __call__(self, text: str, start: int, end: int) -> Line:
        raw = self.raw
        end = min(end, len(raw))
        first = start
        while first < end and raw[first].isspace():
            first += 1
        if first >= end or not text.strip():
            return plain_line(text)
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
        return (text, round(size, 2), bold, italic, font, box, uniform)

    def rows(self, line: Line, start: int, end: int) -> list[tuple[int, int]]:
        """Raw ranges of the rows a line really spans: one, unless its last character sits
        wholly below its first (PDFium ran two printed lines together)."""
        box, size = line[5], line[1]
        if box is None or box[3] - box[1] < ROWS_HEIGHT_RATIO * size:
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


def helper_main() -> None:
    """The helper process: the page count and the PDF's bytes on standard input; every page
    from the last down, each framed on standard output as soon as it is read, until the
    indexing process, reading from the first page up, has met it and ends it."""
    import pypdfium2 as pdfium

    given = sys.stdin.buffer.read()
    (count,) = FRAME.unpack_from(given)
    document = pdfium.PdfDocument(given[FRAME.size :], password="")
    out = sys.stdout.buffer
    for index in range(min(count, len(document)) - 1, -1, -1):
        answer = pickle.dumps((index, read_page(document, index)), pickle.HIGHEST_PROTOCOL)
        out.write(FRAME.pack(len(answer)) + answer)
        out.flush()


if __name__ == "__main__":
    try:
        helper_main()
    except (BrokenPipeError, KeyboardInterrupt):  # the indexing process has what it needs
        pass
