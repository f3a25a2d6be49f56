"""The answer model's sheet aggregates, done by code: it names the column and the rows' values,
the app adds up every row.

A sheet of thousands of rows reaches the answer model as a few sections of its record
lines, so a total the model adds up from them is a guess (the support check sets it aside
for the offline answer). Instead, the prompt names each sheet it quotes with its columns
and each category column's values (:func:`sheets_note`), and the model replies with a
fenced block::

    {"aggregate": "sum", "sheet": "orders.csv", "column": "Revenue",
     "where": {"Region": "North", "Quarter": "Q3"}}

computed here over every row of the sheet by the offline engine's own loop
(:func:`.offline.aggregate.aggregate_rows`) and shown as the offline aggregate answer shows
it (:func:`.offline.computed.render_aggregate`): the result, the rows used, each cited. A
sheet, a column or a value the sheet lacks gives a sentence saying so, never a number.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from ..navigate.ranking import remembered
from ..text.messages import message
from ..text.sheet_records import COLUMNS
from .context import Prepared
from .offline.aggregate import (
    Records,
    SheetColumn,
    aggregate_rows,
    norm,
    sheet_columns,
    sheet_records,
)
from .offline.compute import number
from .offline.computed import render_aggregate

# Told after the quotes, only when a sheet was quoted; one line per sheet follows.
SHEETS_NOTE = (
    "Sheets: the sections quote only some rows of the sheets below, so never add up, "
    "average or count rows yourself. For a sum, an average or a count over a sheet's rows, "
    "add a fenced block naming the column and the values the rows must have:\n"
    "```json\n"
    '{"aggregate": "sum", "sheet": "orders.csv", "column": "Revenue", '
    '"where": {"Region": "North", "Quarter": "Q3"}}\n'
    "```\n"
    "'aggregate' is sum, average or count (a count needs no column); 'where' gives one "
    "value for each column filtered, as the sheet writes it (leave it out for every row). "
    "The app computes it over every row of the sheet and shows the result with the rows "
    "used, cited. The sheets, their columns and the values of their category columns:"
)
_KINDS = {"sum": "sum", "total": "sum", "average": "average", "mean": "average",
          "avg": "average", "count": "count", "number": "count"}  # fmt: skip


@dataclass(frozen=True)
class QuotedSheet:
    """A sheet some quoted section belongs to: every row of it, not only those quoted."""

    name: str  # its file's name, as the prompt and a block name it
    doc_id: str
    refs: tuple[str, ...]  # the sections quoting it (S1, S3)
    records: Records
    columns: tuple[SheetColumn, ...]


def quoted_sheets(prepared: Prepared) -> list[QuotedSheet]:
    """The sheets the answer's sections quote parts of (a document's first sheet layout,
    as the offline aggregate reads it); each document's rows are read once per memory."""
    out = []
    for doc_id, document in prepared.documents.items():
        flat = document.get("flat_nodes") or {}
        if not any(COLUMNS in str(node.get("text") or "") for node in flat.values()):
            continue  # no sheet in it: nothing to read
        stamp = str(document.get("indexed_at", ""))
        records = remembered(prepared.memory, ("sheet-records", doc_id, stamp),
                             partial(sheet_records, document))  # fmt: skip
        parts = {node_id for node_id, *_rest in records}
        refs = tuple(
            str(r.get("ref")) for r in prepared.references
            if str(r.get("doc_id", "")) == doc_id
            and ({r.get("node_id")} | {s.get("node_id") for s in r.get("spans") or []}) & parts
        )  # fmt: skip
        if not refs:
            continue
        columns = remembered(prepared.memory, ("sheet-columns", doc_id, stamp),
                             partial(sheet_columns, records))  # fmt: skip
        name = str(document.get("file_name") or doc_id)
        out.append(QuotedSheet(name, doc_id, refs, records, tuple(columns)))
    return out


def sheets_note(prepared: Prepared) -> str:
    """What the answer model is told of the sheets its sections quote (empty when none):
    how to ask for an aggregate, then each sheet's rows and columns."""
    sheets = quoted_sheets(prepared)
    if not sheets:
        return ""
    lines = [SHEETS_NOTE]
    for sheet in sheets:
        described = "; ".join(_described(c) for c in sheet.columns)
        where = ", ".join(sheet.refs)
        lines.append(
            f"- {sheet.name} ({len(sheet.records):,} rows; quoted in {where}): {described}"
        )
    return "\n".join(lines)


