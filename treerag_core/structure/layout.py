"""How a document's lines sit on their pages: the facts typography-based rules decide by.

A heading is recognised by comparison with the document's own body text (its size, weight,
line spacing and margins), so those are measured first, once per document. Every line then
gets its style, the space above and below it, and whether it shares its row with other text
(a table cell) — plain numbers in a :class:`Layout`, so rules stay small and testable.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .pages import RichPage
from .thresholds import PAGE_BODY_MIN_CHARS, PAGE_BODY_SHARE, ROW_OVERLAP, SIZE_STEP


@dataclass(slots=True)
class Line:
    """One line of a page with its typography; boxes in PDF points (y grows upwards)."""

    page: int  # 0-based page index
    index: int  # position in the page's lines
    text: str
    size: float
    bold: bool
    italic: bool
    uniform: bool
    x0: float
    x1: float
    bottom: float
    top: float
    gap_above: float = float("inf")  # space to the line above; inf at the top of a page
    gap_below: float = float("inf")
    shares_row: bool = False  # another line sits beside it on the same row: a table cell
    # Set back up the page, above the line before it but below text drawn earlier: placed
    # out of reading order inside what is already there (a table's stacked header cell).
    jumps_up: bool = False

    @property
    def style(self) -> tuple[float, bool, bool]:
        """(size to the half point, bold, italic): what a heading level is set in."""
        return round(self.size / SIZE_STEP) * SIZE_STEP, self.bold, self.italic

    @property
    def caps(self) -> bool:
        letters = [c for c in self.text if c.isalpha()]
        return len(letters) >= 2 and all(c.isupper() for c in letters)


@dataclass
class Layout:
    """A document's lines (``None`` where a line has no box) and its body text's measures."""

    lines: list[list[Line | None]]
    texts: list[list[str]]  # every line's text, boxed or not
    body_size: float = 0.0
    body_bold: bool = False
    body_italic: bool = False  # most of the body's characters are italic
    body_gap: float = 0.0  # usual space between two lines of one paragraph
    body_left: float = 0.0
    body_right: float = 0.0
    page_widths: list[float] = field(default_factory=list)
    page_body_sizes: dict[int, float] = field(default_factory=dict)  # pages with their own

    def body_size_on(self, page: int) -> float:
        """The body size a line on ``page`` is compared with: the page's own when it is set
        in a larger body than the document (an appended exhibit), else the document's."""
        return self.page_body_sizes.get(page, self.body_size)

    @property
    def has_typography(self) -> bool:
        return self.body_size > 0

    @property
    def laid_out(self) -> bool:
        """Lines have positions on pages (a PDF), not just sizes (a Word document)."""
        return self.body_right > self.body_left


def build_layout(pages: list[RichPage]) -> Layout:
    """Lines with their measures; a page without typography keeps only its texts."""
    lines: list[list[Line | None]] = []
    texts: list[list[str]] = []
    for p, page in enumerate(pages):
        page_lines = page.lines or []
        if not page_lines:
            page_texts = page.text.split("\n")
            texts.append(page_texts)
            lines.append([None] * len(page_texts))
            continue
        texts.append([ln.text for ln in page_lines])
        row: list[Line | None] = []
        for i, ln in enumerate(page_lines):
            if ln.size <= 0 or not ln.text.strip():
                row.append(None)
                continue
            # A line without a box is a paragraph of its own (a Word document): no position,
            # and set apart from its neighbours (its gaps stay infinite).
            x0, bottom, x1, top = ln.box or (0.0, 0.0, 0.0, 0.0)
            row.append(
                Line(p, i, ln.text, ln.size, ln.bold, ln.italic, ln.uniform, x0, x1, bottom, top)
            )
        _measure_gaps(row)
        lines.append(row)
    layout = Layout(lines, texts, page_widths=[page.width for page in pages])
    _measure_body(layout)
    return layout


def _measure_gaps(row: list[Line | None]) -> None:
    """Space above and below each line, and whether it shares its row with other text."""
    boxed = [ln for ln in row if ln is not None and ln.top > ln.bottom]
    highest = float("-inf")  # the bottom of the highest line drawn so far
    for prev, cur in zip(boxed, boxed[1:], strict=False):
        highest = max(highest, prev.bottom)
        gap = prev.bottom - cur.top
        if gap > -_height(cur) * ROW_OVERLAP:  # cur sits below prev: the usual reading order
            cur.gap_above = max(0.0, gap)
            prev.gap_below = max(0.0, gap)
        elif cur.bottom > prev.top and highest > cur.top:
            cur.jumps_up = True  # not a title drawn last at the top of the page
    # Rows: sort by vertical centre; neighbours whose heights overlap share a row.
    ordered = sorted(boxed, key=lambda ln: (ln.bottom + ln.top) / 2)
    for a, b in zip(ordered, ordered[1:], strict=False):
        overlap = min(a.top, b.top) - max(a.bottom, b.bottom)
        if overlap > ROW_OVERLAP * min(_height(a), _height(b)) and (a.x1 <= b.x0 or b.x1 <= a.x0):
            a.shares_row = b.shares_row = True


def _height(line: Line) -> float:
    return max(1.0, line.top - line.bottom)


def _measure_body(layout: Layout) -> None:
    """The body style is the most common one by characters; its usual spacing and margins."""
    weight: Counter[tuple[float, bool]] = Counter()
    for row in layout.lines:
        for ln in row:
            if ln is not None:
                weight[(ln.style[0], ln.bold)] += len(ln.text)
    if not weight:
        return
    (size, bold), _ = weight.most_common(1)[0]
    layout.body_size, layout.body_bold = size, bold
    italic: Counter[bool] = Counter()
    for row in layout.lines:
        for ln in row:
            if ln is not None and ln.style[0] == size and ln.bold == bold:
                italic[ln.italic] += len(ln.text)
    layout.body_italic = italic[True] > italic[False]
    layout.page_body_sizes = _larger_page_bodies(layout)
    gaps: list[float] = []
    lefts: Counter[float] = Counter()
    rights: Counter[float] = Counter()
    for row in layout.lines:
        for ln in row:
            if ln is None or ln.style[0] != size or ln.bold != bold:
                continue
            lefts[round(ln.x0)] += 1
            rights[round(ln.x1)] += 1
            if 0 < ln.gap_above < 2 * size:
                gaps.append(ln.gap_above)
    # The median: most body lines follow another line of their own paragraph.
    layout.body_gap = sorted(gaps)[len(gaps) // 2] if gaps else size * 0.3
    layout.body_left = float(lefts.most_common(1)[0][0]) if lefts else 0.0
    layout.body_right = float(rights.most_common(1)[0][0]) if rights else 0.0


def _larger_page_bodies(layout: Layout) -> dict[int, float]:
    """Pages of prose set in a larger body than the document's, with that size."""
    out: dict[int, float] = {}
    for p, row in enumerate(layout.lines):
        weight: Counter[tuple[float, bool]] = Counter()
        for ln in row:
            if ln is not None:
                weight[(ln.style[0], ln.bold)] += len(ln.text)
        if not weight:
            continue
        (size, bold), chars = weight.most_common(1)[0]
        if (
            bold == layout.body_bold
            and size > layout.body_size
            and chars >= PAGE_BODY_MIN_CHARS
            and chars >= PAGE_BODY_SHARE * sum(weight.values())
        ):
            out[p] = size
    return out
