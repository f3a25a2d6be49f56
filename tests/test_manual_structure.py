"""A typeset manual as LaTeX sets one (the Debian FAQ): running heads that name the current
chapter and section, a printed contents whose entries are long questions wrapped over two or
three lines. Built here, so every title, level and parent is known."""

from __future__ import annotations

from pathlib import Path

from testkit.builders import make_typeset_pdf
from treerag_core import index_document
from treerag_core.read.readers.pdfium_read import _clean, _clean_line
from treerag_core.structure.contents import _entry_rank, label_only
from treerag_core.structure.contents_place import _title_keys
from treerag_core.structure.furniture import furniture_lines
from treerag_core.tree.labels import heading_label

BODY = (
    "The archive keeps every package that was ever released, and a mirror copies the part "
    "of it that its users ask for, once a day, from the nearest server that has it."
)
LONG_QUESTION = (
    "1.3 I am currently tracking the testing distribution. What will happen when a release "
    "is made, will I still be tracking testing or will my machine be running the new stable "
    "distribution?"
)


def _manual(tmp_path: Path) -> Path:
    """Contents, then two chapters over five pages; a running head atop every page but a
    chapter's first, naming the chapter and the section the page is in."""
    contents = [
        ("h", "Contents", "Helvetica", "B", 14),
        ("toc", "1 Definitions and overview", 1, 0),
        ("toc", "1.1 What is this manual?", 1, 6),
        ("toc", "1.2 Which distribution is better for me, and how do I choose it?", 2, 6),
        ("toc", LONG_QUESTION.replace("release ", "release\n").replace("running ", "running\n"),
         3, 6),
        ("toc", "2 The archives", 4, 0),
        ("toc", "2.1 How many distributions are there?", 4, 6),
        ("toc", "2.2 What does the pool directory hold?", 5, 6),
    ]  # fmt: skip
    pages = [
        contents,
        [("h", "Chapter 1", "Helvetica", "B", 20), ("h", "Definitions and overview", "Helvetica",
          "B", 20), ("h", "1.1 What is this manual?", "Helvetica", "B", 12), ("p", BODY),
         ("h", "1.2 Which distribution is better for me, and how do I choose it?", "Helvetica",
          "B", 12), ("p", BODY), ("p", BODY)],
        [("p", "Where the mirror is matters less than " + BODY), ("p", BODY)],
        [("h", LONG_QUESTION.replace("release ", "release\n").replace("will my ", "will my\n"),
          "Helvetica", "B", 12),
         ("p", BODY), ("p", BODY)],
        [("h", "Chapter 2", "Helvetica", "B", 20), ("h", "The archives", "Helvetica", "B", 20),
         ("h", "2.1 How many distributions are there?", "Helvetica", "B", 12), ("p", BODY)],
        [("p", BODY), ("h", "2.2 What does the pool directory hold?", "Helvetica", "B", 12),
         ("p", BODY)],
    ]  # fmt: skip
    heads = [
        None,
        None,
        "CHAPTER 1. DEFINITIONS AND OVERVIEW 1.2. WHICH DISTRIBUTION IS BETTER FOR...",
        "CHAPTER 1. DEFINITIONS AND OVERVIEW 1.3. I AM CURRENTLY TRACKING...",
        None,
        "CHAPTER 2. THE ARCHIVES 2.1. HOW MANY DISTRIBUTIONS ARE THERE?",
    ]
    return make_typeset_pdf(tmp_path / "faq.pdf", pages, header=heads, first_printed=2)


def test_running_heads_naming_the_section_are_no_sections(tmp_path: Path) -> None:
    doc = index_document(str(_manual(tmp_path)), persist=False, verbose=False)
    flat = doc["flat_nodes"]
    titles = [heading_label(n) for n in flat.values() if not n.get("generated")]
    assert not [t for t in titles if "CHAPTER" in t]
    by_title = {heading_label(n): n for n in flat.values()}
    which = by_title["1.2 Which distribution is better for me, and how do I choose it?"]
    assert "Where the mirror is matters less" in which["text"]  # its page's rest is its own
    assert which["page_end"] == 3
    assert "CHAPTER" not in which["text"]


def test_long_wrapped_contents_entries_keep_their_numbered_level(tmp_path: Path) -> None:
    doc = index_document(str(_manual(tmp_path)), persist=False, verbose=False)
    flat = doc["flat_nodes"]
    rows = {
        heading_label(n): (n["level"], heading_label(flat[n["parent_id"]]))
        for n in flat.values()
        if n.get("parent_id") and not n.get("generated")
    }
    chapter = "1 Definitions and overview"
    assert rows["1.1 What is this manual?"][1] == chapter
    long_one = next(t for t in rows if t.startswith("1.3 I am currently tracking"))
    assert long_one.endswith("running the new stable distribution?")  # all three lines
    assert rows[long_one] == rows["1.1 What is this manual?"]  # a sibling, by its number
    assert rows["2.2 What does the pool directory hold?"][1] == "2 The archives"
    long_node = next(n for n in flat.values() if heading_label(n) == long_one)
    assert long_node["text"].startswith(BODY[:40])  # its three printed lines are its title
    assert not [t for t in rows if t.startswith(("is made", "distribution?", "the new stable"))]


