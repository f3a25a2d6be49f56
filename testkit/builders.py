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


Run = tuple[str, bool, float | None]  # text, bold, size in points (None: the style's)


def make_formatted_docx(path: Path, paragraphs: list[str | Run | list[Run]]) -> Path:
    """A DOCX typed with manual formatting, without heading styles: each paragraph is plain
    text, one run ``(text, bold, size)`` or a list of runs."""
    import docx
    from docx.shared import Pt

    document = docx.Document()
    for paragraph in paragraphs:
        if isinstance(paragraph, str):
            paragraph = (paragraph, False, None)
        runs = [paragraph] if isinstance(paragraph, tuple) else paragraph
        para = document.add_paragraph()
        for text, bold, size in runs:
            run = para.add_run(text)
            run.bold = bold
            if size:
                run.font.size = Pt(size)
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


# A typeset page is a list of items: ("h", text, font, style, size) for a heading (a "\n" in
# text wraps it over lines), ("p", text) for a body paragraph in Helvetica 10, ("table",
# rows) whose first row is set bold, ("toc", title, printed page, indent mm) for a contents
# entry with dotted leaders (a "\n" in title wraps it; no page: a part title), or ("gap", mm).
TypesetItem = tuple[Any, ...]


def make_typeset_pdf(
    path: Path,
    pages: list[list[TypesetItem]],
    header: str | list[str | None] | None = None,
    first_printed: int | None = None,
) -> Path:
    """A PDF without bookmarks whose headings differ from the body only by their look.

    ``header`` is a running head on every page, or one per page (None: none on that page,
    as on a chapter's first); ``first_printed`` is the physical page
    (1-based) that carries the printed page number 1 in its footer (pages before it carry
    none): a printed contents then names pages offset from the physical ones.
    """
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_margins(20, 20, 20)
    for number, items in enumerate(pages, 1):
        pdf.add_page()
        head = header[number - 1] if isinstance(header, list) else header
        if head:
            pdf.set_font("Helvetica", "", 8)
            pdf.set_xy(20, 10)
            pdf.cell(170, 4, head, align="R")
        pdf.set_xy(20, 22)
        for item in items:
            _typeset(pdf, item)
        if first_printed is not None and number >= first_printed:
            pdf.set_font("Helvetica", "", 8)
            pdf.set_xy(20, 285)
            pdf.cell(170, 4, str(number - first_printed + 1), align="C")
    pdf.output(str(path))
    return path


