"""Each cited table cell's box on its page, found when an answer cites it.

A computed answer cites the cells it used (``cited_cells``: page, table, row and cell); with
their boxes the evidence outlines the very figures on the page instead of the lines of a
whole passage. Tables are read from the section texts (:mod:`treerag_core.text.table_data`),
which keep no positions, so the boxes are found here, with the PDF open for the evidence:
on the row's page, PDFium's text is searched for the row's cells as printed, one after the
other (spaces ignored: "$ 5,363" is the cell "$5,363"), preferring the place the row's label
is printed just before, then the first place after the previous row's (every table row of
that page is placed in order, so a repeated figure goes to the right row). A box is
``[left, bottom, right, top]`` in PDF points (PDF's orientation, origin bottom-left; what
the evidence's highlights use), rounded to 0.1 pt. A scanned page has no text layer: there
the words OCR read (kept with their boxes when it was indexed) are searched the same way,
and a cell's box is the box round its words. A cell not found (text printed in an order the
search does not follow, a scan not read by OCR) gets no box.

Why at answer time, not at indexing: placing every table row of a filing meant PDFium
loading each table page and its text a second time (1.0 s of an 11.6 s 10-K), for boxes of
which an answer uses two or three; the evidence already has the cited pages open.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

# Characters of PDFium's text that print nothing: spaces, line breaks, the hyphen mark.
_INVISIBLE = frozenset(" \t\r\n\f\x00\ufffe\u00a0")
# How far before the cells (in visible characters) the label's end may be printed: dot
# leaders and currency signs sit between them.
LABEL_REACH = 60
# The label's last visible characters looked for there.
LABEL_TAIL = 12
PLACES = 1  # decimals kept: a tenth of a point is finer than any highlight needs


class PageText(Protocol):
    """A page's text as found on it, and the box round any stretch of it."""

    raw: str

    def box(self, start: int, end: int) -> list[float] | None:
        """The box round characters ``start``–``end`` of ``raw`` (None: they print nothing)."""


class PdfiumText:
    """A page's text layer, as PDFium reads it (``textpage``: its open text page)."""

    def __init__(self, textpage: Any) -> None:
        self.textpage = textpage
        self.raw = textpage.get_text_range()

    def box(self, start: int, end: int) -> list[float] | None:
        count = self.textpage.count_rects(start, end - start)
        return _round([self.textpage.get_rect(i) for i in range(count)])


class OcrText:
    """A scanned page's words as OCR read them, one after the other, each with its box."""

    def __init__(self, words: Sequence[tuple[str, Sequence[float]]]) -> None:
        self.raw = " ".join(text for text, _box in words)
        self.words = list(words)
        self.starts: list[int] = []
        at = 0
        for text, _box in words:
            self.starts.append(at)
            at += len(text) + 1

    def box(self, start: int, end: int) -> list[float] | None:
        return _round([
            box for (text, box), at in zip(self.words, self.starts, strict=True)
            if at < end and start < at + len(text)
        ])  # fmt: skip


def cited_cell(page: int, table: str, offset: int, cell: int) -> dict[str, Any]:
    """What a reference keeps of a cell it is cited for, to find its box later."""
    return {"page": page, "table": table, "offset": offset, "cell": cell}


def cell_boxes(
    tables: Sequence[Mapping[str, Any]],
    cited: Sequence[Mapping[str, Any]],
    text_at: Callable[[int], PageText | None],
) -> list[dict[str, Any]]:
    """``[{"page", "box"}]`` for the ``cited`` cells (:func:`cited_cell`) that are found on
    their pages, in their order; ``text_at(page)`` is the page's text (None: none)."""
    placed: dict[int, dict[tuple[str, int], list[Any]]] = {}
    out: list[dict[str, Any]] = []
    for cell in cited:
        page = int(cell["page"])
        if page not in placed:
            placed[page] = _place_page(text_at(page), _page_rows(tables, page))
        boxes = placed[page].get((str(cell["table"]), int(cell["offset"])))
        index = int(cell["cell"])
        if boxes and 0 <= index < len(boxes) and boxes[index] is not None:
            entry = {"page": page, "box": boxes[index]}
            if entry not in out:
                out.append(entry)
    return out