def test_numbered_entries_rank_by_number_whatever_their_length_or_script() -> None:
    assert _entry_rank(LONG_QUESTION) == _entry_rank("1.1 What is this manual?")
    assert _entry_rank("1.6 Как соотносятся проект Debian и проект GNU " * 5) is not None
    assert _entry_rank("10 percent of the packages are built again") is None


def test_part_labels_in_other_languages_stand_alone() -> None:
    for label in ("Chapter 3", "Kapitel 3", "Chapitre IV", "Capítulo 2", "Глава 2", "PART II"):
        assert label_only(label), label
    assert not label_only("Kapitel 3 Installation")


def test_an_accent_with_no_letter_before_it_is_left_out() -> None:
    """TeX's `stable' quote set as a combining grave, which PDFium puts after a space."""
    assert _clean_line("upgrades in \xa0stable’? . . . . \u0300 5") == (
        "upgrades in \xa0stable’? . . . .  5"
    )
    assert _clean("caf\u00e9 and cafe\u0301\r\n\u0300x") == "caf\u00e9 and cafe\u0301\nx"


def _pages(tops: list[str]) -> list[list[str]]:
    return [[top, BODY, BODY, BODY, BODY, str(n)] for n, top in enumerate(tops, 1)]


def test_a_label_repeated_far_apart_is_two_headings_not_a_running_head() -> None:
    """Two plans filed as exhibits of one 10-K both number their sections 2.01, 3.01, …"""
    plan = ["2.01 Definitions.", "3.01 Eligibility for Membership.", "4.01 Contributions.",
            "5.01 Accounts.", "6.01 Distributions.", "7.01 Administration."]  # fmt: skip
    pages = _pages(plan + plan)
    assert not {(p, 0) for p in range(len(pages))} & furniture_lines(pages)


def test_running_heads_of_one_chapter_on_nearby_pages_are_furniture() -> None:
    tops = ["Chapter 1", "CHAPTER 1. BASICS 1.2. WHY", "CHAPTER 1. BASICS 1.4. HOW",
            "Chapter 2", "CHAPTER 2. MORE 2.1. WHAT", "CHAPTER 2. MORE 2.3. WHEN",
            "CHAPTER 3. LAST 3.1. WHO"]  # fmt: skip
    dropped = furniture_lines(_pages(tops))
    assert {(p, 0) for p in (1, 2, 4, 5, 6)} <= dropped
    assert not {(0, 0), (3, 0)} & dropped  # the chapters' own first lines


def test_contents_titles_in_other_scripts_are_looked_up() -> None:
    """A Russian contents is placed by its titles' letters, not by their numbers alone."""
    keys = _title_keys("2 Получение и установка Debian GNU/Linux")
    assert keys and keys[0].startswith("2получениеиустановка")


def test_admonitions_stay_in_their_section_and_an_appendix_is_numbered(tmp_path: Path) -> None:
    """A manual's boxed asides ("Tip", "Warning") are set bold above their box like a
    heading, but belong to the section they stand in; an appendix's label is its number."""
    pages = [
        [("h", "1 Installing the archive", "Helvetica", "B", 16), ("p", BODY),
         ("h", "Tip", "Helvetica", "B", 12), ("p", "Mirrors close to you answer fastest."),
         ("p", BODY), ("h", "1.1 From the network", "Helvetica", "B", 13), ("p", BODY)],
        [("h", "WARNING:", "Helvetica", "B", 12), ("p", "Never mix two releases in one list."),
         ("p", BODY), ("h", "2 Keeping it current", "Helvetica", "B", 16), ("p", BODY)],
        [("h", "Appendix A Copying this manual", "Helvetica", "B", 16), ("p", BODY)],
    ]  # fmt: skip
    path = make_typeset_pdf(tmp_path / "manual.pdf", pages, header=[None] * 3, first_printed=1)
    flat = index_document(str(path), persist=False, verbose=False)["flat_nodes"]
    by_label = {heading_label(n): n for n in flat.values()}
    assert not [t for t in by_label if t.strip(":").lower() in {"tip", "warning"}]
    assert "Mirrors close to you" in by_label["1 Installing the archive"]["text"]
    assert "Never mix two releases" in by_label["1.1 From the network"]["text"]
    appendix = by_label["Appendix A Copying this manual"]
    assert (appendix["number"], appendix["title"]) == ("Appendix A", "Copying this manual")
