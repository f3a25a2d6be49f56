"""Tables as data, once for every format that has them: spreadsheets (XLSX, ODS, CSV) and
the tables of slides and OpenDocument text.

A sheet is read as records: its header row is found (under any title rows above it, with a
row of merged group headings joined to the row below), and each row below it is printed as
one self-describing line, ``Region North: Units 412, Revenue 48,200.``: its first cell, then every
other cell after its column's name. A question about a value then finds the row and the
column in one line, which the extractive answer quotes as a sentence and a model reads
without the header (a long sheet is cut into parts, and only the first part has it). A
table without a header row is printed as ``a | b | c`` rows.

Each sheet is a page (its number the sheet's, its label the sheet's name) headed by its
name; rows past ``Limits.max_sheet_rows`` and cells past ``Limits.max_sheet_cells`` are not
read, and a section under the sheet says so.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ...limits import Limits
from ...structure.pages import ReadResult
from ...tree.sections import escape_line, heading, join_pages

# A value that is a number or a date as printed ("48,200", "-3.5%", "$1,200", "2024-03-01"):
# such a row is data, never a header.
_NUMERIC = re.compile(r"^[-+−(]?[$€£¥]?\s?\d[\d,.\s]*%?\)?$|^\d{4}-\d\d-\d\d(?:[ T][\d:]+)?$")
_YEAR = re.compile(r"^(?:FY\s?)?(?:19|20)\d\d$")  # a year heads a column as a word does
_TERMINAL = ".!?"
# A line names at most this many characters of one cell: a cell holding a whole report is
# still read, in the sheet's own section, but a record line stays a line.
MAX_CELL_CHARS = 2000


def cell_text(value: object, number_format: str = "General") -> str:
    """A cell as its sheet shows it: dates as ISO dates, numbers in their format's decimals,
    thousands separators and percent sign, text on one line."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0, 0):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="minutes")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        return value.isoformat(timespec="minutes")
    if isinstance(value, int | float):
        return number_text(float(value), number_format or "General")
    return " ".join(str(value).split())[:MAX_CELL_CHARS]


def number_text(value: float, number_format: str = "General") -> str:
    """``48200`` under ``#,##0`` is ``48,200``; under ``0.0%`` 0.125 is ``12.5%``; General
    prints the number as it is (no separators: a year stays 2024)."""
    fmt = number_format.split(";", 1)[0]
    fmt = re.sub(r'"[^"]*"|\[[^\]]*\]', "", fmt)  # quoted text and [colour] / [$€-407]
    if fmt.strip().lower() in ("general", "", "@"):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.10g}"
    decimals = len(m.group(1)) if (m := re.search(r"\.([0#]+)", fmt)) else 0
    percent = "%" in fmt
    shown = value * 100 if percent else value
    grouped = "," in fmt.split(".", 1)[0]
    text = f"{shown:,.{decimals}f}" if grouped else f"{shown:.{decimals}f}"
    sign = next((c for c in "$€£¥" if c in number_format), "")
    if sign and text.startswith("-"):
        text = "-" + sign + text[1:]
    elif sign:
        text = sign + text
    return text + ("%" if percent else "")


def is_numeric(text: str) -> bool:
    return bool(_NUMERIC.match(text))


def column_letter(index: int) -> str:
    """0 → A, 26 → AA: how a sheet names a column without a heading."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _filled(cells: list[str]) -> list[str]:
    return [c for c in cells if c]


def _texty(cells: list[str]) -> bool:
    """At least two different words and no figure but years: a header can look like this."""
    filled = _filled(cells)
    return len(set(filled)) >= 2 and not any(is_numeric(c) and not _YEAR.match(c) for c in filled)


def _heads(cells: list[str], below: list[str] | None, known: bool) -> bool:
    """``cells`` is a header row: texty, over a row of values; a second header after a
    blank row (a new table on the same sheet) only above a row with figures."""
    if not _texty(cells) or not below or len(_filled(below)) < 2:
        return False
    return not known or any(is_numeric(c) for c in below)


def _grouped(top: list[str], below: list[str]) -> list[str] | None:
    """A row of group headings over the real header (``2023`` over ``Units | Revenue``,
    merged or left blank across the group): each column named ``2023 Units``; None when
    ``top`` is a plain header."""
    spread = any(
        (top[j] == top[j - 1] or not top[j]) and top[j - 1] for j in range(1, len(top))
    )  # a heading merged (repeated) or left blank over the columns after it
    if not below or not spread or not _texty(below):
        return None
    names, group = [], ""
    for j in range(max(len(top), len(below))):
        group = (top[j] if j < len(top) else "") or group
        sub = below[j] if j < len(below) else ""
        names.append(" ".join(dict.fromkeys(w for w in (group, sub) if w)))
    return names


def record_line(cells: list[str], columns: list[str]) -> str:
    """``Region North: Units 412, Revenue 48,200.``: the first filled cell after its
    column's name (a question names the row by either: "order ORD-042", "North"), then each
    other filled cell after its column's name (its letter when the header left it blank)."""
    at = [j for j, c in enumerate(cells) if c]
    key_column = columns[at[0]] if at[0] < len(columns) else ""
    key = f"{key_column} {cells[at[0]]}" if key_column else cells[at[0]]
    parts = []
    for j in at[1:]:
        name = (columns[j] if j < len(columns) else "") or f"column {column_letter(j)}"
        parts.append(f"{name} {cells[j]}")
    line = f"{key}: {', '.join(parts)}" if parts else key
    return line if line[-1:] in _TERMINAL else line + "."


