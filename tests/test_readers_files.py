"""Reading real files of every supported format: PDF, DOCX, HTML, Markdown, text."""

from __future__ import annotations

import io
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from testkit.builders import make_docx, make_pdf, make_zip_bomb_docx
from treerag_core.errors import (
    DocumentReadError,
    DocumentTooLargeError,
    EmptyDocumentError,
    TreeragError,
    UnsupportedFormatError,
)
from treerag_core.limits import Limits
from treerag_core.read.source import read_bytes, read_file, read_source
from treerag_core.tree.sections import parse_sections

# A read that is bounded ends in well under a second; one that is not never ends. The guard
# turns such a hang into a failure instead of a stalled suite.
HANG_GUARD_S = 300


def _secs(text: str) -> list[tuple[str, int, int | None, int | None]]:
    return [(s["title"], s["level"], s["page_start"], s["page_end"]) for s in parse_sections(text)]


# --- PDF ------------------------------------------------------------------------------


def test_pdf_with_outline_gives_titles_levels_pages(tmp_path: Path):
    pages = [
        "Cover page of the report",
        "Introduction\nWhy we wrote this.",
        "More introduction text",
        "Methods\nWe measured things.\nData\nThe data came from sensors.",
        "Results\n# of samples 12\nAll good.",
    ]
    outline = [
        ("Introduction", 1, 2),
        ("Methods", 1, 4),
        ("Data", 2, 4),
        ("Results", 1, 5),
    ]
    path = make_pdf(tmp_path / "report.pdf", pages, outline)
    st = read_source(str(path))
    assert st.source_type == "pdf" and st.page_count == 5
    assert _secs(st.text) == [
        ("Cover page of the report", 1, 1, 1),
        ("Introduction", 1, 2, 3),
        ("Methods", 1, 4, 4),
        ("Data", 2, 4, 4),
        ("Results", 1, 5, 5),
    ]
    sections = parse_sections(st.text)
    assert "sensors" in sections[3]["text"] and "sensors" not in sections[2]["text"]
    assert "# of samples 12" in sections[4]["text"]  # escaped body line, not a heading


def test_pdf_without_outline_uses_text_structure(tmp_path: Path):
    pages = [
        "1 Introduction\nThis is the start.",
        "Still the introduction.\n2 Methods\nWe did things.",
        "2.1 Sampling\nSamples were taken.",
        "3 Results\nThey worked.",
    ]
    st = read_source(str(make_pdf(tmp_path / "plain.pdf", pages)))
    assert _secs(st.text) == [
        ("1 Introduction", 1, 1, 2),
        ("2 Methods", 1, 2, 2),
        ("2.1 Sampling", 2, 3, 3),
        ("3 Results", 1, 4, 4),
    ]


def test_pdf_without_structure_falls_back_to_page_groups(tmp_path: Path):
    pages = [f"just some words on page {i} without any headings at all" for i in range(1, 13)]
    limits = replace(Limits(), pages_per_group=5)
    st = read_source(str(make_pdf(tmp_path / "flat.pdf", pages)), limits)
    got = _secs(st.text)
    assert [g[0].split(":")[0] for g in got] == ["Pages 1–5", "Pages 6–10", "Pages 11–12"]
    assert [(g[2], g[3]) for g in got] == [(1, 5), (6, 10), (11, 12)]


def test_pdf_encrypted_with_empty_password_is_read(tmp_path: Path):
    path = make_pdf(tmp_path / "enc.pdf", ["1 Scope\nSecret but open."], encrypt_password="")
    st = read_source(str(path))
    assert "Secret but open." in st.text


def test_pdf_with_real_password_is_a_clear_error(tmp_path: Path):
    path = make_pdf(tmp_path / "locked.pdf", ["hidden"], encrypt_password="hunter2")
    with pytest.raises(DocumentReadError, match="password"):
        read_source(str(path))


@pytest.mark.parametrize(
    "data",
    [b"this is not a pdf at all", b"%PDF-1.7\n" + bytes(range(256)) * 40, b""],
    ids=["text", "random-after-header", "empty"],
)
def test_corrupt_pdf_raises_document_read_error(tmp_path: Path, data: bytes):
    path = tmp_path / "broken.pdf"
    path.write_bytes(data)
    with pytest.raises(DocumentReadError):
        read_source(str(path))


