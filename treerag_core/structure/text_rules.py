"""Strategy: headings found in the text by numbering, keywords and ALL-CAPS lines.

PDF text and ``.txt`` files carry their structure only in numbering and keywords
(``PART II``, ``Item 7.``, ``Note 3``, ``1.2.3 Title``, ``52.236-5 ...``) and in ALL-CAPS lines.
The pipeline: leave out page furniture (:mod:`.furniture`), find candidate lines and join
titles wrapped over several lines (:mod:`.candidates`, here), drop table-of-contents entries
(:mod:`.toc`), keep numbering that runs in sequence and give levels (:mod:`.levels`), then
write the text with ATX headings. A profile (:mod:`.profiles`) adds rules for one kind of
document. Every rule errs on the side of "body text".
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from ..limits import Limits
from ..tree.sections import PAGE_BREAK
from .candidates import (
    Candidate,
    Found,
    Kind,
    classify_line,
    is_caps_heading,
    is_toc_title,
    title_ok,
)
from .furniture import Position, furniture_lines
from .headings import Heading, render, summary
from .levels import levels_from_ranks
from .pages import ReadResult
from .profiles import PROFILES, Profile, detect_profile, known_title, split_glued_headings
from .sequence import check_sequence, drop_repeats
from .thresholds import (
    MAX_BLANKS_BEFORE_TITLE,
    MAX_CAPS_REPEATS,
    MAX_CONTINUATION_CHARS,
    MAX_GLUE_CHARS,
    MAX_GLUED_FRAGMENTS,
    MAX_SPACE_GLUE_CHARS,
    MAX_TITLE_CHARS,
    MAX_TITLE_CONTINUATION_LINES,
    MAX_TITLE_WORDS,
    MIN_GLUED_LINE_CHARS,
    MIN_PROSE_LETTER_SHARE,
    MIN_PROSE_LOWERCASE,
)
from .toc import drop_toc

# A long PDF whose headings are this few, or fewer than one per this many pages, is better
# walked by page groups than by a handful of sections hundreds of pages long.
MIN_HEADINGS = 3
MAX_PAGES_PER_HEADING = 50


@dataclass(frozen=True)
class StructuredText:
    """Result of :func:`structure_pages`."""

    text: str  # Markdown-style text, pages separated by "\n\f\n"
    heading_count: int  # all headings emitted
    keyword_heading_count: int  # headings from numbering/keywords (not ALL-CAPS)
    headings: tuple[tuple[str, int, int], ...]  # (title, level, 1-based page) for diagnostics
    profile: str = "generic"


def structure_by_text_rules(result: ReadResult, limits: Limits) -> str | None:
    """Strategy for paged documents: declines a long document the rules barely structure."""
    pages = [page.text for page in result.pages or []]
    structured = structure_pages(pages, _profile(limits))
    too_few = (
        structured.keyword_heading_count < MIN_HEADINGS and structured.heading_count < MIN_HEADINGS
    )
    sparse = structured.heading_count < len(pages) / MAX_PAGES_PER_HEADING
    if len(pages) > limits.pages_per_group and (too_few or sparse):
        return None
    return structured.text


def structure_whole_text(result: ReadResult, limits: Limits) -> str:
    """Strategy for running text (a .txt, a Word file without heading styles): the rules'
    headings, however few; no page groups, since such text has no real pages."""
    return structure_pages([page.text for page in result.pages or []], _profile(limits)).text


def _profile(limits: Limits) -> Profile | None:
    return PROFILES.get(limits.structure_profile)  # "auto" (or unknown): detect


def structure_text(text: str, profile: Profile | None = None) -> StructuredText:
    """Structure a plain text; form feeds in it are page breaks."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return structure_pages(text.split(PAGE_BREAK), profile)


