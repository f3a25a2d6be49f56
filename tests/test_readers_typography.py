"""PDF structure without bookmarks: headings by their look, printed contents, Word files
typed with manual formatting. Every document is built here, so titles, levels, parents and
pages are known exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit.builders import TypesetItem, make_formatted_docx, make_typeset_pdf
from treerag_core import index_document
from treerag_core.read.source import read_source
from treerag_core.tree.labels import heading_label

BODY = (
    "The plant runs three shifts and every shift keeps a written log of what it did, "
    "what it measured and what it left for the next shift to finish before noon."
)


def _tree(path: Path) -> tuple[str, list[tuple[str, int, int | None, str | None]]]:
    """(structure source, [(heading, level, page, parent heading)]) of the named nodes, each
    heading as printed: its section number, if any, and its title."""
    doc = index_document(str(path), persist=False, verbose=False)
    flat = doc["flat_nodes"]
    rows = [
        (
            heading_label(n),
            n["level"],
            n.get("page_start"),
            heading_label(flat[n["parent_id"]]) if n.get("parent_id") else None,
        )
        for n in flat.values()
        if not n.get("generated")
    ]
    return doc["structure_source"], rows


def _manual(tmp_path: Path) -> Path:
    """Three pages: a title, numbered and unnumbered headings in three fonts and sizes, a
    title wrapped over two lines, a body-size bold heading, a table whose header cells are
    bold, a paragraph opening with a bold word, a running head and page numbers."""
    return make_typeset_pdf(
        tmp_path / "manual.pdf",
        [
            [
                ("h", "Operations Manual", "Times", "B", 24),
                ("p", BODY),
                ("h", "1 Introduction", "Helvetica", "B", 16),
                ("p", BODY),
                (
                    "h",
                    "1.1 Purpose and Scope of the\nPlant Operations Manual",
                    "Helvetica",
                    "B",
                    12,
                ),
                ("p", BODY),
                ("lead", "Note:", "this paragraph opens with a bold word and is body text."),
                ("h", "Safety Rules", "Helvetica", "B", 12),
                ("p", BODY),
                ("table", [["Region", "Revenue", "Growth"], ["North", "1,200", "4.5%"]]),
                ("p", BODY),
            ],
            [
                ("h", "2 Equipment", "Helvetica", "B", 16),
                ("p", BODY),
                ("h", "2.1 Pumps", "Helvetica", "B", 12),
                ("p", BODY),
                ("h", "Daily Checks", "Courier", "B", 10),
                ("p", BODY),
                ("h", "Weekly Checks", "Courier", "B", 10),
                ("p", BODY),
            ],
            [
                ("h", "3 Records", "Helvetica", "B", 16),
                ("p", BODY),
                ("h", "3.1 Shift Logs", "Helvetica", "B", 12),
                ("p", BODY),
            ],
        ],
        header="ACME Plant - Operations Manual - Internal",
        first_printed=1,
    )


def test_headings_by_typography_titles_levels_parents_pages(tmp_path: Path) -> None:
    source, rows = _tree(_manual(tmp_path))
    assert source == "typography and numbering"
    assert rows == [
        ("Operations Manual", 1, 1, None),
        ("1 Introduction", 2, 1, "Operations Manual"),
        ("1.1 Purpose and Scope of the Plant Operations Manual", 3, 1, "1 Introduction"),
        ("Safety Rules", 3, 1, "1 Introduction"),
        ("2 Equipment", 2, 2, "Operations Manual"),
        ("2.1 Pumps", 3, 2, "2 Equipment"),
        ("Daily Checks", 4, 2, "2.1 Pumps"),
        ("Weekly Checks", 4, 2, "2.1 Pumps"),
        ("3 Records", 2, 3, "Operations Manual"),
        ("3.1 Shift Logs", 3, 3, "3 Records"),
    ]


def test_running_heads_page_numbers_and_table_cells_are_body_text(tmp_path: Path) -> None:
    text = read_source(str(_manual(tmp_path))).text
    assert "ACME Plant" not in text  # the running head is left out, not made a heading
    headings = [line for line in text.split("\n") if line.startswith("#")]
    assert not [h for h in headings if "Region" in h or "Note" in h or h.strip("# ").isdigit()]
    assert "Region Revenue Growth" in text and "Note: this paragraph" in text


def _guide(tmp_path: Path, detailed: bool = True) -> Path:
    """A cover, a printed contents, then five body pages numbered 1-5 (physical 3-7). The
    body's headings are set like the body text: only the contents can say what they are."""
    plain = [
        [("p", "1 Getting Started"), ("p", BODY), ("p", "1.1 Installation"), ("p", BODY)],
        [("p", "1.2 First Steps"), ("p", BODY)],
        [("p", "2 Reference"), ("p", BODY), ("p", "2.1 Commands"), ("p", BODY)],
        [("p", BODY), ("p", "2.2 Settings"), ("p", BODY)],
        [("p", "Index"), ("p", "commands, 3; settings, 4")],
    ]
    entries = [
        ("1 Getting Started", 1, 0),
        ("1.1 Installation", 1, 8),
        ("1.2 First Steps", 2, 8),
        ("2 Reference", 3, 0),
        ("2.1 Commands", 3, 8),
        ("2.2 Settings", 4, 8),
        ("2.3 Glossary", 4, 8),  # listed, but never printed as a heading
        ("Index", 5, 0),
    ]
    if not detailed:
        entries = [e for e in entries if e[2] == 0]
    contents = [("h", "Contents", "Helvetica", "B", 14)] + [("toc", *e) for e in entries]
    cover = [("h", "Field Guide", "Times", "B", 28), ("p", "Second edition.")]
    return make_typeset_pdf(tmp_path / "guide.pdf", [cover, contents, *plain], first_printed=3)


