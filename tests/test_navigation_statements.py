"""A question that names a financial statement reads that statement (offline navigation).

The statement is a bare table: prose about the same quantity outranks it on the question's
other words. The question saying "in the cash flow statement" is the document's own name
for a section, read whatever its rank (``treerag_core/navigate/statements.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

from treerag_core.navigate.offline import offline_pick, with_reserved
from treerag_core.navigate.statements import named_statements, statement_sections

NAME = "Northwind Corporation"


def _node(title: str, text: str, children: list[str] | None = None) -> dict[str, Any]:
    return {"title": title, "text": text, "children": children or [], "summary": "", "tags": []}


def _filing() -> dict[str, dict[str, Any]]:
    """Prose on capital spending in many places, the statements once each."""
    flat = {
        f"p{i}": _node(
            f"Capital Spending Discussion {i}",
            f"{NAME} capital expenditure in fiscal 2023 for {NAME} details shown; {NAME} "
            f"expects capital expenditure of {NAME} to stay in fiscal 2023 amount range, as "
            f"its cash flow statement shows.",
        )
        for i in range(12)
    }
    flat["cash"] = _node(
        "Consolidated Statements of Cash Flows",
        "(In millions) 2023 2022\nNet income 300 280\nPayments for long-lived assets "
        "(120) (110)\nNet cash used in investing activities (150) (140)",
    )
    flat["bs"] = _node("CONSOLIDATED BALANCE SHEETS", "", ["bs1"])
    flat["bs1"] = _node("Consolidated Balance Sheets (continued)", "Total assets 1,500 1,300")
    flat["oci"] = _node(
        "Consolidated Statements of Comprehensive Income", "Net income 300 280\nOther 5 4"
    )
    flat["mdna"] = _node("Statement of Cash Flows Discussion", "Cash flows were strong.")
    return flat


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What was capex as shown in the cash flow statement?", ["cash flow statement"]),
        ("Per the statement of cash flows, what was capex?", ["cash flow statement"]),
        ("From the P&L, what was revenue?", ["income statement"]),
        ("In the statement of operations, what was net income?", ["income statement"]),
        ("What does the statement of financial position show for cash?", ["balance sheet"]),
        ("Using the balance sheet and the income statement, what was ROA?",
         ["income statement", "balance sheet"]),
        ("What was the company's free cash flow?", []),
    ],
)  # fmt: skip
def test_named_statements(question: str, named: list[str]) -> None:
    assert named_statements(question) == named


def test_statement_section_is_the_captioned_table() -> None:
    flat = _filing()
    tabled = {"cash", "bs1", "oci"}
    found = statement_sections(
        "What was capex in the statement of cash flows and the balance sheet?",
        flat, list(flat), tabled,
    )  # fmt: skip
    # not the MD&A heading starting "Statement of Cash Flows" over prose; the balance
    # sheet's caption has no text of its own, so its first piece is read
    assert found == [("bs1", "balance sheet"), ("cash", "cash flow statement")]
    # the comprehensive-income statement is not the income statement asked
    assert statement_sections("What did the income statement show?", flat, list(flat)) == []


def test_offline_pick_reads_the_named_statement() -> None:
    flat = _filing()
    question = f"What was {NAME}'s fiscal 2023 capital expenditure amount shown in the cash flow statement?"
    del flat["mdna"]
    plain, _ = offline_pick(question.replace("cash flow statement", "filing"), flat, 4)
    assert "cash" not in plain  # the prose outranks the bare table
    picked, how = offline_pick(question, flat, 4)
    assert picked[-1] == "cash" and len(picked) == 4
    assert "Consolidated Statements of Cash Flows" in str(how)


def test_a_reserved_section_among_the_last_ranked_is_kept() -> None:
    """The statement ranked eighth of eight, with two line-item sections to add, was cut
    with the last places it sat in; reserved sections keep their place in the ranking."""
    ranked = [f"r{i}" for i in range(8)]
    assert with_reserved(ranked, ["r7", "x", "y"], 8) == [*ranked[:5], "r7", "x", "y"]
    assert with_reserved(ranked, ["r1", "x"], 8) == [*ranked[:7], "x"]
    assert with_reserved(ranked, [], 8) == ranked
    assert with_reserved(ranked[:3], ["x"], 8) == [*ranked[:3], "x"]


def test_a_heading_about_a_statement_is_not_the_statement() -> None:
    """A note titled "Balance Sheet Information" prints a table, but it is not the balance
    sheet; a caption with no text below it is nothing to read."""
    flat = {
        "bs": _node("Consolidated Balance Sheets", ""),
        "note": _node("Balance Sheet Information", "Accrued liabilities 10 9"),
        "cf": _node("Consolidated Statement of Cash Flows for the years ended 2023", "Cash 1 2"),
    }
    asked = "What does the statement of financial position and the cash flow statement show?"
    assert statement_sections(asked, flat, list(flat), {"note", "cf"}) == [
        ("cf", "cash flow statement")
    ]
