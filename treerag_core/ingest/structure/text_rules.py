"""Plain text (optionally with form-feed pages) → Markdown-style text with ATX headings.

PDF text and ``.txt`` files carry their structure only in numbering and keywords
(``PART II``, ``Item 7.``, ``Note 3``, ``1.2.3 Title``, ``52.236-5 ...``) and in ALL-CAPS lines.
This module finds those headings and nothing else: a false heading splits a section in the
wrong place and misleads navigation, which is worse than a missed one, so every rule errs on
the side of "body text".

What is never a heading here:
- table-of-contents entries (a trailing page number or dotted leaders) and whole TOC pages
  (many keyword headings that all occur again later, or mostly page-referenced lines);
- running page headers/footers that repeat on most pages, and bare page numbers (dropped);
- sentences (lowercase start, trailing comma, many words ending in a period) and table rows
  (mostly digits);
- numbered lines that break the running numbering (a ``1.`` list inside section ``4``).

Levels come from ranks (PART > Chapter/Article > Subpart > Section/§ > Item > Note/``1`` >
``1.2`` > ...), compressed to the ranks the document actually uses, so a 10-K without PART
lines still gets its Items at level 1. ALL-CAPS lines sit one level below the latest keyword
or numbered heading.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from ...limits import Limits
from ..pages import ReadResult
from ..sections import PAGE_BREAK, escape_line, heading, join_pages

# Ranks: smaller = higher in the tree. Compressed to levels per document.
_RANK = {
    "part": 10.0,
    "chapter": 12.0,
    "article": 12.0,
    "subpart": 20.0,
    "section": 25.0,
    "item": 30.0,
    "note": 31.0,
    "clause": 35.0,
}
_NUMBER_BASE = 30.0  # numbered heading of depth d has rank 30 + d
_ZONE = 3  # lines at the top/bottom of a page examined for running headers/footers
_MAX_TITLE_WORDS = 16
_MAX_TITLE_CHARS = 150

_KEYWORDS = {
    "part": "part",
    "chapter": "chapter",
    "article": "article",
    "subpart": "subpart",
    "section": "section",
    "item": "item",
    "note": "note",
    "§": "section",
}
_KEYWORD_RE = re.compile(
    r"^(?P<kw>PART|Part|CHAPTER|Chapter|ARTICLE|Article|SUBPART|Subpart|SECTION|Section"
    r"|ITEM|Item|NOTE|Note|§)"
    r"\s*(?P<num>\d{1,4}(?:\.\d{1,4})*[A-Z]?|[IVXLC]{1,7})"
    r"(?P<sep>\s*[.:\-–—]+\s*|\s+|$)(?P<title>.*)$"
)
_NUMBER_RE = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,4}){0,5})(?P<dot>\.?)\s+(?P<title>\S.*)$")
_CLAUSE_RE = re.compile(r"^(?P<num>\d{1,3}\.\d{1,4}-\d{1,4})\.?\s+(?P<title>\S.*)$")
_ROMAN_RE = re.compile(r"^[IVXLC]{1,7}$")
_TRAILING_PAGE_RE = re.compile(r"(?:\.{3,}|…+|\s)\s*(\d{1,3})\s*$")
_DOT_LEADER_RE = re.compile(r"(?:\.\s?){4,}|…{2,}|_{4,}")
_PAGE_NUMBER_RE = re.compile(
    r"^(?:page\s+)?\d{1,4}(?:\s+of\s+\d{1,4})?$|^[-–—]\s*\d{1,4}\s*[-–—]$|^[ivxlc]{1,6}$",
    re.IGNORECASE,
)
_TOC_WORD_RE = re.compile(r"\b(table of contents|contents|index)\b", re.IGNORECASE)
_CONNECTORS = {"AND", "OR", "OF", "TO", "FOR", "IN", "WITH", "BY", "ON", "AT", "&", "-"}
_REFERENCE_START = re.compile(r"^(of|and|or|to|in|through|thru|above|below|hereof|herein)\b")


@dataclass(frozen=True)
class Candidate:
    """A line that looks like a heading, before TOC and sequence filtering."""

    kind: str  # part, chapter, article, subpart, section, item, note, clause, number, caps
    title: str
    key: str  # identity used to spot TOC entries repeated later ("item 7", "number 1.2")
    number: tuple[int, ...] | None = None
    toc_like: bool = False  # ends in a page number or dotted leader
    rest: str = ""  # run-in text after the title ("Definitions. As used here...") kept as body


@dataclass(frozen=True)
class StructuredText:
    """Result of :func:`structure_pages`."""

    text: str  # Markdown-style text, pages separated by "\n\f\n"
    heading_count: int  # all headings emitted
    keyword_heading_count: int  # headings from numbering/keywords (not ALL-CAPS)
    headings: tuple[tuple[str, int, int], ...]  # (title, level, 1-based page) for diagnostics


@dataclass
class _Found:
    page: int
    line: int
    span: int
    cand: Candidate
    rank: float = 0.0
    level: int = 1


# A long PDF whose headings are this few, or fewer than one per this many pages, is better
# walked by page groups than by a handful of sections hundreds of pages long.
MIN_HEADINGS = 3
MAX_PAGES_PER_HEADING = 50


def structure_by_text_rules(result: ReadResult, limits: Limits) -> str | None:
    """Strategy for paged documents: declines a long document the rules barely structure."""
    pages = [page.text for page in result.pages or []]
    structured = structure_pages(pages)
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
    return structure_pages([page.text for page in result.pages or []]).text


def structure_text(text: str) -> StructuredText:
    """Structure a plain text; form feeds in it are page breaks."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return structure_pages(text.split(PAGE_BREAK))