def test_printed_contents_mapped_to_physical_pages(tmp_path: Path) -> None:
    source, rows = _tree(_guide(tmp_path))
    assert source == "printed contents"
    got = {title: (level, page, parent) for title, level, page, parent in rows}
    assert got["1 Getting Started"] == (1, 3, None)  # printed page 1 is the third page
    assert got["1.1 Installation"] == (2, 3, "1 Getting Started")
    assert got["1.2 First Steps"] == (2, 4, "1 Getting Started")
    assert got["2 Reference"] == (1, 5, None)
    assert got["2.2 Settings"] == (2, 6, "2 Reference")
    assert got["2.3 Glossary"] == (2, 6, "2 Reference")  # not found: its page's start
    assert got["Index"] == (1, 7, None)
    assert got["Table of Contents"][1] == 2


def test_a_part_listed_without_a_page_starts_where_it_is_printed(tmp_path: Path) -> None:
    """Walmart's contents lists "Part I" with no page, then "Item 1 Business ... 5"; the
    filing prints "PART I" four pages earlier, over its cautionary statement. The part
    starts there and holds the statement, whatever the distance to Item 1: before, it was
    placed at Item 1 and the "PART I" found by typography stood beside it as a second part."""
    filler = [
        f"Statement {n} looks forward: results may differ from what we expect for many reasons, "
        f"among them the {n} risks described under Item 1A of this report."
        for n in ("one", "two", "three", "four")
    ]
    items = [("Item 1 Business", 5), ("Item 1A Risk Factors", 6), ("Item 2 Properties", 7),
             ("Item 5 Market", 8), ("Item 7 Discussion", 9)]  # fmt: skip
    body = [
        [
            ("h", "PART I", "Helvetica", "B", 14),
            ("p", filler[0]),
            ("h", "Cautionary Statement", "Helvetica", "B", 12),
            ("p", filler[1]),
        ],  # fmt: skip
        [("p", filler[2])],
        [("p", filler[3])],
        [("p", BODY)],
        *[
            [
                *([("h", "PART II", "Helvetica", "B", 14)] if title == "Item 5 Market" else []),
                ("h", title.replace(" ", ". ", 2).replace(". ", " ", 1), "Helvetica", "B", 12),
                ("p", f"{title} sets out what this part of the report covers. {BODY}"),
            ]
            for title, _ in items
        ],
    ]
    entries = [("Part I", None, 0), *[(t, n, 0) for t, n in items[:3]], ("Part II", None, 0),
               *[(t, n, 0) for t, n in items[3:]]]  # fmt: skip
    contents = [("h", "Contents", "Helvetica", "B", 14)] + [("toc", *e) for e in entries]
    path = make_typeset_pdf(tmp_path / "10k.pdf", [contents, *body], first_printed=2)
    source, rows = _tree(path)
    assert source.startswith("printed contents")
    got = {title: (level, page, parent) for title, level, page, parent in rows}
    assert got["Part I"] == (1, 2, None)
    assert got["Cautionary Statement"][2] == "Part I"
    assert got["Item 1 Business"] == (2, 6, "Part I")
    assert got["Part II"] == (1, 9, None)
    assert [t.casefold() for t, *_ in rows].count("part i") == 1


def test_flat_contents_gets_typography_below_it(tmp_path: Path) -> None:
    names = ["Basics", "Advanced", "Recipes", "Limits"]
    chapters = [
        [
            ("h", f"Chapter {n} {name}", "Helvetica", "B", 16),
            ("p", BODY),
            ("h", "Setup", "Helvetica", "B", 12),
            ("p", BODY),
            ("h", "Usage", "Helvetica", "B", 12),
            ("p", BODY),
        ]
        for n, name in enumerate(names, 1)
    ]
    contents = [("h", "Contents", "Helvetica", "B", 14)] + [
        ("toc", f"Chapter {n} {name}", n, 0) for n, name in enumerate(names, 1)
    ]
    path = make_typeset_pdf(tmp_path / "flat.pdf", [contents, *chapters], first_printed=2)
    source, rows = _tree(path)
    assert source == "printed contents and typography"
    assert ("Setup", 2, 2, "Chapter 1 Basics") in rows
    assert ("Usage", 2, 5, "Chapter 4 Limits") in rows
    assert ("Chapter 2 Advanced", 1, 3, None) in rows


