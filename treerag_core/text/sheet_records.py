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

from collections.abc import Iterator
from typing import Any

from .numbers import Cell, parse_cell, years_in

COLUMNS = "Columns: "


def sheet_tables(
    text: str, layout: list[str] | None = None, figures: dict[str, Cell | None] | None = None
) -> list[dict[str, Any]]:
    """The tables of one section's text printed as records: ``{"columns", "rows"}`` each,
    rows as ``{"label", "cells", "years", "columns", "offset"}``. ``layout``: the columns of
    the section before, for a later part of a long sheet (only its first part prints them).
    ``figures``: cells already read, by their text (a sheet repeats its values: a caller
    reading a whole document's sheets reads each value once)."""
    years = column_years(layout) if layout else []
    tables: list[dict[str, Any]] = [{"columns": list(layout), "rows": []}] if layout else []
    figures = {} if figures is None else figures
    for start, names, found in record_lines(text, layout):
        if found is None:
            years = column_years(names)
            tables.append({"columns": names, "rows": []})
        else:
            row = _row(found, names, years, figures)
            row["offset"] = start
            tables[-1]["rows"].append(row)
    return [t for t in tables if t["rows"]]


def record_lines(
    text: str, layout: list[str] | None = None
) -> Iterator[tuple[int, list[str], tuple[str, dict[str, str], list[str]] | None]]:
    """One section's text walked line by line, the one reader of its record lines: each
    ``Columns:`` line as ``(offset, its columns, None)``, each record under one as
    ``(offset, the columns, (first cell, other cells by name, the columns they are under))``
    (:func:`cut_record`), cells as printed.
    ``layout``: the columns in force before the first ``Columns:`` line (see above)."""
    names: list[str] = list(layout or [])
    marks = _marks(names) if names else None
    offset = 0
    for line in text.split("\n"):
        start, offset = offset, offset + len(line) + 1
        stripped = line.strip()
        if stripped.startswith(COLUMNS):
            names = [n.strip() for n in stripped[len(COLUMNS) :].split(" | ")]
            marks = _marks(names)
            yield start, names, None
        elif names and stripped:
            found = cut_record(stripped, names, marks)
            if found is not None:
                yield start, names, found


# What a record line is searched for, per column: (name, "name " opening the values,
# ", name " between two), with and without the first column's name among the values.
_Marks = tuple[str, list[tuple[str, str, str]], list[tuple[str, str, str]]]


def _marks(names: list[str]) -> _Marks:
    """The strings :func:`cut_record` looks for in a record of ``names``, made once a
    ``Columns:`` line rather than once a record (a 20,000-row sheet)."""
    every = [(name, f"{name} ", f", {name} ") for name in names]
    return f"{names[0]} ", every[1:], every


def cut(line: str, names: list[str]) -> tuple[str, dict[str, str]] | None:
    """A record line's first cell and its other cells by column name, as printed (None when
    the line is not a record of ``names``)."""
    found = cut_record(line, names)
    if found is None or len(found[2]) == len(names):  # a sheet's records name their key
        return None
    return found[0], found[1]


def cut_record(
    line: str, names: list[str], marks: _Marks | None = None
) -> tuple[str, dict[str, str], list[str]] | None:
    """:func:`cut`, and the columns the values are under: ``names[1:]``, or all of
    ``names`` when the table's first column had no name (a statement's label column: the
    line is then ``Net sales: 2023 1,200, 2022 1,000.``). ``marks``: ``_marks(names)``."""
    first, keyed, every = marks or _marks(names)
    if ": " not in line:
        return None
    if line.startswith(first):
        label, _, body = line[len(first) :].partition(": ")
        named, searched = names[1:], keyed
    else:
        label, _, body = line.partition(": ")
        named, searched = list(names), every
        if not body.startswith(first):
            return None
    if body.endswith("."):
        body = body[:-1]
    spots = []
    at = 0
    for name, opening, between in searched:
        if at == 0 and body.startswith(opening):
            found, width = 0, len(opening)
        else:
            found, width = body.find(between, at), len(between)
        if found < 0:
            continue
        spots.append((name, found, found + width))
        at = found + width
    values = {}
    for i, (name, _start, value_at) in enumerate(spots):
        end = spots[i + 1][1] if i + 1 < len(spots) else len(body)
        values[name] = body[value_at:end].strip()
    return label.strip(), values, named


def record(
    line: str, names: list[str], years: list[int | None] | None = None
) -> dict[str, Any] | None:
    """One record line cut into its cells, each read as a figure where it is one."""
    found = cut_record(line, names)
    return None if found is None else _row(found, names, years)


def _row(
    found: tuple[str, dict[str, str], list[str]],
    names: list[str],
    years: list[int | None] | None = None,
    figures: dict[str, Cell | None] | None = None,
) -> dict[str, Any]:
    """A record's cells (as :func:`cut_record` gives them) read as figures where they are
    ones; ``figures``: the cells read so far, by their text (kept by the caller)."""
    label, values, named = found
    if len(named) == len(names):  # no label column named: every column holds values
        years = column_years(["", *names])
    figures = {} if figures is None else figures
    cells = []
    for name in named:
        text = values.get(name, "")
        if text in figures:
            cell = figures[text]
        else:
            cell = figures[text] = parse_cell(text.replace(" ", "")) if text else None
        entry = {"text": text or "—", "value": cell.value if cell else None}
        if cell and cell.percent:
            entry["percent"] = True
        cells.append(entry)
    if years is None:
        years = column_years(names)
    return {"label": label, "cells": cells, "years": list(years), "columns": named}


def column_years(names: list[str]) -> list[int | None]:
    """The year each column after the first stands for, when its name is one ("FY2023")."""
    out: list[int | None] = []
    for name in names[1:]:
        found = years_in(name)
        out.append(found[0] if len(found) == 1 else None)
    return out