def structure_pages(pages: list[str]) -> StructuredText:
    """Find headings in page texts and return one Markdown-style text with page breaks."""
    page_lines = [_split_glued_headings(page.split("\n")) for page in pages]
    dropped = _running_lines(page_lines) if len(page_lines) >= 3 else set()
    found: list[_Found] = []
    for p, lines in enumerate(page_lines):
        i = 0
        while i < len(lines):
            if (p, i) in dropped:
                i += 1
                continue
            text, glued = _glued(lines, i)
            cand = classify_line(text)
            if cand is None:
                i += 1
                continue
            cand, span = _extend_title(cand, lines, i + glued - 1, p, dropped)
            if cand.kind == "caps" and not _prose_follows(lines, i + glued - 1 + span):
                i += 1
                continue
            found.append(_Found(p, i, span + glued - 1, cand))
            i += span + glued - 1
    found = _drop_toc(found, page_lines, dropped, paged=len(page_lines) > 1)
    found = _drop_repeats(found)
    caps_seen = Counter(f.cand.key for f in found if f.cand.kind == "caps")
    found = [f for f in found if f.cand.kind != "caps" or caps_seen[f.cand.key] < 3]
    found = _check_sequence(found)
    _assign_levels(found)
    return _render(page_lines, dropped, found)


_GLUED_HEADING = re.compile(
    r"(?<=[.!?:;)”\"] )\s*((?:NOTE|ITEM|PART)\s+[0-9IVX]{1,4}[A-C]?\s*[.:\-–—]\s*[A-Z][A-Z0-9 ,&'’()/\-]{3,})$"
)


def _split_glued_headings(lines: list[str]) -> list[str]:
    """Split ``...finished goods. NOTE 3 — PROPERTY, PLANT`` into body + heading lines.

    Some PDFs run an ALL-CAPS note/item heading into the end of the previous paragraph.
    """
    out: list[str] = []
    for line in lines:
        line = line.rstrip()
        m = _GLUED_HEADING.search(line) if len(line) > 20 else None
        if m and m.start(1) > 0:
            out.append(line[: m.start(1)].rstrip())
            out.append(m.group(1))
        else:
            out.append(line)
    return out


# --- classification ---------------------------------------------------------------------


def classify_line(line: str) -> Candidate | None:
    """Heading candidate for one line, or None. Pure: decides on the line alone."""
    text = " ".join(line.split())
    if not text or len(text) > _MAX_TITLE_CHARS + 20:
        return None
    m = _KEYWORD_RE.match(text)
    if m:
        return _keyword_candidate(m)
    if text.endswith((",", ";")):
        return None
    m = _CLAUSE_RE.match(text)
    if m and _title_ok(m.group("title")):
        title = m.group("title")
        return Candidate(
            "clause", text, f"clause {m.group('num')}", None, _is_toc_title(title, text)
        )
    m = _NUMBER_RE.match(text)
    if m:
        return _number_candidate(m, text)
    if _STATEMENT_RE.match(text) and not text.endswith(".") and not text[-1].isdigit():
        title = re.sub(r"\s*\(.*$", "", text)  # drop "(in millions, except per share data)"
        return Candidate("statement", title, f"statement {title.lower()}")
    if _is_caps_heading(text):
        return Candidate("caps", text, f"caps {text.lower()}")
    return None


