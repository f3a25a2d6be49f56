"""The PDF's own bookmarks, each found where its title is printed.

Bookmarks are the author's statement of the structure, so they come first (the strategy is
:mod:`.skeleton`'s); a token outline (one or two bookmarks over a long filing) is not a
structure and is declined. Pages without typography get the bookmarks inserted into their
text by :func:`with_outline`.
"""

from __future__ import annotations

import re

from ..tree.sections import escape_line, heading, join_pages
from .pages import OutlineEntry

# Fewer bookmarks than this over a document longer than SHORT_DOCUMENT_PAGES is a token
# outline ("Cover", "Exhibits"), not the document's structure.
MIN_BOOKMARKS = 3
SHORT_DOCUMENT_PAGES = 10
# A printed line that starts with the bookmark's title and runs on by at most this many
# letters is the title line itself ("Item 7. Management's Discussion" for "Item 7").
TITLE_RUN_ON_CHARS = 20
# Before the title, a printed number or label ("3.1.2.", "Chapter 12", "Kapitel 4",
# "第3章") of at most this many letters and digits.
TITLE_PREFIX_CHARS = 12
# How much of a title's start a line must show to be looked at closely.
TITLE_OPENING_CHARS = 6
# A long title wraps: its printed lines are looked for over up to this many lines.
MAX_TITLE_LINES = 3
# A title shorter than this ("A", "I") would be found in any line.
MIN_TITLE_CHARS = 3
# What makes letters before a title a label rather than words of a sentence: a digit, or a
# Roman numeral alone ("IV").
_NUMBER_LABEL = re.compile(r"\d|^[ivxlcdm]{1,6}$")
_NOT_ALNUM = re.compile(r"[\W_]+")  # what str.isalnum() is false for


def with_outline(pages: list[str], outline: list[OutlineEntry]) -> str:
    """Insert each bookmark as a heading on its page, at its title's line when found.

    Bookmarks on one page are placed where their titles are printed, whatever their order
    in the outline (some generators list a page's bookmarks in reverse); one whose title is
    not found goes after the bookmark before it in the outline.
    """
    per_page: dict[int, list[OutlineEntry]] = {}
    for entry in outline:
        per_page.setdefault(entry.page, []).append(entry)
    out_pages: list[str] = []
    for index, page in enumerate(pages):
        lines = [escape_line(ln.rstrip()) for ln in page.split("\n")]
        keys = [title_key(line) for line in lines]
        inserts: list[tuple[int, int, str]] = []
        cursor, used = 0, set[int]()
        for order, entry in enumerate(per_page.get(index, [])):
            found = find_title(keys, title_key(entry.title), cursor, used)
            if found is None:
                at = cursor
            else:
                at, span = found
                used.update(range(at, at + span))
                for i in range(at, at + span):
                    lines[i] = ""  # the title's lines become the heading itself
            inserts.append((at, order, heading(entry.title, entry.level)))
            cursor = at
        # insert from the bottom so indices stay valid; equal positions keep outline order
        for at, _, head in sorted(inserts, key=lambda x: (x[0], x[1]), reverse=True):
            lines[at:at] = [head]
        out_pages.append("\n".join(lines))
    return join_pages(out_pages)


def title_key(text: str) -> str:
    """Letters and digits of any script, case folded: how a title is compared. (Every
    line of a bookmarked page is keyed: the regex keeps exactly the characters
    ``str.isalnum`` keeps, ten times faster than a loop over them.)"""
    return _NOT_ALNUM.sub("", text.casefold())


def find_title(keys: list[str], want: str, start: int, used: set[int]) -> tuple[int, int] | None:
    """(first line, lines) of the printed title: from ``start`` on, else before it."""
    if len(want) < MIN_TITLE_CHARS:
        return None
    opening = want[:TITLE_OPENING_CHARS]
    for i in [*range(start, len(keys)), *range(0, start)]:
        key = keys[i]
        if i in used or not key:
            continue
        # cheap test first: the title's opening near the line's start, or a label alone
        if opening not in key[: TITLE_PREFIX_CHARS + len(opening)] and (
            len(key) > TITLE_PREFIX_CHARS or not _NUMBER_LABEL.search(key)
        ):
            continue
        span = _title_span(keys, i, want)
        if span:
            return i, span
    return None


def _title_span(keys: list[str], i: int, want: str) -> int:
    """How many lines from ``i`` print the title, perhaps after a number or label ("3.1.",
    "Chapter 2", "第3章") and wrapped over up to MAX_TITLE_LINES; 0 when they do not."""
    have = ""
    for span in range(1, min(MAX_TITLE_LINES, len(keys) - i) + 1):
        have += keys[i + span - 1]
        partial = False
        for at in range(min(len(have), TITLE_PREFIX_CHARS) + 1):
            if at and not _NUMBER_LABEL.search(have[:at]):
                continue
            rest = have[at:]
            if rest.startswith(want):
                return span if len(rest) - len(want) < TITLE_RUN_ON_CHARS else 0
            partial = partial or (want.startswith(rest) and (bool(rest) or at > 0))
        if not partial:
            return 0
    return 0
