"""Scans and images through real Tesseract: read, structured, answered; text pages left alone;
a clear message without Tesseract; oversized images refused before decoding."""

from __future__ import annotations

import io
import re
import struct
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from bench import evidence_score
from testkit.ocr_builders import CHAPTERS, page_images, scanned_pdf, text_pdf
from treerag_core import DocumentTooLargeError, ask, index_document, make_retriever
from treerag_core.errors import OcrUnavailableError
from treerag_core.evidence.locate import quoted_text
from treerag_core.evidence.render import render_evidence
from treerag_core.library.indexing import index_upload
from treerag_core.read.source import read_source
from treerag_core.store import open_store
from treerag_core.tree.labels import heading_label

pytestmark = pytest.mark.slow


def words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}


@pytest.fixture(scope="module")
def scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("scan")
    return scanned_pdf(text_pdf(folder / "manual.pdf"), folder / "manual-scan.pdf")


def test_a_scanned_pdf_gets_its_chapters_text_and_answers(scan: Path, tmp_path: Path) -> None:
    reg = str(tmp_path / "reg.json")
    seen: list[str] = []
    doc = index_document(
        str(scan), registry_path=reg, verbose=False, progress=lambda d, t, m: seen.append(m)
    )
    assert doc["ocr_pages"] == 3 and doc["total_pages"] == 3
    assert [m for m in seen if m.startswith("OCR page")] == [
        f"OCR page {n} of 3" for n in (1, 2, 3)
    ]
    titles = [heading_label(n) for n in doc["flat_nodes"].values()]
    assert titles == [title for title, _ in CHAPTERS], titles
    assert [n["page_start"] for n in doc["flat_nodes"].values()] == [1, 2, 3]
    body = " ".join(n["text"] for n in doc["flat_nodes"].values())
    for _, sentence in CHAPTERS:
        assert len(words(sentence) & words(body)) >= len(words(sentence)) - 1, sentence
    result = ask(
        "How much did the board approve for the new press line?",
        doc,
        make_retriever(None, sources=open_store(reg).sources),
    )
    assert "2,450" in result.content
    cited = [r for r in result.references if r["cited"]]
    assert cited and cited[0]["page_start"] == 3


def test_a_scanned_pages_evidence_is_highlighted_where_ocr_read_it(
    scan: Path, tmp_path: Path
) -> None:
    """A scan has no text layer to search: the quoted words are found among the words OCR
    read at indexing (kept with their boxes), and their boxes, read back on the born-digital
    copy the scan was printed from (same page geometry), hold the quoted passage."""
    reg = str(tmp_path / "reg.json")
    doc = index_document(str(scan), registry_path=reg, verbose=False)
    store = open_store(reg)
    retriever = make_retriever(None, sources=store.sources, ocr_cache=store.cache("ocr"))
    result = ask("How much did the board approve for the new press line?", doc, retriever)
    ref = next(r for r in result.references if r["cited"])
    assert [h["page"] for h in ref["highlights"]] == [3]
    assert ref["sentence_highlights"] and ref["sentence_highlights"][0]["page"] == 3
    shown = evidence_score.read_back(str(scan.parent / "manual.pdf"), ref["highlights"])
    quoted = [w for t in quoted_text(doc, ref) for w in evidence_score.words(t)]
    held, precision = evidence_score.coverage(quoted, shown)
    assert held >= 0.9 and precision >= 0.8, (quoted, shown)
    pages = render_evidence(doc, ref, reg)
    assert [p.page for p in pages] == [3] and pages[0].boxes  # drawn on the scanned page
    # without the OCR cache the scan has nothing to search: no boxes, but no error either
    bare = ask(
        "How much did the board approve for the new press line?", doc,
        make_retriever(None, sources=store.sources),
    )  # fmt: skip
    assert next(r for r in bare.references if r["cited"])["highlights"] == []