def test_docx_typed_with_manual_formatting_gets_a_tree(tmp_path: Path) -> None:
    path = make_formatted_docx(
        tmp_path / "handbook.docx",
        [
            ("Employee Handbook", True, 20),
            "This handbook explains how we work together and what you can expect from us.",
            ("1. Working Hours", True, 14),
            "We work from nine to five on weekdays, with a lunch break of one hour.",
            ("1.1 Remote Work", True, None),
            "You may work from home two days a week when your team agrees to it.",
            [
                ("Note:", True, None),
                (" this sentence starts with a bold word but is body text.", False, None),
            ],
            ("2. Leave", True, 14),
            "Holidays are booked in the shared calendar at least two weeks ahead.",
            ("Sick Leave", True, None),
            "Tell your manager before ten o'clock on the first day you are ill.",
        ],
    )
    source, rows = _tree(path)
    assert source == "typography and numbering"
    assert [(t, lvl, parent) for t, lvl, _, parent in rows] == [
        ("Employee Handbook", 1, None),
        ("1. Working Hours", 2, "Employee Handbook"),
        ("1.1 Remote Work", 3, "1. Working Hours"),
        ("2. Leave", 2, "Employee Handbook"),
        ("Sick Leave", 3, "2. Leave"),
    ]


def test_a_failing_structure_strategy_falls_through_to_the_next(tmp_path: Path) -> None:
    from treerag_core.limits import Limits
    from treerag_core.structure import Strategy, apply_strategies
    from treerag_core.structure.pages import ReadResult, RichPage

    def broken(result: ReadResult, limits: Limits) -> str:
        raise IndexError("a heuristic met a page it did not expect")

    result = ReadResult(pages=[RichPage(1, "Body text.")])
    chosen = apply_strategies(
        result, [Strategy("broken", broken), Strategy("plain", lambda r, lim: "# T\nx")], Limits()
    )
    assert (chosen.source, chosen.text) == ("plain", "# T\nx")


def test_continued_titles_and_long_colon_lead_ins_are_no_new_sections(tmp_path: Path) -> None:
    """A statement's title repeated with "(continued)" goes on with the section before it;
    a bold line ending in a colon that introduces a letter or a list is no heading, while a
    short label with a colon ("Documents Incorporated by Reference:") still is one."""
    path = make_typeset_pdf(
        tmp_path / "release.pdf",
        [
            [
                ("h", "First Quarter Results", "Helvetica", "B", 16),
                ("p", BODY),
                ("h", "Statement of Cash Flows", "Helvetica", "B", 12),
                ("p", BODY),
            ],
            [
                ("h", "Statement of Cash Flows (continued)", "Helvetica", "B", 12),
                ("p", BODY),
                ("h", "Report of the Auditor", "Helvetica", "B", 12),
                (
                    "h",
                    "To the Shareholders and the Board of Directors of Acme Inc.:",
                    "Helvetica",
                    "B",
                    10,
                ),
                ("p", BODY),
                ("h", "Documents Incorporated by Reference:", "Helvetica", "B", 12),
                ("p", BODY),
            ],
        ],
    )
    source, rows = _tree(path)
    assert source == "typography and numbering"
    assert [(t, lvl, page) for t, lvl, page, _ in rows] == [
        ("First Quarter Results", 1, 1),
        ("Statement of Cash Flows", 2, 1),
        ("Report of the Auditor", 2, 2),
        ("Documents Incorporated by Reference:", 2, 2),
    ]
    text = read_source(str(path)).text
    assert "Statement of Cash Flows (continued)" in text  # kept as text of its section
    assert "To the Shareholders and the Board of Directors of Acme Inc.:" in text


def test_a_label_opening_an_appended_document_heads_it(tmp_path: Path) -> None:
    """An exhibit appended to a report opens with its label set small in the top corner,
    off the text column; the label heads it, so its pages are not filed under the section
    before. The same words inside a paragraph, or below a page's first line, are text."""
    path = make_typeset_pdf(
        tmp_path / "report.pdf",
        [
            [
                ("h", "Annual Report", "Helvetica", "B", 16),
                ("p", BODY),
                ("h", "Signatures", "Helvetica", "B", 12),
                ("p", BODY + " The list of subsidiaries is filed as"),
                ("p", "Exhibit 21"),
            ],
            [
                ("corner", "Exhibit 21", "B", 9),
                ("h", "Subsidiaries of Acme Inc.", "Helvetica", "B", 12),
                ("p", BODY),
            ],
            [("corner", "EXHIBIT 31.1", "", 9), ("p", BODY)],
        ],
    )
    source, rows = _tree(path)
    assert source == "typography and numbering"
    titles = [(t, page) for t, _, page, _ in rows]
    assert titles == [
        ("Annual Report", 1),
        ("Signatures", 1),
        ("Exhibit 21", 2),
        ("Subsidiaries of Acme Inc.", 2),
        ("EXHIBIT 31.1", 3),
    ]


