"""Reading a printed table of contents: its pages, its entries and their levels.

A contents page is one near the front whose lines mostly end in a page number, after dotted
leaders (``Title ..... 12``) or set flush right (``Item 1. Business    4``). Each such line is
an entry; a line without a number is a part title (``PART II``) or the wrapped rest of an
entry. Levels come from indentation first, then size and weight, corrected by numbering
(:mod:`.levels`), as for headings on the pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .candidates import CONTENTS_WORDS, CONTINUED_TITLE, KEYWORDS, NUMBER_RANK, Kind
from .headings import Heading, Position
from .layout import Layout, Line
from .levels import levels_from_look, numbering_rank
from .profiles import GENERIC, Profile
from .thresholds import (
    CENTRED_WIDTH_SHARE,
    CONTENTS_INDENT_STEP,
    CONTENTS_RIGHT_SLACK,
    CONTENTS_SEARCH_PAGES,
    CONTENTS_SEARCH_SHARE,
    HEADER_COLUMN_SHARE,
    MAX_CONTENTS_TITLE_WORDS,
    MIN_CONTENTS_ENTRIES,
    MIN_CONTENTS_SHARE,
    MIN_NEXT_CONTENTS_ENTRIES,
    MIN_NEXT_CONTENTS_SHARE,
    ROW_LOOKBACK,
    ROW_OVERLAP,
)

_LEADERS = re.compile(r"^(?P<title>.*?\S)\s*(?:[.·•…_]\s*){3,}(?P<num>\d{1,4}|[ivxlc]{1,7})$")
_FLUSH = re.compile(r"^(?P<title>.*\S)\s+(?P<num>\d{1,4})$")
_CONTENTS_TITLE = re.compile(rf"^(?:{CONTENTS_WORDS})$", re.IGNORECASE)
# A part's label alone on its line, in the languages candidates knows: "PART II", "Kapitel 3".
_LABEL_WORDS = (*KEYWORDS[Kind.PART], *KEYWORDS[Kind.CHAPTER], *KEYWORDS[Kind.SECTION], "Book",
                "Appendix")  # fmt: skip
_LABEL_ONLY = re.compile(
    rf"(?i)(?:{'|'.join(map(re.escape, _LABEL_WORDS))})\s+[\divxlc]{{1,6}}[a-z]?\.?"
)
_BARE_NUMBER = re.compile(r"\d{1,4}|[ivxlc]{1,7}")
_LEADER_CHARS = " .·•…_"  # dotted leaders, stripped from an entry whose number is lost
_PAGE_COLUMN = re.compile(r"^(?:page|pages)\s+|\s*\b(?:page|pages)$", re.IGNORECASE)
# An entry's own section number, however long its title runs (an FAQ lists its questions):
# "3.1.12 How can I …". Body lines are held to a heading's length; a contents entry is not.
_ENTRY_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3}){0,4})\.?\s+(?=[^\W\d_]|[(“\"'«])")
# A section number set tight against its title ("11.10How can I …", a contents whose numbers
# outgrew their column): a space between them.
_TIGHT_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3})+)(?=[A-Z])")
_CONNECTORS = {"of", "and", "the", "to", "for", "in", "on", "with", "or", "&", "a", "an"}


@dataclass
class Entry:
    """One entry: its title, the page number printed beside it, and where it stands."""

    title: str
    printed: str | None  # "12", "iv", or None for a part title without a number
    heading: Heading  # its position on the contents page, style and numbering; level
    x0: float = 0.0  # where its line starts


@dataclass
class Contents:
    pages: list[int]  # 0-based indexes of the contents pages
    entries: list[Entry] = field(default_factory=list)
    title: Position | None = None  # the "Table of Contents" line, if printed

    @property
    def detailed(self) -> bool:
        """Whether some entry is listed under another that is not a part title: a
        contents of chapters and their sections, not just Items grouped into parts."""
        stack: list[Entry] = []
        for e in self.entries:
            while stack and stack[-1].heading.level >= e.heading.level:
                stack.pop()
            if stack and not _is_part(stack[-1].title):
                return True
            stack.append(e)
        return False


def read_contents(
    layout: Layout, dropped: set[Position], profile: Profile = GENERIC
) -> Contents | None:
    """The first run of contents pages near the front, with its entries; None if none."""
    pages = _contents_pages(layout, dropped)
    if not pages:
        return None
    contents = Contents(pages)
    skip = dropped | _running_heads(layout, pages, dropped)
    for p in pages:
        _read_page(layout, p, skip, contents, profile)
    if len(contents.entries) < MIN_CONTENTS_ENTRIES:
        return None
    levels_from_look([e.heading for e in contents.entries])
    return contents


def _contents_pages(layout: Layout, dropped: set[Position]) -> list[int]:
    window = max(CONTENTS_SEARCH_PAGES, int(CONTENTS_SEARCH_SHARE * len(layout.lines)))
    for p in range(min(window, len(layout.lines))):
        if _is_contents_page(layout, p, dropped, MIN_CONTENTS_SHARE, MIN_CONTENTS_ENTRIES):
            run = [p]
            while run[-1] + 1 < len(layout.lines) and _is_contents_page(
                layout, run[-1] + 1, dropped, MIN_NEXT_CONTENTS_SHARE, MIN_NEXT_CONTENTS_ENTRIES
            ):
                run.append(run[-1] + 1)
            return run
    return []


def _is_contents_page(
    layout: Layout, p: int, dropped: set[Position], min_share: float, min_entries: int
) -> bool:
    """Enough of the page's lines are entries, and enough of them."""
    lines = [ln for ln in layout.lines[p] if ln is not None and (p, ln.index) not in dropped]
    if not lines:
        return False
    right = max(ln.x1 for ln in lines)
    entries = sum(1 for ln in lines if _parse(ln, right) is not None)
    return entries >= min_entries and entries >= min_share * len(lines)