# The primary statements and reports of a financial filing, in any letter case: their pages
# are tables with no prose, so they are headings the ALL-CAPS rule cannot see.
_STATEMENT_RE = re.compile(
    r"^(?:(?:consolidated|combined|condensed|interim|unaudited)\s+)*"
    r"(?:statements?\s+of\s+(?:consolidated\s+)?(?:income|earnings|operations|"
    r"comprehensive\s+(?:income|loss|earnings)|cash\s+flows?|financial\s+position|"
    r"(?:changes\s+in\s+)?(?:stockholders|shareholders|shareowners|share\s*owners)['’]?\s+"
    r"(?:equity|deficit)|(?:changes\s+in\s+)?equity)|balance\s+sheets?|"
    r"notes\s+to\s+(?:the\s+)?(?:consolidated\s+|condensed\s+)*financial\s+statements|"
    r"report\s+of\s+independent\s+registered\s+public\s+accounting\s+firm)"
    r"(?:\s*\(.{0,60}\))?\s*$",
    re.IGNORECASE,
)


def _keyword_candidate(m: re.Match[str]) -> Candidate | None:
    kw = _KEYWORDS[m.group("kw").lower()]
    num = m.group("num")
    sep = m.group("sep")
    title = m.group("title").strip()
    if _ROMAN_RE.match(num) and kw not in {"part", "chapter", "article"}:
        return None  # "Item IV" is not a thing; "Section I" is too ambiguous with words
    if kw in {"item", "note"} and not re.fullmatch(r"\d{1,2}[A-Z]?", num):
        return None
    if kw == "section" and not re.fullmatch(r"\d{1,3}(?:\.\d{1,3})*", num):
        return None  # "Section 1350 Certifications", "Section 409A": references, not parts
    if title.endswith(",") and (title.upper() != title or sep.strip() == ""):
        return None  # a sentence or a cross-reference list, not a wrapped caps title
    if title:
        if _REFERENCE_START.match(title) or not _title_ok(title.rstrip(",")):
            return None  # "Item 8 of this report ...", "Part II, Item 7" (comma rejected above)
        if not sep.strip() and kw in {"item", "note"} and title[0].isdigit():
            return None
    full = m.string.strip()
    rest = ""
    run_in = re.search(r"[.:]\s+(?=[A-Z“\"(])", title)
    if run_in and len(title[: run_in.start()].split()) <= 10:
        cut = len(full) - len(title) + run_in.start() + 1
        full, rest = full[:cut], full[cut:].strip()
    return Candidate(kw, full, f"{kw} {num.lower()}", None, _is_toc_title(title, full), rest)


def _number_candidate(m: re.Match[str], text: str) -> Candidate | None:
    num = m.group("num")
    title = m.group("title")
    parts = tuple(int(x) for x in num.split("."))
    if len(parts) == 1 and parts[0] > 99 or parts[0] == 0:
        return None
    if not _title_ok(title, max_words=12) or not (title[0].isalpha() or title[0] in "\"'“("):
        return None
    letters = sum(c.isalpha() for c in title)
    if letters < 3 or letters / max(1, len(title.replace(" ", ""))) < 0.7:
        return None  # table rows: "1 2,345 6,789"
    words = title.split()
    if title.endswith(".") and len(words) >= 8:
        return None  # a numbered sentence, not a title
    if len(parts) == 1 and not m.group("dot"):
        small = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to"}
        if len(words) > 8 or any(w[0].islower() and w not in small for w in words):
            return None  # "5 Outlet Centers in fiscal 2024." is a sentence
    return Candidate("number", text, f"number {num}", parts, _is_toc_title(title, text))


def _title_ok(title: str, max_words: int = _MAX_TITLE_WORDS) -> bool:
    """A heading title: starts with a capital (or digit/quote/paren), short, not a sentence."""
    title = title.strip()
    if not title:
        return False
    first = next((c for c in title if c.isalnum()), "")
    if not first or first.islower():
        return False
    if title[0].islower():
        return False
    words = title.split()
    if len(words) > max_words or len(title) > _MAX_TITLE_CHARS:
        return False
    if title.endswith((",", ";")):
        return False
    return not (title.endswith(".") and len(words) > 12)