def test_a_page_set_in_its_own_larger_body_is_read_against_it(tmp_path: Path) -> None:
    """An amendment typed at 12 pt appended to a 10 pt report: its short 12 pt lines (a
    numbered clause, the signature block) are its body text, not headings larger than the
    report's body; its bold title is still a heading, and 12 pt headings in the report are."""
    clause = "1. Section 16 of Article II is amended as follows"
    path = make_typeset_pdf(
        tmp_path / "amended.pdf",
        [
            [
                ("h", "Annual Report", "Helvetica", "B", 16),
                ("p", BODY),
                ("h", "Operations", "Helvetica", "", 12),
                ("p", BODY * 6),
            ],
            [("p", BODY * 8)],
            [
                ("corner", "Exhibit 10.1", "B", 9),
                ("h", "Amendment No. 3", "Helvetica", "B", 14),
                ("p", BODY * 2, 12),
                ("p", clause, 12),
                ("p", BODY * 3, 12),
                ("p", "ACME INC.", 12),
                ("p", "Chief Human Resources Officer", 12),
            ],
        ],
    )
    source, rows = _tree(path)
    assert source == "typography and numbering"
    assert [(t, page) for t, _, page, _ in rows] == [
        ("Annual Report", 1),
        ("Operations", 1),
        ("Exhibit 10.1", 3),
        ("Amendment No. 3", 3),
    ]
    assert clause in read_source(str(path)).text


def test_a_table_header_of_words_is_not_a_heading(tmp_path: Path) -> None:
    """A bold header row over rows of names (no figures below it to tell a table) comes
    out of the PDF as one short line spread over the page's width: table cells, not a title."""
    path = make_typeset_pdf(
        tmp_path / "subsidiaries.pdf",
        [
            [
                ("h", "Subsidiaries", "Helvetica", "B", 16),
                ("p", BODY),
                ("gap", 4),
                (
                    "table",
                    [
                        ["Name", "", "Place"],
                        ["Acme Ltd", "", "Delaware"],
                        ["Acme GmbH", "", "Germany"],
                        ["Acme SA", "", "France"],
                    ],
                ),
                ("h", "Principal Offices", "Helvetica", "B", 10),
                ("p", BODY),
                ("h", "Employees", "Helvetica", "B", 10),
                ("p", BODY),
            ]
        ],
    )
    source, rows = _tree(path)
    assert source == "typography and numbering"
    assert [t for t, *_ in rows] == ["Subsidiaries", "Principal Offices", "Employees"]


def test_a_header_cell_placed_back_up_the_page_is_not_a_heading(tmp_path: Path) -> None:
    """A table's stacked header ("Carrying" over "Amount") is often drawn after the row
    below it: a short bold word near the page's centre, back up the page. It is a cell."""
    path = make_typeset_pdf(
        tmp_path / "fair_value.pdf",
        [
            [
                ("h", "Fair Value of Debt", "Helvetica", "B", 16),
                ("p", BODY),
                ("gap", 12),
                ("p", "(dollars in millions)"),
                ("raise", "Carrying", 98, 14),
                ("table", [["Amount", "Level 1", "Total"], ["At December 31", "1,200", "1,450"]]),
                ("h", "Derivative Instruments", "Helvetica", "B", 10),
                ("p", BODY),
                ("h", "Interest Rate Swaps", "Helvetica", "B", 10),
                ("p", BODY),
            ]
        ],
    )
    source, rows = _tree(path)
    assert source == "typography and numbering"
    assert [t for t, *_ in rows] == [
        "Fair Value of Debt",
        "Derivative Instruments",
        "Interest Rate Swaps",
    ]
    assert "Carrying" in read_source(str(path)).text


def test_a_heading_right_under_a_short_heading_is_not_its_second_line(tmp_path: Path) -> None:
    """A left-aligned title breaks only when its line is full: "Equity" set right under
    "Note 4. Equity and Comprehensive Income", whose line had room for it, is a heading of
    its own; a long title that filled its line still wraps into one."""
    long_title = (
        "4.1 Accumulated Other Comprehensive Income and Reclassifications of Gains\nOut of It"
    )
    path = make_typeset_pdf(
        tmp_path / "notes.pdf",
        [
            [
                ("h", "Notes to the Statements", "Helvetica", "B", 16),
                ("p", BODY),
                ("h", "Note 4. Equity and Comprehensive Income\nEquity", "Helvetica", "B", 12),
                ("p", BODY),
                ("h", long_title, "Helvetica", "B", 12),
                ("p", BODY),
            ]
        ],
    )
    source, rows = _tree(path)
    assert source == "typography and numbering"
    assert [t for t, *_ in rows] == [
        "Notes to the Statements",
        "Note 4. Equity and Comprehensive Income",
        "Equity",
        long_title.replace("\n", " "),
    ]


