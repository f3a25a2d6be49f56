"""Sheets answered by aggregation: filters and a sum, an average or a count over their rows.

"Total revenue of the North region in Q3", "Average price of the kettles", "How many orders
were shipped late?": over a sheet of thousands of rows no single row answers; the answer is
the rows whose cells the question names (North, Q3, kettle, late: a text cell's value said
in the question, singular or plural) aggregated over the column it names (revenue, price),
or counted. Plain loops over the rows: a 50,000-row sheet is read and aggregated in well
under a second (``bench/results/sheet_aggregate.md``), so no query engine is needed.
Every sheet section of the document is read, not only those navigation chose: a long sheet
is cut into parts, and a total needs them all. The loop over the rows is one function
(:func:`aggregate_rows`): the offline answer reads its filters from the question, the answer
model names them in a block (:mod:`treerag_core.answer.sheets`), told the sheet's columns
and their values (:func:`sheet_columns`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ...text.sheet_records import COLUMNS, record_lines
from ...text.table_data import page_at
from .question import stem, stems

AGGREGATES = (
    ("count", re.compile(r"\bhow many\b|\bnumber of\b|\bcount\b", re.I)),
    ("average", re.compile(r"\baverage\b|\bmean\b|\bavg\b", re.I)),
    ("sum", re.compile(r"\btotal\b|\bsum\b|\bin all\b|\baltogether\b", re.I)),
)
# Rows shown under the answer as the ones used (all are counted).
SHOWN_ROWS = 5
# A text column with at most this many values is a category: the answer model is told its
# values, so a filter it writes names one the sheet holds ("North", not "Northern"). More
# values are an id or free text (an order number), told as such.
LISTED_VALUES = 24


@dataclass
class Aggregate:
    """One aggregation's result, with the rows it used."""

    kind: str
    measure: str  # the column aggregated ("" for a count)
    filters: list[tuple[str, str]]  # (column, value)
    value: Decimal | None = None
    rows: list[tuple[str, int, dict[str, str]]] = field(default_factory=list)  # node, offset, cells
    pages: dict[str, int | None] = field(default_factory=dict)  # the parts its rows are in
    count: int = 0  # the rows used (all of them, not only those shown)


Records = list[tuple[str, int, list[str], dict[str, str], Any]]


def aggregate(
    question: str, document: Mapping[str, Any], records: Records | None = None
) -> Aggregate | None:
    """The aggregate ``question`` asks of the document's sheets, or None when it asks none
    (no aggregate word, no sheet, or no column or value of a sheet named). ``records``: the
    document's :func:`sheet_records`, when the caller keeps them between questions."""
    kind = next((k for k, rx in AGGREGATES if rx.search(question)), "")
    if not kind:
        return None
    counted = re.search(r"\bhow many (\w+)", question, re.I)
    asked = set(stems(question)) | {stem(w) for w in re.findall(r"\w+", question.lower())}
    records = sheet_records(document) if records is None else records
    if not records:
        return None
    names = records[0][2]
    if sum(1 for n in names if re.fullmatch(r"(?:FY)?\s?(?:19|20)\d\d", n.strip())) >= 2:
        return None  # a table of periods: its figures are read, not aggregated
    measure = _measure(names, asked, records) if kind != "count" else ""
    if kind == "count" and counted:  # "how many units were sold": the units column summed
        measure = _measure(names, {stem(counted.group(1).lower())}, records)
        kind = "sum" if measure else kind
    if kind != "count" and not measure:
        return None
    filters = _filters(records, names, asked, measure)
    if not filters and kind == "count":
        return None
    return aggregate_rows(records, kind, measure, filters)


