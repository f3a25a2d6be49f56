"""Structure of real SEC filings from the shared bench (``../shared`` beside the checkout,
as on every development machine and in CI: missing data fails, it is never skipped)."""

from __future__ import annotations

import pytest

from testkit.needs import filing
from treerag_core.read.source import read_source
from treerag_core.tree.sections import parse_sections

pytestmark = pytest.mark.usefixtures("shared_data")  # the shared filings: the full tier only


def _read(name: str) -> list[dict]:
    path = filing(name)
    st = read_source(str(path))
    assert st.page_count and st.source_type == "pdf"
    return parse_sections(st.text)


def _first(sections: list[dict], prefix: str) -> dict:
    hits = [s for s in sections if s["title"].lower().startswith(prefix.lower())]
    assert hits, f"no heading starting with {prefix!r}"
    return hits[0]


@pytest.mark.slow
def test_amazon_10k_items_come_from_the_body_not_the_toc():
    sections = _read("AMAZON_2019_10K.pdf")  # 83 pages, no bookmarks
    item7 = _first(sections, "Item 7.")
    item8 = _first(sections, "Item 8.")
    assert item7["page_start"] == 19 and item8["page_start"] == 34
    assert "Management" in item7["title"] and "Financial Statements" in item8["title"]
    # the index on page 2 lists every Item; none of them may become a heading there
    assert not [s for s in sections if s["page_start"] == 2 and s["title"].startswith("Item")]
    part2 = _first(sections, "PART II")
    assert part2["level"] == 1 and item7["level"] == 2
    assert sum(s["title"].startswith("Item") for s in sections) >= 15


def test_bestbuy_10q_parts_items_and_notes():
    sections = _read("BESTBUY_2024Q2_10Q.pdf")  # 30 pages, no bookmarks, TOC on page 2
    got = [(s["title"], s["level"], s["page_start"]) for s in sections]
    assert ("Item 1. Financial Statements", 2, 3) in got
    assert ("Item 4. Controls and Procedures", 2, 24) in got
    assert any(t.upper().startswith("PART II") and lvl == 1 and p == 24 for t, lvl, p in got)
    notes = [(t, lvl) for t, lvl, _ in got if t[:2].rstrip(".").isdigit()]
    # the notes sit under "f) Notes to Condensed Consolidated Financial Statements"
    assert ("1. Basis of Presentation", 4) in notes and len(notes) >= 10
    assert not [t for t, _, p in got if p == 2 and t.startswith("Item")]  # the TOC page


def test_pepsico_outline_is_the_structure():
    sections = _read("PEPSICO_2023Q1_EARNINGS.pdf")  # has bookmarks
    titles = [s["title"] for s in sections]
    assert "Guidance and Outlook" in titles and "Cautionary Statement" in titles
    balance = _first(sections, "A-5")
    assert balance["page_start"] == 8 and balance["page_end"] == 8


def _tree(name: str) -> tuple[str, dict[str, dict]]:
    from treerag_core import index_document

    path = filing(name)
    doc = index_document(str(path), persist=False, verbose=False)
    return doc["structure_source"], doc["flat_nodes"]


def _under(flat: dict[str, dict], node: dict, ancestor_prefix: str) -> bool:
    parent = node.get("parent_id")
    while parent:
        if flat[parent]["title"].startswith(ancestor_prefix):
            return True
        parent = flat[parent].get("parent_id")
    return False


def test_general_mills_10k_items_statements_and_notes_without_bookmarks():
    source, flat = _tree("GENERALMILLS_2022_10K.pdf")  # 127 pages, contents lists Items only
    assert source == "printed contents and typography"
    items = {n["title"]: n for n in flat.values() if n["title"].startswith("Item ")}
    assert items["Item 1 Business"]["page_start"] == 4
    assert items["Item 7 Management’s Discussion and Analysis of Financial Condition and "
                 "Results of Operations"]["page_start"] == 17  # fmt: skip
    assert items["Item 8 Financial Statements and Supplementary Data"]["page_start"] == 42
    notes = [n for n in flat.values() if n["title"].startswith("NOTE ")]
    assert len(notes) >= 15 and all(_under(flat, n, "Item 8") for n in notes)
    assert all(_under(flat, n, "Notes to Consolidated Financial Statements") for n in notes)
    sheets = next(n for n in flat.values() if n["title"] == "Consolidated Balance Sheets")
    assert sheets["page_start"] == 47 and _under(flat, sheets, "Item 8")
    # sub-headings found by typography below the Items the contents lists
    assert _under(flat, next(n for n in flat.values() if n["title"] == "SEASONALITY"), "Item 1 ")


def test_microsoft_10k_items_and_notes_from_contents_and_numbering():
    source, flat = _tree("MICROSOFT_2023_10K.pdf")  # 116 pages, detailed contents
    assert source == "printed contents and typography"
    by_title = {n["title"]: n for n in flat.values()}
    assert by_title["Item 1A. Risk Factors"]["page_start"] == 23
    assert by_title["Item 8. Financial Statements and Supplementary Data"]["page_start"] == 58
    notes = [n for n in flat.values() if n["title"].startswith("NOTE ")]
    assert len(notes) >= 15 and all(_under(flat, n, "Item 8.") for n in notes)
    assert by_title["NOTE 19 — SEGMENT INFORMATION AND GEOGRAPHIC DATA"]["page_start"] == 93
    assert by_title["PART II"]["level"] == 1 and by_title["Item 8. Financial Statements and "
                                                          "Supplementary Data"]["level"] == 2  # fmt: skip
    # the notes are siblings, each holding its own subheadings: Microsoft sets a note's title
    # at body size and its subheadings in bold, which by look alone nested each note in the
    # last subheading of the one before; NOTE 1 sits right under the notes' heading
    assert len(notes) == 19 and len({n["parent_id"] for n in notes}) == 1
    assert flat[notes[0]["parent_id"]]["title"] == "NOTES TO FINANCIAL STATEMENTS"
    held = by_title["Investment Components"]
    assert flat[held["parent_id"]]["title"] == "NOTE 4 — INVESTMENTS"
    segments = by_title["Intelligent Cloud"]  # after the last note: still the last note's
    assert flat[segments["parent_id"]]["title"].startswith("NOTE 19")
    report = by_title["REPORT OF INDEPENDENT REGISTERED PUBLIC ACCOUNTING FIRM"]
    assert flat[report["parent_id"]]["title"].startswith("Item 8.")


def test_american_express_note_numbers_and_titles_on_two_lines_are_one_heading():
    """ "NOTE 1" set small with "SUMMARY OF SIGNIFICANT ACCOUNTING POLICIES" large on the
    next line: one heading, its number's rank; the notes are siblings."""
    _, flat = _tree("AMERICANEXPRESS_2022_10K.pdf")  # 202 pages, no bookmarks
    notes = [n for n in flat.values() if n["title"].startswith("NOTE ")]
    assert len(notes) == 25 and len({n["parent_id"] for n in notes}) == 1
    first = notes[0]
    assert first["title"] == "NOTE 1 — SUMMARY OF SIGNIFICANT ACCOUNTING POLICIES"
    assert flat[first["parent_id"]]["title"] == "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS"
    company = next(n for n in flat.values() if n["title"] == "THE COMPANY")
    assert company["parent_id"] == first["node_id"]
