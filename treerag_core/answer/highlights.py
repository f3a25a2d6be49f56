"""What a reader wants first from a report's overview: what the organisation does, the
headline figures of the period (with the page they are printed on) and the main risks.

Read from the document itself, offline: the sentence saying what the organisation does
(``summarize.describe.business_sentence``), the income statement's revenue, net income and
diluted earnings per share rows in its latest column, and the headings under its risk
factors. A document without them (a handbook, a manual) gets none of these lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..summarize.describe import business_sentence
from ..text.tables import Row, table_rows
from ..tree.labels import heading_label
from ..types import FlatNode

INCOME_STATEMENT = re.compile(
    r"statements?\s+of\s+(?:consolidated\s+)?(?:income|operations|earnings)"
    r"(?!\s+and\s+comprehensive)|\bincome\s+statements?\b",
    re.I,
)
# The headline rows, in the order they are said: (name, label pattern). A named constant.
HEADLINE_ROWS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("revenues", re.compile(r"^(?:total\s+)?(?:net\s+)?(?:revenues?|sales|net\s+sales)\b", re.I)),
    ("net income", re.compile(r"^net\s+(?:income|earnings)\b(?!.*\bper\b)", re.I)),
    ("diluted earnings per share", re.compile(r"^diluted\b", re.I)),
)
RISK_TITLE = re.compile(r"\brisk\s+factors\b", re.I)
MAX_RISKS = 4


@dataclass
class Highlight:
    """One line of an overview, with the section it is read from (cited)."""

    text: str
    node_id: str


def _latest_column(rows: list[Row]) -> int:
    years = next((r.years for r in rows if any(r.years)), [])
    if not years:
        return 0
    return max(range(len(years)), key=lambda i: years[i] or 0)


def headline_figures(flat: Mapping[str, FlatNode]) -> Highlight | None:
    """``Revenues $51,217 million, net income $5,070 million, diluted earnings per share
    $3.23 (2023)`` from the income statement's latest column."""
    for nid, node in flat.items():
        if not INCOME_STATEMENT.search(heading_label(node)):
            continue
        rows = table_rows(str(node.get("text") or ""))
        if not rows:
            continue
        column = _latest_column(rows)
        said = []
        for name, pattern in HEADLINE_ROWS:
            row = next((r for r in rows if pattern.search(r.label) and len(r.cells) > column),
                       None)  # fmt: skip
            if row is not None and row.cells[column].value is not None:
                unit = "" if name.endswith("per share") else row.unit
                said.append(f"{name} {row.cells[column].shown(unit, row.currency)}")
        if said:
            year = next((r.years[column] for r in rows if len(r.years) > column), None)
            when = f" ({year})" if year else ""
            text = ", ".join(said)
            return Highlight(f"Headline figures{when}: {text}.", nid)
    return None


def main_risks(flat: Mapping[str, FlatNode]) -> Highlight | None:
    """The headings under the risk factors: ``Economic and industry risks; …``."""
    for nid, node in flat.items():
        if not RISK_TITLE.search(heading_label(node)) or not node.get("children"):
            continue
        kids = [flat[c] for c in node["children"] if c in flat]
        titles = [str(k.get("title") or "") for k in kids]
        risks = [t for t in titles if re.search(r"\brisks?\b", t, re.I) and
                 not RISK_TITLE.fullmatch(t.strip())][:MAX_RISKS]  # fmt: skip
        if risks:
            return Highlight("Main risks: " + "; ".join(risks) + ".", nid)
    return None


def highlights(flat: Mapping[str, FlatNode]) -> list[Highlight]:
    """What the organisation does, its headline figures, its main risks (those found)."""
    found: list[Highlight] = []
    sentence, nid = business_sentence(flat)
    if sentence:
        found.append(Highlight(f"What it does: {sentence}", nid))
    for line in (headline_figures(flat), main_risks(flat)):
        if line is not None:
            found.append(line)
    return found