def test_a_section_number_is_kept_apart_from_the_title(tmp_path: Path) -> None:
    """The node's title is the heading's name (as bookmarks and people name a section), its
    number is kept beside it, and the two are shown together everywhere."""
    from treerag_core.tree.nodes import split_number

    doc = index_document(str(_manual(tmp_path)), persist=False, verbose=False)
    pumps = next(n for n in doc["flat_nodes"].values() if n["title"] == "Pumps")
    assert pumps["number"] == "2.1" and heading_label(pumps) == "2.1 Pumps"
    assert pumps["path"].endswith("2 Equipment > 2.1 Pumps")
    assert "2.1 Pumps" in doc["tree_outline"]
    assert split_number("1. Introduction") == ("1.", "Introduction")
    assert split_number("A.1 Build") == ("A.1", "Build")
    assert split_number("Appendix A External Code") == ("Appendix A", "External Code")
    assert split_number("ANNEX B-2: Tariffs") == ("ANNEX B-2:", "Tariffs")
    assert split_number("Appendix C – Forms") == ("Appendix C –", "Forms")
    for kept in [
        "2023 Form 10-K",
        "Item 7. MD&A",
        "I Gnuplot",
        "3M Company",
        "1.5 2.5",
        "10-K",
        "Appendix A",
    ]:
        assert split_number(kept) == ("", kept)


def test_headings_spaced_like_paragraphs_are_found_between_them(tmp_path: Path) -> None:
    """A filing that sets its division headings in bold body type with no more space above
    them than a paragraph's ("LatAm", "Europe"): a short bold line between a finished
    paragraph and prose heads a section; a bold sentence does not, nor a table's bold
    header row."""
    path = make_typeset_pdf(
        tmp_path / "review.pdf",
        [
            [
                ("h", "Division Review", "Helvetica", "B", 16),
                ("p", BODY),
                ("run", "Latin America"),
                ("p", BODY),
                ("run", "Net revenue grew in every region."),
                ("p", BODY),
                ("run", "Europe"),
                ("p", BODY),
                ("table", [["Region", "2023", "2022"], ["Europe", "1,200", "1,100"]]),
                ("run", "Asia Pacific"),
                ("p", BODY),
            ],
        ],
    )
    source, rows = _tree(path)
    assert source == "typography and numbering"
    assert [(t, lvl, parent) for t, lvl, _, parent in rows] == [
        ("Division Review", 1, None),
        ("Latin America", 2, "Division Review"),
        ("Europe", 2, "Division Review"),
        ("Asia Pacific", 2, "Division Review"),  # after a table: room above it, as before
    ]


def test_a_title_over_a_table_after_a_paragraph_heads_a_section(tmp_path: Path) -> None:
    """3M's segments: "Safety and Graphics Business (20.8% of consolidated sales):" in bold
    over the segment's table, after the paragraph ending the segment before. Its aside is
    no lead-in's words, and a finished paragraph above makes it the table's title, not a
    label inside it; a bold row label between rows of figures stays a label."""
    path = make_typeset_pdf(
        tmp_path / "segments.pdf",
        [
            [
                ("h", "Performance by Business Segment", "Helvetica", "B", 16),
                ("p", BODY),
                (
                    "h",
                    "Safety and Graphics Business (20.8% of consolidated sales):",
                    "Helvetica",
                    "B",
                    10,
                ),  # fmt: skip
                ("table", [["Sales", "2018", "2017"], ["Total", "6,827", "6,235"]]),
                ("p", BODY),
                ("h", "Health Care Business (18.4% of consolidated sales):", "Helvetica", "B", 10),
                ("table", [["Sales", "2018", "2017"], ["Total", "6,021", "5,853"]]),
                ("p", BODY),
            ],
        ],
    )
    _, rows = _tree(path)
    assert [(t, lvl) for t, lvl, _, _ in rows] == [
        ("Performance by Business Segment", 1),
        ("Safety and Graphics Business (20.8% of consolidated sales):", 2),
        ("Health Care Business (18.4% of consolidated sales):", 2),
    ]


def _segment(name: str, share: str, top: bool = False) -> list[TypesetItem]:
    """A 3M-like segment: its title over its table, then the same two subheadings in the
    same bold as the title (after a paragraph, unless it opens the page)."""
    return [
        *([] if top else [("p", BODY)]),
        ("h", f"{name} Business ({share} of consolidated sales):", "Helvetica", "B", 10),
        ("table", [["Sales", "2018", "2017"], ["Total", "6,827", "6,235"]]),
        ("h", "Year 2018 results:", "Helvetica", "B", 10),
        ("p", BODY),
        ("h", "Year 2017 results:", "Helvetica", "B", 10),
        (
            "p",
            f"Sales in {name} rose in every region, and the segment ended the year with more "
            "orders than it began it with.",
        ),
    ]


