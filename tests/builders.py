"""Build real test documents (PDF, DOCX, zip bombs) in a temp folder.

Shared by the reader tests and any other test that needs a real file: PDFs are written by
fpdf2 and post-processed with pypdf (outline, encryption); DOCX files by python-docx.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

Block = tuple[str, Any]  # ("title"|"h1".."h9"|"p", text) or ("table", [[cell, ...], ...])


def make_pdf(
    path: Path,
    pages: list[str],
    outline: list[tuple[str, int, int]] | None = None,
    encrypt_password: str | None = None,
) -> Path:
    """A PDF with one page per string (lines split on newlines).

    ``outline`` holds (title, level, 1-based page) bookmarks; ``encrypt_password`` encrypts
    with AES ("" = opens with an empty user password, like many SEC filings).
    """
    from fpdf import FPDF
    from pypdf import PdfReader, PdfWriter

    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=10)
    for page in pages:
        pdf.add_page()
        y = 15.0
        for line in page.split("\n"):
            pdf.set_xy(15, y)
            pdf.cell(180, 5, line)
            y += 6
            if y > 280:
                break
    raw = bytes(pdf.output())
    if outline is None and encrypt_password is None:
        path.write_bytes(raw)
        return path
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(raw)))
    parents: dict[int, Any] = {}
    for title, level, page in outline or []:
        parent = parents.get(level - 1) if level > 1 else None
        parents[level] = writer.add_outline_item(title=title, page_number=page - 1, parent=parent)
    if encrypt_password is not None:
        writer.encrypt(
            user_password=encrypt_password, owner_password="owner-secret", algorithm="AES-128"
        )
    with open(path, "wb") as fh:
        writer.write(fh)
    return path


def make_docx(path: Path, blocks: list[Block]) -> Path:
    """A DOCX from blocks: ("title", t), ("h1".."h9", t), ("p", t), ("table", rows)."""
    import docx

    document = docx.Document()
    for kind, value in blocks:
        if kind == "title":
            document.add_heading(value, level=0)
        elif kind.startswith("h") and kind[1:].isdigit():
            document.add_heading(value, level=int(kind[1:]))
        elif kind == "p":
            document.add_paragraph(value)
        elif kind == "table":
            rows = value
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = str(cell)
        else:
            raise ValueError(f"unknown block kind {kind!r}")
    document.save(str(path))
    return path


def make_zip_bomb_docx(path: Path, inflated_bytes: int = 300 * 1024 * 1024) -> Path:
    """A tiny .docx whose document.xml declares (and inflates to) ``inflated_bytes``."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        with zf.open("word/document.xml", "w", force_zip64=True) as member:
            chunk = b"A" * (1024 * 1024)
            for _ in range(inflated_bytes // len(chunk)):
                member.write(chunk)
    return path