def test_truncated_pdf_raises_document_read_error(tmp_path: Path):
    good = make_pdf(tmp_path / "good.pdf", ["1 Hello\nworld"] * 3).read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(good[: len(good) // 3])
    with pytest.raises(TreeragError):
        read_source(str(path))


def test_pdf_page_limit(tmp_path: Path):
    path = make_pdf(tmp_path / "long.pdf", ["page"] * 4)
    with pytest.raises(DocumentTooLargeError, match="pages"):
        read_source(str(path), replace(Limits(), max_pages=3))


def test_file_size_limit_checked_before_reading(tmp_path: Path):
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 2000)
    with pytest.raises(DocumentTooLargeError):
        read_source(str(path), replace(Limits(), max_file_bytes=1000))


# --- DOCX -----------------------------------------------------------------------------


def test_docx_headings_and_table_in_document_order(tmp_path: Path):
    path = make_docx(
        tmp_path / "spec.docx",
        [
            ("p", "Preamble before any heading."),
            ("h1", "Overview"),
            ("p", "The overview."),
            ("h2", "Prices"),
            ("p", "See the table:"),
            ("table", [["Item", "Price"], ["Anvil", "100"], ["Rocket", "250"]]),
            ("p", "After the table."),
            ("h1", "Appendix"),
            ("p", "# not a heading"),
        ],
    )
    st = read_source(str(path))
    sections = parse_sections(st.text)
    assert [(s["title"], s["level"]) for s in sections] == [
        ("Preamble before any heading.", 1),
        ("Overview", 1),
        ("Prices", 2),
        ("Appendix", 1),
    ]
    prices = sections[2]["text"]
    assert "Columns: Item | Price\n\nItem Anvil: Price 100.\nItem Rocket: Price 250." in prices
    assert prices.index("See the table:") < prices.index("Anvil") < prices.index("After the")
    assert sections[3]["text"] == "# not a heading"
    assert st.page_count is None and sections[0]["page_start"] is None


def test_docx_title_style_is_level_one(tmp_path: Path):
    path = make_docx(tmp_path / "t.docx", [("title", "Handbook"), ("h1", "Rules"), ("p", "x")])
    st = read_source(str(path))
    assert [(s["title"], s["level"]) for s in parse_sections(st.text)] == [
        ("Handbook", 1),
        ("Rules", 2),
    ]
    assert st.title == "Handbook"


def test_docx_without_heading_styles_uses_text_structure(tmp_path: Path):
    path = make_docx(
        tmp_path / "plain.docx",
        [("p", "1 Purpose"), ("p", "Why."), ("p", "2 Scope"), ("p", "What.")],
    )
    titles = [s["title"] for s in parse_sections(read_file(str(path)))]
    assert titles == ["1 Purpose", "2 Scope"]


def test_docx_that_is_not_a_zip(tmp_path: Path):
    path = tmp_path / "fake.docx"
    path.write_bytes(b"\xd0\xcf\x11\xe0 old word binary format")
    with pytest.raises(DocumentReadError, match="not a valid .docx"):
        read_source(str(path))


def test_docx_zip_bomb_refused_fast(tmp_path: Path):
    path = make_zip_bomb_docx(tmp_path / "bomb.docx", inflated_bytes=64 * 1024 * 1024)
    assert path.stat().st_size < 1024 * 1024
    limits = replace(Limits(), max_decompressed_bytes=32 * 1024 * 1024)
    with pytest.raises(DocumentTooLargeError, match="expand"):  # before inflating it all
        read_source(str(path), limits)


# --- HTML -----------------------------------------------------------------------------

_PAGE = """<!doctype html><html><head><title>Ignored Title</title>
<style>body { color: red }</style><script>var secret = "do not index";</script></head>
<body>
<header><a href="/">Home</a><h1>Annual Widget Report</h1></header>
<nav><ul><li>Menu one</li><li>Menu two</li></ul></nav>
<main>
<p>Intro paragraph with <b>bold</b> text.</p>
<h2>Sales</h2>
<p># of widgets sold grew.</p>
<table><tr><th>Year</th><th>Units</th></tr><tr><td>2022</td><td>10</td></tr></table>
<h3>Regions</h3>
<ul><li>North</li><li>South<ul><li>Deep south</li></ul></li></ul>
</main>
<aside>Related links</aside>
<footer>Copyright footer text</footer>
<noscript>enable js</noscript>
</body></html>"""


def test_html_drops_chrome_keeps_headings_tables_lists(tmp_path: Path):
    path = tmp_path / "page.html"
    path.write_text(_PAGE, encoding="utf-8")
    st = read_source(str(path))
    sections = parse_sections(st.text)
    assert [(s["title"], s["level"]) for s in sections] == [
        ("Annual Widget Report", 1),
        ("Sales", 2),
        ("Regions", 3),
    ]
    for junk in ("do not index", "color: red", "Menu one", "Copyright", "Related links", "js"):
        assert junk not in st.text
    assert "Intro paragraph with bold text." in sections[0]["text"]
    assert "Columns: Year | Units\n\nYear 2022: Units 10." in sections[1]["text"]  # as Word's
    assert "# of widgets sold grew." in sections[1]["text"]
    assert "- North\n- South\n  - Deep south" in sections[2]["text"]


def test_html_title_used_when_no_h1():
    html = b"<html><head><title>Only Title</title></head><body><p>Body</p></body></html>"
    st = read_bytes(html, "x.htm")
    assert [s["title"] for s in parse_sections(st.text)] == ["Only Title"]


# --- Markdown and text ----------------------------------------------------------------


def test_markdown_is_untouched(tmp_path: Path):
    md = "# Title\n\nText\n\n```\n# not heading\n```\n\nSetext\n------\n\nmore\n"
    path = tmp_path / "notes.md"
    path.write_text(md, encoding="utf-8")
    st = read_source(str(path))
    assert st.text == md and st.source_type == "markdown"
    assert [s["title"] for s in parse_sections(st.text)] == ["Title", "Setext"]


def test_latin1_and_utf16_text(tmp_path: Path):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("1 Café\nCrème brûlée à la carte.\n".encode("latin-1"))
    assert "Crème brûlée" in read_file(str(latin))
    utf16 = tmp_path / "wide.txt"
    utf16.write_bytes("1 Überblick\nGrüße aus Köln.\n".encode("utf-16"))
    text = read_file(str(utf16))
    assert "Grüße aus Köln." in text and "\x00" not in text
    assert [s["title"] for s in parse_sections(text)] == ["1 Überblick"]
    be = tmp_path / "be.txt"
    be.write_bytes(b"\xfe\xff" + "Hallo Welt".encode("utf-16-be"))
    assert read_file(str(be)) == "Hallo Welt"
    cp = tmp_path / "cp.txt"
    cp.write_bytes(b"smart \x93quotes\x94 and \x80 sign")
    assert read_file(str(cp)) == "smart \u201cquotes\u201d and \u20ac sign"


def test_source_text_fields(tmp_path: Path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"hello world")
    st = read_source(str(path))
    assert st.file_name == "a.txt" and st.source == str(path.resolve())
    assert st.byte_size == 11 and len(st.content_hash) == 64 and st.source_type == "text"


@pytest.mark.parametrize("name", ["deck.key", "sheet.numbers", "noext"])
def test_unsupported_types(tmp_path: Path, name: str):
    path = tmp_path / name
    path.write_bytes(b"data")
    with pytest.raises(UnsupportedFormatError, match="Supported: PDF"):
        read_source(str(path))


def test_empty_documents(tmp_path: Path):
    for name, data in [("e.txt", b"  \n\n"), ("e.md", b"")]:
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(EmptyDocumentError):
            read_source(str(path))
    html = tmp_path / "e.html"
    html.write_text("<html><script>x()</script></html>")
    with pytest.raises(EmptyDocumentError):
        read_source(str(html))


def test_missing_file(tmp_path: Path):
    with pytest.raises(DocumentReadError, match="Cannot read"):
        read_source(str(tmp_path / "nope.pdf"))


def test_pdf_cyclic_outline_is_bounded(tmp_path: Path):
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    base = make_pdf(tmp_path / "base.pdf", ["A\nx", "B\ny", "C\nz"])
    writer = PdfWriter(clone_from=PdfReader(str(base)))
    first = writer.add_outline_item(title="A", page_number=0)
    writer.add_outline_item(title="B", page_number=1)
    last = writer.add_outline_item(title="C", page_number=2)
    last.get_object()[NameObject("/Next")] = first  # C -> A -> B -> C -> ...
    path = tmp_path / "cyclic.pdf"
    with open(path, "wb") as fh:
        writer.write(fh)
    read: list = []
    reader = threading.Thread(target=lambda: read.append(read_source(str(path))), daemon=True)
    reader.start()
    reader.join(HANG_GUARD_S)
    assert not reader.is_alive(), "reading a PDF whose outline is a cycle never ended"
    assert read[0].page_count == 3 and "z" in read[0].text


def test_pdf_bookmarks_and_labels_come_from_pdfium_with_pypdf_as_fallback(
    tmp_path: Path, monkeypatch
):
    """Bookmarks to a page directly, by a named destination and by a GoTo action, nested,
    and the PDF's own page numbers, read the same by PDFium and (for a file PDFium refuses)
    by pypdf; bookmarks to another file, without a title or to no page are left out."""
    import pypdfium2
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, NameObject, TextStringObject

    from treerag_core.read.readers.pdf import read_pdf

    base = make_pdf(tmp_path / "base.pdf", [f"Page {i}\ntext {i}" for i in range(1, 5)])
    writer = PdfWriter(clone_from=PdfReader(str(base)))
    part = writer.add_outline_item(title="Part  I", page_number=0)  # pypdf's: a GoTo action
    named = writer.add_outline_item(title="Item 1.\nBusiness", page_number=0, parent=part)
    writer.add_named_destination("business", 1)
    direct = writer.add_outline_item(title="Item 2. Properties", page_number=0, parent=part)
    for item, dest in ((named, TextStringObject("business")),
                       (direct, ArrayObject([writer.pages[2].indirect_reference,
                                             NameObject("/Fit")]))):  # fmt: skip
        del item.get_object()["/A"]
        item.get_object()[NameObject("/Dest")] = dest
    writer.add_outline_item(title="Ex 21 Q4 2022.pdf", page_number=3)
    writer.add_outline_item(title="  ", page_number=3)
    writer.add_outline_item(title="Signatures", page_number=3)
    writer.set_page_label(0, 1, style="/r")
    writer.set_page_label(2, 3, style="/D", prefix="A-", start=7)
    buffer = io.BytesIO()
    writer.write(buffer)
    data = buffer.getvalue()

    def read() -> tuple[list[tuple[str, int, int]], list[str]]:
        found = read_pdf(data, Limits())
        return [(e.title, e.level, e.page) for e in found.outline], found.page_labels

    expected = ([("Part I", 1, 0), ("Item 1. Business", 2, 1), ("Item 2. Properties", 2, 2),
                 ("Signatures", 1, 3)], ["i", "ii", "A-7", "A-8"])  # fmt: skip
    assert read() == expected

    def refuse(*args, **kwargs):
        raise pypdfium2.PdfiumError("cannot open")

    monkeypatch.setattr(pypdfium2, "PdfDocument", refuse)
    assert read() == expected


def test_pdf_text_comes_from_pdfium_with_pypdf_as_fallback(tmp_path: Path, monkeypatch):
    import pypdfium2
    from pypdf import PdfReader

    from treerag_core.read.readers.pdf import extract_pages

    pages = [f"{i} Heading {i}\nBody text of page {i} with value {i * 7}." for i in range(1, 6)]
    data = make_pdf(tmp_path / "five.pdf", pages).read_bytes()
    reader = PdfReader(io.BytesIO(data))
    by_pdfium = [page.text for page in extract_pages(data, reader, 5)]
    assert "value 35" in by_pdfium[4] and "\r" not in "".join(by_pdfium)

    def refuse(*args, **kwargs):
        raise pypdfium2.PdfiumError("cannot open")

    monkeypatch.setattr(pypdfium2, "PdfDocument", refuse)
    by_pypdf = [page.text for page in extract_pages(data, reader, 5)]
    assert "value 35" in by_pypdf[4]
    assert [" ".join(t.split()) for t in by_pypdf] == [" ".join(t.split()) for t in by_pdfium]


def test_a_value_in_a_word_table_is_answered_from_its_row(tmp_path: Path):
    """A Word table is read as records (as sheets are), so the offline answer finds the
    row and the column a question names."""
    from treerag_core import ask, index_document, make_retriever, make_summarizer

    path = make_docx(
        tmp_path / "prices.docx",
        [
            ("h1", "Catalogue"),
            ("p", "Our products and their prices for the year."),
            (
                "table",
                [
                    ["Item", "Price", "Weight"],
                    ["Anvil", "100", "40 kg"],
                    ["Rocket", "250", "12 kg"],
                ],
            ),  # fmt: skip
        ],
    )
    document = index_document(str(path), make_summarizer(), persist=False, verbose=False)
    answer = ask("What is the weight of the Rocket?", document, make_retriever())
    assert answer.content.startswith("Item Rocket: Price 250, Weight 12 kg.")