def _parse(line: Line, right: float) -> tuple[str, str] | None:
    """(title, printed page) of an entry line, or None."""
    text = " ".join(line.text.split())
    m = _LEADERS.match(text)
    if m is None:
        m = _FLUSH.match(text)
        if m is None or line.x1 < right - CONTENTS_RIGHT_SLACK * line.size:
            return None
    title = m.group("title").rstrip(" .")
    letters = sum(c.isalpha() for c in title)
    if not letters or len(title) < 2 or len(title.split()) > MAX_CONTENTS_TITLE_WORDS:
        return None  # "X11" and "5G" are titles; "12" alone is not
    return title, m.group("num")


def _read_page(
    layout: Layout,
    p: int,
    skip: set[Position],
    contents: Contents,
    profile: Profile,
) -> None:
    lines = [ln for ln in layout.lines[p] if ln is not None and (p, ln.index) not in skip]
    if not lines:
        return
    edges = (min(ln.x0 for ln in lines), max(ln.x1 for ln in lines))
    titled = next((ln for ln in lines if _CONTENTS_TITLE.match(" ".join(ln.text.split()))), None)
    if titled is not None:
        if contents.title is None:
            contents.title = (p, titled.index)
        lines = lines[lines.index(titled) + 1 :]  # above the title: the page's letterhead

    def add(ln: Line, title: str, printed: str | None) -> None:
        if printed is None and ln.x0 > edges[0] + HEADER_COLUMN_SHARE * (edges[1] - edges[0]):
            if not _centred(ln, edges):
                return  # "Beginning Page" over the numbers' column, not a part title
        _add(contents, ln, title, printed, edges, profile)

    pending: Line | None = None  # a line without a number: a part title or a wrapped entry
    for ln in _with_row_numbers(lines):
        text = _without_leaders(ln.text)
        parsed = _parse(ln, edges[1])
        if parsed is None:
            if CONTINUED_TITLE.search(text):
                continue  # "ITEM 8 … (continued)" atop a contents page repeats an entry
            if pending is not None and _BARE_NUMBER.fullmatch(text):
                add(pending, _without_leaders(pending.text), text)  # its number, a row lower
                pending = None
                continue
            if pending is not None and _wraps_onto(pending, ln):
                pending = replace(pending, text=f"{pending.text.rstrip()} {text}")
                continue  # an entry wrapped over three lines or more, its number on the last
            if pending is not None:
                add(pending, _without_leaders(pending.text), None)
            pending = ln
            if _continues_previous(contents, ln, p):
                contents.entries[-1].title += f" {text}"
                contents.entries[-1].heading.title = contents.entries[-1].title
                pending = None
            continue
        title, printed = parsed
        if pending is not None:
            if _wraps_onto(pending, ln):
                title = f"{' '.join(pending.text.split())} {title}"
                ln = pending
            else:
                add(pending, _without_leaders(pending.text), None)
            pending = None
        add(ln, title, printed)
    if pending is not None:
        add(pending, _without_leaders(pending.text), None)


def _without_leaders(text: str) -> str:
    """The line's words, dotted leaders at its end left out."""
    words = " ".join(text.split())
    bare = words.rstrip(_LEADER_CHARS)
    return bare if words[len(bare) :].count(".") + words[len(bare) :].count("…") >= 3 else words


def _with_row_numbers(lines: list[Line]) -> list[Line]:
    """An entry whose page number is a separate text run on its row (a contents set as a
    table) gets the number back at the end of its text."""
    out: list[Line] = []
    for ln in lines:
        number = _BARE_NUMBER.fullmatch(ln.text.strip())
        row = next(
            (k for k in range(len(out) - 1, max(-1, len(out) - ROW_LOOKBACK - 1), -1)
             if out[k].x1 < ln.x0 and _same_row(out[k], ln)),
            None,
        ) if number else None  # fmt: skip
        if number and row is not None:
            out[row] = replace(
                out[row], text=f"{out[row].text.rstrip()} {number.group(0)}", x1=ln.x1
            )
            continue
        out.append(ln)
    return out


