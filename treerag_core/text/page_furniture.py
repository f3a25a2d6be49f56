"""Page furniture: running headers and footers and lone page numbers, one home for what
they look like.

Two readers look for them. :mod:`treerag_core.structure.furniture` drops them from the
pages as read, before headings are looked for (a running head is no heading). The section
texts keep the lines of a page as printed, so the tables read from them
(:mod:`.table_data`) look again with :func:`page_furniture`, which knows sections and their
pages rather than page lines: a running footer ("2023 FORM 10-K 45", "Table of Contents")
or a lone page number is no table row, no row's heading and no caption.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .numbers import header_cells, unit_of
from .tables import split_row

# A line that is only a page number: "12", "Page 3 of 40", "- 7 -", "iv".
PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?\d{1,4}(?:\s+of\s+\d{1,4})?$|^[-–—]\s*\d{1,4}\s*[-–—]$|^[ivxlc]{1,6}$",
    re.IGNORECASE,
)
# In a table's section: a line among a page's first or last EDGE_LINES lines whose shape
# (digits folded: "2023 FORM 10-K 45" and "2023 FORM 10-K 47" are one) sits at an edge of at
# least FURNITURE_SHARE of the pages, and of MIN_FURNITURE_PAGES of them. A fifth, not a half
# as for headings: a filing prints its footer on every other page, or only on pages of text.
EDGE_LINES = 2
FURNITURE_SHARE = 0.2
MIN_FURNITURE_PAGES = 3
PAGE_DIGITS = 4  # a page number has at most this many digits


def fold_digits(line: str) -> str:
    """A line's shape: its words, lower-cased, with every number folded to ``#`` ("Page 3"
    and "Page 4" are one running footer)."""
    return re.sub(r"\d+", "#", " ".join(line.lower().split()))


def page_furniture(flat: Mapping[str, Mapping[str, Any]]) -> dict[str, list[tuple[int, int]]]:
    """Where each section's text prints page furniture: ``{node_id: [(start, end), …]}``,
    the character ranges of running headers and footers and of lone page numbers.

    A line that reads as a table row is furniture only when it ends in its page's number:
    one whole-number cell that keeps the same distance from the page it is printed on
    ("2023 FORM 10-K 45" on page 49, "… 47" on page 51); a row of the same label printed at
    the top of many pages ("Opening balance 1,250") is data."""
    pages = _page_lines(flat)
    edges = {p: lines[:EDGE_LINES] + lines[-EDGE_LINES:] for p, lines in pages.items()}
    seen: dict[str, set[int]] = {}
    for page, lines in edges.items():
        for entry in lines:
            seen.setdefault(_shape(entry[3], page), set()).add(page)
    least = max(MIN_FURNITURE_PAGES, FURNITURE_SHARE * len(pages))
    out: dict[str, list[tuple[int, int]]] = {}
    for page, lines in edges.items():
        for node_id, start, end, line in dict.fromkeys(lines):
            text = " ".join(line.split())
            if PAGE_NUMBER.match(text) or (
                len(seen[_shape(line, page)]) >= least
                and header_cells(text) is None
                and not unit_of(text)
            ):
                out.setdefault(node_id, []).append((start, end))
    return out


def _page_lines(
    flat: Mapping[str, Mapping[str, Any]],
) -> dict[int, list[tuple[str, int, int, str]]]:
    """Each page's non-blank lines, in order: (node_id, start, end, line)."""
    pages: dict[int, list[tuple[str, int, int, str]]] = {}
    for node_id, node in flat.items():
        text = str(node.get("text") or "")
        marks = list(node.get("page_marks") or [])
        page, start = node.get("page_start"), 0
        for line in text.split("\n"):
            while marks and marks[0][0] <= start:
                page = marks.pop(0)[1]
            if line.strip() and isinstance(page, int):
                pages.setdefault(page, []).append((node_id, start, start + len(line), line))
            start += len(line) + 1
    return pages


def _shape(line: str, page: int) -> str:
    """What repeats from page to page: a line's words with numbers folded; a row's, only
    when it ends in a page number (with that number's distance from the page), else the row
    itself (never repeated as furniture)."""
    parsed = split_row(" ".join(line.split()))
    if parsed is None:
        return fold_digits(line)
    cells = parsed[1]
    if len(cells) == 1 and cells[0].text.isdigit() and len(cells[0].text) <= PAGE_DIGITS:
        return f"{fold_digits(parsed[0])} @{page - int(cells[0].text)}"
    return f"row:{page}:{line}"


def blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with ``spans`` turned to spaces: offsets (and so pages) stay as they were."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)
