"""A heading printed again where its section continues is one section, and running heads
are no headings: a statement over two pages under one caption, the "Table of Contents" link
atop a filing's pages (its cover too), and two sections that print one heading (kept)."""

from __future__ import annotations

from pathlib import Path

from testkit.builders import make_typeset_pdf
from treerag_core import index_document
from treerag_core.tree.sections import parse_sections

HEADER = "Acme Corp. | 2023 Form 10-K"
BODY = (
    "The company makes pumps and valves for water utilities and sells them through its own "
    "offices and through distributors in twelve countries."
)
UNITS = ("p", "(In millions, except share data)")
PERIODS = ("p", "December 31, 2023 December 31, 2022")
LINK = ("p", "Table of Contents", 8)  # the link atop each page of a filing


def _caption(title: str) -> tuple[str, str, str, str, int]:
    return ("h", title, "Helvetica", "B", 12)


def _filing(tmp_path: Path) -> Path:
    """A cover without the link on its second page, Item 8 with a balance sheet over two
    pages (the caption, units and periods printed on each), the cash flows, and two
    certifications that print one heading over different opening lines, then an exhibit
    whose pages lack the link (so it tops fewer than half of the pages)."""
    pages = [
        [LINK, ("h", "ACME CORP. FORM 10-K", "Helvetica", "B", 18), ("p", BODY)],
        [("p", BODY), ("p", BODY)],
        [
            LINK,
            ("h", "Item 8. Financial Statements", "Helvetica", "B", 16),
            ("p", BODY),
            _caption("Consolidated Balance Sheets"),
            UNITS,
            PERIODS,
            ("p", "Cash and equivalents $ 120 $ 100"),
            ("p", "Total assets $ 1,500 $ 1,300"),
        ],
        [
            LINK,
            _caption("Consolidated Balance Sheets"),
            UNITS,
            PERIODS,
            ("p", "Accounts payable $ 80 $ 60"),
            ("p", "Total liabilities and equity $ 1,500 $ 1,300"),
        ],
        [
            LINK,
            _caption("Consolidated Statements of Cash Flows"),
            ("p", "(In millions) 2023 2022"),
            ("p", "Net cash provided by operating activities 260 210"),
        ],
        [LINK, _caption("CERTIFICATION"), ("p", "I, Jane Roe, certify that:"), ("p", BODY)],
        [LINK, _caption("CERTIFICATION"), ("p", "I, John Doe, certify that:"), ("p", BODY)],
        [("h", "EXHIBIT 10.1 ACME INCENTIVE PLAN", "Helvetica", "B", 14), ("p", BODY)],
        *[[("p", BODY), ("p", BODY)] for _ in range(8)],  # an exhibit without the link
    ]
    return make_typeset_pdf(tmp_path / "acme_10k.pdf", pages, header=HEADER)


def test_a_statement_over_two_pages_is_one_section_and_running_heads_are_none(
    tmp_path: Path,
) -> None:
    doc = index_document(str(_filing(tmp_path)), persist=False, verbose=False)
    nodes = list(doc["flat_nodes"].values())
    titles = [n["title"] for n in nodes]
    sheets = [n for n in nodes if n["title"] == "Consolidated Balance Sheets"]
    assert len(sheets) == 1  # one section, not two siblings
    sheet = sheets[0]
    assert (sheet["page_start"], sheet["page_end"]) == (3, 4)
    assert "Cash and equivalents" in sheet["text"] and "Accounts payable" in sheet["text"]
    assert "Consolidated Statements of Cash Flows" in titles
    assert not [t for t in titles if "Table of Contents" in t or "Acme Corp. |" in t]
    assert not any("Table of Contents" in n["text"] or HEADER in n["text"] for n in nodes)
    # Two certifications print one heading over different lines: both kept.
    assert titles.count("CERTIFICATION") == 2


def _sections(text: str) -> list[tuple[str, int, int | None, int | None]]:
    return [(s["title"], s["level"], s["page_start"], s["page_end"]) for s in parse_sections(text)]


def test_continuation_rules_on_structured_text() -> None:
    units = "(In millions)\nDecember 31, 2023 December 31, 2022"
    text = "\n\f\n".join(
        [
            f"# Item 8\n\n## Balance Sheets\n{units}\nCash 1 2",
            f"## Balance Sheets\n{units}\nDebt 3 4",  # next page, same opening: continues
            "## Income Statement\n(In millions)\nSales 5 6",
            "## Income Statement (continued)\nCosts 7 8",  # marked: continues
            "## Notes\n\n## Notes\nNote 1 text",  # printed twice in a row, first empty
            "## Report\nTo the Board:\nOpinion on the statements",
            "## Report\nTo the Board:\nOpinion on internal control",  # differs: kept
        ]
    )
    sections = parse_sections(text)
    assert _sections(text) == [
        ("Item 8", 1, 1, 1),
        ("Balance Sheets", 2, 1, 2),
        ("Income Statement", 2, 3, 4),
        ("Notes", 2, 5, 5),
        ("Report", 2, 6, 6),
        ("Report", 2, 7, 7),
    ]
    sheet = sections[1]["text"]
    assert "Cash 1 2" in sheet and "Debt 3 4" in sheet
    assert sheet.count("Balance Sheets") == 1  # the reprinted caption, kept as its page's text
    assert "Income Statement (continued)\nCosts 7 8" in sections[2]["text"]
    assert sections[3]["text"].startswith("Notes\nNote 1 text")


def test_the_same_heading_far_apart_or_at_another_level_stays_apart() -> None:
    levels = "## Overview\n(In millions)\nA\n\f\n### Overview\n(In millions)\nB"
    assert [s["level"] for s in parse_sections(levels)] == [2, 3]
    far = "## Overview\n(In millions)\nA\n\f\nmore\n\f\nmore\n\f\n## Overview\n(In millions)\nC"
    assert [(s["page_start"], s["page_end"]) for s in parse_sections(far)] == [(1, 3), (4, 4)]


def test_a_statements_column_header_is_never_a_running_head() -> None:
    """The income, comprehensive income, cash flow and equity statements print "Year Ended
    December 31, 2017 2016 2015" atop nearly consecutive pages: their columns' years, not a
    running head (a run that survives a page without it once took it for one)."""
    from treerag_core.structure.furniture import furniture_lines

    header = "Year Ended December 31, 2017 2016 2015"
    pages = [["Cover", "Annual report", "Body text of the cover."]]
    for n, title in enumerate(["INCOME", "COMPREHENSIVE INCOME", "", "CASH FLOWS", "EQUITY"]):
        lines = [header, "(In millions)", f"Net income {n},283 6,550 7,366", str(70 + n)]
        pages.append([f"CONSOLIDATED STATEMENTS OF {title}", *lines] if title else lines[1:])
    dropped = furniture_lines(pages)
    assert not any(pages[p][i] == header for p, i in dropped)
    assert any(pages[p][i] == "71" for p, i in dropped)  # its page numbers still are
