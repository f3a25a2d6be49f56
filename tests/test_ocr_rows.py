"""Tesseract's lines made to look like a PDF's text lines (no Tesseract needed): a contents
entry and its page number in separate blocks become one line; prose columns stay apart; a
line's size comes from its letters, not from whether they reach below the baseline."""

from __future__ import annotations

from treerag_core.read.ocr.rows import is_figures, join_rows, line_size
from treerag_core.read.ocr.scan import to_rich_page
from treerag_core.read.ocr.tesseract import OcrLine, OcrPage


def line(text: str, left: int, top: int, block: int, height: int = 20) -> OcrLine:
    words = text.split()
    boxes = []
    x = left
    for word in words:
        boxes.append((x, top, x + 12 * len(word), top + height))
        x += 12 * len(word) + 10
    return OcrLine(words, (left, top, x - 10, top + height), block, 2.0, boxes)


def test_page_numbers_in_a_block_of_their_own_join_their_entries() -> None:
    # Tesseract's order: all titles (block 1), then the column of numbers (block 2).
    titles = ["Item 1. Business", "Item 1A. Risk Factors", "Item 7. Management's Discussion"]
    lines = [line(t, 100, 200 + 60 * k, 1) for k, t in enumerate(titles)]
    lines += [line(n, 1500, 202 + 60 * k, 2) for k, n in enumerate(["4", "12", "iv"])]
    joined = join_rows(lines)
    assert [" ".join(ln.words) for ln in joined] == [
        f"{t} {n}" for t, n in zip(titles, ["4", "12", "iv"], strict=True)
    ]
    assert all(ln.box[2] == 1500 + 12 * len(ln.words[-1]) for ln in joined)
    assert [ln.block for ln in joined] == [1, 1, 1]


def test_a_row_of_amounts_gathers_left_to_right() -> None:
    lines = [
        line("$ 1,874", 1200, 300, 3),
        line("Cash and cash equivalents", 100, 300, 1),
        line("$ 1,093", 900, 301, 2),
    ]
    joined = join_rows(lines)
    assert [" ".join(ln.words) for ln in joined] == ["Cash and cash equivalents $ 1,093 $ 1,874"]


def test_prose_columns_and_other_rows_stay_apart() -> None:
    lines = [
        line("the left column of running text goes on", 100, 300, 1),
        line("while the right column says something else", 900, 300, 2),
        line("42", 1500, 400, 3),  # a figure on a row of its own
    ]
    assert [" ".join(ln.words) for ln in join_rows(lines)] == [
        "the left column of running text goes on",
        "while the right column says something else",
        "42",
    ]


def test_figures() -> None:
    assert all(is_figures(w.split()) for w in ["24", "$ 1,093", "(8.3) %", "—", "iv", "124a"])
    assert not any(is_figures(w.split()) for w in ["Item 7", "Notes", "2023 results"])


def test_size_does_not_depend_on_descenders_or_capitals() -> None:
    # One font, 40 px to the em: capitals 28 px high, "Equity" 37 px, "more" 20 px.
    caps = line_size(["TABLE", "OF", "CONTENTS"], [(0, 0, 1, 28)] * 3)
    mixed = line_size(["Equity", "and", "more"], [(0, 0, 1, 37), (0, 0, 1, 28), (0, 0, 1, 20)])
    assert abs(caps - 40) < 1.5 and abs(mixed - 40) < 1.5


def test_a_joined_row_keeps_its_first_part_style() -> None:
    body = [line("regular words of a paragraph of body text here", 100, 100 + 30 * k, 1)
            for k in range(5)]  # fmt: skip
    entry = line("Item 2. Properties", 100, 400, 6)
    number = line("17", 1500, 400, 7)
    number.ink = 4.0  # a bold page number: the row is no longer set in one style
    page = to_rich_page(1, OcrPage(1700, 2200, [*body, entry, number]), 612.0, 792.0)
    row = page.lines[-1]
    assert row.text == "Item 2. Properties 17" and not row.bold and not row.uniform
    assert page.text.splitlines()[-1] == "Item 2. Properties 17"