def table_lines(rows: Iterable[list[str]]) -> Iterator[str]:
    """A table's lines: title rows as they are, ``Columns: …`` for each header found, then
    a record line per row (``a | b | c`` rows where no header was found)."""
    columns: list[str] | None = None
    after_blank = True
    skip = False
    for cells, below in _with_next(_trimmed(row) for row in rows):
        if skip:
            skip = False
            continue
        if not cells:
            after_blank = True
            continue
        if after_blank and _heads(cells, below, columns is not None):
            grouped = _grouped(cells, below or [])
            columns, skip = (grouped, True) if grouped else (cells, False)
            after_blank = False
            yield "Columns: " + " | ".join(_filled(columns))
            yield ""  # a paragraph of its own: never read as the start of the first record
            continue
        after_blank = False
        if columns is None:  # a title merged across columns is said once
            yield " | ".join(dict.fromkeys(_filled(cells)))
        else:
            yield record_line(cells, columns)


def _trimmed(row: list[str]) -> list[str]:
    cells = [c.strip() for c in row]
    while cells and not cells[-1]:
        cells.pop()
    return cells


def _with_next(rows: Iterator[list[str]]) -> Iterator[tuple[list[str], list[str] | None]]:
    """Each row with the next non-empty one (a header is known by what is below it)."""
    buffered: list[list[str]] = []
    for row in rows:
        buffered.append(row)
        if row:
            while len(buffered) > 1:
                yield buffered.pop(0), row
    for row in buffered:
        yield row, None


@dataclass
class Sheet:
    """One sheet as a reader hands it over: its cells already as text, merged areas filled
    with their value, read lazily so the limits stop the reading itself."""

    name: str
    rows: Iterable[list[str]]
    hidden: bool = False


@dataclass
class _Budget:
    """What a workbook may still spend, and what was cut."""

    limits: Limits
    cells: int = 0
    warnings: list[str] = field(default_factory=list)
    cut: str = ""  # why the sheet being read was cut


def read_sheets(sheets: Iterable[Sheet], limits: Limits, name: str) -> ReadResult:
    """Each visible sheet a page headed by its name; hidden sheets skipped and said."""
    budget = _Budget(limits)
    pages: list[str] = []
    labels: list[str] = []
    hidden: list[str] = []
    for sheet in sheets:
        if sheet.hidden:
            hidden.append(sheet.name)
            continue
        if budget.cells >= limits.max_sheet_cells:
            budget.warnings.append(
                f"Sheet {sheet.name!r} was not read: the cell limit was reached."
            )
            continue
        budget.cut = ""
        lines = [heading(sheet.name, 1)]
        lines += [escape_line(line) for line in table_lines(_bounded(sheet, budget))]
        if budget.cut:
            budget.warnings.append(f"Sheet {sheet.name!r} was cut: {budget.cut}.")
            lines += [
                "",
                heading(f"{sheet.name}: rows not read", 2),
                f"This sheet is larger than the limits: {budget.cut}. The rows after them "
                "were not read.",
            ]
        pages.append("\n".join(lines))
        labels.append(sheet.name)
    if hidden:
        shown = ", ".join(repr(h) for h in hidden)
        budget.warnings.append(f"Hidden sheets were not read: {shown}.")
    return ReadResult(
        text=join_pages(pages),
        page_count=len(pages),
        page_labels=labels,
        page_unit="sheet",
        structure_source="sheets",
        warnings=budget.warnings,
    )


def _bounded(sheet: Sheet, budget: _Budget) -> Iterator[list[str]]:
    """The sheet's rows up to the row and cell limits (``budget.cut`` says why it stopped)."""
    limits = budget.limits
    for number, row in enumerate(sheet.rows, 1):
        if number > limits.max_sheet_rows:
            why = (
                f"only its first {limits.max_sheet_rows:,} rows were read (TREERAG_MAX_SHEET_ROWS)"
            )
            budget.cut = why
            return
        budget.cells += len(row)
        if budget.cells > limits.max_sheet_cells:
            why = (
                f"the workbook's first {limits.max_sheet_cells:,} cells were read "
                f"(TREERAG_MAX_SHEET_CELLS), up to row {number - 1:,} of this sheet"
            )
            budget.cut = why
            return
        yield row
