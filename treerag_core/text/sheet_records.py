"""Sheets and CSV files as tables again: their record lines read back into rows × columns.

The readers print each sheet row as one self-describing line under the sheet's
``Columns: Region | Units | Revenue`` line (``Region North: Units 412, Revenue 48,200.``, see
:mod:`treerag_core.read.readers.tabular`), so a model and the extractive answer can read a row
without its header. For arithmetic the rows are wanted as data again: this module cuts each
record back into its cells by the column names the ``Columns:`` line gives, in order (a value
may hold commas, "1,500"; a blank cell is simply left out of the line), and keeps the year a
column stands for when its name is one ("2023", "FY2023").
"""

from __future__ import annotations

import re
from typing import Any

from .numbers import parse_cell, years_in

COLUMNS = "Columns: "
_RECORD_END = re.compile(r"\.$")


def sheet_tables(text: str) -> list[dict[str, Any]]:
    """The tables of one section's text printed as records: ``{"columns", "rows"}`` each,
    rows as ``{"label", "cells", "years", "columns", "offset"}``."""
    tables: list[dict[str, Any]] = []
    names: list[str] = []
    offset = 0
    for line in text.split("\n"):
        start, offset = offset, offset + len(line) + 1
        stripped = line.strip()
        if stripped.startswith(COLUMNS):
            names = [n.strip() for n in stripped[len(COLUMNS) :].split(" | ")]
            tables.append({"columns": names, "rows": []})
            continue
        if not names or not stripped:
            continue
        row = record(stripped, names)
        if row is not None:
            tables[-1]["rows"].append({**row, "offset": start})
    return [t for t in tables if t["rows"]]


def record(line: str, names: list[str]) -> dict[str, Any] | None:
    """One record line cut into its cells (None when it is not a record of ``names``)."""
    first = f"{names[0]} "
    if not line.startswith(first) or ": " not in line:
        return None
    label, _, body = line[len(first) :].partition(": ")
    body = _RECORD_END.sub("", body)
    values: dict[str, str] = {}
    spots = []
    at = 0
    for name in names[1:]:
        marker = f"{name} " if at == 0 and body.startswith(f"{name} ") else f", {name} "
        found = 0 if marker == f"{name} " else body.find(marker, at)
        if found < 0:
            continue
        spots.append((name, found, found + len(marker)))
        at = found + len(marker)
    for i, (name, _start, value_at) in enumerate(spots):
        end = spots[i + 1][1] if i + 1 < len(spots) else len(body)
        values[name] = body[value_at:end].strip()
    cells, years = [], []
    for name in names[1:]:
        text = values.get(name, "")
        cell = parse_cell(text.replace(" ", "")) if text else None
        cells.append(
            {"text": text or "—", "value": cell.value if cell else None}
            | ({"percent": True} if cell and cell.percent else {})
        )
        found_years = years_in(name)
        years.append(found_years[0] if len(found_years) == 1 else None)
    return {"label": label.strip(), "cells": cells, "years": years, "columns": names[1:]}