def test_titles_repeated_in_each_group_go_below_the_groups_title(tmp_path: Path) -> None:
    """3M 2018 sets each segment's title and its "Year 2018 results:" and "Year 2017
    results:" in one bold: by their look all were siblings, the results of five segments in
    one flat list. Titles printed once per group are the group's parts. A segment opening a
    page under the running head "Table of Contents" is still the title over its table: the
    paragraph above it ended the page before."""
    path = make_typeset_pdf(
        tmp_path / "segments.pdf",
        [
            [
                ("h", "Performance by Business Segment", "Helvetica", "B", 16),
                *_segment("Safety and Graphics", "20.8%"),
            ],
            _segment("Health Care", "18.4%", top=True),
            [*_segment("Consumer", "14.6%", top=True), ("h", "Outlook", "Helvetica", "B", 16)],
        ],
        header="Table of Contents",
    )
    _, rows = _tree(path)
    results = [("Year 2018 results:", 3), ("Year 2017 results:", 3)]
    assert [(t, lvl) for t, lvl, _, _ in rows] == [
        ("Performance by Business Segment", 1),
        ("Safety and Graphics Business (20.8% of consolidated sales):", 2),
        *results,
        ("Health Care Business (18.4% of consolidated sales):", 2),
        *results,
        ("Consumer Business (14.6% of consolidated sales):", 2),
        *results,
        ("Outlook", 1),
    ]


_PLAN = ["Obligations and Funded Status:", "Plan Assets:", "Employer Contributions:"]


@pytest.mark.parametrize(
    "titles",
    [
        ["Revenues", "Income Taxes", "Critical Accounting Estimates", "Income Taxes"],
        [
            _PLAN[0],
            "Components of Net Pension Cost:",
            *_PLAN[1:],
            _PLAN[0],
            "Components of Net Postretirement Cost:",
            *_PLAN[1:],
        ],
    ],
    ids=["one-title-two-sections", "set-under-a-heading-not-found"],
)
def test_repeated_titles_without_a_head_each_stay_beside_them(
    tmp_path: Path, titles: list[str]
) -> None:
    """Every heading set alike. "Income Taxes" under the results of operations and again
    under the critical estimates: two sections that share a title, not a group's parts.
    Kraft Heinz's pension plans, then its postretirement plans (that heading not found):
    the set opens with a repeat, so the unique titles among it are its parts, not heads.
    Nothing moves below the heading before it."""
    path = make_typeset_pdf(
        tmp_path / "mdna.pdf",
        [
            [
                ("h", "Management's Discussion and Analysis", "Helvetica", "B", 16),
                *[item for t in titles for item in (("h", t, "Helvetica", "B", 10), ("p", BODY))],
            ],
        ],
    )
    _, rows = _tree(path)
    assert [(t, lvl) for t, lvl, _, _ in rows] == [
        ("Management's Discussion and Analysis", 1),
        *[(t, 2) for t in titles],
    ]


def test_the_letters_of_a_run_are_siblings_whatever_their_size(tmp_path: Path) -> None:
    """Pfizer 2021 set Note 2's "B. Divestitures" a point smaller than its "A.
    Acquisitions": by style alone B sat under A. The next letter of a run (or the one after,
    a heading not found) is A's sibling, until a higher heading starts another run."""
    path = make_typeset_pdf(
        tmp_path / "notes.pdf",
        [
            [
                ("h", "Note 2. Acquisitions and Divestitures", "Helvetica", "B", 14),
                ("h", "A. Acquisitions", "Helvetica", "B", 11),
                ("p", BODY),
                ("h", "B. Divestitures", "Helvetica", "B", 10),
                ("p", BODY),
                ("h", "D. Licensing", "Helvetica", "B", 10),
                ("p", BODY),
                ("h", "Note 3. Leases", "Helvetica", "B", 14),
                ("h", "A. Lessee", "Helvetica", "B", 11),
                ("p", BODY),
            ],
        ],
    )
    _, rows = _tree(path)
    assert [(t, lvl) for t, lvl, _, _ in rows] == [
        ("Note 2. Acquisitions and Divestitures", 1),
        ("A. Acquisitions", 2),
        ("B. Divestitures", 2),
        ("D. Licensing", 2),
        ("Note 3. Leases", 1),
        ("A. Lessee", 2),
    ]


def test_a_covers_form_lines_are_no_headings(tmp_path: Path) -> None:
    """An 8-K's cover sets its form's lines large: the field captions in parentheses, the
    address with its ZIP code and the telephone number are the cover's text, not sections
    of their own."""
    path = make_typeset_pdf(
        tmp_path / "8k.pdf",
        [
            [
                ("h", "FORM 8-K", "Helvetica", "B", 16),
                ("h", "Acme Corporation", "Helvetica", "B", 14),
                (
                    "h",
                    "(Exact name of registrant as specified in its charter)",
                    "Helvetica",
                    "B",
                    12,
                ),
                ("h", "700 Anderson Hill Road, Purchase, New York 10577", "Helvetica", "B", 12),
                ("h", "Registrant's telephone number: (914) 253-2000", "Helvetica", "B", 12),
                ("p", BODY),
                ("h", "Item 5.07. Submission of Matters to a Vote", "Helvetica", "B", 12),
                ("p", BODY),
            ],
        ],
    )
    _, rows = _tree(path)
    titles = [t for t, _, _, _ in rows]
    assert "Item 5.07. Submission of Matters to a Vote" in titles
    assert not [t for t in titles if "registrant" in t.lower() or "10577" in t]
    assert "(Exact name of registrant as specified in its charter)" in read_source(str(path)).text


