"""Page furniture: running headers and footers, and page numbers, to leave out.

A header is a line at a page's edge that repeats on half the pages, or on three or more
consecutive pages (section running heads such as ``PART I`` / ``Item 1A`` in some filings).
For the latter the first occurrence is kept when it is a keyword heading, since that is
where the section starts. A page without the line (a cover's second page, a full-page
table) does not break a run: ``Table of Contents``, the link atop a filing's pages, is a
running head on its cover too. A running head that names where the reader is changes from
page to page but keeps its label: ``CHAPTER 3. CHOOSING A DEBIAN … 3.1. WHICH …`` then
``CHAPTER 3. … 3.2. BUT WHAT ABOUT …`` (LaTeX's book style, the Debian manuals).
"""

from __future__ import annotations

import re
from collections import Counter

from ..text.numbers import header_cells
from ..text.page_furniture import PAGE_NUMBER, fold_digits
from .candidates import Kind, classify_line
from .profiles import GENERIC, Profile
from .thresholds import (
    EDGE_LINES,
    MAX_RUN_GAP,
    MIN_RUNNING_PAGES,
    PAGE_NUMBER_EDGE_LINES,
    RUN_OF_PAGES,
    RUNNING_SHARE,
)

Position = tuple[int, int]  # (page index, line index)


def _periods(line: str) -> bool:
    """A table's column header of two or more periods ("Year Ended December 31, 2017 2016
    2015"): data, however often it is printed atop a page. Statements on nearly consecutive
    pages repeat it, and taking it for a running head cut their columns' years away."""
    cells = header_cells(line)
    return cells is not None and len(cells) >= 2


def _exact(line: str) -> str:
    """Digits kept: "Item 5." and "Item 6." are different running heads."""
    return " ".join(line.lower().split())


def _edge(lines: list[str]) -> list[int]:
    idx = [i for i, ln in enumerate(lines) if ln.strip()]
    return sorted(set(idx[:EDGE_LINES] + idx[-EDGE_LINES:]))


def furniture_lines(page_lines: list[list[str]], profile: Profile = GENERIC) -> set[Position]:
    """Positions of repeated headers/footers and bare page numbers."""
    if len(page_lines) < MIN_RUNNING_PAGES:
        return set()
    edges = [_edge(lines) for lines in page_lines]
    pages_of: dict[str, list[int]] = {}
    count: Counter[str] = Counter()
    for p, (lines, edge) in enumerate(zip(page_lines, edges, strict=True)):
        for key in {_exact(lines[i]) for i in edge}:
            if key:
                pages_of.setdefault(key, []).append(p)
        count.update({fold_digits(lines[i]) for i in edge if lines[i].strip()})
    threshold = max(MIN_RUNNING_PAGES, int(RUNNING_SHARE * len(page_lines)))
    everywhere = {k for k, n in count.items() if n >= threshold}
    everywhere -= _numbered_per_page(page_lines, edges, everywhere, profile)
    runs = _runs(page_lines, edges, pages_of, everywhere, profile)
    dropped: set[Position] = _labelled_heads(page_lines, edges)
    for p, (lines, edge) in enumerate(zip(page_lines, edges, strict=True)):
        outer = edge[:PAGE_NUMBER_EDGE_LINES] + edge[-PAGE_NUMBER_EDGE_LINES:]
        for i in edge:
            text = " ".join(lines[i].split())
            if _periods(text):
                continue
            if fold_digits(lines[i]) in everywhere or p in runs.get(_exact(lines[i]), ()):
                dropped.add((p, i))
            elif i in outer and PAGE_NUMBER.match(text):
                dropped.add((p, i))
    return dropped


def _numbered_per_page(
    page_lines: list[list[str]],
    edges: list[list[int]],
    folded: set[str],
    profile: Profile,
) -> set[str]:
    """Shapes that are a new numbered heading on each page ("1 Chapter 1", "2 Chapter 2"
    in a short document), not a running head: a keyword heading whose number never repeats.
    A chapter's running head repeats its chapter number from page to page."""
    numbers: dict[str, list[str]] = {}
    for lines, edge in zip(page_lines, edges, strict=True):
        for i in edge:
            key = fold_digits(lines[i])
            if key not in folded:
                continue
            cand = classify_line(lines[i], profile)
            if cand is None or cand.kind in {Kind.CAPS, Kind.STATEMENT}:
                numbers.setdefault(key, []).append("")  # not a heading: furniture after all
            else:
                numbers.setdefault(key, []).append(cand.key)
    return {k for k, keys in numbers.items() if all(keys) and len(set(keys)) == len(keys)}