def _is_toc_title(title: str, full: str) -> bool:
    if _DOT_LEADER_RE.search(full):
        return True
    m = _TRAILING_PAGE_RE.search(title) if title else None
    return bool(m and sum(c.isalpha() for c in title[: m.start()]) >= 2)


def _is_caps_heading(text: str) -> bool:
    """Short line of capitals and few digits: a heading in most reports and statutes."""
    if len(text) < 4 or len(text) > 90 or any(c.islower() for c in text):
        return False
    letters = sum(c.isalpha() for c in text)
    visible = len(text.replace(" ", ""))
    if letters < 4 or letters / visible < 0.8:
        return False
    words = text.split()
    if len(words) > 12 or (len(words) == 1 and letters < 5):
        return False
    if text.endswith((",", ";", ":")) or text[-1].isdigit():
        return False
    if words[0] in _CONNECTORS or "%" in text or "$" in text:
        return False  # "AND TAXES", "CHANGE % CHANGE": table headers and wrapped fragments
    if text[0] in "([" or text.endswith(")") and "(" in text[:3]:
        return False  # "(MILLIONS)", "(UNAUDITED)"
    return text.upper() not in {"N/A", "NONE", "TOTAL", "TOTALS", "NOT APPLICABLE"}


_DANGLING = {"of", "and", "in", "to", "for", "the", "&", "on"}
_CAPS_RUN = re.compile(r"^[A-Z][A-Z ,'’&\-]*[A-Z]")


def _complete_dangling(cand: Candidate, lines: list[str], i: int) -> Candidate:
    """``CONSOLIDATED STATEMENTS OF`` / ``CASH FLOWS(in millions)``: a title that ends on
    "of" continues with the capitals that open the next line; that line stays body text."""
    run = _CAPS_RUN.match(_next_nonblank(lines, i + 1))
    if not run:
        return cand
    title = f"{cand.title} {run.group(0).strip()}"
    kind = "statement" if _STATEMENT_RE.match(title) else cand.kind
    return replace(cand, kind=kind, title=title, key=f"{kind} {title.lower()}")


def _extend_title(
    cand: Candidate, lines: list[str], i: int, page: int, dropped: set[tuple[int, int]]
) -> tuple[Candidate, int]:
    """Join a wrapped title: ``Item 7.`` + next short line, or ALL-CAPS title on two lines."""
    span = 1
    if cand.rest:
        return cand, span  # a run-in heading: the line's own text continues as body
    if cand.kind == "caps" and cand.title.split()[-1].lower() in _DANGLING:
        return _complete_dangling(cand, lines, i), span
    bare = cand.kind not in {"caps", "number", "clause"} and _bare_label(cand)
    caps_title = cand.title.upper() == cand.title and cand.kind != "number"
    title = cand.title
    for _ in range(2):
        j = i + span
        # skip blank lines only when looking for a missing title
        while bare and j < len(lines) and not lines[j].strip() and j - (i + span) < 2:
            j += 1
        if j >= len(lines) or (page, j) in dropped:
            break
        nxt, glued = _glued(lines, j)
        other = classify_line(nxt) if nxt else None
        if not nxt or (other is not None and other.kind != "caps"):
            break
        if bare:
            after = _next_nonblank(lines, j + glued)
            runs_on = bool(after) and after[0].islower()  # nxt starts a paragraph
            if runs_on or len(nxt) > 130 or not _title_ok(nxt, max_words=16):
                known = _known_title(nxt) if cand.kind == "item" else None
                if known:
                    title = f"{title} {known}"
                    cand = replace(cand, title=title)
                break
            if cand.kind == "part" and nxt.upper() != nxt:
                break  # "PART III" then a sub-heading in title case
            title = f"{title} {nxt}"
            toc = cand.toc_like or _is_toc_title(nxt, nxt) or bool(re.fullmatch(r"\d{1,3}", nxt))
            cand = replace(cand, title=title, toc_like=toc)
            span = j + glued - i
            bare = False
            caps_title = nxt.upper() == nxt
            continue
        if caps_title and _is_caps_heading(nxt) and len(title) + len(nxt) <= _MAX_TITLE_CHARS:
            if cand.kind == "caps" and len(nxt.split()) < 2 and len(title.split()) < 2:
                break
            title = f"{title} {nxt}"
            cand = replace(cand, title=title)
            span = j + glued - i
            continue
        break
    return cand, span


