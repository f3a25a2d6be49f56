"""Titles for the pieces of a section cut for size: each named by what it holds.

A section longer than the size limit keeps its heading and gets its text as child pieces.
A piece repeating its parent's title ("Item 7. Management's Discussion … (pp. 36–38)")
tells a reader and a navigating model nothing; a piece is titled instead by a heading-like
line it holds (a subheading the reader did not take, a table's caption such as
``Consolidated Statements of Income``), else by its parent's short label and its opening
words (``Item 7 (continued): Liquidity was strong as…``). No two pieces share a title.
"""

from __future__ import annotations

import re

from .outline import page_label

Line = tuple[int, str]  # (page, text)

# A heading-like line: short, in title case or capitals, not a sentence or a table row.
MAX_HEADING_CHARS = 80
MAX_HEADING_WORDS = 10
MIN_HEADING_CHARS = 4
MIN_LETTER_SHARE = 0.7  # "$ 1,234 1,100" and "2023 2022" are rows, not captions
MIN_CAPITALISED_SHARE = 0.7  # of the words of four letters or more: "Results of Operations"
LONG_WORD_LETTERS = 4
# A table's header set one cell a line: a run of at least this many lines of at most this
# many words each, none ending a sentence.
MIN_HEADER_CELLS = 3
MAX_CELL_WORDS = 3
# The label that stands for the parent: its keyword and number ("Item 7", "Note 14",
# "Part II", "1.2"), else its opening words up to this many characters.
MAX_LABEL_CHARS = 40
MAX_LEAD_CHARS = 60  # the opening words of a piece that holds no heading-like line
_KEYWORD_LABEL = re.compile(
    r"^((?:part|item|note|chapter|section|article|appendix|schedule|exhibit)\s+"
    r"[0-9ivxlc]{1,4}[a-z]?|\d{1,3}(?:\.\d{1,3})*)\b",
    re.IGNORECASE,
)
_NON_ALNUM = re.compile(r"[^0-9a-z]+")
# A line that cannot end a title: it stops on a conjunction, preposition or article, or on
# a comma, an ampersand or a dash (a header cell's first line, "Owned and", over "Operated").
DANGLING = re.compile(r"(?:\b(?:and|or|of|the|for|to|in|on|with|by|an?)|[,&–—-])\s*$", re.I)


def piece_titles(title: str, parts: list[list[Line]], page_unit: str) -> list[str]:
    """One title per piece, none equal to the parent's or to another piece's."""
    label = short_label(title)
    taken = {_norm(title)}
    out: list[str] = []
    for index, part in enumerate(parts):
        found = _heading_line(part, taken)
        lead = found or _lead(part)
        name = lead if found and _starts(part, found) else _continued(label, lead, index)
        if _norm(name) in taken:
            name = (
                f"{name} ({_where(part, page_unit)})" if page_unit else f"{name} (part {index + 1})"
            )
        taken.add(_norm(name))
        out.append(name)
    return out


def short_label(title: str) -> str:
    m = _KEYWORD_LABEL.match(title.strip())
    if m:
        return m.group(1)
    if len(title) <= MAX_LABEL_CHARS:
        return title.rstrip(" .:;,")
    return title[:MAX_LABEL_CHARS].rsplit(" ", 1)[0].rstrip(" ,;:.-–—") + "…"


def is_heading_like(line: str) -> bool:
    text = " ".join(line.split())
    if not MIN_HEADING_CHARS <= len(text) <= MAX_HEADING_CHARS or not text[0].isupper():
        return False
    if text.endswith((".", ",", ";", ":")) or len(text.split()) > MAX_HEADING_WORDS:
        return False
    if text[-1].isdigit() or ". ." in text or "..." in text:
        return False  # a running head with its page number, a contents or index line
    if DANGLING.search(text):
        return False
    visible = text.replace(" ", "")
    if sum(c.isalpha() for c in visible) < MIN_LETTER_SHARE * len(visible):
        return False
    long_words = [w for w in text.split() if sum(c.isalpha() for c in w) >= LONG_WORD_LETTERS]
    if not long_words:
        return False
    capitalised = sum(1 for w in long_words if w[0].isupper())
    return capitalised >= MIN_CAPITALISED_SHARE * len(long_words)


def _heading_line(part: list[Line], taken: set[str]) -> str | None:
    """The first heading-like line of the piece that stands on its own (at the start, or
    after a blank line or a finished sentence: not a wrapped line of a paragraph), is not a
    title already used and is no cell of a table's header."""
    texts = [" ".join(line.split()) for _, line in part]
    cells = _header_cells(texts)
    stands_alone = True
    for n, text in enumerate(texts):
        if text and stands_alone and n not in cells and is_heading_like(text):
            if _norm(text) not in taken:
                return text
        stands_alone = not text or text.endswith((".", ":", "!", "?", ")")) or is_heading_like(text)
    return None


def _header_cells(texts: list[str]) -> set[int]:
    """Lines in a run of MIN_HEADER_CELLS or more short lines, none a sentence: a table's
    header set one cell a line ("Owned and", "Operated", "Owned and", "Third Party", …,
    Walmart's distribution facilities), not a heading and the text under it."""
    cells: set[int] = set()
    run: list[int] = []
    for n, text in enumerate([*texts, ""]):
        if text and len(text.split()) <= MAX_CELL_WORDS and not text.endswith((".", ":")):
            run.append(n)
            continue
        if len(run) >= MIN_HEADER_CELLS:
            cells.update(run)
        run = []
    return cells


def _starts(part: list[Line], line: str) -> bool:
    first = next((" ".join(t.split()) for _, t in part if t.strip()), "")
    return first == line


def _lead(part: list[Line]) -> str:
    words = " ".join(" ".join(t.split()) for _, t in part[:6] if t.strip())
    if len(words) <= MAX_LEAD_CHARS:
        return words
    return words[:MAX_LEAD_CHARS].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"


def _continued(label: str, lead: str, index: int) -> str:
    """The first piece opens the section, so its own words name it; later ones go on."""
    return lead if index == 0 else f"{label} (continued): {lead}"


def _where(part: list[Line], page_unit: str) -> str:
    pages = [p for p, text in part if text.strip()] or [part[0][0]]
    return page_label(pages[0], pages[-1], page_unit)


def _norm(text: str) -> str:
    return _NON_ALNUM.sub(" ", text.lower()).strip()
