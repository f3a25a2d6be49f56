"""Tables of contents: their entries repeat the real headings and must not become them.

Dropped: lines with a trailing page number or dotted leaders, and whole blocks (a page, or
a blank-separated run of plain text) whose headings mostly come again later or whose lines
are mostly page references under a "Contents" title.
"""

from __future__ import annotations

import re

from .candidates import CONTENTS_WORDS, Found, Kind, ends_with_page_reference
from .furniture import Position
from .thresholds import (
    MIN_TOC_ENTRIES,
    MIN_TOC_PAGE_LINES,
    TOC_PAGE_REF_LINES,
    TOC_PAGE_REF_SHARE,
    TOC_REF_LINE_SHARE,
    TOC_REPEATED_ALWAYS,
    TOC_REPEATED_SHARE,
    TOC_TITLE_LINES,
)

_TOC_WORD = re.compile(rf"\b(?:{CONTENTS_WORDS})\b", re.IGNORECASE)


def _blocks(page_lines: list[list[str]], paged: bool) -> dict[Position, int]:
    """Position → block id: pages for paged text, blank-separated runs otherwise."""
    block: dict[Position, int] = {}
    bid = 0
    for p, lines in enumerate(page_lines):
        if paged:
            bid = p
        for i, ln in enumerate(lines):
            if not paged and not ln.strip():
                bid += 1
            block[(p, i)] = bid
    return block


def drop_toc(
    found: list[Found], page_lines: list[list[str]], dropped: set[Position], paged: bool
) -> list[Found]:
    """``found`` without TOC entries and without headings on TOC blocks."""
    block_of = _blocks(page_lines, paged)
    by_block: dict[int, list[Found]] = {}
    for f in found:
        by_block.setdefault(block_of[f.position], []).append(f)
    toc_blocks: set[int] = set()
    for bid, items in by_block.items():
        keyed = [f for f in items if f.cand.kind != Kind.CAPS]
        if len(keyed) < MIN_TOC_ENTRIES:
            continue
        first = keyed[0].position
        later = {f.cand.key for f in found if f.position > first and block_of[f.position] != bid}
        repeated = {f.cand.key for f in keyed if f.cand.key in later}
        toc_lines = sum(f.cand.toc_like for f in keyed)
        if len(repeated) >= TOC_REPEATED_ALWAYS or (
            len(repeated) >= MIN_TOC_ENTRIES and len(repeated) >= TOC_REPEATED_SHARE * len(keyed)
        ):
            toc_blocks.add(bid)
        elif toc_lines >= TOC_PAGE_REF_LINES and toc_lines >= TOC_PAGE_REF_SHARE * len(keyed):
            toc_blocks.add(bid)
        elif paged and _page_ref_share(page_lines[items[0].page], items[0].page, dropped) > (
            TOC_REF_LINE_SHARE
        ):
            toc_blocks.add(bid)
    return [f for f in found if not f.cand.toc_like and block_of[f.position] not in toc_blocks]


def _page_ref_share(lines: list[str], page: int, dropped: set[Position]) -> float:
    """Share of a page's lines that are page references (bare numbers, dotted leaders)."""
    nonblank = [
        " ".join(ln.split())
        for i, ln in enumerate(lines)
        if ln.strip() and (page, i) not in dropped
    ]
    if len(nonblank) < MIN_TOC_PAGE_LINES or not any(
        _TOC_WORD.search(ln) for ln in nonblank[:TOC_TITLE_LINES]
    ):
        return 0.0
    refs = sum(1 for ln in nonblank if re.fullmatch(r"\d{1,3}", ln) or ends_with_page_reference(ln))
    return refs / len(nonblank)