def test_a_note_number_over_its_title_is_one_heading(tmp_path: Path) -> None:
    """American Express sets "NOTE 1" small and its title large on the next line: one
    heading titled by both, at its number's rank, so the notes stay siblings."""
    pages = [
        [
            ("h", "Notes to Consolidated Financial Statements", "Helvetica", "B", 16),
            ("h", f"NOTE {n}", "Helvetica", "B", 10),
            ("h", title, "Helvetica", "B", 13),
            ("h", sub, "Helvetica", "B", 10),
            ("p", BODY),
        ]
        if n == 1
        else [
            ("h", f"NOTE {n}", "Helvetica", "B", 10),
            ("h", title, "Helvetica", "B", 13),
            ("h", sub, "Helvetica", "B", 10),
            ("p", BODY),
        ]
        for n, title, sub in (
            (1, "SUMMARY OF SIGNIFICANT ACCOUNTING POLICIES", "THE COMPANY"),
            (2, "LOANS AND RECEIVABLES", "CARD MEMBER LOANS"),
            (3, "INVESTMENT SECURITIES", "AVAILABLE FOR SALE"),
        )
    ]
    _, rows = _tree(make_typeset_pdf(tmp_path / "notes.pdf", pages))
    assert [(t, lvl, parent) for t, lvl, _, parent in rows] == [
        ("Notes to Consolidated Financial Statements", 1, None),
        ("NOTE 1 — SUMMARY OF SIGNIFICANT ACCOUNTING POLICIES", 2,
         "Notes to Consolidated Financial Statements"),
        ("THE COMPANY", 3, "NOTE 1 — SUMMARY OF SIGNIFICANT ACCOUNTING POLICIES"),
        ("NOTE 2 — LOANS AND RECEIVABLES", 2, "Notes to Consolidated Financial Statements"),
        ("CARD MEMBER LOANS", 3, "NOTE 2 — LOANS AND RECEIVABLES"),
        ("NOTE 3 — INVESTMENT SECURITIES", 2, "Notes to Consolidated Financial Statements"),
        ("AVAILABLE FOR SALE", 3, "NOTE 3 — INVESTMENT SECURITIES"),
    ]  # fmt: skip


def test_a_title_that_stops_on_and_goes_on_under_a_hanging_indent(tmp_path: Path) -> None:
    """American Express hangs "RESULTS OF OPERATIONS (MD&A)" under "ITEM 7. MANAGEMENT'S
    DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND": one title, not a heading and a
    child; a title that ends whole keeps its indented next line apart."""
    path = make_typeset_pdf(
        tmp_path / "items.pdf",
        [
            [
                ("hang", "ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF CONDITION AND",
                 "RESULTS OF OPERATIONS", "Helvetica", "B", 12),
                ("p", BODY),
                ("h", "EXECUTIVE OVERVIEW", "Helvetica", "B", 11),
                ("p", BODY),
            ],
            [
                ("hang", "ITEM 8. FINANCIAL STATEMENTS", "SUPPLEMENTARY DATA", "Helvetica", "B",
                 12),
                ("p", BODY),
            ],
        ],
    )  # fmt: skip
    _, rows = _tree(path)
    titles = [t for t, _, _, _ in rows]
    assert titles[0] == (
        "ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF CONDITION AND RESULTS OF OPERATIONS"
    )
    assert "RESULTS OF OPERATIONS" not in titles and "EXECUTIVE OVERVIEW" in titles
    assert "ITEM 8. FINANCIAL STATEMENTS" in titles


