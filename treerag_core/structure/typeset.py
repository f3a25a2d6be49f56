"""Strategies for PDFs read by their look: the printed table of contents, then typography.

Both share one measurement of the pages (:class:`Typeset`: layout, furniture, profile,
contents and the headings found by typography), kept on the read result so the second
strategy does not measure again. A printed contents that is found in the text becomes the
structure like bookmarks; when it lists only one level (chapters, or a filing's Items),
typography supplies the levels below each entry (below a detailed contents, only numbered
headings such as the notes to financial statements).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, replace

from ..limits import Limits
from . import Structured
from .bookmarks import title_key
from .confirm import checked
from .contents import Contents, read_contents
from .contents_place import place
from .furniture import furniture_lines
from .headings import Heading, Position, render
from .layout import Layout, build_layout
from .levels import EXHIBIT_RANK, levels_from_look
from .pages import ReadResult
from .profiles import PROFILES, Profile, detect_profile
from .thresholds import MIN_LOCATED_SHARE, MIN_SUFFIX_KEY, MIN_TYPOGRAPHY_HEADINGS
from .typography import find_headings

CONTENTS_SOURCE = "printed contents"
MIXED_SOURCE = "printed contents and typography"
TYPOGRAPHY_SOURCE = "typography and numbering"
TYPOGRAPHY_PART = "typography"  # headings found by their look and numbering, below entries


_EXHIBITS_WORD = re.compile(r"\bexhibits?\b", re.IGNORECASE)


@dataclass
class Typeset:
    layout: Layout
    profile: Profile
    dropped: set[Position]
    contents: Contents | None
    headings: list[Heading]  # by typography, outside the contents pages; no levels yet


def measure(result: ReadResult, limits: Limits) -> Typeset | None:
    """The pages measured once per read; None when they carry no typography."""
    if "typeset" in result.measured:
        return result.measured["typeset"]
    typeset = None
    layout = build_layout(result.pages or [])
    if layout.has_typography:
        profile = PROFILES.get(limits.structure_profile) or detect_profile(
            ["\n".join(texts) for texts in layout.texts]
        )
        dropped = furniture_lines(layout.texts, profile)
        contents = read_contents(layout, dropped, profile) if layout.laid_out else None
        skip = set(contents.pages) if contents else set()
        headings = find_headings(layout, dropped, skip, profile)
        typeset = Typeset(layout, profile, dropped, contents, headings)
    result.measured["typeset"] = typeset
    return typeset


def structure_from_contents(result: ReadResult, limits: Limits) -> Structured | None:
    """Strategy: the printed table of contents, when its titles are found on their pages."""
    typeset = measure(result, limits)
    if typeset is None or typeset.contents is None:
        return None
    contents = typeset.contents
    starts = {h.position: h.end for h in typeset.headings}
    placed, located = place(contents, typeset.layout, typeset.dropped, starts, result.page_labels)
    if located < MIN_LOCATED_SHARE * len(placed):
        return None
    # Below an entry the contents details, only headings named by numbering or a standard
    # title are added (the notes and the statements of a filing are rarely listed); below
    # an entry it lists alone (an overview's chapter, a filing's Item 7), every heading found.
    below = checked_headings(result, typeset)
    if contents.detailed:
        below = inside_leaves(placed, below, typeset.layout.texts, limits.max_section_chars)
    headings = below_entries(placed, below)
    inner = len(headings) - len(placed)
    source = MIXED_SOURCE if inner else CONTENTS_SOURCE
    parts = {CONTENTS_SOURCE: len(placed), **({TYPOGRAPHY_PART: inner} if inner else {})}
    if contents.title is not None:
        page, line = contents.title
        headings = [Heading(page, line, line + 1, "Table of Contents", level=1), *headings]
    headings.sort(key=lambda h: (h.position, h.end > h.start))
    return Structured(render(typeset.layout.texts, headings, typeset.dropped), source, parts)


def structure_by_typography(result: ReadResult, limits: Limits) -> str | None:
    """Strategy: headings by typography and numbering; declines when there are too few."""
    typeset = measure(result, limits)
    if typeset is None or len(typeset.headings) < MIN_TYPOGRAPHY_HEADINGS:
        return None
    headings = [_copy(h) for h in checked_headings(result, typeset)]
    levels_from_look(headings)
    return render(typeset.layout.texts, headings, typeset.dropped)


def checked_headings(result: ReadResult, typeset: Typeset) -> list[Heading]:
    """The typography headings after the model's check of the doubtful ones (asked once per
    read, and only by a strategy that uses them)."""
    if "heading_check" not in result.measured:
        typeset.headings, result.measured["heading_check"] = checked(
            typeset.headings, typeset.layout, result.heading_judge
        )
    return typeset.headings


def inside_leaves(
    entries: list[Heading], found: list[Heading], texts: list[list[str]], max_chars: int
) -> list[Heading]:
    """Of the headings found, those named by numbering or a standard title, and the rest
    only inside an entry the contents lists alone whose text is too long to read as one
    section (a filing's Item 7): where the author chose to detail, the detail is theirs."""
    order = sorted(entries, key=lambda h: h.position)
    starts = [h.position for h in order]
    long_leaf = [
        (n + 1 == len(order) or order[n + 1].level <= h.level)
        and _span_chars(texts, h.position, starts[n + 1] if n + 1 < len(order) else None)
        > max_chars
        for n, h in enumerate(order)
    ]
    kept = []
    for h in found:
        owner = bisect_right(starts, h.position) - 1
        if h.known or (owner >= 0 and long_leaf[owner]):
            kept.append(h)
    return kept


def _span_chars(texts: list[list[str]], start: Position, end: Position | None) -> int:
    """Characters of the lines from ``start`` up to ``end`` (the document's end if None)."""
    last = end or (len(texts) - 1, len(texts[-1]) if texts else 0)
    total = 0
    for page in range(start[0], min(last[0], len(texts) - 1) + 1):
        lines = texts[page]
        first = start[1] if page == start[0] else 0
        stop = last[1] if page == last[0] else len(lines)
        total += sum(len(line) + 1 for line in lines[first:stop])
    return total


def below_entries(entries: list[Heading], found: list[Heading]) -> list[Heading]:
    """Contents entries, with the typography headings inside each entry one level below it
    and on (their own levels kept relative to each other)."""
    taken = {(h.page, line) for h in entries for line in range(h.start, max(h.end, h.start + 1))}
    names = {(title_key(h.title), h.page) for h in entries}
    inner = [
        _copy(h)
        for h in found
        if (h.page, h.start) not in taken and not _named(h, names)  # found twice
    ]
    levels_from_look(inner)
    own = {id(e) for e in entries}
    ordered = sorted([*entries, *inner], key=lambda h: (h.position, id(h) not in own))
    out: list[Heading] = []
    owner: Heading | None = None
    group: list[Heading] = []
    for h in ordered:
        if id(h) in own:
            _shift_below(owner, group)
            owner, group = h, []
        elif owner is not None and title_key(h.title) == title_key(owner.title):
            continue  # the entry's own title printed further into its span ("Index")
        else:
            group.append(h)
        out.append(h)
    # the last two entries' shallower level: beside "Signatures" listed under "Item 16"
    # the exhibits are Item 16's peers, not the signatures'
    beside = min((h.level for h in sorted(entries, key=lambda h: h.position)[-2:]), default=1)
    _last_below(owner, group, beside)
    return out


def _last_below(owner: Heading | None, group: list[Heading], beside: int) -> None:
    """The headings inside the last entry, up to the first exhibit filed after it, below
    it; the exhibits each head what follows them up to the next (a grant's own title,
    "Amendment No. 3", set larger than its label, is still its own), at level ``beside``:
    an exhibit is a document filed with the report, not a part of its signatures or its
    last Item (American Water's 100 pages of plans and grants sat under "Signatures"), and
    beside "Item 16" it is still in the PART that files it. Below an entry about the
    exhibits ("Item 15. Exhibits") they are that entry's."""
    if owner is None:
        return
    cut = next((n for n, h in enumerate(group) if h.rank == EXHIBIT_RANK), len(group))
    _shift_below(owner, group[:cut])
    level = owner.level + 1 if _EXHIBITS_WORD.search(owner.title) else beside
    starts = [n for n in range(cut, len(group)) if group[n].rank == EXHIBIT_RANK]
    for n, start in enumerate(starts):
        group[start].level = level
        _shift_below(
            group[start], group[start + 1 : starts[n + 1] if n + 1 < len(starts) else None]
        )


# The word of a keyword's label ("Part " of "Part I — Gnuplot"), before its number.
_LABEL_WORD = re.compile(r"^[^\W\d_]+\s+(?=\d|[IVXLC]+\b)")


def _named(h: Heading, names: set[tuple[str, int]]) -> bool:
    """The heading repeats an entry's title (or its label, a running "Item 7A"; or its name
    without the entry's label: "Condensed Consolidated Statement of Income" printed under
    the bookmark "A-1 - Condensed Consolidated Statement of Income") nearby."""
    own = title_key(h.title)
    # "Part I — Gnuplot" printed for the contents' "I Gnuplot": its name without the word
    bare = title_key(_LABEL_WORD.sub("", h.title)) if h.rank is not None else own
    return bool(own) and any(
        abs(page - h.page) <= 1
        and (
            name == own
            or name.startswith(own)
            or (len(own) >= MIN_SUFFIX_KEY and name.endswith(own))
            or (bare != own and name == bare)
        )
        for name, page in names
    )


def _shift_below(owner: Heading | None, group: list[Heading]) -> None:
    if owner is None or not group:
        return
    top = min(h.level for h in group)
    for h in group:
        h.level = owner.level + 1 + h.level - top


def _copy(h: Heading) -> Heading:
    return replace(h)