def structure_pages(pages: list[str], profile: Profile | None = None) -> StructuredText:
    """Find headings in page texts and return one Markdown-style text with page breaks.

    ``profile=None`` detects it from the pages (:func:`.profiles.detect_profile`).
    """
    profile = profile or detect_profile(pages)
    page_lines = [
        split_glued_headings(profile, page.split("\n"), MIN_GLUED_LINE_CHARS) for page in pages
    ]
    dropped = furniture_lines(page_lines, profile)
    found: list[Found] = []
    for p, lines in enumerate(page_lines):
        i = 0
        while i < len(lines):
            hit = None if (p, i) in dropped else _heading_at(lines, i, p, dropped, profile)
            if hit is None:
                i += 1
                continue
            found.append(hit)
            i = hit.end
    found = drop_toc(found, page_lines, dropped, paged=len(page_lines) > 1)
    found = drop_repeats(found)
    caps_seen = Counter(f.cand.key for f in found if f.cand.kind == Kind.CAPS)
    found = [
        f for f in found if f.cand.kind != Kind.CAPS or caps_seen[f.cand.key] < MAX_CAPS_REPEATS
    ]
    found = check_sequence(found)
    levels_from_ranks(found)
    return _render(page_lines, dropped, found, profile)


def _heading_at(
    lines: list[str], i: int, page: int, dropped: set[Position], profile: Profile
) -> Found | None:
    """The heading that starts at line ``i`` (its title possibly over several lines)."""
    text, end = _glued(lines, i)
    cand = classify_line(text, profile)
    if cand is None:
        return None
    cand, end = _extend_title(cand, lines, end, page, dropped, profile)
    if cand.kind == Kind.CAPS and not _prose_follows(lines, end, profile):
        return None
    return Found(page, i, end, cand)


# A line ending so is complete: no fragment of it follows ("1.1. What is this FAQ?" is a
# whole heading, and the indented paragraph after it is its body).
_ENDS = ".:;,)?!。？！"
PARAGRAPH_INDENT = "    "  # a plain-text paragraph's indent, never a split-off fragment's


def _glued(lines: list[str], i: int) -> tuple[str, int]:
    """Line ``i`` with word fragments that PDF extraction split off re-attached.

    Extraction splits some headings as ``OVERVI`` / `` `` / ``EW`` or ``Busines`` / `` `` /
    ``s.`` or ``Changes`` / `` `` / `` in and Disagreements...``. Returns the joined text
    and the index after the last line it used. Only short lines not ending in punctuation
    are joined.
    """
    text = " ".join(lines[i].split())
    end = i + 1
    for _ in range(MAX_GLUED_FRAGMENTS):
        if len(text) > MAX_GLUE_CHARS or not text or text[-1] in _ENDS or end + 1 >= len(lines):
            break
        if lines[end].strip() or not lines[end + 1].strip():
            break  # a fragment sits after exactly one blank line
        nxt = lines[end + 1]
        word = nxt.strip()
        if text[-1].islower() and nxt[0].islower():
            text = text + word
        elif text[-1].isupper() and re.fullmatch(r"[A-Z]{1,3}[.:]?", word):
            text = text + word
        elif (
            len(text) <= MAX_SPACE_GLUE_CHARS
            and nxt[0] == " "
            and not nxt.startswith(PARAGRAPH_INDENT)  # an indented paragraph: the body
            and word[0].isalpha()
        ):
            text = f"{text} {word}"
        else:
            break
        text = " ".join(text.split())
        end += 2
    return text, end


_DANGLING = {"of", "and", "in", "to", "for", "the", "&", "on"}
_CAPS_RUN = re.compile(r"^[A-Z][A-Z ,'’&\-]*[A-Z]")


