"""A document's tables kept as data: rows × columns, stored with the document at indexing.

:func:`.tables.table_rows` reads one text's table rows for the answer of the moment; this
module reads every section of a document once, at indexing, and keeps what it finds as
plain JSON (``document["tables"]``), so a question that needs arithmetic can find each
operand's row and column in the whole document, not only in the sections navigation chose,
and cite the cell's page and section. Each table keeps its caption, unit and currency, its
columns (header text and the year each stands for), and each row's label with the labels
of the headings above it (``Current assets › Inventories``), its cells as printed with
their values (parenthesised negatives negative, dashes empty), and its page. A PDF table's
cells also get their box on the page (added at indexing by
:mod:`treerag_core.read.readers.cell_boxes`, which has the PDF); other formats have no page
geometry and their cells no box.

Page furniture is left out of the tables: a line at a page's top or bottom that repeats
there on many pages (a running footer "2023 FORM 10-K 45", "Table of Contents") or a lone
page number is read as blank, so it is neither a row, nor a row's heading, nor a caption.
(:mod:`treerag_core.structure.furniture` finds furniture while headings are looked for, on
the pages as read; the section texts keep it, so the tables look again.)

A document indexed before tables were kept gets them from :func:`tables_of` on first use;
re-indexing rebuilds them with the sections, so they stay in step.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .numbers import header_cells, unit_of
from .sheet_records import COLUMNS, sheet_tables
from .tables import Row, split_row, table_rows

# The lead a section's tables are read with: the tail of the section before it (a table
# whose header and units line were printed before the heading still knows its columns).
LEAD_CHARS = 600
# A line with no figures, this short, above rows is the heading of the rows below it
# ("Current assets:", "Revenues").
MAX_PARENT_WORDS = 8
# A row labelled like this closes the group its heading opened.
_TOTAL = re.compile(r"^(?:total|net)\b", re.I)
# Kept per document: more rows than this are not stored (a document of tables stays a
# bounded JSON); the answer then reads the sections' text as before.
MAX_ROWS = 20000
# Lines above a Word, web or sheet table read for its units line.
UNIT_LINES = 2
# Page furniture: a line among a page's first or last EDGE_LINES lines whose shape (digits
# folded: "2023 FORM 10-K 45" and "2023 FORM 10-K 47" are one) sits at an edge of at least
# FURNITURE_SHARE of the pages, and of MIN_FURNITURE_PAGES of them. A fifth, not a half as
# for headings: a filing prints its footer on every other page, or only on pages of text.
EDGE_LINES = 2
FURNITURE_SHARE = 0.2
MIN_FURNITURE_PAGES = 3
PAGE_DIGITS = 4  # a page number has at most this many digits
_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?\d{1,4}(?:\s+of\s+\d{1,4})?$|^[-–—]\s*\d{1,4}\s*[-–—]$", re.I
)


def document_tables(flat: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every table in the sections ``flat`` (in document order) as plain JSON dicts."""
    tables: list[dict[str, Any]] = []
    previous = ""
    count = 0
    layout: list[str] = []  # a long sheet's columns, for its later parts
    furniture = page_furniture(flat)
    for node_id, node in flat.items():
        text = str(node.get("text") or "")
        if not text.strip():
            previous = text
            continue
        if COLUMNS in text or (layout and text.lstrip().startswith(f"{layout[0]} ")):
            found = records_tables(node_id, node, layout)
            layout = found[-1]["header"].split(" | ") if found else layout
        else:
            text = _blanked(text, furniture.get(node_id, []))
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
    node_id: str, node: Mapping[str, Any], layout: list[str] | None = None
) -> list[dict[str, Any]]:
    """A sheet's (or CSV's) tables: its record lines cut back into cells by column name."""
    out = []
    text = str(node.get("text") or "")
    for table in sheet_tables(text, layout):
        names = table["columns"]
        unit = _unit_above(text, table["rows"][0]["offset"])
        rows = [
            {
                **row,
                "parents": [],
                "unit": unit,
                "currency": "",
                "page": page_at(node, row["offset"]),
            }
            for row in table["rows"]
        ]
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
    parents: list[str] = []
    out = []
    first = True
    end = 0
    for row in group:
        # above a table's first row, only the line just before it can head it (further up
        # are the header, the units line and the title)
        gap = text[: max(0, row.start)].rstrip("\n").rsplit("\n", 1)[-1:] if first else None
        heading = _heading_between(
            "\n".join(gap or []) if first else text[max(0, end) : max(0, row.start)]
        )
        first = False
        if heading:
            parents = [heading]
        out.append(
            {
                "label": row.label,
                "parents": list(parents),
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
        )
        if (
            _TOTAL.match(row.label)
            and parents
            and row.label.lower().endswith(parents[-1].lower().rstrip(":"))
        ):
            parents = []  # "Total current assets" closes "Current assets:"
        end = row.end
    return out


def _heading_between(gap: str) -> str:
    """The last line between two rows that heads the rows below it, if any."""
    for line in reversed([ln.strip() for ln in gap.split("\n") if ln.strip()]):
        if split_row(line) or header_cells(line) is not None or unit_of(line):
            continue
        words = line.split()
        letters = sum(1 for w in words if w[:1].isalpha())
        if (
            len(words) <= MAX_PARENT_WORDS
            and line[:1].isupper()
            and letters * 2 > len(words)
            and line[-1:] not in ".;!?"
        ):
            return line.rstrip(":").strip()
        return ""
    return ""


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
            if _PAGE_NUMBER.match(text) or (
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
        return _folded(line)
    cells = parsed[1]
    if len(cells) == 1 and cells[0].text.isdigit() and len(cells[0].text) <= PAGE_DIGITS:
        return f"{_folded(parsed[0])} @{page - int(cells[0].text)}"
    return f"row:{page}:{line}"


def _folded(line: str) -> str:
    """A line's shape: its words, lower-cased, with every number folded to ``#``."""
    return re.sub(r"\d+", "#", " ".join(line.lower().split()))


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with ``spans`` turned to spaces: offsets (and so pages) stay as they were."""
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


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
