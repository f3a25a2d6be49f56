"""The picked sections' tables as the answer model reads them: compact tables whose cells it
can name.

A statement's rows reach the model as flattened lines ("Net sales $ 1,200 $ 1,000 $ 800")
unless told otherwise, and a model reading them does the arithmetic in its head. Here each
table of a quoted section (kept as data at indexing, :mod:`treerag_core.text.table_data`)
replaces its flattened lines in the quote by a compact table: a line naming the table
(``[T2] Consolidated Balance Sheets · $ million · p. 2``), a header naming each column
(``c1 2023``), then one line per row (``r4 Current assets › Inventories | 90 | 70``). A cell
is then named ``T2.r4.c1`` and the model asks the app to compute over named cells
(:mod:`.calculations`) instead of computing itself. Only rows whose lines are in the quote
are shown (an excerpt of a long section brings its own rows); ids are per answer, so two
documents' tables never collide. Sheets keep their self-describing record lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..text.table_data import row_path

# Told outside the quotes, after them, only when a table was sent.
TABLES_NOTE = (
    "Tables inside the sections are compact tables: '[T1] title · unit · page', a header "
    "naming each column (c1, c2, …), then one line per row ('r3 Label | cell | cell'); the "
    "cell in row r3, column c2 of table T1 is named T1.r3.c2. Do no arithmetic yourself. "
    "When the answer needs a calculation (a ratio, margin, share, change, growth rate, "
    "average or sum), add one fenced block per calculation, naming each operand's cell:\n"
    "```json\n"
    '{"compute": "a / b", "label": "Current ratio", "period": "FY2023", "format": "ratio", '
    '"decimals": 2, "operands": {"a": {"cell": "T1.r4.c1", "name": "current assets"}, '
    '"b": {"cell": "T1.r9.c1", "name": "current liabilities"}}}\n'
    "```\n"
    "'compute' uses the operands' letters, numbers, + - * / and parentheses; 'format' is "
    "ratio, percent, amount or days. The app computes it from the cells and shows the result "
    "with its working and citations; any figure you state yourself is checked against it."
)
_SPACE = re.compile(r"\s+")
_CELL_ID = re.compile(r"^\s*T(\d+)\s*[.:/ ]\s*r(\d+)\s*[.:/ ]\s*c(\d+)\s*$", re.I)
_LEADERS = "$€£¥:.…·- "


@dataclass
class SentTables:
    """The tables one answer's prompt carries: ``T1`` → (doc_id, table), in prompt order."""

    tables: dict[str, tuple[str, Mapping[str, Any]]] = field(default_factory=dict)

    def cell(self, name: str) -> tuple[str, Mapping[str, Any], int, int] | None:
        """``T2.r4.c1`` → (doc_id, table, row index, column index), or None when the prompt
        sent no such cell."""
        m = _CELL_ID.match(str(name))
        if not m:
            return None
        sent = self.tables.get(f"T{int(m.group(1))}")
        if sent is None:
            return None
        doc_id, table = sent
        row, column = int(m.group(2)) - 1, int(m.group(3)) - 1
        rows = table.get("rows") or []
        if not (0 <= row < len(rows)) or not (0 <= column < len(rows[row].get("cells") or [])):
            return None
        return doc_id, table, row, column


def _norm(text: str) -> str:
    return _SPACE.sub("", text)


def tabled(text: str, candidates: Sequence[tuple[str, Mapping[str, Any]]], sent: SentTables) -> str:
    """``text`` with the flattened lines of the ``candidates`` tables' rows replaced by
    those tables in compact form (each registered in ``sent``); sheets are left as text."""
    rows = [
        (t_index, r_index, _norm(str(row.get("label", ""))),
         _norm("".join(str(c.get("text", "")) for c in row.get("cells") or [])))
        for t_index, (_doc, table) in enumerate(candidates) if not table.get("sheet")
        for r_index, row in enumerate(table.get("rows") or [])
    ]  # fmt: skip
    rows = [r for r in rows if r[2] and r[3]]
    if not rows:
        return text
    lines = text.split("\n")
    shown: dict[int, list[int]] = {}  # table → its rows shown
    first_line: dict[int, int] = {}  # table → the line its compact form takes
    last_line: dict[int, int] = {}  # table → its last row's line
    dropped: set[int] = set()
    used: set[tuple[int, int]] = set()
    for j, line in enumerate(lines):
        hit = _row_of(_norm(line), rows, used)
        if hit is None:
            continue
        t_index, r_index, label, _cells = hit
        used.add((t_index, r_index))
        shown.setdefault(t_index, []).append(r_index)
        first_line.setdefault(t_index, j)
        last_line[t_index] = j
        dropped.add(j)
        before = _norm(lines[j - 1]) if j else ""
        if before and before != label and label.startswith(before) and j - 1 not in dropped:
            dropped.add(j - 1)  # a wrapped label's first line ("Purchases of property, plant and")
            first_line[t_index] = min(first_line[t_index], j - 1)
    for t_index, row_indexes in shown.items():  # a group's heading line goes with its rows
        table_rows = candidates[t_index][1].get("rows") or []
        heads = {_norm(p) for i in row_indexes for p in table_rows[i].get("parents") or []}
        for j in range(max(0, first_line[t_index] - 1), last_line[t_index] + 1):
            if _norm(lines[j]).rstrip(":") in heads:
                dropped.add(j)
    blocks: dict[int, str] = {}
    for t_index, row_indexes in shown.items():
        doc_id, table = candidates[t_index]
        table_id = f"T{len(sent.tables) + 1}"
        sent.tables[table_id] = (doc_id, table)
        blocks[first_line[t_index]] = compact(table_id, table, row_indexes)
    out = [blocks.get(j, line) for j, line in enumerate(lines) if j in blocks or j not in dropped]
    return "\n".join(out)


def _row_of(
    line: str, rows: list[tuple[int, int, str, str]], used: set[tuple[int, int]]
) -> tuple[int, int, str, str] | None:
    """The row a flattened line prints: its cells end the line, its label (or a wrapped
    label's last part) begins it."""
    for row in rows:
        t_index, r_index, label, cells = row
        if (t_index, r_index) in used or not line.endswith(cells):
            continue
        head = line[: len(line) - len(cells)].rstrip(_LEADERS)
        if head and (head == label or label.endswith(head) or head.endswith(label)):
            return row
    return None


def compact(table_id: str, table: Mapping[str, Any], row_indexes: list[int]) -> str:
    """``[T2] Balance sheet · $ million · p. 2`` / ``| | c1 2023 | c2 2022 |`` / one line a row."""
    rows = table.get("rows") or []
    unit = " ".join(x for x in (table.get("currency"), table.get("unit")) if x)
    title = str(table.get("section") or table.get("caption") or "").strip()
    page = f"p. {table['page']}" if table.get("page") else ""
    head = " · ".join(x for x in (f"[{table_id}] {title}".strip(), unit, page) if x)
    width = max(len(rows[i].get("cells") or []) for i in row_indexes)
    columns = list(table.get("columns") or [])
    names = [str(columns[i].get("label", "")) if i < len(columns) else "" for i in range(width)]
    out = [head, "| | " + " | ".join(f"c{i + 1} {n}".strip() for i, n in enumerate(names)) + " |"]
    for i in sorted(row_indexes):
        row = rows[i]
        cells = " | ".join(str(c.get("text", "")) for c in row.get("cells") or [])
        out.append(f"| r{i + 1} {row_path(row)} | {cells} |")
    return "\n".join(out)