def test_ocr_is_cached_so_a_reindex_needs_no_tesseract(
    scan: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = str(tmp_path / "reg.json")
    first = index_upload("scan.pdf", scan.read_bytes(), registry_path=reg)
    monkeypatch.setenv("PATH", str(tmp_path))  # no tesseract from here on
    again = index_upload("scan.pdf", scan.read_bytes(), registry_path=reg, overwrite=True)
    assert again["flat_nodes"].keys() == first["flat_nodes"].keys()
    assert [n["text"] for n in again["flat_nodes"].values()] == [
        n["text"] for n in first["flat_nodes"].values()
    ]


def test_a_mixed_pdf_reads_each_page_from_its_own_source(tmp_path: Path) -> None:
    mixed = scanned_pdf(text_pdf(tmp_path / "m.pdf"), tmp_path / "mixed.pdf", scan={2})
    source = read_source(str(mixed))
    assert source.ocr_pages == 1
    pages = source.text.split("\f")
    document = pdfium.PdfDocument(mixed.read_bytes())
    for index in (0, 2):  # text pages: exactly PDFium's text, never OCR'd
        layer = document[index].get_textpage().get_text_range()
        assert words(layer) == words(pages[index])
    assert words(CHAPTERS[1][1]) <= words(pages[1]) | {"lost"}


def test_images_are_documents(tmp_path: Path) -> None:
    reg = str(tmp_path / "reg.json")
    images = page_images(text_pdf(tmp_path / "t.pdf"), dpi=200)
    png = io.BytesIO()
    images[2].copy().save(png, format="PNG", dpi=(200, 200))  # the original stays unsaved
    doc = index_upload("press-line.png", png.getvalue(), registry_path=reg)
    assert doc["source_type"] == "image" and doc["total_pages"] == 1
    assert "2,450" in " ".join(n["text"] for n in doc["flat_nodes"].values())
    tiff = io.BytesIO()
    images[0].save(
        tiff, format="TIFF", save_all=True, append_images=images[1:], dpi=(200, 200),
        compression="tiff_deflate",
    )  # fmt: skip
    doc = index_upload("manual.tiff", tiff.getvalue(), registry_path=reg)
    assert doc["total_pages"] == 3 and doc["ocr_pages"] == 3
    assert [n["page_start"] for n in doc["flat_nodes"].values()] == [1, 2, 3]


def test_without_tesseract_a_scan_says_what_to_install(
    scan: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(OcrUnavailableError, match="tesseract-ocr"):
        index_document(str(scan), persist=False, verbose=False)
    mixed = scanned_pdf(text_pdf(tmp_path / "m.pdf"), tmp_path / "mixed.pdf", scan={2})
    doc = index_document(str(mixed), persist=False, verbose=False)  # text pages still indexed
    assert doc["ocr_pages"] == 0 and "1 scanned page(s) were not read" in doc["warnings"][0]


def test_upload_page_names_the_package_when_tesseract_is_missing(
    make_app,
    scan: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,  # noqa: ANN001
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    at = make_app("pages/upload.py")
    at.file_uploader[0].set_value([("scan.pdf", scan.read_bytes(), "application/pdf")])
    at.run()
    next(b for b in at.button if b.label == "Index").click().run()
    assert not at.exception
    assert any("tesseract-ocr" in e.value for e in at.error)


def _png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` × ``height`` (with a token of image data)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def test_a_decompression_bomb_is_refused_before_decoding(tmp_path: Path) -> None:
    bomb = _png_header(60_000, 60_000)  # 3.6 gigapixels in 100 bytes
    with pytest.raises(DocumentTooLargeError, match="not decoded"):
        index_upload("bomb.png", bomb, registry_path=str(tmp_path / "r.json"))
    assert open_store(str(tmp_path / "r.json")).list() == []


def test_bold_sub_headings_of_body_size_are_read_from_the_scan(tmp_path: Path) -> None:
    """Weight survives only as stroke width on a scan: bold 11-point sub-headings between
    regular 11-point paragraphs still become sections (and regular lines do not)."""
    from fpdf import FPDF

    from treerag_core.read.ocr.scan import to_rich_page
    from treerag_core.read.ocr.tesseract import recognise

    heads = ["Basis of Presentation", "Restructuring Charges", "Goodwill and Intangibles"]
    pdf = FPDF()
    pdf.add_page()
    for n, head in enumerate(heads, 1):
        pdf.set_font("helvetica", "B", 11)
        pdf.cell(0, 8, f"{n}. {head}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", "", 11)
        pdf.multi_cell(0, 6, f"The note on {head.lower()} explains the figures in detail. " * 5)
        pdf.ln(3)
    born = pdf.output()
    image = pdfium.PdfDocument(bytes(born))[0].render(scale=200 / 72, grayscale=True).to_pil()
    png = io.BytesIO()
    image.save(png, format="PNG")
    page = to_rich_page(1, recognise(png.getvalue()), 595.28, 841.89)
    bold = [line.text for line in page.lines if line.bold]
    assert bold == [f"{n}. {head}" for n, head in enumerate(heads, 1)], bold


def test_a_scanned_contents_page_is_read_as_one(tmp_path: Path) -> None:
    """A contents set as a table (titles left, page numbers flush right): Tesseract reads the
    numbers apart from their titles, or drops them as noise; the rows are put back together
    so the scan is structured by its printed contents like the born-digital copy."""
    from fpdf import FPDF

    items = [
        ("Item 1.", "Business"),
        ("Item 1A.", "Risk Factors"),
        ("Item 2.", "Properties"),
        ("Item 3.", "Legal Proceedings"),
        ("Item 7.", "Management's Discussion and Analysis"),
        ("Item 8.", "Financial Statements and Supplementary Data"),
    ]
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", "B", 10)
    pdf.cell(0, 10, "TABLE OF CONTENTS", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("helvetica", "", 10)
    for page, (label, title) in enumerate(items, 2):
        pdf.cell(150, 8, f"{label} {title}")
        pdf.cell(0, 8, str(page), align="R", new_x="LMARGIN", new_y="NEXT")
    for label, title in items:
        pdf.add_page()
        pdf.set_font("helvetica", "B", 10)
        pdf.cell(0, 10, f"{label} {title}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", "", 10)
        pdf.multi_cell(0, 5, f"This part of the report describes {title.lower()} in full. " * 6)
    born = tmp_path / "contents.pdf"
    pdf.output(str(born))
    chapters = [("", "")] * (len(items) + 1)
    scan = read_source(str(scanned_pdf(born, tmp_path / "scan.pdf", chapters=chapters)))
    original = read_source(str(born))
    assert scan.ocr_pages == len(items) + 1
    assert original.structure_source == scan.structure_source == "printed contents"
    headings = [ln for ln in scan.text.splitlines() if ln.startswith("#")]
    assert headings == [ln for ln in original.text.splitlines() if ln.startswith("#")]
    assert headings[1:] == [f"# {label} {title}" for label, title in items], headings


def test_italic_lettered_sub_headings_are_read_from_the_scan(tmp_path: Path) -> None:
    """Slant survives on a scan as leaning strokes: italic lines are marked italic (regular
    ones not), and lettered italic sub-headings under a bold note become its sections."""
    from fpdf import FPDF

    subs = ["A. Basis of Presentation", "B. New Accounting Standards", "C. Revenues"]
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("times", "B", 11)
    pdf.cell(
        0, 8, "Note 1. Basis of Presentation and Accounting Policies", new_x="LMARGIN", new_y="NEXT"
    )
    for sub in subs:
        pdf.ln(3)
        pdf.set_font("times", "I", 11)
        pdf.cell(0, 8, sub, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("times", "", 11)
        pdf.multi_cell(
            0, 6, f"The section on {sub[3:].lower()} explains the figures in detail. " * 5
        )
    born = tmp_path / "notes.pdf"
    pdf.output(str(born))
    scan = read_source(str(scanned_pdf(born, tmp_path / "notes-scan.pdf", chapters=[("", "")])))
    headings = [ln.lstrip("#").strip() for ln in scan.text.splitlines() if ln.startswith("#")]
    assert headings == ["Note 1. Basis of Presentation and Accounting Policies", *subs], headings
