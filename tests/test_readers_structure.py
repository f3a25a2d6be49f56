"""Plain-text structure detection: numbered, keyword, regulation and 10-K style headings."""

from __future__ import annotations

from treerag_core.structure.candidates import classify_line
from treerag_core.structure.text_rules import structure_pages, structure_text
from treerag_core.tree.sections import parse_sections


def _outline(text: str) -> list[tuple[str, int]]:
    return [(s["title"], s["level"]) for s in parse_sections(text)]


def test_numbered_headings_levels_by_depth():
    text = "\n".join(
        [
            "1 Introduction",
            "This document explains the system.",
            "",
            "1.1 Scope",
            "The scope is small.",
            "",
            "1.2 Terms",
            "1. First, a list item that is a long sentence about terms and usage here.",
            "",
            "2 Design",
            "Body of design.",
            "",
            "2.1 Storage",
            "2.1.1 Disk layout",
            "Blocks of 4 KB.",
        ]
    )
    assert _outline(structure_text(text).text) == [
        ("1 Introduction", 1),
        ("1.1 Scope", 2),
        ("1.2 Terms", 2),
        ("2 Design", 1),
        ("2.1 Storage", 2),
        ("2.1.1 Disk layout", 3),
    ]


def test_regulation_style_text():
    text = "\n".join(
        [
            "PART 52 - SOLICITATION PROVISIONS AND CONTRACT CLAUSES",
            "",
            "Subpart 52.1 - Instructions for Using Provisions and Clauses",
            "",
            "52.100 Scope of subpart.",
            "This subpart gives instructions.",
            "",
            "Subpart 52.2 - Text of Provisions and Clauses",
            "",
            "52.236-5 Material and Workmanship.",
            "As prescribed in 36.505, insert the following clause:",
            "(a) All equipment, material, and articles incorporated into the work shall be new.",
            "",
            "52.236-6 Superintendence by the Contractor.",
            "At all times during performance the Contractor shall have a superintendent.",
        ]
    )
    sections = parse_sections(structure_text(text).text)
    assert [(s["title"], s["level"]) for s in sections] == [
        ("PART 52 - SOLICITATION PROVISIONS AND CONTRACT CLAUSES", 1),
        ("Subpart 52.1 - Instructions for Using Provisions and Clauses", 2),
        ("52.100 Scope of subpart.", 3),
        ("Subpart 52.2 - Text of Provisions and Clauses", 2),
        ("52.236-5 Material and Workmanship.", 3),
        ("52.236-6 Superintendence by the Contractor.", 3),
    ]
    assert "(a) All equipment" in sections[4]["text"]


def test_keyword_headings():
    text = "\n".join(
        [
            "Chapter 3",
            "Article IV",
            "§ 12 Definitions",
            "Note 3 — Revenue",
            "NOTE 4. INCOME TAXES",
            "Item 7.",
        ]
    )
    kinds = [classify_line(line).kind for line in text.split("\n")]  # type: ignore[union-attr]
    assert kinds == ["chapter", "article", "section", "note", "note", "item"]


def test_not_headings():
    for line in [
        "Item 8 of this report describes the statements.",
        "Part II, Item 7 of the annual report",
        "1 2,345 6,789 10,111",
        "in 2019 the company grew revenue, which",
        "Item 7. Management's Discussion and Analysis ........ 25",
        "2019 Compared with 2018",
        "(MILLIONS)",
        "the total was 12",
    ]:
        cand = classify_line(line)
        assert cand is None or cand.toc_like, line


def test_hash_line_is_escaped_not_a_heading():
    text = "INTRODUCTION\n# of shares outstanding\n---\nmore"
    sections = parse_sections(structure_text(text).text)
    assert [s["title"] for s in sections] == ["INTRODUCTION"]
    assert "# of shares outstanding" in sections[0]["text"]
    assert "---" in sections[0]["text"]