def _same_row(a: Line, b: Line) -> bool:
    overlap = min(a.top, b.top) - max(a.bottom, b.bottom)
    return overlap > ROW_OVERLAP * min(a.top - a.bottom, b.top - b.bottom)


def _centred(ln: Line, edges: tuple[float, float]) -> bool:
    left, right = edges
    short = ln.x1 - ln.x0 < CENTRED_WIDTH_SHARE * (right - left)
    return short and abs((ln.x0 + ln.x1) / 2 - (left + right) / 2) <= CONTENTS_RIGHT_SLACK * ln.size


def _running_heads(layout: Layout, pages: list[int], dropped: set[Position]) -> set[Position]:
    """Contents pages' own running heads ("CONTENTS gnuplot 5.4  3"), which read like
    entries: a first or last line that recurs, digits aside, on another contents page."""
    seen: dict[str, list[Position]] = {}
    for p in pages:
        lines = [ln for ln in layout.lines[p] if ln is not None and (p, ln.index) not in dropped]
        for ln in {id(x): x for x in lines[:1] + lines[-1:]}.values():
            folded = re.sub(r"\d+", "#", " ".join(ln.text.lower().split()))
            seen.setdefault(folded, []).append((p, ln.index))
    return {pos for found in seen.values() if len(found) > 1 for pos in found}


def _add(
    contents: Contents,
    ln: Line,
    title: str,
    printed: str | None,
    edges: tuple[float, float],
    profile: Profile,
) -> None:
    title = _PAGE_COLUMN.sub("", title).strip()  # "PART I  Page", "Page Part I": column header
    title = _TIGHT_NUMBER.sub(r"\1 ", title)
    if not title or title.endswith("No.") or (printed is None and not _part_like(title)):
        return  # a stray line ("Item No.", a note under a part title) is not an entry
    if printed is None and not contents.entries and not label_only(title):
        return  # the letterhead above the first entry ("FORM 10-K"), not a part title
    # A short title centred on the page ("PART II") is not indented: it heads what follows.
    inset = 0.0 if _centred(ln, edges) else ln.x0 - edges[0]
    indent = round(inset / CONTENTS_INDENT_STEP)
    prominence = (float(indent), -ln.style[0], -float(ln.bold), float(ln.italic))
    rank = _entry_rank(title, profile)
    heading = Heading(ln.page, ln.index, ln.index + 1, title, prominence, rank)
    contents.entries.append(Entry(title, printed, heading, ln.x0))


def _continues_previous(contents: Contents, ln: Line, p: int) -> bool:
    """``Item 5. Market … Purchases of  20`` / ``Equity Securities``: the rest of an entry."""
    if not contents.entries:
        return False
    prev = contents.entries[-1]
    if prev.heading.page != p or prev.heading.start != ln.index - 1 or prev.printed is None:
        return False
    words = prev.title.split()
    text = ln.text.strip()
    if label_only(text) or _entry_rank(text) is not None or text.startswith("("):
        return False  # "PART II" centred above the next Items; "(Except for …)", a note
    indented = ln.x0 > prev.x0 + ln.size  # a part title does not sit right of an entry
    return bool(words) and (words[-1].lower() in _CONNECTORS or text[:1].islower() or indented)


def _entry_rank(title: str, profile: Profile = GENERIC) -> float | None:
    """The rank an entry's numbering gives it, its title's length aside."""
    rank = numbering_rank(title, profile)
    text = " ".join(title.split())
    number = _ENTRY_NUMBER.match(text) if rank is None else None
    if number is None or text[number.end() :][:1].islower():
        return rank  # "10 percent of …": a sentence run on, not a numbered title
    return NUMBER_RANK + len(number.group(1).split("."))


def _wraps_onto(pending: Line, ln: Line) -> bool:
    """A numberless line that runs on into the next line's entry (same style, indented);
    a part title ("PART I" over "ITEM 1 Business  4") does not."""
    if label_only(pending.text):
        return False
    words = pending.text.split()
    ends_open = bool(words) and words[-1].lower() in _CONNECTORS
    same = pending.style[:2] == ln.style[:2]  # size and weight: a title may set words in italic
    return same and (ends_open or ln.x0 > pending.x0 + ln.size)


def _part_like(title: str) -> bool:
    """A part title listed without a page: short, title-like (``PART II``, ``Appendices``)."""
    words = title.split()
    return 0 < len(words) <= 6 and title[0].isupper() and not title.endswith((".", ",", ":"))


def label_only(text: str) -> bool:
    """A part label with no title of its own: ``PART II``, ``Chapter 3``."""
    return bool(_LABEL_ONLY.fullmatch(" ".join(text.split())))


def _is_part(title: str) -> bool:
    return bool(re.match(r"(?i)part\s+[ivx\d]+\b", title))