def _page_rows(
    tables: Sequence[Mapping[str, Any]], page: int
) -> list[tuple[tuple[str, int], Mapping[str, Any]]]:
    """The rows printed on ``page``, in the order they were read, each keyed by its table's
    id and its offset in the section."""
    return [
        ((str(table.get("id", "")), int(row.get("offset") or 0)), row)
        for table in tables
        if not table.get("sheet")
        for row in table.get("rows") or []
        if row.get("page") == page
    ]


def _place_page(
    text: PageText | None, rows: list[tuple[tuple[str, int], Mapping[str, Any]]]
) -> dict[tuple[str, int], list[Any]]:
    """Each row's cells' boxes (None for a cell not found), by row key."""
    if text is None or not rows:
        return {}
    page_text = _Visible(text.raw)
    out: dict[tuple[str, int], list[Any]] = {}
    cursor = 0
    for key, row in rows:
        spans = page_text.find_row(row, cursor)
        if spans is None:
            continue
        cursor = spans[-1][1]
        out[key] = [
            text.box(page_text.at[first], page_text.at[last - 1] + 1) for first, last in spans
        ]
    return out


class _Visible:
    """A page's text without its invisible characters, each mapped back to its index in
    PDFium's text (where character boxes are asked for)."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.at = [i for i, ch in enumerate(raw) if ch not in _INVISIBLE]
        self.text = "".join(raw[i] for i in self.at)
        self.lower = self.text.lower()

    def find_row(self, row: Mapping[str, Any], cursor: int) -> list[tuple[int, int]] | None:
        """The visible ranges of the row's cells, or None when they are not on the page."""
        parts = ["".join(ch for ch in str(c.get("text", "")) if ch not in _INVISIBLE)
                 for c in row.get("cells") or []]  # fmt: skip
        needle = "".join(parts)
        if not needle or not all(parts):
            return None
        tail = "".join(ch for ch in str(row.get("label", "")).lower() if ch not in _INVISIBLE)
        tail = tail[-LABEL_TAIL:]
        best: tuple[tuple[bool, bool], int] | None = None
        start = self.text.find(needle)
        while start >= 0:
            if self._bounded(start, start + len(needle)):
                labelled = bool(tail) and tail in self.lower[max(0, start - LABEL_REACH) : start]
                rank = (labelled, start >= cursor)
                if best is None or rank > best[0]:
                    best = (rank, start)
                    if rank == (True, True):
                        break
            start = self.text.find(needle, start + 1)
        if best is None:
            return None
        spans, at = [], best[1]
        for part in parts:
            spans.append((at, at + len(part)))
            at += len(part)
        return spans

    def _bounded(self, start: int, end: int) -> bool:
        """The match is whole cells: no digit or letter runs on into it from either side
        ("89" is not the end of "1,289")."""
        before = self.at[start] - 1
        if before >= 0 and self.raw[before] not in _INVISIBLE:
            if self.raw[before].isalnum() or self.raw[before] in ".,":
                return False
        after = self.at[end - 1] + 1
        if after < len(self.raw) and self.raw[after] not in _INVISIBLE:
            return not (self.raw[after].isdigit() or self.raw[after] in ".,%")
        return True


def _round(rects: Sequence[Sequence[float]]) -> list[float] | None:
    """The box round ``rects`` (each left, bottom, right, top)."""
    if not rects:
        return None
    left = min(r[0] for r in rects)
    bottom = min(r[1] for r in rects)
    right = max(r[2] for r in rects)
    top = max(r[3] for r in rects)
    return [round(v, PLACES) for v in (left, bottom, right, top)]
