"""The home page (AppTest): the empty library's welcome and sample, the listing and its
search, the ask box; and the library rows it draws (``treerag_core.views``)."""

from __future__ import annotations

from conftest import texts

from treerag_core.library.sample import SAMPLE_NAME, SAMPLE_QUESTION
from treerag_core.views import BLANK, library_rows

CHAT = "pages/chat.py"


def test_empty_library_welcomes_and_the_sample_opens_the_chat(make_app) -> None:
    at = make_app()
    assert at.title[0].value == "Library"
    assert "Check the answer" in texts(at)
    at.button(key="home_sample").click().run()
    assert not at.exception
    assert at.title[0].value == "Chat"
    suggested = at.button(key="chat_suggested_ask")
    assert suggested.label == SAMPLE_QUESTION
    suggested.click().run()
    assert not at.exception
    shown = texts(at)
    assert "28 days of paid annual leave" in shown
    assert "[S1, p. 2]" in shown or "S1, p. 2" in shown


def test_listing_search_and_ask_box(make_app, sample_doc) -> None:
    at = make_app()
    frame = at.dataframe[0].value
    assert list(frame["Document"]) == ["sample.md"]
    assert list(frame["Pages"]) == [BLANK]  # a Markdown file has no pages: a dash, not None
    at.text_input(key="home_search").set_value("no such thing").run()
    assert "No document matches" in texts(at)
    at.text_input(key="home_search").set_value("").run()
    at.text_input(key="home_ask").set_value("Which ranking is used for navigation?")
    next(b for b in at.button if b.label == "Ask").click().run()
    assert not at.exception
    assert at.title[0].value == "Chat"  # answered there, in a new conversation
    assert "BM25 ranking" in texts(at)


def test_library_rows_search_names_and_cards() -> None:
    rows = [
        {"doc_id": "a", "file_name": "nike-10k.pdf", "total_pages": 90, "total_sections": 40},
        {"doc_id": "b", "file_name": SAMPLE_NAME, "total_pages": None, "total_sections": 14},
    ]
    cards = {"a": {"kind": "annual report", "periods": ["2023", "2022"], "names": ["Nike"]}}
    assert [r["name"] for r in library_rows(rows, cards, "nike 2023")] == ["nike-10k.pdf"]
    assert [r["name"] for r in library_rows(rows, cards, "handbook")] == [SAMPLE_NAME]
    listed = library_rows(rows, cards)
    assert listed[0]["periods"] == "2023, 2022" and listed[0]["kind"] == "annual report"
    assert listed[1]["pages"] == BLANK and listed[1]["kind"] == BLANK


def test_the_tree_address_is_followed_once_and_kept() -> None:
    from ui.tree_logic import ADDRESS, follow_address, keep_address

    ss: dict = {"tree_doc_id": "a", "tree_selected": "0001"}
    follow_address(ss, {"doc": "b", "node": "0007"}, ["a", "b"])  # a link or a reload
    assert (ss["tree_doc_id"], ss["tree_selected"], ss[ADDRESS]) == ("b", "0007", ("b", "0007"))
    ss["tree_selected"] = "0009"  # a click in the tree: the old address must not undo it
    follow_address(ss, {"doc": "b", "node": "0007"}, ["a", "b"])
    assert ss["tree_selected"] == "0009"
    params = {"doc": "b", "node": "0007"}
    keep_address(ss, params, "b", "0009")
    assert params == {"doc": "b", "node": "0009"}
    keep_address(ss, params, "b", None)
    assert params == {"doc": "b"}
    follow_address(ss, {"doc": "secret"}, ["a", "b"])  # not readable: ignored
    assert ss["tree_doc_id"] == "b"