def _described(column: SheetColumn) -> str:
    if column.numeric:
        return f"{column.name} (figures)"
    if column.values:
        return f"{column.name}: " + " | ".join(column.values)
    return f"{column.name} (text)"


def aggregated(prepared: Prepared, item: dict[str, Any], language: str | None = None) -> str:
    """The aggregate a block asks for, computed over every row of its sheet and shown as the
    offline aggregate answer is; or the sentence saying why it cannot be."""
    kind = _KINDS.get(str(item.get("aggregate") or "").strip().lower(), "")
    column = " ".join(str(item.get("column") or "").split())
    head = f"{message('computed.word_' + (kind or 'sum'), language)} {column}".strip()
    sheet, found, problem = _read(item, kind, column, quoted_sheets(prepared), language)
    if sheet is None or found is None:
        return message("note.not_computed", language, head=head, problem=problem)
    result = aggregate_rows(sheet.records, kind, *found)
    count = result.count
    if result.value is not None:  # what the app counted, for the support check
        places = 0 if result.value == result.value.to_integral_value() else 2
        parts = len(result.pages)  # the sheet's parts the rows are in
        prepared.computed += [number(result.value, places), str(count), str(parts),
                              str(count - len(result.rows))]  # fmt: skip
    return render_aggregate(result, sheet.doc_id, prepared, language, note="")


def _read(
    item: dict[str, Any], kind: str, column: str, sheets: list[QuotedSheet], language: str | None
) -> tuple[QuotedSheet | None, tuple[str, list[tuple[str, str]]] | None, str]:
    """The block's sheet, and its measure and filters as the sheet names them; or why not."""
    said = partial(message, language=language)
    if not kind:
        return None, None, said("sheet.kind", kind=str(item.get("aggregate") or ""))
    sheet = _sheet(sheets, str(item.get("sheet") or ""))
    if sheet is None:
        names = ", ".join(s.name for s in sheets) or "–"
        return None, None, said("sheet.no_sheet", sheet=item.get("sheet") or "", sheets=names)
    by_name = {norm(c.name): c for c in sheet.columns}
    names = ", ".join(c.name for c in sheet.columns)
    measure = by_name.get(norm(column)) if column else None
    if column and measure is None:
        return sheet, None, said("sheet.no_column", sheet=sheet.name, column=column, columns=names)
    if kind != "count" and measure is None:
        return sheet, None, said("sheet.no_measure", sheet=sheet.name, columns=names)
    if kind != "count" and measure is not None and not measure.numeric:
        return sheet, None, said("sheet.no_figures", sheet=sheet.name, column=column)
    filters = []
    where = item.get("where")
    for key, value in (where if isinstance(where, dict) else {}).items():
        wanted = by_name.get(norm(str(key)))
        if wanted is None:
            return sheet, None, said("sheet.no_column", sheet=sheet.name, column=key,
                                     columns=names)  # fmt: skip
        if isinstance(value, dict) or (isinstance(value, list | tuple) and len(value) != 1):
            return sheet, None, said("sheet.one_value", column=wanted.name)
        text = " ".join(str(value[0] if isinstance(value, list | tuple) else value).split())
        held = _held(sheet, wanted, text)
        if held is None:
            key_ = "sheet.no_value_listed" if wanted.values else "sheet.no_value"
            return sheet, None, said(key_, sheet=sheet.name, column=wanted.name, value=text,
                                     values=", ".join(wanted.values))  # fmt: skip
        filters.append((wanted.name, held))
    return sheet, (measure.name if measure and kind != "count" else "", filters), ""


def _sheet(sheets: list[QuotedSheet], named: str) -> QuotedSheet | None:
    """The sheet a block names by its file's name or a section quoting it; the only sheet
    quoted when it names none."""
    if not named.strip():
        return sheets[0] if len(sheets) == 1 else None
    wanted = norm(named).strip("[]")
    return next(
        (s for s in sheets if norm(s.name) == wanted or wanted in {norm(r) for r in s.refs}),
        None,
    )


def _held(sheet: QuotedSheet, column: SheetColumn, value: str) -> str | None:
    """``value`` as the sheet writes it in ``column`` (case aside), or None when no row has it."""
    wanted = norm(value)
    if column.values:
        return next((v for v in column.values if norm(v) == wanted), None)
    for _node, _offset, _names, cells, _page in sheet.records:
        if norm(cells.get(column.name, "")) == wanted:
            return str(cells.get(column.name))
    return None