def _extend_title(
    cand: Candidate,
    lines: list[str],
    end: int,
    page: int,
    dropped: set[Position],
    profile: Profile,
) -> tuple[Candidate, int]:
    """Join a wrapped title (``Item 7.`` + the next short line, an ALL-CAPS title on two
    lines); returns the candidate and the index after its last line."""
    if cand.rest:
        return cand, end  # a run-in heading: the line's own text continues as body
    if cand.kind == Kind.CAPS and cand.title.split()[-1].lower() in _DANGLING:
        return _complete_dangling(cand, lines, end, profile), end
    bare = cand.kind not in {Kind.CAPS, Kind.NUMBER, Kind.CLAUSE} and _bare_label(cand)
    caps_title = cand.title.upper() == cand.title and cand.kind != Kind.NUMBER
    title = cand.title
    for _ in range(MAX_TITLE_CONTINUATION_LINES):
        j = end
        # skip blank lines only when looking for a missing title
        while (
            bare and j < len(lines) and not lines[j].strip() and j - end < MAX_BLANKS_BEFORE_TITLE
        ):
            j += 1
        if j >= len(lines) or (page, j) in dropped:
            break
        nxt, after_nxt = _glued(lines, j)
        other = classify_line(nxt, profile) if nxt else None
        if not nxt or (other is not None and other.kind != Kind.CAPS):
            break
        if bare:
            after = _next_nonblank(lines, after_nxt)
            runs_on = bool(after) and after[0].islower()  # nxt starts a paragraph
            if runs_on or len(nxt) > MAX_CONTINUATION_CHARS or not title_ok(nxt, MAX_TITLE_WORDS):
                known = known_title(profile, nxt) if cand.kind == Kind.ITEM else None
                if known:
                    title = f"{title} {known}"
                    cand = replace(cand, title=title)
                break
            if cand.kind == Kind.PART and nxt.upper() != nxt:
                break  # "PART III" then a sub-heading in title case
            title = f"{title} {nxt}"
            toc = cand.toc_like or is_toc_title(nxt, nxt) or bool(re.fullmatch(r"\d{1,3}", nxt))
            cand = replace(cand, title=title, toc_like=toc)
            end = after_nxt
            bare = False
            caps_title = nxt.upper() == nxt
            continue
        if caps_title and is_caps_heading(nxt) and len(title) + len(nxt) <= MAX_TITLE_CHARS:
            if cand.kind == Kind.CAPS and len(nxt.split()) < 2 and len(title.split()) < 2:
                break
            title = f"{title} {nxt}"
            cand = replace(cand, title=title)
            end = after_nxt
            continue
        break
    return cand, end


def _complete_dangling(cand: Candidate, lines: list[str], end: int, profile: Profile) -> Candidate:
    """``CONSOLIDATED STATEMENTS OF`` / ``CASH FLOWS(in millions)``: a title that ends on
    "of" continues with the capitals that open the next line; that line stays body text."""
    run = _CAPS_RUN.match(_next_nonblank(lines, end))
    if not run:
        return cand
    title = f"{cand.title} {run.group(0).strip()}"
    pattern = profile.title_pattern
    kind = Kind.STATEMENT if pattern is not None and pattern.match(title) else cand.kind
    return replace(cand, kind=kind, title=title, key=f"{kind} {title.lower()}")


def _prose_follows(lines: list[str], j: int, profile: Profile) -> bool:
    """An ALL-CAPS heading introduces text: the next line has lowercase words (or is a
    keyword heading). Column headers of tables are followed by more capitals or numbers."""
    nxt = " ".join(_next_nonblank(lines, j).split())
    if not nxt:
        return True  # end of page: the text continues on the next one
    cand = classify_line(nxt, profile)
    if cand is not None and cand.kind != Kind.CAPS:
        return True
    letters = sum(c.isalpha() for c in nxt)
    lower = sum(c.islower() for c in nxt)
    share = letters / max(1, len(nxt.replace(" ", "")))
    return lower >= MIN_PROSE_LOWERCASE and share >= MIN_PROSE_LETTER_SHARE


def _next_nonblank(lines: list[str], j: int) -> str:
    while j < len(lines) and not lines[j].strip():
        j += 1
    return lines[j].strip() if j < len(lines) else ""


def _bare_label(cand: Candidate) -> bool:
    """``Item 7.`` alone on its line: the title is on the next one."""
    return re.fullmatch(r"\S+\s+\S+?[.:\-–—]?", cand.title) is not None


def _render(
    page_lines: list[list[str]], dropped: set[Position], found: list[Found], profile: Profile
) -> StructuredText:
    headings = [
        Heading(f.page, f.start, f.end, f.cand.title, level=f.level, rest=f.cand.rest)
        for f in found
    ]
    return StructuredText(
        text=render(page_lines, headings, dropped),
        heading_count=len(found),
        keyword_heading_count=sum(f.cand.kind != Kind.CAPS for f in found),
        headings=summary(headings),
        profile=profile.name,
    )
