"""Which candidates found in the text stay headings: the ones that keep the sequence.

Numbered headings must continue the running numbering (a ``1.`` list item inside section 4
is not a heading); notes must count up (``Note 13`` after ``Note 2`` is a cross-reference);
a heading printed again (a running head) counts once. Their levels: :mod:`.levels`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .candidates import Found, Kind, cjk_number
from .thresholds import FIRST_NUMBER_MAX, MAX_NOTE_JUMP, MAX_NUMBER_JUMP

# A keyword heading of these kinds starts a new numbering (and note) sequence.
_RESETS_NUMBERING = {Kind.PART, Kind.CHAPTER, Kind.ARTICLE, Kind.SUBPART, Kind.ITEM}


def drop_repeats(found: list[Found]) -> list[Found]:
    """Of two same-key headings in a row on one page (a running head kept as the start of
    its run, then the real heading), keep the one with the longer title."""
    kept: list[Found] = []
    for f in found:
        prev = kept[-1] if kept else None
        if prev and prev.cand.key == f.cand.key and prev.page == f.page:
            if len(f.cand.title) > len(prev.cand.title):
                kept[-1] = f
            continue
        kept.append(f)
    return kept


def _keyword_number(title: str) -> int | None:
    """The number a keyword heading carries: "Chapter 3", "Kapitel 3", "第3章", "제3장"."""
    m = re.match(r"\S+\s+(\d+)", title)
    if m:
        return int(m.group(1))
    m = re.match(r"(?:第|제)?\s*(\d+|[〇一二三四五六七八九十百]+)\s*[章장]", title)
    return cjk_number(m.group(1)) if m else None


def check_sequence(found: list[Found]) -> list[Found]:
    """Keep numbered headings that continue the running numbering; a higher keyword resets it.

    ``1 Intro``, ``1.1 Scope``, ``2 Methods`` pass; after ``Chapter 3``, ``3.1`` does too.
    In a numbered PART (``PART 52``),
    numbers starting with that part are its clauses.
    """
    kept: list[Found] = []
    last: tuple[int, ...] | None = None
    part_number: int | None = None
    chapter: int | None = None
    last_note = 0
    for f in found:
        c = f.cand
        if c.kind == Kind.PART:
            part_number = _keyword_number(c.title)
        if c.kind in _RESETS_NUMBERING:
            last = None
            last_note = 0
            # "Chapter 3" then "3.1": the chapter's own numbers go on from its number
            chapter = _keyword_number(c.title) if c.kind == Kind.CHAPTER else None
        if c.kind == Kind.NOTE:
            note = _keyword_number(c.title) or 0
            if note <= last_note or note - last_note > MAX_NOTE_JUMP:
                continue  # a cross-reference such as "Refer to Note 13."
            last_note = note
        if c.kind != Kind.NUMBER or c.number is None:
            kept.append(f)
            continue
        num = c.number
        if part_number is not None and num[0] == part_number and len(num) >= 2:
            f.cand = replace(c, kind=Kind.CLAUSE)
            kept.append(f)
            continue
        if _continues(last, num) or (last is None and _opens_chapter(chapter, num)):
            last = num
            kept.append(f)
    return kept


def _opens_chapter(chapter: int | None, num: tuple[int, ...]) -> bool:
    """``3.1`` (or ``3.1.1``) right after "Chapter 3": the chapter's first numbered part."""
    return (
        chapter is not None
        and len(num) > 1
        and num[0] == chapter
        and all(n <= FIRST_NUMBER_MAX for n in num[1:])
    )


def _continues(last: tuple[int, ...] | None, num: tuple[int, ...]) -> bool:
    if last is None:
        return num[0] <= FIRST_NUMBER_MAX and all(n <= FIRST_NUMBER_MAX for n in num[1:])
    ok = num > last and num[0] - last[0] <= MAX_NUMBER_JUMP and (num[0] > last[0] or len(num) > 1)
    if ok and num[0] == last[0] and len(num) > 1:
        prefix = num[: len(last)]
        ok = prefix >= last[: len(prefix)]
    return ok
