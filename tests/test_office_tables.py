"""Word, OpenDocument and web-page tables kept as data, as PDF and sheet tables are: a statement's table
(label column without a header, years as columns, parenthesised negatives, a units line in
the paragraph above) is stored as rows × columns with its years and unit, and a ratio asked
of it is computed from its cells, offline."""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit.builders import make_docx
from testkit.office_files import make_odt
from treerag_core import ask, index_document, make_retriever, make_summarizer
from treerag_core.text.table_data import row_path

ROWS = [["", "2023", "2022"], ["Net sales", "1,200", "1,000"], ["Cost of sales", "(700)", "(600)"],
        ["Net income", "150", "120"]]  # fmt: skip


def _docx(folder: Path) -> Path:
    return make_docx(folder / "acme.docx", [("title", "Acme report"), ("h1", "Income statement"),
                     ("p", "In millions of dollars."), ("table", ROWS)])  # fmt: skip


def _odt(folder: Path) -> Path:
    return make_odt(folder / "acme.odt", [("h1", "Income statement"),
                    ("p", "In millions of dollars."), ("table", ROWS)])  # fmt: skip


def _html(folder: Path) -> Path:
    cells = "".join(
        "<tr>" + "".join(f"<{'th' if i == 0 else 'td'}>{c}</{'th' if i == 0 else 'td'}>"
                         for c in row) + "</tr>"
        for i, row in enumerate(ROWS)
    )  # fmt: skip
    path = folder / "acme.html"
    path.write_text(f"<html><body><h1>Acme report</h1><h2>Income statement</h2>"
                    f"<p>In millions of dollars.</p><table>{cells}</table></body></html>")  # fmt: skip
    return path


@pytest.fixture(params=["docx", "odt", "html"])
def document(request, tmp_path):
    path = {"docx": _docx, "odt": _odt, "html": _html}[request.param](tmp_path)
    return index_document(str(path), summarizer=make_summarizer(None),
                          registry_path=str(tmp_path / "reg.json"), verbose=False)  # fmt: skip


def test_the_table_is_kept_as_rows_and_columns(document) -> None:
    (table,) = document["tables"]
    rows = {row_path(r): r for r in table["rows"]}
    assert list(rows) == ["Net sales", "Cost of sales", "Net income"]
    assert [c["value"] for c in rows["Cost of sales"]["cells"]] == [-700, -600]
    assert rows["Net sales"]["years"] == [2023, 2022] and table["unit"] == "million"
    assert [c["year"] for c in table["columns"]] == [2023, 2022]


def test_a_margin_is_computed_from_its_cells(document) -> None:
    answer = ask("What was the net profit margin in 2023?", document, make_retriever(None))
    assert str(answer.content).startswith(
        "Net profit margin, FY2023: 12.5% = net income 150 / revenue 1,200"
    )
