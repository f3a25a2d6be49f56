"""Each PDF table cell's box on its page, added to the stored tables at indexing.

A computed answer cites the cells it used; with their boxes the evidence can outline the
very figures on the page instead of the lines of a whole passage. Tables are read from the
section texts (:mod:`treerag_core.text.table_data`), which keep no positions, so the boxes
are found here once, with the PDF at hand: on the row's page, PDFium's text is searched for
the row's cells as printed, one after the other (spaces ignored: "$ 5,363" is the cell
"$5,363"), preferring the place the row's label is printed just before, then the first
place after the previous row's. Each cell gets ``"box": [left, bottom, right, top]`` in PDF
points (PDF's orientation, origin bottom-left; what the evidence's highlights use), rounded
to 0.1 pt. A cell not found (a scanned page, text PDFium orders differently) gets no box.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .pdfium_pages import PDFIUM_LOCK

# Characters of PDFium's text that print nothing: spaces, line breaks, the hyphen mark.
_INVISIBLE = frozenset(" \t\r\n\f\x00\ufffe\u00a0")
# How far before the cells (in visible characters) the label's end may be printed: dot
# leaders and currency signs sit between them.
LABEL_REACH = 60
# The label's last visible characters looked for there.
LABEL_TAIL = 12
PLACES = 1  # decimals kept: a tenth of a point is finer than any highlight needs


def place_cells(data: bytes, tables: Iterable[dict[str, Any]]) -> int:
    """Give the cells of ``tables`` (read from the PDF ``data``) their boxes; returns how
    many cells were placed. A PDF PDFium cannot open leaves every cell without a box."""
    by_page: dict[int, list[dict[str, Any]]] = {}
    for table in tables:
        if table.get("sheet"):
            continue
        for row in table.get("rows") or []:
            if isinstance(row.get("page"), int):
                by_page.setdefault(row["page"], []).append(row)
    if not by_page:
        return 0
    placed = 0
    try:
        import pypdfium2 as pdfium

        with PDFIUM_LOCK:
            document = pdfium.PdfDocument(data, password="")
            try:
                for number, rows in sorted(by_page.items()):
                    if 1 <= number <= len(document):
                        placed += _place_page(document, number, rows)
            finally:
                document.close()
    except Exception:  # noqa: BLE001 - boxes are an aid: a PDF PDFium refuses has none
        return placed
    return placed


def _place_page(document: Any, number: int, rows: list[dict[str, Any]]) -> int:
    page = document[number - 1]
    try:
        textpage = page.get_textpage()
        try:
            page_text = _Visible(textpage.get_text_range())
            placed, cursor = 0, 0
            for row in rows:
                spans = page_text.find_row(row, cursor)
                if spans is None:
                    continue
                cursor = spans[-1][1]
                for cell, (first, last) in zip(row["cells"], spans, strict=True):
                    box = _box(textpage, page_text.at[first], page_text.at[last - 1] + 1)
                    if box is not None:
                        cell["box"] = box
                        placed += 1
            return placed
        finally:
            textpage.close()
    finally:
        page.close()


class _Visible:
    """A page's text without its invisible characters, each mapped back to its index in
    PDFium's text (where character boxes are asked for)."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.at = [i for i, ch in enumerate(raw) if ch not in _INVISIBLE]
        self.text = "".join(raw[i] for i in self.at)
        self.lower = self.text.lower()

    def find_row(self, row: dict[str, Any], cursor: int) -> list[tuple[int, int]] | None:
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


def _box(textpage: Any, start: int, end: int) -> list[float] | None:
    """The box round PDFium's rectangles of characters ``start``–``end``."""
    count = textpage.count_rects(start, end - start)
    rects = [textpage.get_rect(i) for i in range(count)]
    if not rects:
        return None
    left = min(r[0] for r in rects)
    bottom = min(r[1] for r in rects)
    right = max(r[2] for r in rects)
    top = max(r[3] for r in rects)
    return [round(v, PLACES) for v in (left, bottom, right, top)]
