"""Headings numbered one after the other are siblings (structure/levels.py's
``_runs_hold_their_subheadings``): the unnumbered headings between two of them belong to
the first, whatever their look. Microsoft sets its notes' titles at body size and their
subheadings in bold; by look alone each note nested in the last subheading of the note
before."""

from __future__ import annotations

import pytest

from treerag_core.structure.candidates import Kind, classify_line
from treerag_core.structure.headings import Heading
from treerag_core.structure.levels import levels_from_look, numbering_rank
from treerag_core.structure.profiles import FINANCIAL

BOLD, PLAIN = (-8.0, -1.0, 0.0), (-8.0, 0.0, 0.0)


def _levels(rows: list[tuple[str, tuple[float, ...], bool]]) -> list[int]:
    """Each row (title, style, set right above the next row), on its own page unless set
    right above the next; named (``known``) as the typography reader names it."""
    headings, page, line = [], 0, 0
    for title, style, tight in rows:
        cand = classify_line(title, FINANCIAL)
        known = cand is not None and cand.kind != Kind.CAPS
        rank = numbering_rank(title, FINANCIAL)
        headings.append(Heading(page, line, line + 1, title, style, rank, known=known))
        page, line = (page, line + 1) if tight else (page + 1, 0)
    levels_from_look(headings)
    return [h.level for h in headings]


CASES = {
    "body-size notes hold their bold subheadings, up to the auditor's report": (
        [("NOTES TO FINANCIAL STATEMENTS", BOLD, True),
         ("NOTE 1 — ACCOUNTING POLICIES", PLAIN, False), ("Accounting Principles", BOLD, False),
         ("Revenue", BOLD, False), ("NOTE 2 — EARNINGS PER SHARE", PLAIN, False),
         ("Net Recognized Gains", BOLD, False), ("NOTE 3 — INVESTMENTS", PLAIN, False),
         ("Investment Components", BOLD, False),
         ("Report of Independent Registered Public Accounting Firm", BOLD, False)],
        [1, 2, 3, 3, 2, 3, 2, 3, 1],
    ),
    "a heading set right above the next note heads a group of notes": (
        [("Note 1 — Basis of Preparation", PLAIN, False), ("Scope", BOLD, False),
         ("RESULTS FOR THE YEAR", BOLD, True), ("Note 2 — Revenue", PLAIN, False)],
        [1, 2, 1, 2],
    ),
}  # fmt: skip


@pytest.mark.parametrize(("rows", "levels"), CASES.values(), ids=list(CASES))
def test_numbered_run_levels(
    rows: list[tuple[str, tuple[float, ...], bool]], levels: list[int]
) -> None:
    assert _levels(rows) == levels
