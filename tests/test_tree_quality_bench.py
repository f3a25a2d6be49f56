"""bench.tree_quality's own rules: what counts as a repeated title, a statement held and
sectioned, and the fixed split of the filings into a tuning and a held-out half."""

from __future__ import annotations

from typing import Any

from bench.tree_quality import halves
from bench.tree_quality_score import caption_kind, filing_parts, repeats_parent, tree_shape


def test_a_repeat_of_the_parents_title_is_seen_through_page_suffixes_cuts_and_labels() -> None:
    item7 = "Item 7. Management's Discussion and Analysis of Financial Condition and Results"
    assert repeats_parent(f"{item7} … (pp. 36–38)", item7)
    assert repeats_parent("Item 7. Management's Discussion and Analysis of…", item7)
    assert repeats_parent("Risk Factors (p. 19, continued)", "Risk Factors")
    assert repeats_parent(
        "Condensed Consolidated Statement of Income",
        "A-1 - Condensed Consolidated Statement of Income",
    )
    assert not repeats_parent("Liquidity and Capital Resources", item7)
    assert not repeats_parent("Item 7 (continued): Liquidity and Capital Resources", item7)
    assert not repeats_parent(
        "String functions", "String constants, string variables, and string functions"
    )


def _node(nid: str, title: str, parent: str | None, text: str = "", level: int = 1) -> Any:
    return {"node_id": nid, "title": title, "parent_id": parent, "text": text, "level": level}


def test_shape_and_filing_parts_of_a_small_tree() -> None:
    flat = {
        "0": _node("0", "Item 8. Financial Statements", None, "CONSOLIDATED BALANCE SHEETS\n"),
        "1": _node("1", "NIKE, Inc. Consolidated Statements of Income", "0", level=2),
        "2": _node("2", "Notes to Consolidated Financial Statements", "0", level=2),
        "3": _node("3", "1. Basis of Presentation", "2", "Note 2 — Inventories\n", level=3),
        "4": _node("4", "Item 8. Financial Statements (p. 60)", "0", level=2),
        "5": _node("5", "Overview", "0", level=2),
        "6": _node("6", "Overview", "0", level=2),
    }
    shape = tree_shape(flat)
    assert (shape["sections"], shape["top_level"], shape["depth"]) == (7, 1, 3)
    assert (shape["repeat_parent"], shape["repeat_sibling"]) == (1, 2)
    parts = filing_parts(flat)
    assert parts["held"] == ["balance sheet", "income"] and parts["sectioned"] == ["income"]
    assert (parts["notes_held"], parts["notes_sectioned"]) == ([1, 2], [1])
    assert (parts["statement_sections"], parts["statements_under_prose"]) == (1, 0)


def test_a_statement_under_the_auditors_report_or_a_subheading_is_under_prose() -> None:
    flat = {
        "0": _node("0", "Item 8. Financial Statements", None),
        "1": _node("1", "Report of Independent Registered Public Accounting Firm", "0"),
        "2": _node("2", "Consolidated Balance Sheets", "1"),
        "3": _node("3", "Consolidated Statements of Cash Flows", "0"),
        "4": _node("4", "Prepared Management Remarks", None),
        "5": _node("5", "Condensed Consolidated Statement of Income", "4"),
        "6": _node("6", "A-1 - Condensed Consolidated Statement of Income", None),
        "7": _node("7", "Condensed Consolidated Statement of Income (continued)", "6"),
        "8": _node("8", "Consolidated Statements of Income", None),
    }
    parts = filing_parts(flat)
    assert (parts["statement_sections"], parts["statements_under_prose"]) == (5, 2)


def test_the_auditors_report_parts_beside_it_are_counted_and_it_is_prose() -> None:
    report = "Report of Independent Registered Public Accounting Firm on the Financial Statements"
    flat = {
        "0": _node("0", "Item 8. Financial Statements", None),
        "1": _node("1", report, "0"),
        "2": _node("2", "Opinion on the Financial Statements", "1"),
        "3": _node("3", "Basis for Opinion", "0"),
        "4": _node("4", "Critical Audit Matters", "0"),
        "5": _node("5", "Consolidated Balance Sheets", "1"),
        "6": _node("6", "Opinion on the Financial Statements", "0"),  # after a statement
        "7": _node("7", "Management's Annual Report on Internal Control", "0"),
        "8": _node("8", "Report of Independent Registered Public Accounting Firm", "7"),
    }
    parts = filing_parts(flat)
    assert (parts["report_parts"], parts["report_parts_outside"]) == (3, 2)
    assert (parts["reports"], parts["reports_inside_reports"]) == (2, 1)
    assert parts["statements_under_prose"] == 1


def test_sibling_repeats_apart_are_printed_and_in_a_row_are_ours() -> None:
    titles = ["Description", "Judgments", "Description", "Judgments", "Balance Sheets",
              "Balance Sheets", "Overview"]  # fmt: skip
    flat = {str(i): _node(str(i), t, "p", level=2) for i, t in enumerate(titles)}
    flat["p"] = _node("p", "Critical Accounting Estimates", None)
    flat["9"] = {**_node("9", "Overview", "p", level=2), "generated": True}
    shape = tree_shape(flat)
    assert (shape["repeat_sibling"], shape["repeat_sibling_apart"]) == (8, 4)


def test_captions_in_the_forms_filings_print_them() -> None:
    assert caption_kind("Consolidated Balance Sheet at December 31, 2018 and 2017") == [
        "balance sheet"
    ]
    assert caption_kind("a) Condensed Consolidated Statements of Earnings $ in millions") == [
        "income"
    ]
    assert caption_kind("Group cash flow statement") == ["cash flows"]
    assert caption_kind("see the Consolidated Statements of Income") == []


def test_the_split_is_fixed_and_keeps_each_kind_in_both_halves() -> None:
    names = ["A_10K.pdf", "B_10K.pdf", "C_10K.pdf", "D_10Q.pdf", "E_10Q.pdf", "F_8K.pdf"]
    split = halves(names)
    assert split == halves(list(reversed(names)))
    for kind in ("10K", "10Q"):
        assert {split[n] for n in names if kind in n} == {"tuning", "held-out"}


def test_headings_below_the_outlines_leaves_are_counted_apart() -> None:
    from bench.structure_score import below_gold_leaves

    gold = [
        {"title": "PART II", "page": 1, "level": 1},
        {"title": "Item 7. MD&A", "page": 1, "level": 2},
        {"title": "Item 8. Financial Statements", "page": 3, "level": 2},
    ]
    nodes = [
        {"title": "PART II", "page": 1, "parent": None},
        {"title": "Item 7. MD&A", "page": 1, "parent": 0},
        {"title": "Overview", "page": 1, "parent": 1},
        {"title": "Liquidity", "page": 2, "parent": 1},
        {"title": "Liquidity (continued)", "page": 2, "parent": 3, "generated": True},
        {"title": "Item 8. Financial Statements", "page": 3, "parent": 0},
    ]
    assert below_gold_leaves(nodes, gold) == 2
