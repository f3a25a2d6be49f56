"""Make the app's sample PDF (``treerag_core/library/sample_handbook.pdf``) from its
Markdown text: ``.venv/bin/python tests/make_sample_pdf.py``.

The sample ships as a PDF so that a newcomer's first answer shows what treerag shows for
real documents: the cited page as an image with the passage highlighted. fpdf2 (a test
dependency) typesets it: each top-level heading starts a page; headings are bold and larger
than the body, and every heading is a bookmark.
"""

from __future__ import annotations

import io
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "treerag_core" / "library" / "sample_handbook.md"
TARGET = SOURCE.with_suffix(".pdf")


def blocks(text: str) -> list[tuple[str, str]]:
    """("h1" | "h2" | "p", text) in reading order; paragraphs joined from their lines."""
    out: list[tuple[str, str]] = []
    for chunk in text.strip().split("\n\n"):
        chunk = chunk.strip()
        if chunk.startswith("## "):
            out.append(("h2", chunk[3:]))
        elif chunk.startswith("# "):
            out.append(("h1", chunk[2:]))
        else:
            out.append(("p", " ".join(chunk.split())))
    return out


def make(source: Path = SOURCE, target: Path = TARGET) -> Path:
    from fpdf import FPDF
    from pypdf import PdfReader, PdfWriter

    pdf = FPDF(format="A4")
    pdf.set_margins(22, 22, 22)
    pdf.set_auto_page_break(True, 22)
    pdf.set_creation_date(datetime(2025, 1, 1, tzinfo=UTC))  # same bytes each run
    outline: list[tuple[str, int, int]] = []
    for kind, text in blocks(source.read_text(encoding="utf-8")):
        if kind == "h1":
            pdf.add_page()
            pdf.set_font("Helvetica", "B", 18)
            pdf.multi_cell(0, 9, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
            outline.append((text, 1, pdf.page_no()))
        elif kind == "h2":
            pdf.ln(2)
            pdf.set_font("Helvetica", "B", 13)
            pdf.multi_cell(0, 7, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
            outline.append((text, 2, pdf.page_no()))
        else:
            pdf.set_font("Helvetica", "", 10.5)
            pdf.multi_cell(0, 5.5, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(bytes(pdf.output()))))
    parents: dict[int, object] = {}
    for title, level, page in outline:
        parent = parents.get(level - 1) if level > 1 else None
        parents[level] = writer.add_outline_item(title=title, page_number=page - 1, parent=parent)
    writer.add_metadata({"/Title": "Northwind Traders Staff Handbook 2025"})
    with open(target, "wb") as fh:
        writer.write(fh)
    return target


if __name__ == "__main__":
    print(make(*(Path(a) for a in sys.argv[1:3])))
