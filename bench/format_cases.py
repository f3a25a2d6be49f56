"""The files ``bench.formats`` measures: one ``FormatCase`` per file, built for real (decks
with notes and tables, workbooks with title rows and several sheets, a large CSV, ODF
files, legacy files converted by LibreOffice), each with the sections its author gave it
and questions whose answers it holds.

Adding a format (EPUB, e-mail, …) is adding cases: a ``build`` that writes the file into a
folder and returns its path, the titles of the sections its author made, and questions
with the page (slide, sheet, chapter, message number) and the value the answer must hold.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

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


@dataclass(frozen=True)
class Question:
    text: str
    page: int | None  # the page, slide or sheet (1-based) the answer is on; None: no pages
    value: str  # what the answer must contain


@dataclass(frozen=True)
class FormatCase:
    name: str  # the file's name in the set
    kind: str  # the table's row: pptx, xlsx, csv, odt, …
    build: Callable[[Path], Path]
    sections: tuple[str, ...]  # the author's section titles
    questions: tuple[Question, ...]
    needs: tuple[str, ...] = field(default_factory=tuple)  # programs: "soffice"


REGIONS = [("North", 412, 48200), ("South", 380, 41900), ("East", 295, 33100), ("West", 510, 60750)]
DECK = [
    Slide("Quarterly business review", ["Third quarter 2024", "Prepared by the finance team"]),
    Slide("Agenda", ["Results", "Customers", "Next steps"]),
    Slide(
        "Revenue by region",
        ["All regions grew against the second quarter"],
        table=[["Region", "Units", "Revenue"], *[[r, f"{u}", f"{v:,}"] for r, u, v in REGIONS]],
        notes="North beat its target by 12 percent thanks to the new distributor.",
    ),
    Slide(
        "Customer health",
        ["Net promoter score rose to 41", "Support tickets fell by a fifth"],
        notes="The churn rate in the third quarter was 2.1 percent, down from 2.9 percent.",
    ),
    Slide("", ["Hiring plan for 2025", "Four engineers and two sales managers"]),
    Slide("Launch process", smartart=["Plan the launch", "Build the pilot", "Ship to customers"]),
    Slide("Next steps", group=["Close the Berlin office lease", "Open the Lisbon hub"]),
]
DECK_SECTIONS = [("Overview", 2), ("Results", 2), ("Plans", 3)]
DECK_TITLES = (
    "Overview", "Quarterly business review", "Agenda", "Results", "Revenue by region",
    "Customer health", "Plans", "Hiring plan for 2025", "Launch process", "Next steps",
)  # fmt: skip
DECK_QUESTIONS = (
    Question("What was the churn rate in the third quarter?", 4, "2.1 percent"),
    Question("What was the revenue of West?", 3, "60,750"),
    Question("By how much did North beat its target?", 3, "12 percent"),
)
BOOK = {
    "Summary": [
        ["Annual sales report 2024", None, None],
        ["All figures in euros", None, None],
        [],
        ["Quarter", "Orders", "Revenue"],
        ["Q1", 1210, 301000],
        ["Q2", 1302, 322500],
        ["Q3", 1415, 351200],
        ["Q4", 1633, 402900],
    ],
    "Regions": [["Region", "Units", "Revenue"], *[list(r) for r in REGIONS]],
    "Staff": [
        ["Name", "Role", "Start date", "Office"],
        ["Alice Brown", "Sales director", dt.date(2019, 5, 6), "Berlin"],
        ["Bob Stone", "Analyst", dt.date(2022, 7, 11), "Lisbon"],
        ["Chen Wei", "Engineer", dt.date(2023, 1, 16), "Berlin"],
    ],
    "Scratch": [["Draft", "do not use"]],
}
BOOK_QUESTIONS = (
    Question("What was the revenue of North?", 2, "48,200"),
    Question("How many orders were there in Q3?", 1, "1,415"),
    Question("When did Bob Stone start?", 3, "2022-07-11"),
    Question("Which office is Chen Wei in?", 3, "Berlin"),
)
HANDBOOK = [
    ("h1", "Employee handbook"), ("p", "This handbook explains how we work together."),
    ("h2", "Working hours"), ("p", "Core hours are from 10:00 to 16:00 on weekdays."),
    ("h2", "Leave"), ("p", "Every employee has 28 days of annual leave."),
    ("styled1", "Expenses"), ("p", "Receipts must be submitted within 30 days of purchase."),
    ("table", [["Item", "Limit"], ["Hotel night", 180], ["Dinner", 45]]),
]  # fmt: skip
HANDBOOK_TITLES = ("Employee handbook", "Working hours", "Leave", "Expenses")
HANDBOOK_QUESTIONS = (
    Question("How many days of annual leave does an employee have?", None, "28 days"),
    Question("What is the limit for a hotel night?", None, "180"),
)


def _orders(rows: int) -> list[list[object]]:
    out: list[list[object]] = [["Order", "Customer", "Amount", "Date"]]
    for i in range(1, rows + 1):
        day = dt.date(2024, 1, 1) + dt.timedelta(days=i % 365)
        out.append(
            [f"ORD-{i:05d}", f"Customer {i % 97}", f"{(i * 37) % 9000 + 100}.50", day.isoformat()]
        )
    return out


def _deck(path: Path) -> Path:
    return make_deck(path, DECK, DECK_SECTIONS)


def _book(path: Path) -> Path:
    return make_workbook(path, BOOK, hidden=("Scratch",), merges={"Summary": ["A1:C1", "A2:C2"]})


def _legacy(build: Callable[[Path], Path], modern: str, old: str) -> Callable[[Path], Path]:
    return lambda folder: make_legacy(build(folder / f"source-{old}.{modern}"), old)


CASES: list[FormatCase] = [
    FormatCase(
        "review.pptx", "pptx", lambda d: _deck(d / "review.pptx"), DECK_TITLES, DECK_QUESTIONS
    ),
    FormatCase(
        "sales.xlsx",
        "xlsx",
        lambda d: _book(d / "sales.xlsx"),
        ("Summary", "Regions", "Staff"),
        BOOK_QUESTIONS,
    ),  # fmt: skip
    FormatCase(
        "orders.csv",
        "csv",
        lambda d: make_csv(d / "orders.csv", _orders(20_000)),
        ("orders",),
        (Question("What was the amount of order ORD-04213?", 1, "2981.50"),),
    ),  # fmt: skip
    FormatCase(
        "handbook.odt",
        "odt",
        lambda d: make_odt(d / "handbook.odt", HANDBOOK),
        HANDBOOK_TITLES,
        HANDBOOK_QUESTIONS,
    ),  # fmt: skip
    FormatCase(
        "sales.ods",
        "ods",
        lambda d: make_ods(d / "sales.ods", BOOK, hidden=("Scratch",)),
        ("Summary", "Regions", "Staff"),
        BOOK_QUESTIONS,
    ),  # fmt: skip
    FormatCase(
        "review.odp",
        "odp",
        lambda d: make_odp(d / "review.odp", DECK),
        tuple(t for t in DECK_TITLES if t not in ("Overview", "Results", "Plans")),
        DECK_QUESTIONS,
    ),  # fmt: skip
    FormatCase(
        "review.ppt",
        "ppt",
        _legacy(_deck, "pptx", "ppt"),
        tuple(t for t in DECK_TITLES if t not in ("Overview", "Results", "Plans")),
        DECK_QUESTIONS,
        ("soffice",),
    ),  # fmt: skip
    FormatCase(
        "sales.xls",
        "xls",
        _legacy(_book, "xlsx", "xls"),
        ("Summary", "Regions", "Staff"),
        BOOK_QUESTIONS,
        ("soffice",),
    ),  # fmt: skip
    FormatCase(
        "handbook.doc",
        "doc",
        # through LibreOffice's own ODT: its Word 97 export flattens a python-docx table
        # into one paragraph ("ItemLimitHotel night180Dinner45"); from its ODT it keeps it
        _legacy(lambda p: make_legacy(_docx(p.with_suffix(".docx")), "odt"), "odt", "doc"),
        HANDBOOK_TITLES,
        HANDBOOK_QUESTIONS,
        ("soffice",),
    ),  # fmt: skip
]


def _docx(path: Path) -> Path:
    """The handbook as a Word file (the .doc is converted from it)."""
    import docx

    document = docx.Document()
    for kind, value in HANDBOOK:
        if kind in ("h1", "h2", "styled1"):
            document.add_heading(str(value), level=1 if kind != "h2" else 2)
        elif kind == "table":
            rows = value  # type: ignore[assignment]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = f"{cell:,}" if isinstance(cell, int) else str(cell)
        else:
            document.add_paragraph(str(value))
    document.save(str(path))
    return path


def big_deck(path: Path, slides: int = 200) -> Path:
    """A long deck: every slide a title, four bullets, notes, every tenth a table."""
    specs = []
    for n in range(1, slides + 1):
        table = None
        if n % 10 == 0:
            table = [
                ["Region", "Units", "Revenue"],
                *[[r, f"{u + n}", f"{v + n:,}"] for r, u, v in REGIONS],
            ]
        specs.append(
            Slide(
                f"Topic {n}: project update",
                [
                    f"Milestone {n} reached on schedule",
                    f"Budget line {n} is within plan",
                    f"Risk {n} is tracked weekly",
                    f"Owner of item {n} confirmed",
                ],  # fmt: skip
                notes=f"Speaker reminder {n}: mention the status of work package {n}.",
                table=table,
            )
        )
    return make_deck(path, specs)


def big_sheet(path: Path, rows: int = 50_000) -> Path:
    """One sheet of ``rows`` orders (written in openpyxl's streaming mode)."""
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("Orders")
    for row in _orders(rows):
        sheet.append(row)
    book.save(str(path))
    return path