@pytest.mark.parametrize(
    "report",
    [
        "Report of Independent Registered Public Accounting Firm on the Financial Statements",
        "Report of Independent Registered Public Accounting Firm",  # a standard title
    ],
)
def test_the_auditors_report_holds_its_parts_and_not_the_statements(
    tmp_path: Path, report: str
) -> None:
    """Lockheed Martin sets its auditor's report's title in the bold italic of its minor
    headings and the report's parts (opinion, basis, critical audit matters) in bold upright:
    the parts go under the report whatever its look, the matters under theirs, and the
    statements after it (or an index to them) are the Item's, not the report's; a second
    report is the first's peer, not inside it, and so is management's report before it; its
    addressee set larger (American Express) is one of its parts, not their head."""
    pages = [
        [
            ("h", "ITEM 7. Management's Discussion and Analysis", "Helvetica", "B", 12),
            ("h", "Business Overview", "Helvetica", "B", 10),
            ("p", BODY),
            ("h", "Backlog", "Helvetica", "BI", 10),
            ("p", BODY),
        ],
        [
            ("h", "ITEM 8. Financial Statements and Supplementary Data", "Helvetica", "B", 12),
            ("h", "MANAGEMENT'S REPORT ON INTERNAL CONTROL", "Helvetica", "B", 11),
            ("p", BODY),
            ("h", report, "Helvetica", "BI", 10),
            ("h", "To the Board of Directors and Shareholders of Acme", "Helvetica", "B", 11),
            ("p", BODY),
            ("h", "Opinion on the Financial Statements", "Helvetica", "B", 10),
            ("p", BODY),
            ("h", "Basis for Opinion", "Helvetica", "B", 10),
            ("p", BODY),
            ("h", "Critical Audit Matters", "Helvetica", "B", 10),
            ("p", BODY),
            ("h", "Revenue recognition - Refer to Note 1 to the financial statements", "Helvetica", "BI", 10),
            ("p", BODY),
            ("h", "Index to Consolidated Financial Statements", "Helvetica", "BI", 10),
            ("p", BODY),
        ],
        [
            ("h", "Report of Independent Registered Public Accounting Firm on Internal Control",
             "Helvetica", "BI", 10),
            ("p", BODY),
            ("h", "Consolidated Balance Sheets at December 31, 2022 and 2021", "Helvetica", "B",
             10),
            ("p", BODY),
            ("h", "CONSOLIDATED STATEMENTS OF EARNINGS $ in millions", "Helvetica", "B", 10),
            ("p", BODY),
        ],
    ]  # fmt: skip
    _, rows = _tree(make_typeset_pdf(tmp_path / "audit.pdf", pages))
    parents = {t: parent for t, _, _, parent in rows}
    for part in ("To the Board of Directors and Shareholders of Acme",  # its addressee, set
                 "Opinion on the Financial Statements", "Basis for Opinion",  # larger: a part
                 "Critical Audit Matters"):  # fmt: skip
        assert parents[part] == report
    matter = "Revenue recognition - Refer to Note 1 to the financial statements"
    assert parents[matter] == "Critical Audit Matters"
    item8 = "ITEM 8. Financial Statements and Supplementary Data"
    assert parents[report] == item8  # not inside management's report, set larger (Nike)
    assert parents["MANAGEMENT'S REPORT ON INTERNAL CONTROL"] == item8
    # the index to the statements (American Express's, after its report) closes the report
    assert parents["Index to Consolidated Financial Statements"] == item8
    # a statement's caption with its period (3M's) or its units (Best Buy's) closes the
    # second report
    assert parents["Consolidated Balance Sheets at December 31, 2022 and 2021"] == item8
    assert parents["CONSOLIDATED STATEMENTS OF EARNINGS $ in millions"] == item8
    # a second report, on internal control, whose parts are not headings: the first's peer
    assert (
        parents["Report of Independent Registered Public Accounting Firm on Internal Control"]
        == item8
    )


@pytest.mark.parametrize(
    ("last", "indent", "owner"),
    [
        ("Signatures", 0, None),  # a top-level entry: the exhibits are top-level too
        ("Signatures", 8, None),  # listed under Item 16: beside Item 16
        ("Item 15. Exhibits", 0, "Item 15. Exhibits"),  # about the exhibits: its own
    ],
)
def test_exhibits_after_the_last_entry_are_documents_of_their_own(
    tmp_path: Path, last: str, indent: int, owner: str | None
) -> None:
    """A 10-K's contents ends at its signatures; the exhibits filed after them (a plan, a
    grant whose own title is set larger than its label, the auditor's consent) are each a
    section holding its own headings beside the last entry (or the entry it is listed
    under), not a part of the signatures. After an entry about the exhibits they stay its
    own."""
    items = ["Item 1. Business", "Item 1A. Risk Factors", "Item 16. Form 10-K Summary", last]
    body = [
        [("h", title, "Helvetica", "B", 12), ("p", BODY), ("h", "Overview", "Helvetica", "B", 11),
         ("p", BODY)]
        for title in items
    ]  # fmt: skip
    exhibits = [
        [("h", "Exhibit 10.13", "Helvetica", "B", 11), ("h", "Amendment No. 3", "Helvetica", "B", 16),
         ("p", BODY), ("h", "Eligibility", "Helvetica", "B", 11), ("p", BODY)],
        [("h", "Exhibit 23", "Helvetica", "B", 11), ("h", "Consent of Independent Accountants",
         "Helvetica", "B", 12), ("p", BODY)],
    ]  # fmt: skip
    contents = [("h", "Table of Contents", "Helvetica", "B", 14)] + [
        ("toc", title, n, indent if title == last else 0) for n, title in enumerate(items, 1)
    ]
    path = make_typeset_pdf(tmp_path / "10k.pdf", [contents, *body, *exhibits], first_printed=2)
    source, rows = _tree(path)
    assert source == "printed contents and typography"
    got = {title: (level, parent) for title, level, _, parent in rows}
    assert got["Signatures" if indent else last][1] == (
        "Item 16. Form 10-K Summary" if indent else None
    )
    assert got["Exhibit 10.13"] == (1 if owner is None else 2, owner)
    assert got["Exhibit 23"][1] == owner
    if not indent:  # below a contents that details (indents), only numbered headings are added
        assert got["Amendment No. 3"][1] == "Exhibit 10.13"
        assert got["Eligibility"][1] == "Amendment No. 3"
        assert got["Consent of Independent Accountants"][1] == "Exhibit 23"