def _prose_follows(lines: list[str], j: int) -> bool:
    """An ALL-CAPS heading introduces text: the next line has lowercase words (or is a
    keyword heading). Column headers of tables are followed by more capitals or numbers."""
    nxt = " ".join(_next_nonblank(lines, j).split())
    if not nxt:
        return True  # end of page: the text continues on the next one
    cand = classify_line(nxt)
    if cand is not None and cand.kind != "caps":
        return True
    letters = sum(c.isalpha() for c in nxt)
    lower = sum(c.islower() for c in nxt)
    return lower >= 3 and letters / max(1, len(nxt.replace(" ", ""))) >= 0.6


def _next_nonblank(lines: list[str], j: int) -> str:
    while j < len(lines) and not lines[j].strip():
        j += 1
    return lines[j].strip() if j < len(lines) else ""


# Standard titles of 10-K / 10-Q items: when extraction runs an item's title into its first
# sentence ("Business This Annual Report..."), the known title is cut out of the line.
_ITEM_TITLES = (
    "Business",
    "Risk Factors",
    "Unresolved Staff Comments",
    "Cybersecurity",
    "Properties",
    "Legal Proceedings",
    "Mine Safety Disclosures",
    "Selected Financial Data",
    "Selected Consolidated Financial Data",
    "Management's Discussion and Analysis of Financial Condition and Results of Operations",
    "Quantitative and Qualitative Disclosures About Market Risk",
    "Financial Statements and Supplementary Data",
    "Financial Statements",
    "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure",
    "Controls and Procedures",
    "Other Information",
    "Directors, Executive Officers, and Corporate Governance",
    "Executive Compensation",
    "Principal Accountant Fees and Services",
    "Principal Accounting Fees and Services",
    "Exhibits, Financial Statement Schedules",
    "Exhibits",
    "Form 10-K Summary",
)


def _letters(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalpha())


def _known_title(line: str) -> str | None:
    """The standard item title that ``line`` starts with (spacing-insensitive), if any."""
    have = _letters(line)
    for known in _ITEM_TITLES:
        want = _letters(known)
        if have.startswith(want):
            return known
    return None


def _glued(lines: list[str], i: int) -> tuple[str, int]:
    """Line ``i`` with word fragments that PDF extraction split off re-attached.

    pypdf splits some headings as ``OVERVI`` / `` `` / ``EW`` or ``Busines`` / `` `` / ``s.``
    or ``Changes`` / `` `` / `` in and Disagreements...``. Returns the joined text and how
    many lines it used. Only short lines not ending in punctuation are joined.
    """
    text = " ".join(lines[i].split())
    used = 1
    for _ in range(3):
        j = i + used
        if len(text) > 80 or not text or text[-1] in ".:;,)" or j + 1 >= len(lines):
            break
        if lines[j].strip() or not lines[j + 1].strip():
            break
        nxt = lines[j + 1]
        word = nxt.strip()
        if text[-1].islower() and nxt[0].islower():
            text = text + word
        elif text[-1].isupper() and re.fullmatch(r"[A-Z]{1,3}[.:]?", word):
            text = text + word
        elif len(text) <= 40 and nxt[0] == " " and word[0].isalpha():
            text = f"{text} {word}"
        else:
            break
        text = " ".join(text.split())
        used += 2
    return text, used


def _bare_label(cand: Candidate) -> bool:
    return re.fullmatch(r"\S+\s+\S+?[.:\-–—]?", cand.title) is not None


# --- page-level noise: running headers and page numbers ----------------------------------


def _norm(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.lower().split()))


def _exact(line: str) -> str:
    return " ".join(line.lower().split())


def _zone(lines: list[str]) -> list[int]:
    idx = [i for i, ln in enumerate(lines) if ln.strip()]
    return sorted(set(idx[:_ZONE] + idx[-_ZONE:]))


