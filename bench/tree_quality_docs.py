"""Generated documents for ``bench.tree_quality``: what real files do, with a known answer.

Three PDFs made with fpdf2, deterministic (seeded text): a 10-K whose bookmarks stop at the
Items and are all at one level, over pages with bold subheadings, statement captions and
numbered notes; a manual whose flat bookmarks carry their numbers ("Chapter 2", "2.1"); and
a long report with one heading over many pages of running text and a captioned table
(a section that must be cut with nothing printed to cut at).
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

from .inputs import paragraph, title

Item = tuple[str, str]  # ("h1" | "h2" | "p" | "table", text)
Page = list[Item]
Bookmark = tuple[str, int, int]  # (title, level, 1-based page)

STATEMENTS = (
    "Consolidated Statements of Income",
    "Consolidated Statements of Comprehensive Income",
    "Consolidated Balance Sheets",
    "Consolidated Statements of Cash Flows",
    "Consolidated Statements of Shareholders' Equity",
)
NOTES = (
    "Summary of Significant Accounting Policies",
    "Revenue",
    "Inventories",
    "Property, Plant and Equipment",
    "Income Taxes",
)


def filing_pages(rng: random.Random) -> tuple[list[Page], list[Bookmark]]:
    """A small 10-K: the Items as flat bookmarks, everything below them only printed."""
    pages: list[Page] = [
        [("h1", "UNITED STATES SECURITIES AND EXCHANGE COMMISSION"), ("p", "FORM 10-K"),
         ("p", "Example Products, Inc. annual report for the fiscal year ended May 31, 2024.")],
        [("h1", "PART I"), ("h1", "Item 1. Business"), ("h2", "General"),
         ("p", paragraph(rng, 5)), ("h2", "Products"), ("p", paragraph(rng, 6))],
        [("h1", "Item 1A. Risk Factors"), ("h2", "Risks Related to Our Industry"),
         ("p", paragraph(rng, 8)), ("h2", "Risks Related to Our Operations"),
         ("p", paragraph(rng, 8))],
        [("h1", "PART II"), ("h1", "Item 7. Management's Discussion and Analysis"),
         ("h2", "Overview"), ("p", paragraph(rng, 6)), ("h2", "Results of Operations"),
         ("p", paragraph(rng, 7))],
        [("h2", "Liquidity and Capital Resources"), ("p", paragraph(rng, 9))],
        [("h1", "Item 8. Financial Statements and Supplementary Data"),
         ("h2", "Report of Independent Registered Public Accounting Firm"),
         ("p", paragraph(rng, 8))],
    ]  # fmt: skip
    for n, caption in enumerate(STATEMENTS):
        rows = f"Revenues 1,{n}34 1,{n}00\nCost of sales 7{n}0 6{n}0\nNet income 30{n} 28{n}"
        pages.append([("h2", caption), ("p", f"(In millions) {caption.split()[-1]}"),
                      ("table", rows)])  # fmt: skip
    pages.append([("h2", "Notes to Consolidated Financial Statements")])
    for number, name in enumerate(NOTES, 1):
        pages[-1].extend([("h2", f"Note {number} - {name}"), ("p", paragraph(rng, 4))])
        if number % 2 == 0:
            pages.append([])
    pages.append([("h1", "PART IV"), ("h1", "Item 15. Exhibits"), ("p", paragraph(rng, 3))])
    marks = [("PART I", 1, 2), ("Item 1. Business", 1, 2), ("Item 1A. Risk Factors", 1, 3),
             ("PART II", 1, 4), ("Item 7. Management's Discussion and Analysis", 1, 4),
             ("Item 8. Financial Statements and Supplementary Data", 1, 6),
             ("PART IV", 1, len(pages)), ("Item 15. Exhibits", 1, len(pages))]  # fmt: skip
    return [page for page in pages if page], marks


def manual_pages(rng: random.Random) -> tuple[list[Page], list[Bookmark]]:
    """A manual whose bookmarks are all at one level but numbered ("2", "2.1", "2.1.1")."""
    pages: list[Page] = []
    marks: list[Bookmark] = []
    for chapter in range(1, 4):
        names = [f"Chapter {chapter} {title(rng)}"]
        names += [f"{chapter}.{s} {title(rng)}" for s in range(1, 4)]
        names.insert(2, f"{chapter}.1.1 {title(rng)}")
        for name in names:
            pages.append([("h1" if name.startswith("Chapter") else "h2", name),
                          ("p", paragraph(rng, 7))])  # fmt: skip
            marks.append((name, 1, len(pages)))
    return pages, marks


def long_pages(rng: random.Random) -> tuple[list[Page], list[Bookmark]]:
    """One heading, then twelve pages of running text with one captioned table midway."""
    pages: list[Page] = [[("h1", "Annual Review of Operations"), ("p", paragraph(rng, 12))]]
    for number in range(12):
        page: Page = [("p", paragraph(rng, 12)), ("p", paragraph(rng, 12))]
        if number == 6:
            page.insert(1, ("p", "Summary of Regional Sales"))
            page.insert(2, ("table", "Region 2024 2023\nNorth 120 110\nSouth 90 95"))
        pages.append(page)
    return pages, []


ROW_LABELS = ("Revenue", "Cost of sales", "Operating profit", "Finance costs", "Taxation",
              "Profit for the year", "Inventories", "Trade receivables", "Borrowings")  # fmt: skip
IFRS_STATEMENTS = (
    "Group income statement",
    "Group statement of comprehensive income",
    "Group statement of financial position",
    "Group cash flow statement",
    "Group statement of changes in equity",
)


def ifrs_pages(rng: random.Random) -> tuple[list[Page], list[Bookmark]]:
    """A UK-style annual report without bookmarks: numbered parts, IFRS statements in
    sentence case, an auditor's report and numbered notes."""
    pages: list[Page] = [
        [("h1", "Example Group plc Annual Report 2024"), ("p", paragraph(rng, 3))],
        [("h1", "1. Strategic report"), ("h2", "Chair's statement"), ("p", paragraph(rng, 8)),
         ("h2", "Our business model"), ("p", paragraph(rng, 8))],
        [("h1", "2. Governance"), ("h2", "Board of directors"), ("p", paragraph(rng, 8)),
         ("h2", "Audit committee report"), ("p", paragraph(rng, 8))],
        [("h1", "3. Financial statements"),
         ("h2", "Independent auditor's report to the members of Example Group plc"),
         ("p", paragraph(rng, 10))],
    ]  # fmt: skip
    for caption in IFRS_STATEMENTS:
        rows = "\n".join(f"{rng.choice(ROW_LABELS)} {rng.randint(100, 999)} {rng.randint(100, 999)}"
                         for _ in range(4))  # fmt: skip
        pages.append([("h2", caption), ("p", f"for the year ended 31 March 2024 ({caption[6:]})"),
                      ("table", rows)])  # fmt: skip
    pages.append([("h2", "Notes to the group financial statements")])
    for number, name in enumerate(("Accounting policies", "Revenue", "Taxation", "Leases"), 1):
        pages[-1].extend([("h2", f"{number}. {name}"), ("p", paragraph(rng, 5))])
    return pages, []


