"""A long PDF's pages read by two processes (``read/readers/pdfium_helper.py``): the same
pages and the same document as one process reads, and no helper left behind."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from treerag_core.errors import DocumentReadError, DocumentTooLargeError
from treerag_core.limits import Limits
from treerag_core.read.readers import pdf as pdf_reader
from treerag_core.read.readers import pdfium_pages
from treerag_core.read.readers.pdfium_helper import PageHelper
from treerag_core.read.readers.pdfium_pages import HELPER_MIN_PAGES
from treerag_core.read.readers.pdfium_pages import pdfium_pages as read_pages

PAGES = HELPER_MIN_PAGES + 20
# The helper starts in about 0.1 s; on a busy machine it may take many times that.
HELPER_GUARD_S = 60

VOLATILE = ("doc_id", "indexed_at", "stats")


def _report(path: Path, pages: int = PAGES) -> Path:
    """A report whose chapters are set as headings (bold, larger), with prose and a table."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    for n in range(1, pages + 1):
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 16)
        pdf.set_xy(15, 15)
        pdf.cell(180, 8, f"{n}. Chapter {n} on segment results")
        pdf.set_font("Times", size=10)
        y = 30.0
        for line in range(12):
            pdf.set_xy(15, y)
            pdf.cell(180, 5, f"Revenue of segment {n} grew by {line + n}% in fiscal {2000 + n}.")
            y += 6
        pdf.set_font("Helvetica", "I", 9)
        for year, value in ((2023, n * 101), (2022, n * 97)):
            pdf.set_xy(15, y)
            pdf.cell(180, 5, f"Net sales {year}    $ {value:,}    {value // 3:,}")
            y += 6
    path.write_bytes(bytes(pdf.output()))
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    return _report(tmp_path_factory.mktemp("helper") / "report.pdf")


def _wait_for_all(helper: PageHelper) -> None:
    started = time.monotonic()
    while helper.low > 0 and time.monotonic() - started < HELPER_GUARD_S:
        time.sleep(0.01)
    assert helper.low == 0, "the helper process read no pages"


def test_the_helpers_pages_are_the_pages_this_process_reads(report: Path):
    data = report.read_bytes()
    alone = read_pages(data, PAGES)
    with PageHelper(data, PAGES) as helper:
        _wait_for_all(helper)  # every page then comes from the helper
        helped = read_pages(data, PAGES, helper)
    assert all(page is not None for page in alone)
    assert helped == alone
    assert any(line.bold for line in alone[0].lines)  # typography came through


@pytest.fixture
def started(monkeypatch) -> list[PageHelper]:
    """The helpers indexing starts, as if on two cores (a one-core runner helps too)."""
    made: list[PageHelper] = []

    class Counted(PageHelper):
        def __init__(self, data: bytes, count: int) -> None:
            super().__init__(data, count)
            made.append(self)

    monkeypatch.setattr(pdfium_pages, "PageHelper", Counted)
    monkeypatch.setattr(pdfium_pages, "_cores", lambda: 2)
    return made


def test_the_document_is_the_same_with_and_without_the_helper(report: Path, started):
    from treerag_core import index_document, make_summarizer

    def indexed(helper: bool) -> dict:
        doc = index_document(
            str(report), summarizer=make_summarizer(None), persist=False, verbose=False,
            limits=Limits(pdf_helper=helper),
        )  # fmt: skip
        return {k: v for k, v in doc.items() if k not in VOLATILE}

    alone, helped = indexed(False), indexed(True)
    assert len(started) == 1 and started[0]._process is not None
    assert started[0]._process.returncode is not None  # killed and reaped
    assert helped == alone
    assert alone["total_sections"] >= PAGES and alone["structure_source"]


def test_a_bad_pdf_still_raises_its_error_and_leaves_no_helper(report: Path, started, monkeypatch):
    data = report.read_bytes()

    def refuse(data: bytes, name: str) -> None:
        raise DocumentReadError(f"{name} is damaged")

    with monkeypatch.context() as patch:
        patch.setattr(pdf_reader, "open_pdf", refuse)
        with pytest.raises(DocumentReadError):
            pdf_reader.read_pdf(data, Limits())
    assert len(started) == 1 and started[0]._process is not None
    assert started[0]._process.returncode is not None
    # Too many pages: refused by the count as before, and no helper is started for it.
    with pytest.raises(DocumentTooLargeError):
        pdf_reader.read_pdf(data, Limits(max_pages=PAGES - 1))
    assert len(started) == 1


def test_pages_are_read_here_when_the_helper_cannot_start(report: Path, monkeypatch):
    data = report.read_bytes()
    alone = read_pages(data, PAGES)
    monkeypatch.setattr("sys.executable", "/nonexistent/python")
    with PageHelper(data, PAGES) as helper:
        assert helper._process is None
        assert read_pages(data, PAGES, helper) == alone


def test_a_short_pdf_starts_no_helper(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(pdfium_pages, "_cores", lambda: 2)
    short = _report(tmp_path / "short.pdf", HELPER_MIN_PAGES - 1).read_bytes()
    with pdfium_pages.page_helper(short, True, 3000) as helper:
        assert helper is None
    with pdfium_pages.page_helper(_report(tmp_path / "long.pdf").read_bytes(), False, 3000) as off:
        assert off is None  # the setting turned off


class _NoPageTree:
    """A pypdf reader whose page tree cannot be walked."""

    @property
    def pages(self):
        raise ValueError("page tree")


def test_pages_are_counted_by_pdfium_and_by_pypdfs_tree_only_when_pdfium_cannot(report: Path):
    # PDFium's count needs no walk of pypdf's page tree (0.5 s on a 500-page 10-K's)...
    data = report.read_bytes()
    assert pdf_reader._page_count(data, _NoPageTree(), "report.pdf", Limits()) == PAGES
    with pytest.raises(DocumentTooLargeError):
        pdf_reader._page_count(data, _NoPageTree(), "report.pdf", Limits(max_pages=PAGES - 1))
    # ...and a file PDFium cannot open is counted, or refused, by pypdf's tree as before.
    with pytest.raises(DocumentReadError, match="page tree"):
        pdf_reader._page_count(b"%PDF-1.4 not a pdf", _NoPageTree(), "bad.pdf", Limits())