def _typeset(pdf: Any, item: TypesetItem) -> None:
    kind = item[0]
    if kind == "h":
        _, text, font, style, size = item
        pdf.ln(4)
        pdf.set_font(font, style, size)
        for line in text.split("\n"):
            pdf.cell(170, size * 0.45, line, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    elif kind == "hang":  # ("hang", first line, next line, font, style, size): indented
        _, first, rest, font, style, size = item
        pdf.ln(4)
        pdf.set_font(font, style, size)
        pdf.cell(170, size * 0.45, first, new_x="LMARGIN", new_y="NEXT")
        pdf.set_x(60)
        pdf.cell(130, size * 0.45, rest, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    elif kind == "p":  # ("p", text) or ("p", text, size): body text, 10 pt by default
        size = item[2] if len(item) > 2 else 10
        pdf.set_font("Helvetica", "", size)
        pdf.multi_cell(170, size / 2, item[1], new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    elif kind == "run":  # a bold body-size line spaced like a paragraph ("LatAm")
        pdf.set_font("Helvetica", "B", 10)
        pdf.cell(170, 5, item[1], new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    elif kind == "lead":  # a paragraph that opens with a bold word: body text all the same
        _, bold, rest = item
        pdf.set_font("Helvetica", "B", 10)
        pdf.cell(pdf.get_string_width(bold + " "), 5, bold + " ")
        pdf.set_font("Helvetica", "", 10)
        pdf.multi_cell(150, 5, rest, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    elif kind == "table":
        for r, row in enumerate(item[1]):
            pdf.set_font("Helvetica", "B" if r == 0 else "", 10)
            for cell in row:
                pdf.cell(50, 6, str(cell))
            pdf.ln(6)
        pdf.ln(2)
    elif kind == "toc":  # a "\n" in title wraps the entry: its number on the last line
        _, title, printed, indent = item
        pdf.set_font("Helvetica", "", 10)
        *wrapped, title = title.split("\n")
        for n, line in enumerate(wrapped):
            pdf.set_x(20 + indent + (8 if n else 0))  # a wrapped entry's rest hangs under it
            pdf.cell(160 - indent, 6, line, new_x="LMARGIN", new_y="NEXT")
        indent += 8 if wrapped else 0
        pdf.set_x(20 + indent)
        width = 160 - indent
        if printed is None:  # a part title listed without a page
            pdf.cell(width, 6, title, new_x="LMARGIN", new_y="NEXT")
            return
        dots = "." * int((width - pdf.get_string_width(title)) / pdf.get_string_width(". "))
        pdf.cell(width, 6, f"{title} {' '.join(dots)}")
        pdf.cell(10, 6, str(printed), align="R", new_x="LMARGIN", new_y="NEXT")
    elif kind == "corner":  # a small label set flush right ("Exhibit 21")
        _, text, style, size = item
        pdf.set_font("Helvetica", style, size)
        pdf.cell(170, size * 0.45, text, align="R", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    elif kind == "raise":  # bold text placed back up the page, out of reading order
        _, text, x, up = item
        y = pdf.get_y()
        pdf.set_font("Helvetica", "B", 10)
        pdf.set_xy(x, y - up)
        pdf.cell(pdf.get_string_width(text) + 1, 5, text)
        pdf.set_xy(20, y)
    elif kind == "gap":
        pdf.ln(item[1])
    else:
        raise ValueError(f"unknown item {kind!r}")


# A small filing's three statements: a wrapped label, parenthesised outflows, units lines, a
# balance sheet without the earliest year, a zero row (tests of computed answers).
STATEMENTS = [
    [
        "Consolidated Statements of Income",
        "(In millions, except per share data) 2023 2022 2021",
        "Net sales $ 1,200 $ 1,000 $ 800",
        "Cost of sales 700 600 500",
        "Operating income 240 180 120",
        "Interest expense 0 0 0",
        "Income before income taxes 200 150 100",
        "Provision for income taxes 50 30 20",
        "Net income $ 150 $ 120 $ 80",
    ],
    [
        "Consolidated Balance Sheets",
        "(In millions) 2023 2022",
        "Current assets:",
        "Accounts receivable, net 130 110",
        "Inventories 90 70",
        "Total current assets 400 350",
        "Total assets $ 1,500 $ 1,300",
        "Current liabilities:",
        "Accounts payable 80 60",
        "Total current liabilities 250 200",
    ],
    [
        "Consolidated Statements of Cash Flows",
        "(In millions) 2023 2022 2021",
        "Net cash provided by operating activities 260 210 150",
        "Purchases of property, plant and",
        "equipment (90) (70) (60)",
        "Dividends paid (45) (40) (30)",
    ],
]


def statements_pdf(path: Path) -> Path:
    """A filing of :data:`STATEMENTS`, one statement a page under a bold title."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for lines in STATEMENTS:
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 16)
        pdf.cell(0, 10, lines[0], new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        for line in lines[1:]:
            pdf.cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


ORDER_ROWS = 50_000  # the sheet aggregates are tested and timed on


def make_order_sheet(path: Path, count: int = ORDER_ROWS) -> list[dict[str, Any]]:
    """A CSV of ``count`` generated orders (order, region, quarter, product, status, units,
    revenue), the same for the same count (seeded), written to ``path``; its rows returned so
    a test or benchmark computes each aggregate's truth from them."""
    import csv
    import random

    pick = random.Random(40)
    rows: list[dict[str, Any]] = [
        {
            "Order": f"A{i:05d}",
            "Region": pick.choice(["North", "South", "East", "West"]),
            "Quarter": pick.choice(["Q1", "Q2", "Q3", "Q4"]),
            "Product": pick.choice(["Kettle", "Toaster", "Blender", "Mixer"]),
            "Status": pick.choice(["On time", "Late"]),
            "Units": pick.randint(1, 9),
            "Revenue": pick.randint(10, 500),
        }
        for i in range(count)
    ]
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return rows


def make_income_report(folder: Path, name: str, sales: list[int], cost: list[int]) -> Path:
    """A company's two-year income statement in Markdown (net sales and cost of sales, in
    millions): what the comparison tests compare."""
    source = folder / f"{name}.md"
    source.write_text(
        f"# {name.title()} annual report\n\n## Consolidated statements of income\n\n"
        "(In millions) 2023 2022\n"
        f"Net sales {sales[0]:,} {sales[1]:,}\n"
        f"Cost of sales {cost[0]:,} {cost[1]:,}\n"
    )
    return source
