"""Tesseract's lines made to look like a PDF's text lines before structure detection reads them.

A born-digital PDF gives a printed row as one line: ``Item 7. Management's Discussion  23``
on a contents page, ``Cash and cash equivalents $ 1,093 $ 1,874`` in a table. Tesseract's
layout analysis puts a column of page numbers or amounts in blocks of its own, so the title
and its number come out as two lines, often far apart in reading order, and a contents page
no longer reads as one. Here a line of figures is put back at the end of the line beside it
on its row, as the PDF would have it. Prose beside prose (two columns of text) is left
apart: only figures are joined, and a column of prose is never made of figures.
"""

from __future__ import annotations

import re

from ...structure.thresholds import ROW_OVERLAP  # one row: heights overlap by over half
from .tesseract import OcrLine

# A line of figures: page numbers, amounts, percentages, dashes ("24", "$ 1,093", "(8.3) %",
# "—"), or a lone roman page number ("iv"). OCR may misread a digit as a letter ("l4"), so
# a line passes with at most this share of letters among its visible characters.
MAX_FIGURE_LETTER_SHARE = 0.25
_ROMAN = re.compile(r"[ivxlc]{1,7}|[IVXLC]{1,7}")


def is_figures(words: list[str]) -> bool:
    """Page numbers or amounts only: what a table's or a contents' number column holds."""
    text = "".join(words)
    if not text:
        return False
    if len(words) == 1 and _ROMAN.fullmatch(text):
        return True
    digits = sum(c.isdigit() for c in text)
    letters = sum(c.isalpha() for c in text)
    dashes = all(c in "-–—$%()" for c in text)
    return dashes or (digits > 0 and letters <= MAX_FIGURE_LETTER_SHARE * len(text))


def same_row(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Boxes (left, top, right, bottom; y grows downwards) on one printed row."""
    overlap = min(a[3], b[3]) - max(a[1], b[1])
    return overlap > ROW_OVERLAP * max(1, min(a[3] - a[1], b[3] - b[1]))


def join_rows(lines: list[OcrLine]) -> list[OcrLine]:
    """``lines`` with every line of figures appended to the nearest line left of it on its
    row (left to right, so a row of several amounts gathers into one line); the joined line
    keeps the place and block of its first part."""
    out = [_copy(line) for line in lines]
    figures = sorted(
        (i for i, line in enumerate(out) if is_figures(line.words)), key=lambda i: out[i].box[0]
    )
    gone: set[int] = set()
    for i in figures:
        piece = out[i]
        left = [
            k
            for k, other in enumerate(out)
            if k != i and k not in gone and other.box[2] <= piece.box[0]
            and same_row(other.box, piece.box)
        ]  # fmt: skip
        if not left:
            continue
        k = max(left, key=lambda k: out[k].box[2])  # the nearest: its right edge closest
        target = out[k]
        target.words.extend(piece.words)
        target.word_boxes.extend(piece.word_boxes)
        b, p = target.box, piece.box
        target.box = (min(b[0], p[0]), min(b[1], p[1]), max(b[2], p[2]), max(b[3], p[3]))
        target.tail_ink = piece.ink if piece.tail_ink is None else piece.tail_ink
        gone.add(i)
    return [line for i, line in enumerate(out) if i not in gone]


def _copy(line: OcrLine) -> OcrLine:
    return OcrLine(
        list(line.words),
        line.box,
        line.block,
        line.ink,
        list(line.word_boxes),
        tail_ink=line.tail_ink,
        size=line.size,
        slant=line.slant,
    )


# --- a line's font size from its words' boxes ----------------------------------------------
# A word's box spans from its highest to its lowest glyph, so its height depends on its
# letters: "Assets" reaches cap height, "Equity" the descender too, "one" only the x-height.
# The box of an all-capitals heading is thus a quarter lower than that of a body line in the
# same size. Each word's height is divided by the share of an em its letters cover, and the
# line's size is the median over its words (a speck inside one word's box moves one vote).
# Shares of the em as in common text faces (Helvetica, Times, Arial: cap height and
# ascenders about 0.7, descenders about 0.2, x-height about 0.5).
EM_FULL = 0.92  # ascender (or capital) to descender: "Equity", "(unaudited)"
EM_TALL = 0.71  # capitals, figures, ascenders, no descender: "Assets", "2023"
EM_DEEP = 0.71  # x-height and a descender: "pay"
EM_SHORT = 0.5  # x-height only: "on", "more"; the least alike across faces, used only
# when a line has no other word
# The dots of "i" and "j" and a quote reach the ascenders; "t" stops short of them.
_TALL = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789bdfhijkl%&?!#'\"’‘”“*")
_DEEP = set("gjpqy")
_BOTH = set("()[]{}|/$@")  # these reach from above the capitals to below the baseline


def em_share(word: str) -> float | None:
    """The share of an em the word's box covers, from its letters; None: nothing to go by."""
    chars = set(word)
    if chars & _BOTH or (chars & _TALL and chars & _DEEP) or "Q" in chars:
        return EM_FULL
    if chars & _TALL:
        return EM_TALL
    if chars & _DEEP:
        return EM_DEEP
    if any(c.isalpha() for c in word):
        return EM_SHORT
    return None  # punctuation alone: ".", "—"


def line_size(words: list[str], boxes: list[tuple[int, int, int, int]]) -> float:
    """The line's font size (the em) in pixels, from its words' heights; 0 without words."""
    sized = [(em_share(w), b[3] - b[1]) for w, b in zip(words, boxes, strict=False)]
    votes = sorted(h / share for share, h in sized if share and share != EM_SHORT and h > 0)
    if not votes:
        votes = sorted(h / share for share, h in sized if share and h > 0)
    if not votes:
        return 0.0
    mid = len(votes) // 2
    return votes[mid] if len(votes) % 2 else (votes[mid - 1] + votes[mid]) / 2


# --- a misread capital I ------------------------------------------------------------------
# Tesseract often reads a capital I standing alone (a roman numeral: "PART I", "Part II")
# as a vertical bar: "Part |", "Part ||", "Part Il". A word made only of bars and I/l
# shapes, with a bar in it or both shapes mixed, is read as capitals: a bar is never a
# word of prose, and "Il" or "lI" is not an English word.
_BAR_WORD = re.compile(r"[|Il]{1,4}")


def fix_bars(word: str) -> str:
    if _BAR_WORD.fullmatch(word) and ("|" in word or ("I" in word and "l" in word)):
        return "I" * len(word)
    return word
