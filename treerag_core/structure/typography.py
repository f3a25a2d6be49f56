"""Headings by their look: short lines set apart from the body text by size or weight.

The body style is the document's most common one (:mod:`.layout`). A heading is a short
line larger than the body, or bold where the body is not and with space above it, set in
one style from end to end (a body line that merely starts with a bold word is not), that is
not page furniture, a table cell (it shares its row), a row of figures or a sentence. Lines
of one title broken over several lines (or one word per line) are joined; levels come from
numbering and style (:mod:`.levels`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..tree.pieces import DANGLING
from .candidates import CONTINUED_TITLE, Kind, classify_line, is_admonition
from .headings import Heading, Position
from .layout import Layout, Line
from .levels import LETTERED, numbering_rank
from .profiles import GENERIC, Profile
from .thresholds import (
    CENTRED_SHARE,
    MAX_EMS_PER_CHAR,
    MAX_HEADING_LINES,
    MAX_HEADING_WORDS,
    MAX_HEADLINE_CHARS,
    MAX_HEADLINE_WORDS,
    MAX_LEAD_IN_WORDS,
    MAX_RUN_TITLE_WORDS,
    MIN_HEADING_LETTER_SHARE,
    MIN_HEADING_LETTERS,
    MIN_LARGER_PT,
    MIN_LARGER_RATIO,
    MIN_PROSE_WORDS,
    MIN_ROW_FIGURES,
    OFF_COLUMN_SHARE,
    SENTENCE_TITLE_WORDS,
    SET_APART_RATIO,
    SHORT_LINE_SHARE,
    SIZE_STEP,
    WRAP_ALIGN_RATIO,
    WRAP_GAP_RATIO,
    WRAP_ROOM_EMS,
)

_ASIDE = re.compile(r"\s*\([^()]*\)")  # "(20.8% of consolidated sales)": not a lead-in's words
# A form's lines, set large on a filing's cover but no title: a field's caption in
# parentheses ("(Exact name of registrant as specified in its charter)", "(Mark One)"), an
# address ending in its ZIP code ("Anderson Hill Road, Purchase, New York 10577"), a
# telephone number. (Not any line in parentheses: a plan's "(As amended and restated …)"
# under its title keeps the plan's own contents apart from its body.)
_FORM_LINE = re.compile(
    r"^\((?:exact\s+name|address|state\s+or\s+other|mark\s+one|zip|i\.r\.s|commission|former\s+"
    r"name|registrant)|[A-Za-z],?\s+\d{5}(?:-\d{4})?$|\(\d{3}\)\s*\d{3}-\d{4}$",
    re.IGNORECASE,
)
_OPENERS = "\"'“‘(§"  # a title may open with a quote or a section sign, not a bullet
# A keyword's label with its number and nothing after ("NOTE 1", "Item 7A.", "PART II —").
_LABEL_ONLY = re.compile(
    r"[^\W\d_]+\s*(?:\d{1,4}(?:\.\d{1,4})*[A-Z]?|[IVXLC]{1,7})\s*[.:\-–—]?", re.IGNORECASE
)
_AMOUNT = re.compile(r"\(?[-–—]?\d[\d.,]*\d\)?|\(?\d\)?|[-–—]|n/?m", re.IGNORECASE)
# Headings named by a keyword and number, or by a profile's standard titles ("Consolidated
# Balance Sheets" in a filing): evidence enough even when set like the body.
_KEYWORD_KINDS = {
    Kind.PART, Kind.CHAPTER, Kind.ARTICLE, Kind.SECTION, Kind.ITEM, Kind.NOTE, Kind.STATEMENT
}  # fmt: skip
_TOP, _HEADING, _TEXT = "top", "heading", "text"  # what stands above a candidate line
# "Exhibit 10.13", "EXHIBIT 21", "Annex B", "Appendix C-2", "Schedule 1": the label that
# opens a document appended to another (a filing's exhibits), often set small in a corner.
_APPENDED_LABEL = re.compile(
    r"(?:exhibit|annex|appendix|attachment|schedule)\s+(?:no\.\s*)?"
    r"[A-Z0-9]{1,4}(?:[.-][A-Z0-9]{1,4}){0,3}",
    re.IGNORECASE,
)


def find_headings(
    layout: Layout,
    dropped: set[Position],
    skip_pages: set[int] | None = None,
    profile: Profile = GENERIC,
) -> list[Heading]:
    """Headings by typography, in document order, with numbering ranks but no levels."""
    skip = skip_pages or set()
    found: list[Heading] = []
    for p, row in enumerate(layout.lines):
        if p in skip:
            continue
        i = 0
        above = _TOP  # the first line of a page (after its furniture) has room above it
        while i < len(row):
            line = row[i]
            if line is None or (p, i) in dropped:
                i += 1
                continue
            if above == _TOP and _APPENDED_LABEL.fullmatch(title := " ".join(line.text.split())):
                # The top line of a page naming an appendix opens it wherever it is set (a
                # corner label is off the text column, and often in the body's own style).
                rank = numbering_rank(title, profile)
                found.append(Heading(p, i, i + 1, title, _prominence(line), rank, known=True))
                above = _HEADING
                i += 1
                continue
            if not _prominent(line, layout, profile):
                title = " ".join(line.text.split())
                if _keyword_heading(line, title, layout, above, profile) and not _goes_on(title):
                    rank = numbering_rank(title, profile)
                    found.append(Heading(p, i, i + 1, title, _prominence(line), rank, known=True))
                    above = _HEADING
                else:
                    above = _TEXT
                i += 1
                continue
            block = _block(row, i, dropped, layout)
            end = block[-1].index + 1
            title = " ".join(" ".join(ln.text.split()) for ln in block)
            rank = numbering_rank(title, profile)
            if (
                _is_heading(
                    block, title, layout, above, rank, _between_paragraphs(row, i, end, layout)
                )
                and (
                    not _in_table(row, i, end, _body_line_above(layout.lines, dropped, p, i))
                    or _caption(title, profile)
                    or (rank is not None and block[0].bold and _keyword_titled(title))
                )
                and not _goes_on(title)
            ):
                known = _known(title, profile)
                found.append(Heading(p, i, end, title, _prominence(block[0]), rank, known=known))
                above = _HEADING
            else:
                above = _TEXT
            i = end
    return _labels_with_titles(found, profile)


def _labels_with_titles(found: list[Heading], profile: Profile) -> list[Heading]:
    """A bare label ("NOTE 1", "Item 7", "PART II") with an unnumbered heading on the very
    next line is one heading, titled by both: American Express sets "NOTE 1" small and
    "SUMMARY OF SIGNIFICANT ACCOUNTING POLICIES" large under it, and each note's title
    ranked above its own number."""
    out: list[Heading] = []
    for h in found:
        label = out[-1] if out else None
        if (
            label is not None
            and label.rank is not None
            and h.rank is None
            and h.page == label.page
            and h.start == label.end
            and _bare_label(label.title, profile)
        ):
            out[-1] = replace(label, end=h.end, title=f"{label.title.rstrip(' .:-–—')} — {h.title}")
            continue
        out.append(h)
    return out


def _bare_label(title: str, profile: Profile) -> bool:
    """A keyword and its number, nothing else ("NOTE 1", "Item 7A.", "PART II")."""
    cand = classify_line(title, profile)
    if cand is None or cand.kind not in _KEYWORD_KINDS or cand.toc_like:
        return False
    return _LABEL_ONLY.fullmatch(title) is not None


def _goes_on(title: str) -> bool:
    """A title that continues the section before it ("… (continued)") or leads into the
    text after it (a long line ending in a colon): set like a heading, but no new section."""
    if CONTINUED_TITLE.search(title):
        return True
    return title.endswith(":") and len(_ASIDE.sub("", title).split()) > MAX_LEAD_IN_WORDS


def _prominent(line: Line, layout: Layout, profile: Profile = GENERIC) -> bool:
    """Set in a heading style from end to end, alone on its row."""
    if not line.uniform or line.shares_row:
        return False
    first = line.text.strip()[:1]
    if not first or first.islower() or not (first.isalnum() or first in _OPENERS):
        return False
    # Set off by weight from a regular body; or by slant from an upright one when numbered
    # too (a filing's "A. Basis of Presentation" under "Note 1."): unnumbered italic lines
    # are as often a table's row labels or a run of sub-topics below the bookmarked level.
    emphasised = (line.bold and not layout.body_bold) or (
        line.italic
        and not layout.body_italic
        and not layout.body_bold
        and _numbered(" ".join(line.text.split()), profile)
    )
    # Sizes compared as styles are (to the half point, as the body's is measured): a scan's
    # sizes are estimates from glyph heights, a few percent apart for one size.
    return _larger(line, layout) or (
        emphasised and line.style[0] >= layout.body_size_on(line.page) - SIZE_STEP
    )


def _numbered(title: str, profile: Profile) -> bool:
    """Numbered ("2.1 Scope", "Note 4") or lettered ("A. Basis of Presentation")."""
    return bool(LETTERED.match(title)) or numbering_rank(title, profile) is not None


def _larger(line: Line, layout: Layout) -> bool:
    """Set apart by size: bold and a point larger, or plainly a good deal larger (a press
    release's 11 pt prose over 10 pt tables is not a heading)."""
    body = layout.body_size_on(line.page)
    if line.bold and not layout.body_bold:
        return line.size >= body + MIN_LARGER_PT
    return line.size >= body * MIN_LARGER_RATIO


def _caption(title: str, profile: Profile) -> bool:
    """A profile's title over its table ("CONSOLIDATED STATEMENTS OF INCOME" above "Year
    Ended December 31 … 2022 2021"): the table's caption, not a label inside it."""
    cand = classify_line(title, profile)
    return cand is not None and cand.kind == Kind.STATEMENT


def _known(title: str, profile: Profile) -> bool:
    """Named by numbering, a keyword or a profile's standard title, not by its look alone."""
    cand = classify_line(title, profile)
    return cand is not None and cand.kind != Kind.CAPS and not cand.toc_like


def _keyword_heading(line: Line, title: str, layout: Layout, above: str, profile: Profile) -> bool:
    """A heading set like the body but named by its keyword and number ("NOTE 4 —
    INVESTMENTS", "Item 7."), standing apart or right under another heading (Microsoft's
    "NOTE 1 — ACCOUNTING POLICIES" under "NOTES TO FINANCIAL STATEMENTS", as "Item 1." under
    "PART I"); numbering is evidence enough. The cheap checks come first: this is asked of
    every body line."""
    if not line.uniform or line.shares_row or not title[:1].isupper():
        return False
    room = layout.body_gap + SET_APART_RATIO * layout.body_size
    if not (line.gap_above >= room or above in (_TOP, _HEADING)):
        return False
    # Not the first line of a paragraph: capitals, or a line that stops short of the margin.
    width = layout.body_right - layout.body_left
    if not (line.caps or line.x1 < layout.body_right - SHORT_LINE_SHARE * width):
        return False
    if len(title.split()) > MAX_HEADING_WORDS:
        return False
    cand = classify_line(title, profile)
    return not (cand is None or cand.kind not in _KEYWORD_KINDS or cand.toc_like or cand.rest)


def _block(row: list[Line | None], i: int, dropped: set[Position], layout: Layout) -> list[Line]:
    """Line ``i`` and the lines its title wraps onto (same style, close, aligned)."""
    block = [row[i]]
    j = i + 1
    while j < len(row) and len(block) <= MAX_HEADING_LINES:
        nxt = row[j]
        last = block[-1]
        if nxt is None or (nxt.page, nxt.index) in dropped or not _wraps(last, nxt, layout):  # type: ignore[arg-type]  # block holds no None
            break
        block.append(nxt)
        j += 1
    return [ln for ln in block if ln is not None]


def _wraps(last: Line, nxt: Line, layout: Layout) -> bool:
    if nxt.text.lstrip()[:1] == "(":
        return False  # "(in millions, except per share data)" under a statement's title
    if not nxt.uniform or nxt.shares_row or nxt.style[:2] != last.style[:2]:
        return False
    if nxt.gap_above > WRAP_GAP_RATIO * last.size:
        return False
    left = abs(nxt.x0 - last.x0) <= WRAP_ALIGN_RATIO * last.size
    centre = abs((nxt.x0 + nxt.x1) - (last.x0 + last.x1)) / 2 <= WRAP_ALIGN_RATIO * last.size
    if left and not centre and _room_for_next_word(last, nxt, layout) and _stands(nxt, layout):
        return False  # "Note 14. Equity …" over "Equity": a line breaks only when full
    # a title that stops on "AND" goes on, however its next line is indented (American
    # Express hangs "RESULTS OF OPERATIONS (MD&A)" under "ITEM 7. MANAGEMENT'S … AND")
    return left or centre or DANGLING.search(last.text) is not None


def _stands(line: Line, layout: Layout) -> bool:
    """Would be a heading of its own: larger than the body, or with room above it."""
    room = layout.body_gap + SET_APART_RATIO * layout.body_size
    return _larger(line, layout) or line.gap_above >= room


def _room_for_next_word(last: Line, nxt: Line, layout: Layout) -> bool:
    """A left-aligned line that ends short of the text's right edge by more than the next
    line's first word (and a space) needs: the next line did not wrap from it."""
    words = nxt.text.split()
    if not words or layout.body_right <= layout.body_left or last.x0 > layout.body_left + last.size:
        return False
    per_char = (nxt.x1 - nxt.x0) / max(1, len(nxt.text.strip()))
    needed = (len(words[0]) + 1) * per_char
    return layout.body_right - last.x1 > needed + WRAP_ROOM_EMS * last.size


def _is_heading(
    block: list[Line], title: str, layout: Layout, above: str, rank: float | None, apart: bool
) -> bool:
    if len(block) > MAX_HEADING_LINES:
        return False  # a bold paragraph, not a title
    first = block[0]
    larger = _larger(first, layout)
    words = title.split()
    # A headline set larger than the body may be a sentence ("Cyber attacks … could have
    # an adverse effect on our business."); at body size a sentence is body text.
    most_words = MAX_HEADLINE_WORDS if larger else MAX_HEADING_WORDS
    if len(words) > most_words or len(title) > MAX_HEADLINE_CHARS:
        return False
    if title.endswith((",", ";")) or is_admonition(title) or _FORM_LINE.search(title):
        return False
    if not larger and title.endswith(".") and len(words) > SENTENCE_TITLE_WORDS:
        return False
    letters = sum(c.isalpha() for c in title)
    visible = max(1, len(title.replace(" ", "")))
    if letters < MIN_HEADING_LETTERS or letters / visible < MIN_HEADING_LETTER_SHARE:
        return False
    if _off_column(first, layout):
        return False  # a column header or a date set right, not a heading
    if any(_spread(ln) for ln in block):
        return False  # a table's header row, its cells run together into one line
    if larger:
        return True
    if first.jumps_up and _indented(first, layout):
        return False  # body-size text placed back up the page, mid-width: a table's header cell
    # Body-size bold: a heading only with room above it (the top of a page has room), or,
    # numbered, right under another heading ("PART I" then "Item 1. Business"), or short
    # and standing between paragraphs (``apart``: :func:`_between_paragraphs`).
    room = layout.body_gap + SET_APART_RATIO * layout.body_size
    return (
        first.gap_above >= room
        or above == _TOP
        or (above == _HEADING and rank is not None)
        or (rank is not None and first.bold and _keyword_titled(title))
        or (apart and len(words) <= MAX_RUN_TITLE_WORDS and title[-1] not in ".,;:")
    )


def _between_paragraphs(row: list[Line | None], start: int, end: int, layout: Layout) -> bool:
    """A bold line at body size with a paragraph's break above it, after a regular line
    ending a sentence and before a regular line of prose: a heading in a document that sets
    its headings no further apart than its paragraphs, when short and no sentence
    (:func:`_is_heading`). A bold label inside a table has a row or a label beside it, not a
    finished sentence above and prose below; a cover's bold lines are all bold."""
    first = row[start]
    if first is None or end - start != 1 or not first.bold or layout.body_bold:
        return False
    if first.gap_above <= layout.body_gap + SIZE_STEP:
        return False
    before = next((ln for ln in reversed(row[:start]) if ln is not None), None)
    after = next((ln for ln in row[end:] if ln is not None), None)
    return (
        before is not None
        and not before.bold
        and _ends_sentence(before.text)
        and after is not None
        and not after.bold
        and _prose(after.text)
    )


def _keyword_titled(title: str) -> bool:
    """Bold and named by keyword and number ("Note 3 — Restructuring and Impairment
    Charges"): a heading even set tight under the paragraph or the table before it."""
    cand = classify_line(title)
    return cand is not None and cand.kind in _KEYWORD_KINDS and not cand.toc_like


def _spread(line: Line) -> bool:
    """Far wider than its characters need: words set apart in columns, not a title."""
    chars = len(line.text.strip())
    width = line.x1 - line.x0
    return chars > 0 and line.size > 0 and width > MAX_EMS_PER_CHAR * chars * line.size


def _off_column(line: Line, layout: Layout) -> bool:
    """Starts far right of the text's left edge without being centred on the page."""
    page_width = layout.page_widths[line.page] if layout.page_widths else 0.0
    if page_width <= 0:
        return False
    centred = abs((line.x0 + line.x1) / 2 - page_width / 2) <= CENTRED_SHARE * page_width
    return _indented(line, layout) and not centred


def _indented(line: Line, layout: Layout) -> bool:
    """Starts far right of the text's left edge."""
    width = layout.body_right - layout.body_left
    return width > 0 and line.x0 - layout.body_left > OFF_COLUMN_SHARE * width


def _in_table(row: list[Line | None], start: int, end: int, above: Line | None) -> bool:
    """A label inside a table: right above a row of figures, unless a paragraph ends above
    it (``above``, the body line before it, over a page break), or between one and more
    rows on its page (a heading after a table is followed by prose)."""
    after = next((ln for ln in row[end:] if ln is not None), None)
    if after is not None and _figures(after.text):  # a caption over the table
        return above is None or not _ends_sentence(above.text)
    before = next((ln for ln in reversed(row[:start]) if ln is not None), None)
    return before is not None and _figures(before.text) and not (after and _prose(after.text))


def _body_line_above(
    lines: list[list[Line | None]], dropped: set[Position], page: int, start: int
) -> Line | None:
    """The nearest line above a candidate that is not furniture, over the page break: at the
    top of a page, under its running header, a table's caption follows the paragraph that
    ended the page before (3M 2018's "Consumer Business (14.6% of consolidated sales):"
    under "Table of Contents", over its table of sales)."""
    for p in (page, page - 1):
        if p < 0:
            break
        row = lines[p]
        for i in range(start - 1 if p == page else len(row) - 1, -1, -1):
            if row[i] is not None and (p, i) not in dropped:
                return row[i]
    return None


def _ends_sentence(text: str) -> bool:
    return text.rstrip().endswith((".", ".”", '."'))


def _prose(text: str) -> bool:
    words = text.split()
    lower = sum(1 for w in words if w[:1].islower())
    return len(words) >= MIN_PROSE_WORDS and lower >= len(words) / 2


def _figures(text: str) -> bool:
    """A table row: it ends in two or more amounts ("$ 55,466 $ 56,435", "(8.3) %"); a
    sentence ("… ended December 31, 2021.") is not one."""
    text = text.strip()
    if text.endswith(".") and not text[-2:-1].isdigit():
        return False
    tokens = text.replace("$", " ").replace("%", " ").split()
    tail = 0
    for token in reversed(tokens):
        if not _AMOUNT.fullmatch(token):
            break
        tail += 1
    return tail >= MIN_ROW_FIGURES


def _prominence(line: Line) -> tuple[float, ...]:
    size, bold, italic = line.style
    return (-size, -float(bold), float(italic))
