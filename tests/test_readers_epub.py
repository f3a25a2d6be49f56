"""E-books: EPUB 3 (navigation document) and EPUB 2 (NCX) files written in the test, read
into their chapters as nested in the contents, a page per chapter, the OPF's title and
authors on the document, questions answered from the right chapter, and broken or hostile
books refused with a typed error and nothing stored changed."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

import pytest

from testkit.mail_builders import CONTAINER, Chapter, make_epub, zip_files
from treerag_core import (
    DocumentReadError,
    DocumentTooLargeError,
    TreeragError,
    ask,
    index_document,
    make_retriever,
    make_summarizer,
)
from treerag_core.library.catalog import get_card
from treerag_core.library.indexing import index_upload
from treerag_core.limits import Limits
from treerag_core.read.readers.archive import member_path
from treerag_core.read.source import read_bytes
from treerag_core.store import open_store
from treerag_core.tree.sections import parse_sections
from ui.tree_logic import structure_note

CHAPTERS = [
    Chapter(
        "Chapter 1. Arrival",
        ["The ship docked at Port Avalon at dawn.", "Captain Mira Holt counted 42 crates."],
    ),
    Chapter(
        "Chapter 2. The Market",
        ["Spices were sold by weight in the covered market."],
        children=[
            Chapter(
                "The Saffron Stall", ["Saffron cost 9 silver coins per ounce."], anchor="saffron"
            ),
            Chapter("The Fish Hall", ["Tuna was the cheapest fish in the hall."], anchor="fish"),
        ],
    ),
    Chapter("Chapter 3. Departure", ["The crew left the harbour on the ninth day at noon."]),
]
EXPECTED = [
    (1, "Front matter", 1),
    (1, "Chapter 1. Arrival", 1),
    (1, "Chapter 2. The Market", 2),
    (2, "The Saffron Stall", 2),
    (2, "The Fish Hall", 2),
    (1, "Chapter 3. Departure", 3),
]


def _book(version: int) -> bytes:
    return make_epub(
        "The Voyage", ["Ann Writer", "Bo Coauthor"], CHAPTERS, version, "The Voyage, a novel."
    )


def _outline(doc) -> list[tuple[int, str, int]]:
    return [(n["level"], n["title"], n["page_start"]) for n in doc["flat_nodes"].values()]


@pytest.mark.parametrize("version, source", [(3, "EPUB 3"), (2, "NCX")])
def test_chapters_nested_as_in_the_contents_a_page_each(tmp_path, version, source) -> None:
    registry = str(tmp_path / "reg.json")
    doc = index_upload(f"voyage{version}.epub", _book(version), registry_path=registry)
    assert _outline(doc) == EXPECTED
    assert source in doc["structure_source"] and doc["source_type"] == "epub"
    assert doc["total_pages"] == 3
    # the chapter's own <h1> repeats its title in the contents: not a section of its own
    arrival = next(n for n in doc["flat_nodes"].values() if n["title"] == "Chapter 1. Arrival")
    assert arrival["text"].startswith("The ship docked") and "#" not in arrival["text"]
    assert doc["metadata"] == {
        "title": "The Voyage",
        "authors": ["Ann Writer", "Bo Coauthor"],
        "language": "en",
    }
    card = get_card(doc["doc_id"], registry)
    assert card["title"] == "The Voyage" and card["names"][:2] == ["Ann Writer", "Bo Coauthor"]
    assert structure_note(doc).startswith("By Ann Writer, Bo Coauthor · Structure from e-book")


@pytest.mark.parametrize(
    "question, title, value",
    [
        ("How much did saffron cost per ounce?", "The Saffron Stall", "9 silver coins"),
        ("How many crates did Captain Mira Holt count?", "Chapter 1. Arrival", "42 crates"),
        ("When did the crew leave the harbour?", "Chapter 3. Departure", "ninth day"),
    ],
)
def test_questions_answered_from_the_right_chapter(tmp_path, question, title, value) -> None:
    path = tmp_path / "voyage.epub"
    path.write_bytes(_book(3))
    doc = index_document(
        str(path), summarizer=make_summarizer(None), registry_path=str(tmp_path / "r.json")
    )
    result = ask(question, doc, make_retriever(None))
    assert value in result.content
    cited = next(r for r in result.references if r["cited"])
    assert cited["title"] == title
    assert cited["page_start"] == next(p for _, t, p in EXPECTED if t == title)


def test_a_book_without_contents_is_read_in_reading_order() -> None:
    files = {
        "OPS/book.opf": """<package xmlns="http://www.idpf.org/2007/opf" version="2.0">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Notes</dc:title>
          </metadata><manifest>
          <item id="a" href="a.html" media-type="application/xhtml+xml"/>
          <item id="b" href="b.html" media-type="application/xhtml+xml"/>
          <item id="evil" href="../../etc/passwd" media-type="application/xhtml+xml"/>
          </manifest><spine><itemref idref="a"/><itemref idref="evil"/><itemref idref="b"/>
          </spine></package>""",
        "OPS/a.html": "<html><head><title>First</title></head><body><p>Alpha text.</p></body></html>",
        "OPS/b.html": "<html><body><h1>Second</h1><h2>Detail</h2><p>Beta text.</p></body></html>",
    }
    container = CONTAINER.replace("OEBPS/content.opf", "OPS/book.opf")
    data = zip_files({"META-INF/container.xml": container, **files}, mimetype=False)
    st = read_bytes(data, "notes.epub")
    assert st.structure_source == "e-book reading order" and st.title == "Notes"
    sections = [
        (s["title"], s["level"], s["page_start"], s["text"]) for s in parse_sections(st.text)
    ]
    assert sections == [
        ("First", 1, 1, "Alpha text."),
        ("Second", 1, 2, ""),
        ("Detail", 2, 2, "Beta text."),
    ]


def test_a_chapter_anchored_inside_page_chrome_keeps_its_text() -> None:
    """The HTML reader drops <header>/<nav>; a chapter whose anchor sits in one still
    starts there."""
    book = make_epub("Chrome", [], [Chapter("Intro", ["Lead text."])], 3)
    with zipfile.ZipFile(io.BytesIO(book)) as zf:
        files = {
            n: zf.read(n) for n in zf.namelist() if n not in ("mimetype", "META-INF/container.xml")
        }
    files["OEBPS/text/chapter1.xhtml"] = (
        b"<html><body><p>Before.</p><header><h2 id='start'>Opening</h2></header>"
        b"<p>Inside the opening.</p></body></html>"
    )
    files["OEBPS/nav.xhtml"] = files["OEBPS/nav.xhtml"].replace(
        b'chapter1.xhtml"', b'chapter1.xhtml#start"'
    )
    st = read_bytes(zip_files(files), "chrome.epub")
    assert st.text.endswith("# Intro\n\n## Opening\nInside the opening.")
    assert st.text.startswith("# Front matter\n\nBefore.")


def test_member_paths_stay_inside_the_archive() -> None:
    assert member_path("OEBPS/content.opf", "text/c1.xhtml#x") == "OEBPS/text/c1.xhtml"
    assert member_path("OEBPS/content.opf", "../META-INF/a.xml") == "META-INF/a.xml"
    assert member_path("OEBPS/text/c.xhtml", "my%20file.xhtml") == "OEBPS/text/my file.xhtml"
    for bad in ("../../etc/passwd", "/etc/passwd", "http://example.com/x", "file:///x", ""):
        assert member_path("OEBPS/content.opf", bad) is None


def _bomb_epub(inflated: int) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("META-INF/container.xml", CONTAINER)
        with zf.open("OEBPS/text/chapter1.xhtml", "w", force_zip64=True) as member:
            chunk = b" " * (1024 * 1024)
            for _ in range(inflated // len(chunk)):
                member.write(chunk)
    return out.getvalue()


def _nested_nav(depth: int) -> bytes:
    book = make_epub("Deep", [], [Chapter("One", ["Text."])], 3)
    with zipfile.ZipFile(io.BytesIO(book)) as zf:
        files = {
            n: zf.read(n) for n in zf.namelist() if n not in ("mimetype", "META-INF/container.xml")
        }
    deep = "<ol><li><a href='text/chapter1.xhtml'>x</a>" * depth + "</li></ol>" * depth
    files["OEBPS/nav.xhtml"] = (
        f"<html><body><nav epub:type='toc'>{deep}</nav></body></html>".encode()
    )
    return zip_files(files)


def _billion_laughs() -> bytes:
    book = make_epub("Laughs", [], [Chapter("One", ["Text."])], 2)
    with zipfile.ZipFile(io.BytesIO(book)) as zf:
        files = {
            n: zf.read(n) for n in zf.namelist() if n not in ("mimetype", "META-INF/container.xml")
        }
    entities = '<!ENTITY a "lol">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9)
    )
    opf = files["OEBPS/content.opf"].decode()
    opf = opf.replace("<package", f"<!DOCTYPE package [{entities}]>\n<package", 1)
    files["OEBPS/content.opf"] = opf.replace("<dc:title>Laughs", "<dc:title>&j;").encode()
    return zip_files(files)


BAD_BOOKS = {
    "not_a_zip.epub": (lambda: b"This is not a zip file at all.", DocumentReadError),
    "truncated.epub": (lambda: _book(3)[: len(_book(3)) // 2], DocumentReadError),
    "no_container.epub": (lambda: zip_files({"a.txt": "x"}, mimetype=False), DocumentReadError),
    "bomb.epub": (lambda: _bomb_epub(300 * 1024 * 1024), DocumentTooLargeError),
    "no_opf.epub": (lambda: zip_files({}), DocumentReadError),
    "escaping_opf.epub": (
        lambda: zip_files(
            {"META-INF/container.xml": CONTAINER.replace("OEBPS/", "../../")}, mimetype=False
        ),
        DocumentReadError,
    ),
    "deep_nav.epub": (lambda: _nested_nav(3000), None),  # None: a typed error or a bounded read
    "laughs.epub": (_billion_laughs, DocumentReadError),
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", list(BAD_BOOKS))
def test_bad_books_are_refused_and_nothing_stored_changes(tmp_path, name) -> None:
    make, expected = BAD_BOOKS[name]
    registry = str(tmp_path / "reg.json")
    good = index_upload("book.epub", _book(3), registry_path=registry)
    store = open_store(registry)
    before = (store.list(), store.sources.read(good["file_path"]))
    started = time.monotonic()
    try:
        doc = index_upload("book.epub", make(), registry_path=registry)
    except TreeragError as exc:
        if expected is not None:
            assert isinstance(exc, expected), f"{type(exc).__name__}: {exc}"
        assert 10 < len(str(exc)) < 400 and "Traceback" not in str(exc)
        assert (store.list(), store.sources.read(good["file_path"])) == before
    else:
        assert expected is None, f"{name} should have been refused"
        assert sum(len(n["title"]) + len(n["text"]) for n in doc["flat_nodes"].values()) < 100_000
    assert time.monotonic() - started < 100  # bounded: far below the test's own timeout


def test_the_page_limit_bounds_a_book_of_many_chapters() -> None:
    many = [Chapter(f"Chapter {n}", [f"Text of chapter {n}."]) for n in range(1, 31)]
    st = read_bytes(make_epub("Long", [], many, 3), "long.epub", Limits(max_pages=10))
    assert st.page_count == 10 and st.text.count("\f") == 9
    assert "Only the first 10 of 30 chapters" in st.warnings[0]


def test_upload_widget_url_accept_and_messages_list_epub() -> None:
    from treerag_core.read.formats import accepted_extensions, accepted_mime_types, supported_types

    assert "epub" in accepted_extensions() and "application/epub+zip" in accepted_mime_types()
    assert "e-book (.epub)" in supported_types()


def test_reading_a_path_works_like_an_upload(tmp_path: Path) -> None:
    path = tmp_path / "voyage.epub"
    path.write_bytes(_book(2))
    doc = index_document(str(path), persist=False)
    assert _outline(doc) == EXPECTED