GENERATED = {
    "generated_10k.pdf": ("10-K", filing_pages),
    "generated_manual.pdf": ("manual", manual_pages),
    "generated_long_report.pdf": ("report", long_pages),
    "generated_ifrs_annual_report.pdf": ("IFRS", ifrs_pages),
}


def ensure_generated(out: Path) -> list[tuple[Path, str]]:
    """The generated PDFs (made once into ``out``) with their kinds."""
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for name, (kind, plan) in GENERATED.items():
        path = out / name
        if not path.exists():
            pages, marks = plan(random.Random(name))
            path.write_bytes(render_pdf(pages, marks))
        made.append((path, kind))
    return made


def render_pdf(pages: list[Page], marks: list[Bookmark]) -> bytes:
    from fpdf import FPDF

    pdf = FPDF(format="Letter")
    pdf.set_auto_page_break(True, margin=20)
    pdf.set_margins(20, 20, 20)
    for items in pages:
        pdf.add_page()
        for kind, text in items:
            _put(pdf, kind, text)
    raw = bytes(pdf.output())
    return with_bookmarks(raw, marks) if marks else raw


def _put(pdf: Any, kind: str, text: str) -> None:
    if kind in ("h1", "h2"):
        pdf.ln(4)
        pdf.set_font("Helvetica", "B", 14 if kind == "h1" else 11)
        pdf.multi_cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    elif kind == "table":
        pdf.set_font("Helvetica", "", 10)
        for row in text.split("\n"):
            *label, a, b = row.split(" ")
            pdf.cell(100, 5, " ".join(label))
            pdf.cell(30, 5, a, align="R")
            pdf.cell(30, 5, b, align="R", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
    else:
        pdf.set_font("Helvetica", "", 10)
        pdf.multi_cell(0, 5, text, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)


def with_bookmarks(raw: bytes, marks: list[Bookmark]) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(raw)))
    parents: dict[int, Any] = {}
    for text, level, page in marks:
        parent = parents.get(level - 1) if level > 1 else None
        parents[level] = writer.add_outline_item(title=text, page_number=page - 1, parent=parent)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
