"""Bookmarks as a skeleton: flat or Item-deep outlines nested by their titles, the headings
printed inside each bookmark's span as its children, and pieces of a long section titled by
what they hold, never by their parent's title."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.tree_quality_docs import render_pdf
from treerag_core.library.indexing import index_document
from treerag_core.structure.pages import OutlineEntry
from treerag_core.structure.profiles import FINANCIAL, GENERIC
from treerag_core.structure.skeleton import nest_outline
from treerag_core.tree.sections import PAGE_BREAK, parse_sections

BODY = (
    "The company sells its products through retail stores and online platforms in many "
    "countries. Revenues grew in the year as demand for its products increased. "
)


def _filing_pages() -> list[list[tuple[str, str]]]:
    return [
        [("h1", "UNITED STATES SECURITIES AND EXCHANGE COMMISSION"), ("p", "FORM 10-K")],
        [("h1", "PART II"), ("h1", "Item 7. Management's Discussion and Analysis"),
         ("h2", "Overview"), ("p", BODY * 3), ("h2", "Liquidity and Capital Resources"),
         ("p", BODY * 3)],
        [("h1", "Item 8. Financial Statements and Supplementary Data"),
         ("h2", "Consolidated Statements of Income"), ("p", "(In millions)"),
         ("table", "Revenues 1,234 1,100\nNet income 300 280")],
        [("h2", "Notes to Consolidated Financial Statements"),
         ("h2", "Note 1 - Summary of Significant Accounting Policies"), ("p", BODY * 2),
         ("h2", "Note 2 - Inventories"), ("p", BODY * 2)],
    ]  # fmt: skip


def _index(path: Path, tmp_path: Path) -> dict[str, Any]:
    return index_document(str(path), registry_path=str(tmp_path / "reg.json"), persist=False)


def _tree(doc: dict[str, Any]) -> list[tuple[str, int, str | None, int | None]]:
    """(label, level, parent's label, first page) of every section."""
    flat = doc["flat_nodes"]

    def label(node: dict[str, Any]) -> str:
        return f"{node.get('number', '')} {node['title']}".strip()

    return [
        (label(n), n["level"], label(flat[n["parent_id"]]) if n["parent_id"] else None,
         n["page_start"])
        for n in flat.values()
    ]  # fmt: skip


def test_flat_bookmarks_are_nested_by_their_titles_and_printed_headings_become_children(
    tmp_path: Path,
) -> None:
    """Bookmarks all at one level, stopping at the Items: Part › Item, and below each Item
    the subheadings, the statement's caption and the numbered notes printed on its pages."""
    marks = [("PART II", 1, 2), ("Item 7. Management's Discussion and Analysis", 1, 2),
             ("Item 8. Financial Statements and Supplementary Data", 1, 3)]  # fmt: skip
    path = tmp_path / "filing.pdf"
    path.write_bytes(render_pdf(_filing_pages(), marks))
    doc = _index(path, tmp_path)
    assert doc["structure_source"] == "bookmarks and typography"
    tree = _tree(doc)
    item7 = "Item 7. Management's Discussion and Analysis"
    item8 = "Item 8. Financial Statements and Supplementary Data"
    notes = "Notes to Consolidated Financial Statements"
    assert [
        row for row in tree if row[0] != "UNITED STATES SECURITIES AND EXCHANGE COMMISSION"
    ] == [
        ("PART II", 1, None, 2),
        (item7, 2, "PART II", 2),
        ("Overview", 3, item7, 2),
        ("Liquidity and Capital Resources", 3, item7, 2),
        (item8, 2, "PART II", 3),
        ("Consolidated Statements of Income", 3, item8, 3),
        (notes, 3, item8, 4),
        ("Note 1 - Summary of Significant Accounting Policies", 4, notes, 4),
        ("Note 2 - Inventories", 4, notes, 4),
    ]


def test_bookmarks_that_stop_at_items_keep_their_nesting_and_gain_the_printed_headings(
    tmp_path: Path,
) -> None:
    marks = [("PART II", 1, 2), ("Item 7. Management's Discussion and Analysis", 2, 2),
             ("Item 8. Financial Statements and Supplementary Data", 2, 3)]  # fmt: skip
    path = tmp_path / "filing.pdf"
    path.write_bytes(render_pdf(_filing_pages(), marks))
    tree = _tree(_index(path, tmp_path))
    item7 = "Item 7. Management's Discussion and Analysis"
    assert ("Liquidity and Capital Resources", 3, item7, 2) in tree
    assert ("Note 2 - Inventories", 4, "Notes to Consolidated Financial Statements", 4) in tree


def _levels(entries: list[OutlineEntry]) -> list[tuple[str, int]]:
    return [(e.title, e.level) for e in entries]


def test_nest_outline_reads_numbering_and_leaves_plain_runs_alone() -> None:
    flat = [OutlineEntry(t, 1, n) for n, t in enumerate(
        ["Preface", "Chapter 3 Storage", "3.1 Disks", "3.1.1 Sectors", "3.2 Tapes", "Index"])]  # fmt: skip
    assert _levels(nest_outline(flat, GENERIC)) == [
        ("Preface", 1), ("Chapter 3 Storage", 1), ("3.1 Disks", 2), ("3.1.1 Sectors", 3),
        ("3.2 Tapes", 2), ("Index", 1),
    ]  # fmt: skip
    filing = [OutlineEntry(t, 1, n) for n, t in enumerate(
        ["PART II", "Item 8. Financial Statements", "Consolidated Balance Sheets",
         "Notes to Consolidated Financial Statements", "Note 4 - Leases", "Signatures"])]  # fmt: skip
    assert _levels(nest_outline(filing, FINANCIAL)) == [
        ("PART II", 1), ("Item 8. Financial Statements", 2), ("Consolidated Balance Sheets", 3),
        ("Notes to Consolidated Financial Statements", 3), ("Note 4 - Leases", 4),
        ("Signatures", 1),
    ]  # fmt: skip
    plain = [OutlineEntry(t, 1, n) for n, t in enumerate(["Cover", "Letter", "Results"])]
    assert _levels(nest_outline(plain)) == [("Cover", 1), ("Letter", 1), ("Results", 1)]
    nested = [OutlineEntry("Part I", 1, 0), OutlineEntry("Overview", 2, 0)]
    assert _levels(nest_outline(nested)) == [("Part I", 1), ("Overview", 2)]


def test_statements_bookmarked_under_the_auditors_report_follow_it() -> None:
    """Verizon's outline nests the statements and their notes under the auditor's report
    (its opinion and basis are the report's own). The report is on the statements and holds
    none of them: from the first caption on, its children follow it under Item 8."""
    outline = [
        OutlineEntry("Item 8. Financial Statements and Supplementary Data", 1, 48),
        OutlineEntry("Report of Independent Registered Public Accounting Firm", 2, 49),
        OutlineEntry("Opinion on the Financial Statements", 3, 49),
        OutlineEntry("Consolidated Statements of Income", 3, 51),
        OutlineEntry("Consolidated Balance Sheets", 3, 53),
        OutlineEntry("Notes to Consolidated Financial Statements", 3, 56),
        OutlineEntry("Note 1. Description of Business", 4, 56),
        OutlineEntry("Item 9. Changes in and Disagreements with Accountants", 1, 103),
    ]
    assert _levels(nest_outline(outline, FINANCIAL)) == [
        ("Item 8. Financial Statements and Supplementary Data", 1),
        ("Report of Independent Registered Public Accounting Firm", 2),
        ("Opinion on the Financial Statements", 3),
        ("Consolidated Statements of Income", 2),
        ("Consolidated Balance Sheets", 2),
        ("Notes to Consolidated Financial Statements", 2),
        ("Note 1. Description of Business", 3),
        ("Item 9. Changes in and Disagreements with Accountants", 1),
    ]


def test_plain_bookmarks_between_numbered_ones_belong_to_the_one_before() -> None:
    """Nike's 10-K: one flat run of bookmarks where the Item's own subheadings sit between
    the Items. They go under the Item before them (the Item after them stays under its Part),
    while the cover before Part I and the signatures after the last Item stay at the top."""
    flat = [OutlineEntry(t, 1, n) for n, t in enumerate(
        ["2023 Form 10-K", "Part I", "Item 1. Business", "General", "Products",
         "Information about Our Executive Officers", "Item 1A. Risk Factors", "Item 2. Properties",
         "Item 3. Legal Proceedings", "Part II", "Item 5. Market for Registrant's Common Equity",
         "Item 7. Management's Discussion and Analysis", "Signatures", "Back Cover"])]  # fmt: skip
    assert _levels(nest_outline(flat, FINANCIAL)) == [
        ("2023 Form 10-K", 1), ("Part I", 1), ("Item 1. Business", 2), ("General", 3),
        ("Products", 3), ("Information about Our Executive Officers", 3),
        ("Item 1A. Risk Factors", 2), ("Item 2. Properties", 2), ("Item 3. Legal Proceedings", 2),
        ("Part II", 1), ("Item 5. Market for Registrant's Common Equity", 2),
        ("Item 7. Management's Discussion and Analysis", 2), ("Signatures", 1), ("Back Cover", 1),
    ]  # fmt: skip


def test_a_long_section_with_no_heading_to_cut_at_gets_pieces_named_by_what_they_hold() -> None:
    sentence = "Sales rose in every region as the stores reopened and demand held up well."
    pages = [" ".join([sentence] * 40) for _ in range(6)]
    pages[3] = f"{pages[3]}\n\nConsolidated Statements of Income\nRevenues 1,234 1,100"
    text = "# Item 7. Management's Discussion and Analysis\n" + f"\n{PAGE_BREAK}\n".join(pages)
    sections = parse_sections(text, max_section_chars=4000)
    parent, pieces = sections[0], sections[1:]
    assert parent["title"] == "Item 7. Management's Discussion and Analysis"
    assert len(pieces) >= 4 and all(p.get("generated") for p in pieces)
    titles = [p["title"] for p in pieces]
    assert len(set(titles)) == len(titles)
    assert all(not t.startswith(parent["title"]) for t in titles)
    assert titles[0].startswith("Sales rose in every region")
    assert any(t == "Item 7 (continued): Consolidated Statements of Income" for t in titles)
    assert all(t.startswith("Item 7 (continued): ") for t in titles[1:])


def test_ifrs_statements_and_the_auditors_report_are_the_financial_profiles_titles() -> None:
    """Annual reports outside the US name their statements in sentence case and their own
    words; the financial profile takes them as it takes a 10-K's."""
    from treerag_core.structure.candidates import Kind, classify_line

    for title in (
        "Group income statement",
        "Consolidated statement of financial position",
        "Consolidated cash flow statement",
        "Statement of profit or loss and other comprehensive income",
        "Group statement of changes in equity",
        "Independent auditor's report to the members of Example Group plc",
    ):
        found = classify_line(title, FINANCIAL)
        assert found is not None and found.kind == Kind.STATEMENT, title
    assert classify_line("Income statement items were reclassified", FINANCIAL) is None


def test_structure_parts_say_which_parts_came_from_where(tmp_path: Path) -> None:
    from ui.tree_logic import structure_note

    marks = [("PART II", 1, 2), ("Item 7. Management's Discussion and Analysis", 1, 2),
             ("Item 8. Financial Statements and Supplementary Data", 1, 3)]  # fmt: skip
    path = tmp_path / "filing.pdf"
    path.write_bytes(render_pdf(_filing_pages(), marks))
    doc = _index(path, tmp_path)
    assert doc["structure_parts"] == {"bookmarks": 3, "typography": 7}
    assert "Structure from bookmarks and typography (3 from bookmarks, 7 from typography)" in (
        structure_note(doc)
    )


def _prose(topic: str) -> str:
    return (
        f"This part of the agreement sets out the {topic}. The committee decides how the "
        f"{topic} apply and may change them by a written resolution. " * 3
    )


def test_each_exhibit_heads_its_own_document(tmp_path: Path) -> None:
    """A filing's appended exhibits are siblings, each over its own title and Articles: the
    second exhibit does not nest in the last Article of the first, and a title printed
    above an exhibit's label does not head the exhibits after it."""
    pages = [
        [("h1", "UNITED STATES SECURITIES AND EXCHANGE COMMISSION"), ("p", "FORM 10-K")],
        [("h1", "PART IV"), ("h1", "Item 15. Exhibits"), ("p", _prose("exhibits filed")),
         ("h2", "Signatures"), ("p", _prose("signatures"))],
        [("h2", "EXHIBIT 10.1"), ("h1", "DIRECTORS COMPENSATION PLAN"),
         ("h2", "ARTICLE 1"), ("p", _prose("general provisions"))],
        [("p", _prose("annual retainer")), ("h2", "ARTICLE 2"), ("p", _prose("stock grants"))],
        [("p", _prose("payment dates")), ("p", _prose("deferral elections"))],
        [("p", _prose("plan amendments"))],
        [("h2", "EXHIBIT 10.2"), ("h1", "STOCK AWARD AGREEMENT"), ("h2", "ARTICLE 1"),
         ("p", _prose("award terms"))],
        [("p", _prose("vesting dates")), ("h2", "ARTICLE 2"), ("p", _prose("tax withholding"))],
        [("p", _prose("settlement rules"))],
        [("p", _prose("transfer limits"))],
        [("h2", "EXHIBIT 21.1"), ("h1", "LIST OF SUBSIDIARIES"), ("p", _prose("subsidiaries"))],
    ]  # fmt: skip
    path = tmp_path / "exhibits.pdf"
    path.write_bytes(render_pdf(pages, []))
    rows = _tree(_index(path, tmp_path))
    parent = {label: up for label, _, up, _ in rows}
    exhibits = [label for label, *_ in rows if label.startswith("EXHIBIT")]
    assert exhibits == ["EXHIBIT 10.1", "EXHIBIT 10.2", "EXHIBIT 21.1"]
    assert len({parent[label] for label in exhibits}) == 1
    assert parent["DIRECTORS COMPENSATION PLAN"] == "EXHIBIT 10.1"
    assert parent["STOCK AWARD AGREEMENT"] == "EXHIBIT 10.2"
    assert parent["LIST OF SUBSIDIARIES"] == "EXHIBIT 21.1"
