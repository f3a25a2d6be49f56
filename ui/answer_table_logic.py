"""A comparison answer's table as data, for the chat to draw and offer as CSV (no Streamlit).

The offline engine's comparison answer (``treerag_core/answer/offline/computed.py``) is a Markdown
table, document × period, each cell a figure with its citation (``41.7% [S1, p. 59]``).
The chat shows it as text, draws its figures as a chart and offers the table as CSV; this
module reads the table back: the periods, each row's name, each cell's figure and text.
"""

from __future__ import annotations

import csv
import io
import re

_FIGURE = re.compile(r"^\s*(-?)\$?(-?[\d,]+(?:\.\d+)?)")


def comparison_table(answer: str) -> dict | None:
    """``{"periods", "rows": [(name, [figure or None], [cell text])]}`` of the first table in
    ``answer`` whose header names periods, else None."""
    lines = [ln.strip() for ln in str(answer or "").splitlines()]
    for i, line in enumerate(lines):
        if line.startswith("| |") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            periods = [c.strip() for c in line.strip("|").split("|")][1:]
            rows = []
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                cells = [c.strip() for c in row.strip("|").split("|")]
                texts = cells[1 : 1 + len(periods)]
                rows.append((cells[0], [figure(t) for t in texts], texts))
            if rows and any(v is not None for _, values, _ in rows for v in values):
                return {"periods": periods, "rows": rows}
    return None


def figure(cell: str) -> float | None:
    """The figure a cell leads with (``41.7% [S1]`` → 41.7), None for "— (not found …)"."""
    m = _FIGURE.match(cell)
    if not m:
        return None
    value = float(m.group(2).replace(",", ""))
    return -value if m.group(1) else value


def table_csv(table: dict) -> str:
    """The table as CSV: one row a document, one column a period, cells as printed (with
    their citations), so a spreadsheet keeps where each figure came from."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["", *table["periods"]])
    for name, _values, texts in table["rows"]:
        writer.writerow([name, *texts])
    return out.getvalue()
