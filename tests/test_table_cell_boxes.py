"""A PDF table's cells are found in their box on the page, and a computed answer's evidence
outlines the cells it used; a running footer at the foot of pages is no table row (issue 40).
The boxes are found when an answer cites the cells (the evidence has the page open), not
stored at indexing.

The filing is drawn here with fpdf2, each figure right-aligned in a cell whose rectangle is
recorded as it is printed, so the stored boxes can be checked against where the text really
is. Its footer ("Acme Corp 2023 Annual Report 12") is printed on three of nine pages, the
statement's page among them: too few pages for the headings' furniture rule (half of them),
so the text keeps it and only the tables' own rule can leave it out.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fpdf import FPDF

from testkit.ocr_builders import scanned_pdf
from treerag_core import ask, get_document_by_id, index_document, make_retriever, make_summarizer
from treerag_core.evidence.cell_boxes import cited_cell
from treerag_core.evidence.locate import PdfLocator, ocr_words_of
from treerag_core.evidence.render import render_evidence
from treerag_core.store import open_store
from treerag_core.text.page_furniture import page_furniture
from treerag_core.text.table_data import document_tables

POINTS_PER_MM = 72 / 25.4
TOLERANCE = 1.0  # points: PDFium's character boxes against fpdf2's layout
SCAN_TOLERANCE = 3.0  # points: OCR's word boxes, in pixels of a 200 dpi scan
YEARS = ("2023", "2022")
INCOME = [
    ("Net sales", ("1,200", "1,000")),
    ("Cost of sales", ("700", "600")),
    ("Gross profit", ("500", "400")),
    ("Purchases of equipment", ("(90)", "(70)")),
    ("Net income", ("$ 150", "$ 120")),
]
FOOTER_PAGES = (2, 5, 8)
TOPICS = ["Overview", "Statements", "Markets", "Products", "People", "Risks", "Plants",
          "Suppliers", "Outlook"]  # fmt: skip


def _filing(path: Path) -> dict[tuple[str, str], tuple[float, float, float, float, float]]:
    """Nine pages, the income statement on page 2; → where each figure was printed: its
    cell's rectangle in PDF points (left, bottom, right, top) and the text's width."""
    pdf = FPDF()
    pdf.set_auto_page_break(False)
    printed = {}
    for page, topic in enumerate(TOPICS, 1):
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 14)
        title = "Consolidated Statements of Income" if topic == "Statements" else topic
        pdf.cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 6, f"This page on {topic.lower()} describes {page * 3} matters the "
                       f"company reviewed in fiscal 2023 with its {page + 4} auditors.")  # fmt: skip
        if topic == "Statements":
            pdf.cell(0, 7, "(In millions)", new_x="LMARGIN", new_y="NEXT")
            pdf.cell(90, 7, "")
            for year in YEARS:
                pdf.cell(35, 7, year, align="R")
            pdf.ln(7)
            for label, cells in INCOME:
                pdf.cell(90, 7, label)
                for year, text in zip(YEARS, cells, strict=True):
                    x, y = pdf.get_x(), pdf.get_y()
                    printed[(label, year)] = (
                        x * POINTS_PER_MM,
                        (pdf.h - y - 7) * POINTS_PER_MM,
                        (x + 35) * POINTS_PER_MM,
                        (pdf.h - y) * POINTS_PER_MM,
                        pdf.get_string_width(text) * POINTS_PER_MM,
                    )
                    pdf.cell(35, 7, text, align="R")
                pdf.ln(7)
        if page in FOOTER_PAGES:
            pdf.set_y(-20)
            pdf.cell(0, 7, f"Acme Corp 2023 Annual Report {page + 10}")
    pdf.output(str(path))
    return printed


@pytest.fixture(scope="module")
def filing(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("boxes")
    path = folder / "acme_annual_report.pdf"
    printed = _filing(path)
    registry = str(folder / "reg.json")
    doc = index_document(
        str(path), summarizer=make_summarizer(None), registry_path=registry, verbose=False
    )
    return doc, registry, printed


def _rows(doc: dict) -> dict[str, dict]:
    return {r["label"]: r for t in doc["tables"] for r in t["rows"]}


def test_each_cell_is_found_in_the_box_its_text_is_printed_in(filing) -> None:
    doc, _registry, printed = filing
    rows = _rows(doc)
    tables = {r["label"]: t["id"] for t in doc["tables"] for r in t["rows"]}
    cited = [
        cited_cell(rows[label]["page"], tables[label], rows[label]["offset"], i)
        for label, _cells in INCOME
        for i in range(len(YEARS))
    ]
    with PdfLocator(Path(doc["file_path"]).read_bytes()) as locator:
        boxes = locator.cell_boxes(doc["tables"], cited)
    assert len(boxes) == len(cited)
    for (label, year), found in zip(
        [(label, year) for label, _ in INCOME for year in YEARS], boxes, strict=True
    ):
        assert rows[label]["page"] == 2 and rows[label]["years"] == [2023, 2022]
        assert found["page"] == 2
        left, bottom, right, top = found["box"]
        cell_left, cell_bottom, cell_right, cell_top, width = printed[(label, year)]
        # inside the rectangle fpdf2 printed the figure in, right-aligned in it
        assert cell_left - TOLERANCE <= left < right <= cell_right + TOLERANCE
        assert cell_bottom - TOLERANCE <= bottom < top <= cell_top + TOLERANCE
        assert abs((right - left) - width) <= 2 * TOLERANCE, (label, year, found)
        assert all(v == round(v, 1) for v in found["box"])  # small: a tenth of a point
    # the stored document is plain JSON and keeps no positions: boxes are found when cited
    json.dumps(doc["tables"])
    assert not any("box" in c for r in rows.values() for c in r["cells"])


def test_a_cell_not_printed_on_its_page_gets_no_box(filing) -> None:
    doc, _registry, _printed = filing
    row = _rows(doc)["Net sales"]
    table = next(t["id"] for t in doc["tables"] if row in t["rows"])
    with PdfLocator(Path(doc["file_path"]).read_bytes()) as locator:
        assert locator.cell_boxes(doc["tables"], [cited_cell(3, table, row["offset"], 0)]) == []
        assert locator.cell_boxes(doc["tables"], [cited_cell(99, table, row["offset"], 0)]) == []


def test_the_footer_printed_at_the_foot_of_pages_is_no_table_row(filing) -> None:
    doc, _registry, _printed = filing
    labels = [r["label"] for t in doc["tables"] for r in t["rows"]]
    assert not any("Annual Report" in label for label in labels), labels
    assert labels == [label for label, _ in INCOME]
    text = "\n".join(n["text"] for n in doc["flat_nodes"].values())
    assert "Acme Corp 2023 Annual Report 12" in text  # the section text keeps it


def test_a_computed_answer_outlines_the_cells_it_used(filing) -> None:
    doc, registry, printed = filing
    retriever = make_retriever(None, sources=open_store(registry).sources)
    result = ask("What was the gross margin in 2023?", doc, retriever)
    assert result.content.startswith("Gross margin, FY2023: 41.7% ="), result.content
    cited = [r for r in result.references if r.get("cited") and r.get("cell_boxes")]
    assert cited, result.references
    boxes = [c for r in cited for c in r["cell_boxes"]]
    assert {c["page"] for c in boxes} == {2}
    # the cells the answer lists as used (revenue less cost of sales, or gross profit)
    used = {(label, "2023") for label, _ in INCOME if f"- {label}, 2023:" in result.content}
    assert len(used) == 2, result.content
    for cell in boxes:  # each box is one of the two operands' printed cells
        left, bottom, right, top = cell["box"]
        assert any(
            printed[key][0] - TOLERANCE <= left and right <= printed[key][2] + TOLERANCE
            and printed[key][1] - TOLERANCE <= bottom and top <= printed[key][3] + TOLERANCE
            for key in used
        ), cell  # fmt: skip
    assert len(boxes) == len(used)
    ref = cited[0]
    # the evidence's tight highlight is the cells themselves, on the page they are printed
    assert ref["sentence_highlights"] == [{"page": 2, "rects": [c["box"] for c in boxes]}]
    assert 2 in {h["page"] for h in ref["highlights"]}
    pages = render_evidence(get_document_by_id(doc["doc_id"], registry), ref, registry)
    drawn = next(p for p in pages if p.page == 2)
    assert len(drawn.sentence_boxes) == len(used)


def test_furniture_is_a_repeated_page_edge_line_not_a_repeated_row() -> None:
    """The rule on text alone: a line at the foot of three pages ending in the page's number
    is furniture, and so is a lone page number; a row printed at an edge of every page
    ("Stores 7", whose figure does not follow the page) or mid-page ("Total 30") is data."""
    flat = {}
    for n, name in enumerate(["North", "South", "East", "West", "Central", "Coast"], 1):
        body = f"Sales in the {name} region\nStores {n * 7}\nKettles {n * 10} {n * 9}\n"
        body += f"Total 30 27\nMore text about the {name} shops\n"
        footer = f"Acme Corp 2023 Annual Report {n + 10}\n" if n % 2 else f"{n + 10}\n"
        flat[f"{n:04d}"] = {"title": f"Region {n}", "text": body + footer, "page_start": n}
    dropped = {flat[k]["text"][s:e] for k, spans in page_furniture(flat).items() for s, e in spans}
    assert dropped == {"Acme Corp 2023 Annual Report 11", "Acme Corp 2023 Annual Report 13",
                       "Acme Corp 2023 Annual Report 15", "12", "14", "16"}  # fmt: skip
    labels = [r["label"] for t in document_tables(flat) for r in t["rows"]]
    assert labels.count("Total") == labels.count("Stores") == labels.count("Kettles") == 6
    assert not any("Annual Report" in x for x in labels)


def test_both_stores_keep_the_same_tables(filing, any_registry) -> None:
    doc, _registry, _printed = filing
    path = Path(doc["file_path"])
    again = index_document(
        str(path), summarizer=make_summarizer(None), registry_path=any_registry.url,
        verbose=False,
    )  # fmt: skip
    stored = get_document_by_id(again["doc_id"], any_registry.url)
    assert stored["tables"] == doc["tables"]
    assert [r["label"] for r in _rows(stored).values()] == [label for label, _ in INCOME]


@pytest.mark.slow
@pytest.mark.system("tesseract")
def test_a_scanned_statements_cells_are_found_where_ocr_read_them(filing, tmp_path) -> None:
    """A scan has no text layer: the cells are found among the words OCR read on the page
    (kept with their boxes at indexing), each box round the words of its figure."""
    doc, _registry, printed = filing
    chapters = [(topic, f"This page on {topic.lower()} describes the year.") for topic in TOPICS]
    scan = scanned_pdf(Path(doc["file_path"]), tmp_path / "acme-scan.pdf", {2}, chapters=chapters)
    registry = str(tmp_path / "reg.json")
    scanned = index_document(
        str(scan), summarizer=make_summarizer(None), registry_path=registry, verbose=False
    )
    assert scanned["ocr_pages"] == 1
    rows = {label: _rows(scanned)[label] for label, _ in INCOME}
    tables = {r["label"]: t["id"] for t in scanned["tables"] for r in t["rows"]}
    cited = [
        cited_cell(2, tables[label], rows[label]["offset"], i) for label in rows for i in (0, 1)
    ]
    ocr = ocr_words_of(scanned, open_store(registry).cache("ocr"))
    with PdfLocator(scan.read_bytes(), ocr) as locator:
        boxes = locator.cell_boxes(scanned["tables"], cited)
    with PdfLocator(scan.read_bytes()) as locator:  # without the words OCR read: no boxes
        assert locator.cell_boxes(scanned["tables"], cited) == []
    assert len(boxes) == len(cited)
    keys = [(label, year) for label in rows for year in YEARS]
    for key, found in zip(keys, boxes, strict=True):  # pixels of a 200 dpi scan: looser
        left, bottom, right, top = found["box"]
        cell_left, cell_bottom, cell_right, cell_top, width = printed[key]
        assert found["page"] == 2
        assert cell_left - SCAN_TOLERANCE <= left < right <= cell_right + SCAN_TOLERANCE, key
        assert cell_bottom - SCAN_TOLERANCE <= bottom < top <= cell_top + SCAN_TOLERANCE, key
        assert abs((right - left) - width) <= 2 * SCAN_TOLERANCE, (key, found)