def _tenk_pages() -> list[str]:
    header = "ACME CORP 2023 FORM 10-K"
    toc = "\n".join(
        [
            header,
            "TABLE OF CONTENTS",
            "PART I",
            "Item 1. Business 3",
            "Item 1A. Risk Factors 4",
            "PART II",
            "Item 7. Management's Discussion and Analysis 5",
            "Item 8. Financial Statements and Supplementary Data 6",
            "2",
        ]
    )
    body = [
        ["PART I", "Item 1. Business", "Acme makes anvils for coyotes.", "3"],
        ["Item 1A. Risk Factors", "Roadrunners are fast.", "4"],
        ["PART II", "Item 7. Management's Discussion and Analysis", "Sales rose.", "5"],
        [
            "Item 8. Financial Statements and Supplementary Data",
            "NOTE 1. SIGNIFICANT ACCOUNTING POLICIES",
            "Policies text.",
            "NOTE 2. REVENUE",
            "Revenue text; refer to",
            "Note 1.",
            "6",
        ],
        ["NOTE 3. INCOME TAXES", "Tax text.", "7"],
    ]
    cover = f"{header}\nUNITED STATES SECURITIES AND EXCHANGE COMMISSION\nAnnual report\n1"
    return [cover, toc] + [f"{header}\n" + "\n".join(p) for p in body]


def test_tenk_toc_page_and_running_headers():
    result = structure_pages(_tenk_pages())
    sections = parse_sections(result.text)
    got = [(s["title"], s["level"], s["page_start"]) for s in sections]
    assert ("PART I", 1, 3) in got
    assert ("Item 1. Business", 2, 3) in got
    assert ("Item 7. Management's Discussion and Analysis", 2, 5) in got
    assert ("Item 8. Financial Statements and Supplementary Data", 2, 6) in got
    assert ("NOTE 1. SIGNIFICANT ACCOUNTING POLICIES", 3, 6) in got
    assert ("NOTE 3. INCOME TAXES", 3, 7) in got
    # nothing from the TOC page, no running header, no "Note 1." cross-reference heading
    assert all(page != 2 for _, _, page in got[1:])
    assert not any(title.startswith("ACME CORP") for title, _, _ in got)
    assert sum(title.startswith("Note 1") for title, _, _ in got) == 0
    assert "ACME CORP 2023 FORM 10-K" not in result.text.split("\f", 1)[1]
    # bare page numbers are dropped from the text
    item1 = next(s for s in sections if s["title"] == "Item 1. Business")
    assert item1["text"] == "Acme makes anvils for coyotes."


def test_toc_with_dotted_leaders_in_plain_text():
    text = "\n".join(
        [
            "CONTENTS",
            "1 Introduction ........ 1",
            "2 Methods ........ 4",
            "",
            "1 Introduction",
            "Hello.",
            "",
            "2 Methods",
            "We measured.",
        ]
    )
    titles = [s["title"] for s in parse_sections(structure_text(text).text)]
    assert titles == ["CONTENTS", "1 Introduction", "2 Methods"]


def test_word_fragments_from_pdf_extraction_are_rejoined():
    page = "PART II\n \nI\n \nItem 10. \nDirector\n \ns, Executive Officers.\n \nText here."
    result = structure_pages(["x\n1", page, "y\n3"])
    titles = [t for t, _, _ in result.headings]
    assert titles == ["PART III", "Item 10. Directors, Executive Officers."]


def test_run_in_heading_keeps_its_sentence_as_body():
    text = "ARTICLE 2 DEFINITIONS\nSection 2.1 Definitions. As used in the Plan, terms mean this.\n"
    sections = parse_sections(structure_text(text).text)
    assert [(s["title"], s["level"]) for s in sections] == [
        ("ARTICLE 2 DEFINITIONS", 1),
        ("Section 2.1 Definitions.", 2),
    ]
    assert sections[1]["text"] == "As used in the Plan, terms mean this."


def test_financial_statement_titles_in_any_case_are_headings():
    from treerag_core.structure.text_rules import structure_pages

    pages = [
        "PART II\nItem 8. Financial Statements\nThe statements follow on the next pages.\n",
        "CONSOLIDATED STATEMENTS OF\nCASH FLOWS(in millions)\nNet income 100 200\n",
        "Consolidated Balance Sheets\n(in millions)\nTotal assets 1 2\n",
        "Our cash is discussed in the Consolidated Statements of Cash Flows.\nMore text here.\n",
    ]
    text = structure_pages(pages).text
    assert "### CONSOLIDATED STATEMENTS OF CASH FLOWS" in text
    assert "### Consolidated Balance Sheets" in text
    assert "# Our cash" not in text  # a sentence that names a statement is not a heading