def _runs(
    page_lines: list[list[str]],
    edges: list[list[int]],
    pages_of: dict[str, list[int]],
    everywhere: set[str],
    profile: Profile,
) -> dict[str, set[int]]:
    """key → pages in runs of (nearly) consecutive pages that repeat it (its first page kept when
    the line is a keyword heading: that is where the section starts)."""
    runs: dict[str, set[int]] = {}
    for key, pages in pages_of.items():
        if fold_digits(key) in everywhere or len(pages) < RUN_OF_PAGES:
            continue
        start = 0
        for n in range(1, len(pages) + 1):
            if n == len(pages) or pages[n] - pages[n - 1] > MAX_RUN_GAP:
                if n - start >= RUN_OF_PAGES:
                    runs.setdefault(key, set()).update(pages[start + 1 : n])
                    first = pages[start]
                    if not _keyword_line(page_lines[first], edges[first], key, profile):
                        runs[key].add(first)
                start = n
    return runs


def _keyword_line(lines: list[str], edge: list[int], key: str, profile: Profile) -> bool:
    for i in edge:
        if _exact(lines[i]) == key:
            cand = classify_line(lines[i], profile)
            return cand is not None and cand.kind != Kind.CAPS
    return False


# A running head's label: a word and a number ("CHAPTER 3.", "Note 5") or a section number of
# two levels or more ("3.1."), then more words; the page number may stand before it ("12
# CHAPTER 1. INTRODUCTION") or after. Amounts and percentages mark a table row ("Level 3
# assets 1,234"), dotted leaders a contents entry: neither is a running head.
_LABEL = re.compile(r"^\s*(?:\d{1,4}\s+)?([^\W\d_]+\s+\d+|\d+(?:\.\d+)+)(\.?)\s+\S")
_PAGE_AFTER = re.compile(r"\s\d{1,4}\s*$")
_NOT_A_HEAD = re.compile(r"\d{3}|[$%€£]")
_LEADERS = re.compile(r"(?:[.·•…_]\s*){3,}\d{1,4}\s*$")


def _labelled_heads(page_lines: list[list[str]], edges: list[list[int]]) -> set[Position]:
    """Running heads whose words change from page to page under one label (the chapter's
    number, with the current section's title after it): a label printed at the outermost
    lines of pages close together is where the reader is, not a section starting. A family
    of such labels (``chapter #.``) is furniture when most of its lines share their label
    with a line at most MAX_RUN_GAP pages away (:func:`_recurring`).
    A line that another of its label extends, or that extends another, is kept: a heading
    and what repeats it ("Note 5. Debt", then "Note 5. Debt (continued)"; "Chapter 1 Basics"
    and its contents entry, "Chapter 1 Basics 1")."""
    family: dict[str, list[tuple[Position, str, str]]] = {}
    for p, (lines, edge) in enumerate(zip(page_lines, edges, strict=True)):
        for i in edge[:PAGE_NUMBER_EDGE_LINES] + edge[-PAGE_NUMBER_EDGE_LINES:]:
            match = _LABEL.match(lines[i])
            rest = _PAGE_AFTER.sub("", lines[i][match.end(1) :]) if match else ""
            if match is None or _NOT_A_HEAD.search(rest) or _LEADERS.search(lines[i]):
                continue
            label = " ".join(match.group(1).lower().split())
            key = fold_digits(label) + match.group(2)
            family.setdefault(key, []).append(((p, i), label, _exact(lines[i])))
    dropped: set[Position] = set()
    for members in family.values():
        pages = {position[0] for position, _, _ in members}
        if len(pages) < MIN_RUNNING_PAGES or _recurring(members) < RUNNING_SHARE * len(members):
            continue
        for position, label, text in members:
            kin = [t for _, lb, t in members if lb == label and t != text]
            if not any(t.startswith(text) or text.startswith(t) for t in kin):
                dropped.add(position)
    return dropped


def _recurring(members: list[tuple[Position, str, str]]) -> int:
    """Lines whose label recurs within MAX_RUN_GAP pages: a running head follows its chapter
    from page to page; two plans filed in one exhibit both print "2.01 Definitions." far
    apart, and those are headings."""
    pages: dict[str, list[int]] = {}
    for (page, _), label, _ in members:
        pages.setdefault(label, []).append(page)
    near = {
        label
        for label, found in pages.items()
        if any(0 < b - a <= MAX_RUN_GAP for a, b in zip(found, found[1:], strict=False))
    }
    return sum(1 for _, label, _ in members if label in near)