def _running_lines(page_lines: list[list[str]]) -> set[tuple[int, int]]:
    """(page, line) pairs of repeated headers/footers and bare page numbers, to drop.

    A header is a top/bottom line that repeats on half the pages, or on three or more
    consecutive pages (section running heads such as ``PART I`` / ``Item 1A`` in some
    filings). For the latter the first occurrence is kept when it is a keyword heading,
    since that is where the section starts.
    """
    zones = [_zone(lines) for lines in page_lines]
    pages_of: dict[str, list[int]] = {}  # digits kept: "Item 5." ≠ "Item 6."
    count: Counter[str] = Counter()  # digits folded: "Page 3" == "Page 4"
    for p, (lines, zone) in enumerate(zip(page_lines, zones, strict=True)):
        for key in {_exact(lines[i]) for i in zone}:
            if key:
                pages_of.setdefault(key, []).append(p)
        count.update({_norm(lines[i]) for i in zone if lines[i].strip()})
    threshold = max(3, int(0.5 * len(page_lines)))
    everywhere = {k for k, n in count.items() if n >= threshold}
    runs: dict[str, set[int]] = {}  # key -> pages in runs of >= 3 consecutive pages
    for key, ps in pages_of.items():
        if _norm(key) in everywhere or len(ps) < 3:
            continue
        start = 0
        for n in range(1, len(ps) + 1):
            if n == len(ps) or ps[n] != ps[n - 1] + 1:
                if n - start >= 3:
                    runs.setdefault(key, set()).update(ps[start + 1 : n])
                    first = ps[start]
                    if not _keyword_line(page_lines[first], zones[first], key):
                        runs[key].add(first)
                start = n
    dropped: set[tuple[int, int]] = set()
    for p, (lines, zone) in enumerate(zip(page_lines, zones, strict=True)):
        edge = zone[:2] + zone[-2:]
        for i in zone:
            text = " ".join(lines[i].split())
            if _norm(lines[i]) in everywhere or p in runs.get(_exact(lines[i]), ()):
                dropped.add((p, i))
            elif i in edge and _PAGE_NUMBER_RE.match(text):
                dropped.add((p, i))
    return dropped


def _keyword_line(lines: list[str], zone: list[int], key: str) -> bool:
    for i in zone:
        if _exact(lines[i]) == key:
            cand = classify_line(lines[i])
            return cand is not None and cand.kind != "caps"
    return False


# --- table of contents ------------------------------------------------------------------


def _blocks(page_lines: list[list[str]], paged: bool) -> dict[tuple[int, int], int]:
    """Map (page, line) → block id: pages for paged text, blank-separated runs otherwise."""
    block: dict[tuple[int, int], int] = {}
    bid = 0
    for p, lines in enumerate(page_lines):
        if paged:
            bid = p
        for i, ln in enumerate(lines):
            if not paged and not ln.strip():
                bid += 1
            block[(p, i)] = bid
    return block


def _drop_toc(
    found: list[_Found],
    page_lines: list[list[str]],
    dropped: set[tuple[int, int]],
    paged: bool,
) -> list[_Found]:
    """Remove TOC entries: page-referenced lines, and whole blocks that list later headings."""
    block_of = _blocks(page_lines, paged)
    by_block: dict[int, list[_Found]] = {}
    for f in found:
        by_block.setdefault(block_of[(f.page, f.line)], []).append(f)
    toc_blocks: set[int] = set()
    for bid, items in by_block.items():
        keyed = [f for f in items if f.cand.kind != "caps"]
        if len(keyed) < 3:
            continue
        first_pos = (keyed[0].page, keyed[0].line)
        later = {
            f.cand.key
            for f in found
            if (f.page, f.line) > first_pos and block_of[(f.page, f.line)] != bid
        }
        repeated = {f.cand.key for f in keyed if f.cand.key in later}
        toc_lines = sum(f.cand.toc_like for f in keyed)
        if len(repeated) >= 4 or (len(repeated) >= 3 and len(repeated) >= 0.6 * len(keyed)):
            toc_blocks.add(bid)
        elif toc_lines >= 3 and toc_lines >= 0.5 * len(keyed):
            toc_blocks.add(bid)
        elif paged and _page_ref_share(page_lines[items[0].page], items[0].page, dropped) > 0.4:
            toc_blocks.add(bid)
    return [
        f for f in found if not f.cand.toc_like and block_of[(f.page, f.line)] not in toc_blocks
    ]


def _page_ref_share(lines: list[str], page: int, dropped: set[tuple[int, int]]) -> float:
    """Share of a page's lines that are page references (bare numbers, dotted leaders)."""
    nonblank = [
        " ".join(ln.split())
        for i, ln in enumerate(lines)
        if ln.strip() and (page, i) not in dropped
    ]
    if len(nonblank) < 8 or not any(_TOC_WORD_RE.search(ln) for ln in nonblank[:6]):
        return 0.0
    refs = sum(1 for ln in nonblank if re.fullmatch(r"\d{1,3}", ln) or _TRAILING_PAGE_RE.search(ln))
    return refs / len(nonblank)


