"""Slide decks, spreadsheets, CSV, OpenDocument and legacy Office files, built for real inside
the tests: their structure, slides and sheets as pages, notes in the text, a value answered
from a sheet with the offline engine, and bad inputs refused (or bounded) in bounded time."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import pytest

from testkit.builders import make_docx
from testkit.office_files import (
    Slide,
    make_csv,
    make_deck,
    make_legacy,
    make_odp,
    make_ods,
    make_odt,
    make_workbook,
)
from treerag_core import DocumentReadError, DocumentTooLargeError, index_document, make_retriever
from treerag_core.answer.ask import ask
from treerag_core.errors import ConverterUnavailableError
from treerag_core.limits import Limits
from treerag_core.read.formats import FORMATS, accepted_extensions, accepted_mime_types
from treerag_core.read.readers import libreoffice
from treerag_core.read.source import read_source
from treerag_core.tree.sections import parse_sections

# The full tier only; a missing LibreOffice fails with the packages to install (conftest).
needs_libreoffice = pytest.mark.system("libreoffice")

SLIDES = [
    Slide("Quarterly review", ["Welcome to the third quarter review"]),
    Slide(
        "Revenue by region",
        ["Revenue grew in every region"],
        notes="Remind the board that North beat its target by 12 percent.",
        table=[
            ["Region", "Units", "Revenue"],
            ["North", "412", "48,200"],
            ["South", "380", "41,900"],
        ],
    ),
    Slide("", ["Hiring plan for next year", "Two engineers"], group=["Left box", "Right box"]),
    Slide("Launch process", smartart=["Plan the launch", "Build the product", "Ship it"]),
]
SALES = {
    "Regions": [
        ["Sales by region 2024", None, None],
        [],
        ["Region", "Units", "Revenue"],
        ["North", 412, 48200],
        ["South", 380, 41900],
        ["West", 510, 60750],
    ],
    "Staff": [
        ["Name", "Role", "Start date"],
        ["Alice Brown", "Manager", dt.date(2021, 3, 4)],
        ["Bob Stone", "Analyst", dt.datetime(2022, 7, 11)],
    ],
    "Secret": [["Salary", "x"]],
}


def _sections(text: str, unit: str) -> list[tuple[str, int, int | None]]:
    return [(s["title"], s["level"], s["page_start"]) for s in parse_sections(text, None, unit)]


def _ask(path: Path, question: str, registry: Path):
    doc = index_document(str(path), registry_path=str(registry), verbose=False)
    return doc, ask(question, doc, make_retriever(None))


# --- slide decks ----------------------------------------------------------------------------


def test_deck_slides_are_sections_and_pages_under_the_decks_own_sections(tmp_path: Path):
    deck = make_deck(tmp_path / "review.pptx", SLIDES, sections=[("Opening", 1), ("Results", 3)])
    st = read_source(str(deck))
    assert st.source_type == "pptx" and st.page_unit == "slide" and st.page_count == 4
    assert _sections(st.text, "slide") == [
        ("Opening", 1, 1),
        ("Quarterly review", 2, 1),
        ("Results", 1, 2),
        ("Revenue by region", 2, 2),
        ("Hiring plan for next year", 2, 3),  # untitled: its first text
        ("Launch process", 2, 4),
    ]
    by_title = {s["title"]: s["text"] for s in parse_sections(st.text)}
    revenue = by_title["Revenue by region"]
    assert "Region North: Units 412, Revenue 48,200." in revenue  # the table, as records
    assert "Speaker notes:\nRemind the board that North beat its target" in revenue
    assert "Left box\nRight box" in by_title["Hiring plan for next year"]  # the group
    assert "Plan the launch\nBuild the product\nShip it" in by_title["Launch process"]
    assert by_title["Quarterly review"].count("Quarterly review") == 0  # title said once


def test_a_deck_answer_cites_the_slide(tmp_path: Path):
    deck = make_deck(tmp_path / "review.pptx", SLIDES)
    doc, answer = _ask(deck, "By how much did North beat its target?", tmp_path / "reg.json")
    assert doc["page_unit"] == "slide" and "(slide 2)" in doc["tree_outline"]
    assert "12 percent" in answer.content and "slide 2]" in answer.content
    ref = answer.references[0]
    assert ref["page_start"] == 2 and ref["page_unit"] == "slide"


def test_odp_slides_with_notes_and_tables(tmp_path: Path):
    st = read_source(str(make_odp(tmp_path / "review.odp", SLIDES)))
    assert st.page_unit == "slide" and st.page_count == 4
    titles = [t for t, _, _ in _sections(st.text, "slide")]
    assert titles == [
        "Quarterly review",
        "Revenue by region",
        "Hiring plan for next year",
        "Launch process",
    ]
    assert "Region North: Units 412, Revenue 48,200." in st.text
    assert "Speaker notes:\nRemind the board" in st.text


# --- spreadsheets ---------------------------------------------------------------------------


def test_workbook_sheets_headers_dates_merges_and_hidden_sheets(tmp_path: Path):
    book = make_workbook(
        tmp_path / "sales.xlsx", SALES, hidden=("Secret",), merges={"Regions": ["A1:C1"]}
    )
    st = read_source(str(book))
    assert st.page_unit == "sheet" and st.page_count == 2
    assert _sections(st.text, "sheet") == [("Regions", 1, 1), ("Staff", 1, 2)]
    assert "Sales by region 2024\nColumns: Region | Units | Revenue" in st.text
    assert "Region North: Units 412, Revenue 48,200." in st.text
    assert "Name Bob Stone: Role Analyst, Start date 2022-07-11." in st.text
    assert "Salary" not in st.text and st.warnings == ["Hidden sheets were not read: 'Secret'."]


def test_grouped_header_rows_name_each_column(tmp_path: Path):
    rows = [["Region", "2023", None, "2024", None], [None, "Units", "Revenue", "Units", "Revenue"]]
    rows.append(["North", 400, 47000, 412, 48200])
    book = make_workbook(tmp_path / "q.xlsx", {"Years": rows}, merges={"Years": ["B1:C1", "D1:E1"]})
    text = read_source(str(book)).text
    assert (
        "Region North: 2023 Units 400, 2023 Revenue 47,000, 2024 Units 412, 2024 Revenue 48,200."
        in text
    )


@pytest.mark.parametrize("kind", ["xlsx", "ods", "csv"])
def test_a_value_is_answered_from_its_row_and_column_cited_to_the_sheet(tmp_path: Path, kind: str):
    sheets = {k: v for k, v in SALES.items() if k != "Secret"}
    if kind == "xlsx":
        path = make_workbook(tmp_path / "sales.xlsx", sheets)
    elif kind == "ods":
        path = make_ods(tmp_path / "sales.ods", sheets)
    else:
        rows = [[f"{v:,}" if isinstance(v, int) else v for v in r] for r in SALES["Regions"][2:]]
        path = make_csv(tmp_path / "sales.csv", rows)  # quoted: "48,200"
    _, answer = _ask(path, "What was the revenue of North?", tmp_path / "reg.json")
    first = answer.content.splitlines()[0]
    assert first.startswith("Region North: Units 412, Revenue 48,200.") and "sheet 1]" in first
    assert answer.references[0]["page_unit"] == "sheet"
    if kind != "csv":
        _, answer = _ask(path, "When did Bob Stone start?", tmp_path / "reg.json")
        assert answer.content.startswith("Name Bob Stone: Role Analyst, Start date 2022-07-11.")
        assert "sheet 2]" in answer.content.splitlines()[0]


def test_csv_dialect_and_encoding_are_detected(tmp_path: Path):
    rows = [["Stadt", "Einwohner"], ["Köln", "1.084.000"], ["Zürich", "421.000"]]
    semi = read_source(str(make_csv(tmp_path / "cities.csv", rows, ";", "cp1252"))).text
    assert "Stadt Köln: Einwohner 1.084.000." in semi
    tabs = read_source(str(make_csv(tmp_path / "cities.tsv", rows, "\t"))).text
    assert "Stadt Zürich: Einwohner 421.000." in tabs


def test_odt_headings_from_outline_levels_and_heading_styles(tmp_path: Path):
    blocks = [
        ("h1", "Handbook"), ("p", "How we work."), ("styled1", "Leave"),
        ("p", "Annual leave is 25 days."), ("h2", "Sick leave"), ("p", "Tell your manager."),
        ("table", [["Item", "Cost"], ["Laptop", 1200]]),
    ]  # fmt: skip
    st = read_source(str(make_odt(tmp_path / "handbook.odt", blocks)))
    assert [(t, lv) for t, lv, _ in _sections(st.text, "page")] == [
        ("Handbook", 1), ("Leave", 1), ("Sick leave", 2)
    ]  # fmt: skip
    assert "Item Laptop: Cost 1,200." in st.text


# --- limits and bad inputs ------------------------------------------------------------------


@pytest.mark.timeout(120)
def test_a_million_row_sheet_is_cut_with_a_section_saying_so(tmp_path: Path):
    rows = [["Item", "Count"]] + [[f"Item {i}", i] for i in range(1_000_000)]
    path = make_csv(tmp_path / "huge.csv", rows)
    st = read_source(str(path))
    assert "only its first 100,000 rows were read" in st.warnings[0]
    titles = [s["title"] for s in parse_sections(st.text, None, "sheet")]
    assert titles[-1] == "huge: rows not read"
    assert "Item Item 99998:" in st.text and "Item Item 100000:" not in st.text


@pytest.mark.timeout(120)
def test_repeated_and_far_rows_are_bounded(tmp_path: Path):
    """An .ods row repeated a million times, and an .xlsx whose one cell sits at its last
    row: tiny files, bounded reads."""
    ods = make_ods(tmp_path / "repeat.ods", {"S": [["Name", "Value"], ["x", 1]]})
    with zipfile.ZipFile(ods) as archive:
        content = archive.read("content.xml").decode()
    content = content.replace(
        '<table:table-row><table:table-cell office:value-type="string"><text:p>x',
        '<table:table-row table:number-rows-repeated="1000000"><table:table-cell '
        'office:value-type="string"><text:p>x',
    )
    rebuilt = tmp_path / "absurd.ods"
    with zipfile.ZipFile(ods) as src, zipfile.ZipFile(rebuilt, "w", zipfile.ZIP_DEFLATED) as out:
        for item in src.infolist():
            data = content.encode() if item.filename == "content.xml" else src.read(item)
            out.writestr(item, data)
    small = Limits(max_sheet_rows=500)
    st = read_source(str(rebuilt), small)
    assert st.text.count("Name x: Value 1.") == 499 and "was cut" in st.warnings[0]
    import openpyxl

    book = openpyxl.Workbook()
    book.active["A1"], book.active["B1"] = "Name", "Value"
    book.active["A1048576"] = "far"
    book.save(tmp_path / "far.xlsx")
    st = read_source(str(tmp_path / "far.xlsx"), small)
    assert "was cut" in st.warnings[0] and "far" not in st.text.replace("far.xlsx", "")


def test_cell_limit_cuts_the_workbook(tmp_path: Path):
    rows = [["Name", "A", "B"]] + [[f"n{i}", i, i] for i in range(200)]
    book = make_workbook(tmp_path / "cells.xlsx", {"One": rows, "Two": rows})
    st = read_source(str(book), Limits(max_sheet_cells=300))
    assert "TREERAG_MAX_SHEET_CELLS" in st.warnings[0]
    assert "Sheet 'Two' was not read" in st.warnings[1]


@pytest.mark.parametrize("suffix", ["pptx", "xlsx", "odt", "ods", "odp"])
def test_truncated_files_are_typed_errors(tmp_path: Path, suffix: str):
    good = {
        "pptx": lambda p: make_deck(p, SLIDES[:2]),
        "xlsx": lambda p: make_workbook(p, {"S": SALES["Regions"]}),
        "odt": lambda p: make_odt(p, [("h1", "T"), ("p", "text")]),
        "ods": lambda p: make_ods(p, {"S": SALES["Regions"]}),
        "odp": lambda p: make_odp(p, SLIDES[:2]),
    }[suffix](tmp_path / f"good.{suffix}")
    cut = tmp_path / f"cut.{suffix}"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(DocumentReadError):
        read_source(str(cut))


def test_zip_bomb_and_encrypted_files_are_refused(tmp_path: Path):
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as member:
            for _ in range(300):
                member.write(b"A" * (1 << 20))
    with pytest.raises(DocumentTooLargeError):
        read_source(str(bomb))
    # An encrypted OOXML file is an OLE2 compound file holding an EncryptedPackage stream.
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504) + "EncryptedPackage".encode("utf-16-le")
    locked = tmp_path / "locked.pptx"
    locked.write_bytes(ole + bytes(2048))
    with pytest.raises(DocumentReadError, match="password-protected"):
        read_source(str(locked))


# --- legacy Office through LibreOffice ----------------------------------------------------


def test_without_libreoffice_the_error_names_the_packages(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(libreoffice, "soffice", lambda: None)
    path = tmp_path / "old.doc"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1024))
    with pytest.raises(ConverterUnavailableError, match="libreoffice-writer-nogui"):
        read_source(str(path))


@needs_libreoffice
@pytest.mark.timeout(600)
def test_legacy_doc_xls_ppt_rtf_are_converted_and_read(tmp_path: Path):
    docx = make_docx(
        tmp_path / "policy.docx",
        [("h1", "Travel"), ("p", "Book flights two weeks ahead."),
         ("h1", "Expenses"), ("p", "Receipts are due within 30 days.")],
    )  # fmt: skip
    for suffix in ("doc", "rtf"):
        st = read_source(str(make_legacy(docx, suffix)))
        titles = [s["title"] for s in parse_sections(st.text)]
        assert "Travel" in titles and "Expenses" in titles, (suffix, titles)
        assert st.warnings[0] == f"Converted from .{suffix} by LibreOffice."
    book = make_workbook(tmp_path / "sales.xlsx", {"Regions": SALES["Regions"][2:]})
    st = read_source(str(make_legacy(book, "xls")))
    assert st.page_unit == "sheet" and "Region North: Units 412, Revenue 48,200." in st.text
    deck = make_deck(tmp_path / "review.pptx", SLIDES[:2])
    st = read_source(str(make_legacy(deck, "ppt")))
    assert st.page_unit == "slide" and st.page_count == 2
    assert "Revenue by region" in st.text and "Remind the board" in st.text


# --- one table of formats -------------------------------------------------------------------


def test_every_new_format_is_one_row_the_upload_url_and_cli_take():
    kinds = {f.kind for f in FORMATS}
    assert {"pptx", "xlsx", "csv", "odt", "ods", "odp", "doc", "xls", "ppt", "rtf"} <= kinds
    for ext in (
        "pptx",
        "xlsx",
        "xlsm",
        "csv",
        "tsv",
        "odt",
        "ods",
        "odp",
        "doc",
        "xls",
        "ppt",
        "rtf",
    ):
        assert ext in accepted_extensions()
    assert "application/vnd.oasis.opendocument.spreadsheet" in accepted_mime_types()
    assert "text/csv" in accepted_mime_types()
    from treerag_core.cli.main import _parser

    index_help = _parser()._subparsers._group_actions[0].choices["index"].format_help()
    assert "PowerPoint (.pptx)" in index_help and "Excel 97-2003 (.xls)" in index_help


@needs_libreoffice
@pytest.mark.timeout(300)
def test_the_cited_slide_is_drawn_with_its_passage_highlighted(tmp_path: Path):
    from treerag_core.evidence.render import render_evidence
    from treerag_core.library.indexing import index_upload

    registry = str(tmp_path / "reg.json")
    data = make_deck(tmp_path / "review.pptx", SLIDES).read_bytes()
    doc = index_upload("review.pptx", data, registry_path=registry)
    answer = ask("What was the revenue of South?", doc, make_retriever(None))
    ref = answer.references[0]
    assert ref["page_start"] == 2 and "Region South: Units 380" in answer.content
    pages = render_evidence(doc, ref, registry)  # the deck drawn by LibreOffice, cached
    assert [p.page for p in pages] == [2] and pages[0].boxes
    assert pages[0].png.startswith(b"\x89PNG")
    again = render_evidence(doc, ref, registry)
    assert again[0].png == pages[0].png


@needs_libreoffice
@pytest.mark.timeout(300)
def test_a_value_in_a_legacy_doc_table_is_answered_from_its_row(tmp_path: Path):
    from treerag_core import ask, index_document, make_retriever, make_summarizer

    source = make_docx(
        tmp_path / "rules.docx",
        [("h1", "Expenses"), ("p", "Receipts are due within 30 days."),
         ("table", [["Item", "Limit"], ["Hotel night", "180"], ["Dinner", "45"]])],
    )  # fmt: skip
    # a real Word 97 table: LibreOffice's .doc export keeps one made from its own ODT
    doc = make_legacy(make_legacy(source, "odt"), "doc")
    document = index_document(str(doc), make_summarizer(), persist=False, verbose=False)
    answer = ask("What is the limit for a hotel night?", document, make_retriever())
    assert answer.content.startswith("Item Hotel night: Limit 180.")
