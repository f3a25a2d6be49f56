"""Which lines printed between a table's rows head the rows below them.

A statement groups its rows under lines with no figures ("Current assets:", "Revenues"), a
cash-flow statement under "Adjustments to reconcile net income to net cash provided by
operations:", an 8-K's vote results under each proposal ("(3) The shareholders approved, on an
advisory basis, the company's executive compensation:" over "For 901,248,622"). A row's
label alone ("For", "Diluted", "Depreciation") does not say what it counts; with its heading
it does, for the tables kept as data and for the offline answer alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .numbers import header_cells, unit_of
from .sentences import ENUMERATOR
from .tables import LEAD_ENDS, TERMINAL, Row, split_row

# A line with no figures, this short, above rows is the heading of the rows below it.
MAX_PARENT_WORDS = 8
# …and a longer one that leads into them with a colon, perhaps numbered ("(3) …:").
MAX_LEAD_IN_WORDS = 30
# A row labelled like this closes the group its heading opened.
_TOTAL = re.compile(r"^(?:total|net)\b", re.I)


def with_headings(text: str, rows: Sequence[Row]) -> list[Row]:
    """``rows`` (read from ``text``), each table's rows given the headings above them."""
    tables: dict[int, list[Row]] = {}
    for row in rows:
        tables.setdefault(row.table, []).append(row)
    for group in tables.values():
        _head(text, group)
    return list(rows)


def _head(text: str, group: list[Row]) -> None:
    """One table's rows: a heading holds until the next one, or until a total closes it
    ("Total current assets" closes "Current assets:")."""
    parents: list[str] = []
    end = None
    for row in group:
        if end is None:
            # above a table's first row, only the line just before it can head it (further
            # up are the header, the units line and the title)
            gap = text[: max(0, row.start)].rstrip("\n").rsplit("\n", 1)[-1]
        else:
            gap = text[max(0, end) : max(0, row.start)]
        heading = _heading_between(gap)
        if heading:
            parents = [heading]
        row.parents = list(parents)
        if (
            _TOTAL.match(row.label)
            and parents
            and row.label.lower().endswith(parents[-1].lower().rstrip(":"))
        ):
            parents = []
        end = row.end


def _heading_between(gap: str) -> str:
    """The last line between two rows that heads the rows below it, if any."""
    for line in reversed(_unwrapped(gap)):
        if split_row(line) or header_cells(line) is not None or unit_of(line):
            continue
        line = ENUMERATOR.sub("", line)
        words = line.split()
        letters = sum(1 for w in words if w[:1].isalpha())
        longest = MAX_LEAD_IN_WORDS if line.endswith(":") else MAX_PARENT_WORDS
        if (
            len(words) <= longest
            and line[:1].isupper()
            and letters * 2 > len(words)
            and line[-1:] not in TERMINAL
        ):
            return line.rstrip(":").strip()
        return ""
    return ""


def _unwrapped(gap: str) -> list[str]:
    """The gap's lines, a line the PDF wrapped ("… the holding of an advisory vote every" /
    "year:") joined to the one it continues."""
    lines: list[str] = []
    for line in (ln.strip() for ln in gap.split("\n")):
        if lines and line[:1].islower() and lines[-1][-1:] not in LEAD_ENDS:
            lines[-1] = f"{lines[-1]} {line}"
        elif line:
            lines.append(line)
    return lines