def _drop_repeats(found: list[_Found]) -> list[_Found]:
    """Of two same-key headings in a row on one page (a running head kept as the start of
    its run, then the real heading), keep the one with the longer title."""
    kept: list[_Found] = []
    for f in found:
        prev = kept[-1] if kept else None
        if prev and prev.cand.key == f.cand.key and prev.page == f.page:
            if len(f.cand.title) > len(prev.cand.title):
                kept[-1] = f
            continue
        kept.append(f)
    return kept


# --- numbering sequence and levels -------------------------------------------------------


def _check_sequence(found: list[_Found]) -> list[_Found]:
    """Keep numbered headings that continue the running numbering; a higher keyword resets it.

    ``1 Intro``, ``1.1 Scope``, ``2 Methods`` pass; a ``1.`` list item inside section 4 does
    not. In a numbered PART (``PART 52``), numbers starting with that part are sections.
    """
    kept: list[_Found] = []
    last: tuple[int, ...] | None = None
    part_number: int | None = None
    last_note = 0
    for f in found:
        c = f.cand
        if c.kind == "part":
            m = re.match(r"\S+\s+(\d+)", c.title)
            part_number = int(m.group(1)) if m else None
        if c.kind in {"part", "chapter", "article", "subpart", "item"}:
            last = None
            last_note = 0
        if c.kind == "note":
            m = re.match(r"\S+\s+(\d+)", c.title)
            note = int(m.group(1)) if m else 0
            if note <= last_note or note - last_note > 3:
                continue  # a cross-reference such as "Refer to Note 13."
            last_note = note
        if c.kind != "number" or c.number is None:
            kept.append(f)
            continue
        num = c.number
        if part_number is not None and num[0] == part_number and len(num) >= 2:
            f.cand = replace(c, kind="clause")
            kept.append(f)
            continue
        if last is None:
            ok = num[0] <= 2 and all(n <= 2 for n in num[1:])
        else:
            ok = num > last and num[0] - last[0] <= 2 and (num[0] > last[0] or len(num) > 1)
            if ok and num[0] == last[0] and len(num) > 1:
                prefix = num[: len(last)]
                ok = prefix >= last[: len(prefix)]
        if ok:
            last = num
            kept.append(f)
    return kept


# Headings without a numbering rank sit one level below the latest ranked heading.
_UNRANKED = {"caps", "statement"}


def _assign_levels(found: list[_Found]) -> None:
    for f in found:
        c = f.cand
        if c.kind == "number" and c.number is not None:
            f.rank = _NUMBER_BASE + len(c.number)
        elif c.kind not in _UNRANKED:
            f.rank = _RANK[c.kind]
    # Level = 1 + open headings of higher rank: PART → Item → Note nest, while a later
    # Article after Item 16 climbs back to just below the PART.
    stack: list[float] = []
    for f in found:
        if f.cand.kind in _UNRANKED:
            f.level = min(6, len(stack) + 1)
            continue
        while stack and stack[-1] >= f.rank:
            stack.pop()
        f.level = min(6, len(stack) + 1)
        stack.append(f.rank)


def _render(
    page_lines: list[list[str]], dropped: set[tuple[int, int]], found: list[_Found]
) -> StructuredText:
    at = {(f.page, f.line): f for f in found}
    pages_out: list[str] = []
    for p, lines in enumerate(page_lines):
        out: list[str] = []
        i = 0
        while i < len(lines):
            f = at.get((p, i))
            if f is not None:
                if out and out[-1].strip():
                    out.append("")
                out.append(heading(f.cand.title, f.level))
                if f.cand.rest:
                    out.append(escape_line(f.cand.rest))
                i += f.span
                continue
            if (p, i) not in dropped:
                out.append(escape_line(lines[i]))
            i += 1
        pages_out.append("\n".join(out))
    return StructuredText(
        text=join_pages(pages_out),
        heading_count=len(found),
        keyword_heading_count=sum(f.cand.kind != "caps" for f in found),
        headings=tuple((" ".join(f.cand.title.split()), f.level, f.page + 1) for f in found),
    )