def aggregate_rows(
    records: Records, kind: str, measure: str, filters: list[tuple[str, str]]
) -> Aggregate:
    """The one loop over a sheet's rows: those whose cells hold every ``filters`` value
    (compared without case or extra spaces), their ``measure`` summed or averaged (a row
    whose measure is no figure is left out), or counted. Read from a question by
    :func:`aggregate`, or from a block the answer model wrote
    (:mod:`treerag_core.answer.sheets`)."""
    result = Aggregate(kind, measure, filters)
    total, n = Decimal(0), 0
    wanted = [(col, norm(val)) for col, val in filters]
    for node_id, offset, _names, cells, page in records:
        if any(norm(cells.get(col, "")) != val for col, val in wanted):
            continue
        if measure:
            amount = cell_number(cells.get(measure, ""))
            if amount is None:
                continue
            total += amount
        n += 1
        result.pages[node_id] = result.pages.get(node_id, page)
        if len(result.rows) < SHOWN_ROWS:
            result.rows.append((node_id, offset, cells))
    result.value = (
        Decimal(n) if kind == "count" else (total / n if kind == "average" and n else total)
    )
    if kind == "average" and n == 0:
        result.value = None
    result.count = n
    return result


def sheet_records(document: Mapping[str, Any]) -> Records:
    """Every record of the document's first sheet layout: (node, offset, columns, cells, page);
    a long sheet's later parts are read under the columns its first part printed. Cells stay
    text: only the measure's are read as figures."""
    out = []
    layout: list[str] | None = None
    for node_id, node in (document.get("flat_nodes") or {}).items():
        text = str(node.get("text") or "")
        continues = bool(layout) and text.lstrip().startswith(f"{(layout or [''])[0]} ")
        if COLUMNS not in text and not continues:
            continue
        for start, names, found in record_lines(text, layout if continues else None):
            layout = layout or names
            if found is not None and names == layout:
                cells = {names[0]: found[0], **found[1]}
                out.append((node_id, start, names, cells, page_at(node, start)))
    return out


@dataclass(frozen=True)
class SheetColumn:
    """A sheet's column as the answer model is told it: whether it holds figures, and its
    values when it is a category."""

    name: str
    numeric: bool
    values: tuple[str, ...] = ()  # sorted; empty when it holds figures or too many values


def sheet_columns(records: Records) -> list[SheetColumn]:
    """The columns of a sheet's records, each with what a filter or a measure may name."""
    if not records:
        return []
    names = records[0][2]
    sample = [r[3] for r in records[:50]]
    out = []
    for name in names:
        numeric = sum(1 for cells in sample if cell_number(cells.get(name, "")) is not None)
        if numeric * 2 > len(sample):
            out.append(SheetColumn(name, True))
            continue
        values: set[str] = set()
        for _node, _offset, _names, cells, _page in records:
            value = cells.get(name, "")
            if value:
                values.add(value)
            if len(values) > LISTED_VALUES:
                break
        listed = tuple(sorted(values)) if len(values) <= LISTED_VALUES else ()
        out.append(SheetColumn(name, False, listed))
    return out


def _measure(names: list[str], asked: set[str], records: list) -> str:
    """The numeric column the question names ("revenue", "price")."""
    sample = [r[3] for r in records[:50]]
    for name in names:
        numeric = sum(1 for cells in sample if cell_number(cells.get(name, "")) is not None)
        if numeric * 2 > len(sample) and set(stems(name)) & asked:
            return name
    return ""


def _filters(
    records: list, names: list[str], asked: set[str], measure: str
) -> list[tuple[str, str]]:
    """(column, value) for each text column one of whose values the question says."""
    found = []
    for name in names:
        if name == measure:
            continue
        values = {cells.get(name, "") for _, _, _, cells, _ in records}
        if len(values) > max(2, len(records) // 2):
            continue  # an id or a free-text column: no value of it is a category
        said = [v for v in values if v and cell_number(v) is None and _said(v, asked)]
        if len(said) == 1:
            found.append((name, said[0]))
    return found


def _said(value: str, asked: set[str]) -> bool:
    words = stems(value)
    return bool(words) and all(w in asked for w in words)


def norm(text: str) -> str:
    """A cell's value as filters compare it: without case or extra spaces."""
    return " ".join(text.lower().split())


def cell_number(text: str) -> Decimal | None:
    """A cell as a figure ("1,500", "$12.50"), or None when it is text."""
    cleaned = text.replace(",", "").replace("$", "").replace("€", "").replace("£", "").strip()
    if re.fullmatch(r"-?\d+(?:\.\d+)?", cleaned):
        return Decimal(cleaned)
    return None
