"""A document's tables kept as data: rows × columns, stored with the document at indexing.

:func:`.tables.table_rows` reads one text's table rows for the answer of the moment; this
module reads every section of a document once, at indexing, and keeps what it finds as
plain JSON (``document["tables"]``), so a question that needs arithmetic can find each
operand's row and column in the whole document, not only in the sections navigation chose,
and cite the cell's page and section. Each table keeps its caption, unit and currency, its
columns (header text and the year each stands for), and each row's label with the labels
of the headings above it (``Current assets › Inventories``), its cells as printed with
their values (parenthesised negatives negative, dashes empty), and its page. No position on
the page is kept: a PDF cell an answer cites is found on its page by the evidence
(:mod:`treerag_core.evidence.cell_boxes`), which has the page open.

Page furniture (:mod:`.page_furniture`: running footers, lone page numbers) is read as
blank, so it is neither a row, nor a row's heading, nor a caption.

A document indexed before tables were kept gets them from :func:`tables_of` on first use;
re-indexing rebuilds them with the sections, so they stay in step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .numbers import Cell, unit_of
from .page_furniture import blanked, page_furniture
from .row_headings import with_headings
from .sheet_records import COLUMNS, sheet_tables
from .tables import Row, table_rows

# The lead a section's tables are read with: the tail of the section before it (a table
# whose header and units line were printed before the heading still knows its columns).
LEAD_CHARS = 600
# Kept per document: more rows than this are not stored (a document of tables stays a
# bounded JSON); the answer then reads the sections' text as before.
MAX_ROWS = 20000
# Lines above a Word, web or sheet table read for its units line.
UNIT_LINES = 2


def document_tables(flat: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every table in the sections ``flat`` (in document order) as plain JSON dicts."""
    tables: list[dict[str, Any]] = []
    previous = ""
    count = 0
    layout: list[str] = []  # a long sheet's columns, for its later parts
    furniture = None  # found when a section of prose or printed tables needs it
    figures: dict[str, Cell | None] = {}  # the sheets' cells read so far, by their text
    for node_id, node in flat.items():
        text = str(node.get("text") or "")
        if not text.strip():
            previous = text
            continue
        if COLUMNS in text or (layout and text.lstrip().startswith(f"{layout[0]} ")):
            found = records_tables(node_id, node, layout, figures)
            layout = found[-1]["header"].split(" | ") if found else layout
        else:
            # over the whole document's pages, as before: a CSV's or sheet's records need
            # none (a 20,000-row CSV's page lines took 0.1 s to find none)
            furniture = page_furniture(flat) if furniture is None else furniture
            text = blanked(text, furniture.get(node_id, []))
            lead = previous[-LEAD_CHARS:] + "\n" + str(node.get("title") or "")
            found, layout = section_tables(node_id, node, table_rows(text, lead), text), []
        previous = text
        for table in found:
            count += len(table["rows"])
            if count > MAX_ROWS:
                return tables
            table["id"] = f"t{len(tables) + 1}"
            tables.append(table)
    return tables


def tables_of(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The document's stored tables, or (indexed before tables were kept) read now."""
    stored = document.get("tables")
    if isinstance(stored, list):
        return stored
    return document_tables(document.get("flat_nodes") or {})


def section_tables(
    node_id: str, node: Mapping[str, Any], rows: list[Row], text: str | None = None
) -> list[dict[str, Any]]:
    """One section's rows grouped into its tables, each row with its headings and page;
    ``text``: the section's text as its rows were read (furniture blanked)."""
    text = str(node.get("text") or "") if text is None else text
    grouped: dict[int, list[Row]] = {}
    for row in rows:
        grouped.setdefault(row.table, []).append(row)
    out = []
    for group in grouped.values():
        first = group[0]
        dated = max(group, key=lambda r: sum(1 for y in r.years if y))
        columns = [
            {"label": c, "year": y} for c, y in zip(dated.columns, dated.years, strict=False) if c
        ]
        out.append(
            {
                "node_id": node_id,
                "section": str(node.get("path") or node.get("title") or ""),
                "page": page_at(node, first.start),
                "caption": first.caption,
                "header": first.header,
                "unit": next((r.unit for r in group if r.unit), ""),
                "currency": next((r.currency for r in group if r.currency), ""),
                "columns": columns,
                "rows": _rows(text, node, group),
            }
        )
    return out


def records_tables(
    node_id: str,
    node: Mapping[str, Any],
    layout: list[str] | None = None,
    figures: dict[str, Cell | None] | None = None,
) -> list[dict[str, Any]]:
    """A sheet's (or CSV's) tables: its record lines cut back into cells by column name
    (``figures``: cells already read, see :func:`.sheet_records.sheet_tables`)."""
    out = []
    text = str(node.get("text") or "")
    marked = bool(node.get("page_marks"))  # else every row is on the section's first page
    for table in sheet_tables(text, layout, figures):
        names = table["columns"]
        unit = _unit_above(text, table["rows"][0]["offset"])
        rows = table["rows"]  # this call's own: completed in place, not copied again
        for row in rows:
            row["parents"], row["unit"], row["currency"] = [], unit, ""
            row["page"] = page_at(node, row["offset"]) if marked else node.get("page_start")
        out.append(
            {
                "node_id": node_id,
                "section": str(node.get("path") or node.get("title") or ""),
                "page": rows[0]["page"],
                "caption": str(node.get("title") or ""),
                "header": " | ".join(names),
                "unit": unit,
                "currency": "",
                "columns": [
                    {"label": n, "year": y}
                    for n, y in zip(rows[0]["columns"], rows[0]["years"], strict=True)
                ],
                "rows": rows,
                "sheet": True,
            }
        )
    return out


def _unit_above(text: str, offset: int) -> str:
    """The unit a units line just above a table states ("In millions of dollars."), if any:
    a Word or web page's table has its units in the paragraph before it."""
    lines = [ln.strip() for ln in text[:offset].split("\n") if ln.strip()]
    lines = [ln for ln in lines if not ln.startswith(COLUMNS)]
    for line in reversed(lines[-UNIT_LINES:]):
        unit = unit_of(line)
        if unit:
            return unit
    return ""


def _rows(text: str, node: Mapping[str, Any], group: list[Row]) -> list[dict[str, Any]]:
    """The rows of one table, each under the heading lines printed above it."""
    return [
        {
            "label": row.label,
            "parents": list(row.parents),
            "cells": [
                {"text": c.text, "value": c.value, **({"percent": True} if c.percent else {})}
                for c in row.cells
            ],
            "years": list(row.years),
            "columns": list(row.columns),
            "unit": row.unit,
            "currency": row.currency,
            "page": page_at(node, max(0, row.start)),
            "offset": row.start,
        }
        for row in with_headings(text, group)
    ]


def page_at(node: Mapping[str, Any], offset: int) -> int | None:
    """The page that character ``offset`` of the section's text is printed on."""
    page = node.get("page_start")
    for mark_offset, mark_page in node.get("page_marks") or []:
        if mark_offset <= offset:
            page = mark_page
    return page


def row_path(row: Mapping[str, Any]) -> str:
    """``Revenues › Converse``: a row's label under the headings above it."""
    return " › ".join([*row.get("parents", []), str(row.get("label", ""))])
