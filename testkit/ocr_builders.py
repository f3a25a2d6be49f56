"""Scans made in the tests: a born-digital PDF, rendered to page images, put back in a PDF."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
from fpdf import FPDF
from PIL import Image

CHAPTERS = [
    ("1 Introduction", "The plant opened in Leeds in 2019 with forty employees on one shift."),
    ("2 Safety Record", "Inspectors recorded no lost-time injuries during the audit period."),
    ("3 Capital Spending", "The board approved 2,450 thousand pounds for the new press line."),
]


def text_pdf(path: Path, chapters: list[tuple[str, str]] = CHAPTERS) -> Path:
    """A born-digital manual: one chapter a page, a bold 18-point title, body text."""
    pdf = FPDF()
    for title, sentence in chapters:
        pdf.add_page()
        pdf.set_font("helvetica", "B", 18)
        pdf.cell(0, 14, title, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
        pdf.set_font("helvetica", "", 12)
        filler = f"This chapter of the operations manual covers {title.split(' ', 1)[1].lower()}. "
        pdf.multi_cell(0, 7, filler * 3 + sentence + " " + filler * 2)
    pdf.output(str(path))
    return path


def page_images(pdf_path: Path, dpi: int = 200) -> list[Image.Image]:
    document = pdfium.PdfDocument(pdf_path.read_bytes())
    return [
        document[i].render(scale=dpi / 72, grayscale=True).to_pil() for i in range(len(document))
    ]


def scanned_pdf(
    source: Path,
    path: Path,
    scan: set[int] | None = None,
    dpi: int = 200,
    chapters: list[tuple[str, str]] = CHAPTERS,
) -> Path:
    """``source`` with its pages (or only the 1-based ``scan`` pages) as images, no text."""
    document = pdfium.PdfDocument(source.read_bytes())
    images = page_images(source, dpi)
    pdf = FPDF(unit="pt")
    for index, image in enumerate(images):
        width, height = document[index].get_size()
        pdf.add_page(format=(width, height))
        if scan is None or index + 1 in scan:
            buffer = io.BytesIO()
            image.save(buffer, format="PNG")
            pdf.image(io.BytesIO(buffer.getvalue()), x=0, y=0, w=width, h=height)
        else:  # a text page: set its text again as text
            pdf.set_font("helvetica", "B", 18)
            title, sentence = chapters[index]
            pdf.cell(0, 40, title, new_x="LMARGIN", new_y="NEXT")
            pdf.set_font("helvetica", "", 12)
            pdf.multi_cell(0, 16, sentence)
    pdf.output(str(path))
    return path
