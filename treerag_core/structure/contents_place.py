"""Placing the entries of a printed table of contents on the pages they name.

Printed page numbers are not page indexes: front matter shifts them. The PDF's page labels
map them when it has some; otherwise the shift is the one most entries agree on, found by
looking their titles up in the page text. Each entry is then placed where its title is
actually printed, on or near its page (a heading line found by typography first), in order;
an entry whose title is not found starts at the top of its page.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from .bookmarks import title_key
from .contents import Contents, Entry, label_only
from .headings import Heading, Position
from .layout import Layout
from .thresholds import (
    CONTENTS_DRIFT_PAGES,
    CONTENTS_MAX_SHIFT,
    CONTENTS_MIN_SHIFT,
    CONTENTS_PAGE_SLACK,
    CONTENTS_SAMPLE,
    MAX_HEADING_LINES,
    MIN_DRIFT_TITLE_CHARS,
    MIN_LOOKUP_CHARS,
    TITLE_RUN_ON_CHARS,
)

_LABEL = re.compile(r"^(?:[IVXLC]{1,6}|[A-Z]|\d{1,3})[.:]?\s+(?=\S)")


# The index is built from a line's opening characters only: keying whole lines of a long
# book costs more than the rest of reading its contents.
_OPENING_CHARS = 24


class _Pages:
    """Line keys of the pages searched, and an index from a title's first letters to the
    lines that start with them."""

    def __init__(self, layout: Layout, dropped: set[Position], first: int) -> None:
        self.texts = layout.texts
        self.first = first  # the first page after the contents
        self._keys: dict[int, list[str]] = {}
        self.index: dict[str, list[Position]] = defaultdict(list)
        for p in range(first, len(self.texts)):
            for i, text in enumerate(self.texts[p]):
                opening = title_key(text[:_OPENING_CHARS])
                if len(opening) >= MIN_LOOKUP_CHARS and (p, i) not in dropped:
                    self.index[opening[:MIN_LOOKUP_CHARS]].append((p, i))

    def keys(self, p: int) -> list[str]:
        if p not in self._keys:
            self._keys[p] = [title_key(t) for t in self.texts[p]]
        return self._keys[p]

    def matches(self, title_key: str) -> list[tuple[int, int, int]]:
        """(page, line, lines spanned) where a line starts with the title (or the title
        continues on the next line), in document order."""
        out = []
        for p, i in self.index.get(title_key[:MIN_LOOKUP_CHARS], ()):
            span = self._span(p, i, title_key)
            if span:
                out.append((p, i, span))
        return out

    def _span(self, p: int, i: int, title_key: str) -> int:
        """Lines the printed title takes from line ``i``: one, or as many as it wraps over
        (up to MAX_HEADING_LINES: an FAQ's long questions); 0 if it is not printed there."""
        keys = self.keys(p)
        joined = ""
        for n, line in enumerate(keys[i : i + MAX_HEADING_LINES], 1):
            joined += line
            if joined.startswith(title_key):
                return n if len(joined) <= len(title_key) + TITLE_RUN_ON_CHARS else 0
            if not title_key.startswith(joined):
                return 0
        return 0


def place(
    contents: Contents,
    layout: Layout,
    dropped: set[Position],
    typeset: dict[Position, int],
    labels: list[str],
) -> tuple[list[Heading], int]:
    """Every entry as a heading where it is printed; and how many were found in the text.

    ``typeset`` maps the start of each heading found by typography to its end, so an entry
    prefers a line that also looks like a heading; ``labels`` are the PDF's page labels.
    Entries with a page number are placed first, in order; a part title without one is then
    looked for between its neighbours.
    """
    pages = _Pages(layout, dropped, contents.pages[-1] + 1)
    by_label = {label: n for n, label in enumerate(labels)} if labels else {}
    shift = _shift(contents.entries, pages) if not by_label else 0
    entries = contents.entries
    spots: list[tuple[int, int, int] | None] = [None] * len(entries)
    expected: list[int | None] = [None] * len(entries)
    cursor: Position = (pages.first, 0)
    for n, entry in enumerate(entries):
        expected[n] = _expected(entry, by_label, shift)
        if expected[n] is None:
            continue
        found = _locate(entry, expected[n], cursor, pages, typeset)
        if found is None and len(entry.title) >= MIN_DRIFT_TITLE_CHARS:
            found = _locate(entry, expected[n], cursor, pages, typeset, CONTENTS_DRIFT_PAGES)
            if found is not None and not by_label:
                shift = found[0] - (int(entry.printed or 0) - 1)  # the numbering drifted
        if found is not None:
            spots[n] = found
            cursor = (found[0], found[2])
    out: list[Heading] = []
    cursor = (pages.first, 0)
    for n, entry in enumerate(entries):
        after = next((s for s in spots[n + 1 :] if s is not None), None)
        if spots[n] is None and expected[n] is None:  # a part title: between its neighbours
            limit = (after[0], after[1]) if after else None
            goal = after[0] if after else None
            spots[n] = _locate(entry, goal, cursor, pages, typeset, slack=None, limit=limit)
        page, line, end = spots[n] or _inserted(layout, dropped, cursor, expected[n], after)
        h = entry.heading
        out.append(Heading(page, line, end, entry.title, h.prominence, h.rank, h.level))
        cursor = (page, max(line, end))
    return out, sum(s is not None for s in spots)


def _inserted(
    layout: Layout,
    dropped: set[Position],
    cursor: Position,
    expected: int | None,
    after: tuple[int, int, int] | None,
) -> tuple[int, int, int]:
    """Where an entry not found in the text starts: the top of its page, kept between the
    entries around it; it consumes no line."""
    goal = expected if expected is not None else (after[0] if after else cursor[0])
    page = max(cursor[0], min(goal, len(layout.texts) - 1))
    if after is not None and page > after[0]:
        page = after[0]
    line = cursor[1] if page == cursor[0] else _first_line(layout, page, dropped)
    if after is not None and page == after[0]:
        line = min(line, after[1])
    return page, line, line


def _expected(entry: Entry, by_label: dict[str, int], shift: int) -> int | None:
    """The page index an entry's printed number names; None for a part title."""
    if entry.printed is None:
        return None
    if by_label:
        return by_label.get(entry.printed)
    return int(entry.printed) - 1 + shift if entry.printed.isdigit() else None


def _shift(entries: list[Entry], pages: _Pages) -> int:
    """Physical minus printed page number that most sampled entries agree on."""
    numbered = [e for e in entries if e.printed and e.printed.isdigit()]
    votes: Counter[int] = Counter()
    # The first entries decide: later parts of a filing may carry a second numbering (the
    # annual report's own pages), and drift is followed entry by entry anyway.
    for e in numbered[:CONTENTS_SAMPLE]:
        title = title_key(e.title)
        if len(title) < MIN_LOOKUP_CHARS:
            continue
        printed = int(e.printed or 0) - 1
        shifts = {p - printed for p, _, _ in pages.matches(title)}
        votes.update(s for s in shifts if CONTENTS_MIN_SHIFT <= s <= CONTENTS_MAX_SHIFT)
    return votes.most_common(1)[0][0] if votes else 0


def _locate(
    entry: Entry,
    expected: int | None,
    cursor: Position,
    pages: _Pages,
    typeset: dict[Position, int],
    slack: int | None = CONTENTS_PAGE_SLACK,
    limit: Position | None = None,
) -> tuple[int, int, int] | None:
    """(page, first line, end) of the entry's title at or after ``cursor`` (and before
    ``limit``), nearest to the expected page (within ``slack`` pages of it, unless None:
    a part title is anywhere between its neighbours; Walmart prints "PART I" over the
    three pages of its cautionary statement, before Item 1); a heading found by typography
    wins over a plain line."""
    hits = [h for t in _title_keys(entry.title) for h in pages.matches(t)]
    end = limit or (len(pages.texts), 0)
    hits = [(p, i, s) for p, i, s in hits if cursor <= (p, i) < end]
    if expected is not None and slack is not None:
        hits = [(p, i, s) for p, i, s in hits if abs(p - expected) <= slack]
    if not hits:
        return None
    best = min(
        hits,
        key=lambda h: (
            abs(h[0] - expected) if expected is not None else h[0],
            (h[0], h[1]) not in typeset,
            h[0],
            h[1],
        ),
    )
    page, line, span = best
    stop = max(line + span, typeset.get((page, line), 0))
    if line > 0 and label_only(pages.texts[page][line - 1]):
        line -= 1  # "Part II" over "Plotting styles": the entry "II Plotting styles" is both
    return page, line, stop


def _title_keys(title: str) -> list[str]:
    """The title's key, and without a leading label (``I Gnuplot`` is printed ``Gnuplot``
    under a separate ``Part I`` line)."""
    keys = [title_key(title)]
    bare = _LABEL.sub("", title, count=1)
    if bare != title and len(title_key(bare)) >= MIN_LOOKUP_CHARS:
        keys.append(title_key(bare))
    return [k for k in keys if len(k) >= MIN_LOOKUP_CHARS]


def _first_line(layout: Layout, page: int, dropped: set[Position]) -> int:
    for i, text in enumerate(layout.texts[page]):
        if text.strip() and (page, i) not in dropped:
            return i
    return 0
