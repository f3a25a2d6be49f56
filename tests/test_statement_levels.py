"""A primary statement found by its look is a part of the report, not a subsection of the
prose heading before it (structure/levels.py's ``_QUALIFIED``): an earnings release's
statements sit beside its text, a 10-K's beside the auditor's report under Item 8, whatever
their type size; a bare "Income statement" under a policies note stays where it is."""

from __future__ import annotations

import pytest

from treerag_core.structure.headings import Heading
from treerag_core.structure.levels import levels_from_look, numbering_rank
from treerag_core.structure.profiles import FINANCIAL


def _levels(rows: list[tuple[str, float]]) -> list[int]:
    headings = [
        Heading(page=n, start=0, end=1, title=title, prominence=(-size, 1.0, 0.0),
                rank=numbering_rank(title, FINANCIAL) if title.startswith("Item") else None,
                known=title.startswith("Item"))
        for n, (title, size) in enumerate(rows)
    ]  # fmt: skip
    levels_from_look(headings)
    return [h.level for h in headings]


CASES = {
    "a release's statements sit beside its text, not under its last subheading": (
        [("PepsiCo Reports First-Quarter 2023 Results", 20), ("Guidance and Outlook", 14),
         ("Prepared Management Remarks and Live Question and Answer Webcast", 12),
         ("Condensed Consolidated Statement of Income", 11),
         ("Supplemental Financial Information", 11),
         ("Condensed Consolidated Balance Sheet", 11)],
        [1, 2, 3, 1, 1, 1],
    ),
    "statements sit beside the auditor's report under Item 8": (
        [("Item 7. Management's Discussion and Analysis", 14), ("Overview", 12),
         ("Item 8. Financial Statements and Supplementary Data", 14),
         ("Report of Independent Registered Public Accounting Firm", 12),
         ("Consolidated Balance Sheets", 11), ("Consolidated Statements of Income", 11)],
        [1, 2, 1, 2, 2, 2],
    ),
    "a heading that names the statements holds them; a bare caption stays": (
        [("Consolidated Financial Statements", 14),
         ("Consolidated Statements of Cash Flows", 11),
         ("Summary of Significant Accounting Policies", 12), ("Income statement", 11)],
        [1, 2, 2, 3],
    ),
}  # fmt: skip


@pytest.mark.parametrize(("rows", "levels"), CASES.values(), ids=list(CASES))
def test_statement_levels(rows: list[tuple[str, float]], levels: list[int]) -> None:
    assert _levels(rows) == levels
