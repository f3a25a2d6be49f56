"""Every heading's level, in one place: from ranks (numbering and keywords) and, for
headings found by their look, from their style.

Ranks order what numbering and keywords say: PART > Chapter/Article > Subpart > Section/§ >
Item > Note/``1`` > ``1.2`` > …; ``Appendix A`` › ``A.1``. Headings found in the text
(:func:`levels_from_ranks`) nest by rank, compressed to the ranks the document uses, so a
10-K without PART lines still gets its Items at level 1. Headings found by their look
(:func:`levels_from_look`) add their style: a style (size and weight) keeps one level within
a document; when most headings of a style are numbered alike, the style takes that number's
level (so "Preface" in the chapter style sits with the chapters); other styles take their
place by prominence — larger first, then bold, then the one that appears first in the
document — below every numbered level at least as prominent. Nesting then follows ranks,
so a level never jumps by more than one below its parent.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from .bookmarks import title_key
from .candidates import NUMBER_RANK, RANK, UNRANKED, Found, Kind, classify_line
from .headings import Heading, Prominence
from .profiles import AUDIT_PART, AUDIT_REPORT, GENERIC, STATEMENT_TITLE, Profile
from .thresholds import ANCHOR_SHARE, MAX_LEVEL

# "Appendix A Installing Octave" is a chapter; "A.1 Build Dependencies" a section of it.
_APPENDIX = re.compile(r"^(?:APPENDIX|Appendix)\s+[A-Z]\b")
_LETTER_NUMBER = re.compile(r"^[A-Z]((?:\.\d{1,3}){1,4})\.?\s+\S")
# "Exhibit 10.24", "EXHIBIT 31.1 — Certification": a document appended to a filing. It ranks
# above the Articles and sections it holds and below the PART it is filed under, so that each
# exhibit heads its own plan or certification instead of nesting in the last Article of the
# exhibit before it (3M 2018's "EXHIBIT 10.7" sat under "ARTICLE 5 MISCELLANEOUS").
_EXHIBIT = re.compile(
    r"^(?:EXHIBIT|Exhibit)\s+(?:No\.\s*)?\d{1,3}(?:\.\d{1,3})*[A-Z]?(?=$|[\s.:–—-])"
)
EXHIBIT_RANK = (RANK[Kind.PART] + RANK[Kind.ARTICLE]) / 2
# The first of a numbered run: "Note 1 –", "Item 1.", "PART I", "1. Basis", "2.1 Scope".
_FIRST = re.compile(r"^(?:[A-Za-z]+\s+)?(?:\d+\.)*(?:1|I|A)(?=$|[\s.:–—-])")
# A lettered title: a capital and a period, then a capitalised word ("B. Divestitures"); the
# letter is its group.
LETTERED = re.compile(r"([A-Z])\.\s+[A-Z]")
LETTER_GAP = 2  # "E." after "C.": the next but one (D's heading not found) goes on the run
# Between the ranks of two numbered levels there is room for this many styles.
_STEP = 0.001
# A primary statement's caption with its qualifier ("Consolidated Balance Sheets", "Condensed
# Consolidated Statement of Income", "Group income statement") is a part of the report, like
# the Item or exhibit it is filed under: never a subsection of the prose heading before it,
# the auditor's report or a release's last subheading, whatever its type size (Verizon 2021's
# statements sat under its auditor's report; PepsiCo's release, without bookmarks, under
# "Prepared Management Remarks"). Headings found in the text get the same from
# :func:`levels_from_ranks` (a statement sits below the latest ranked heading). A bare
# "Income statement" is left where it is: it is as often a subheading of a policies note.
_QUALIFIED = re.compile(r"^(?:consolidated|combined|condensed|group)\s", re.IGNORECASE)
# What a caption may carry after its name on its line: its units (Best Buy's "Consolidated
# Balance Sheets $ in millions, except per share amounts", "… (in thousands)") or its period
# (3M's "Consolidated Statement of Income for the years ended December 31, 2018, …",
# "Consolidated Balance Sheet at December 31, 2018 and 2017").
_TAIL = re.compile(
    r"\s+(?:\(?(?:[$€£]\s*)?(?:(?:and|&)\s+shares\s+)?in\s+(?:millions|thousands|billions)\b"
    r"|for\s+the\s+(?:(?:fiscal\s+)?years?|quarters?|periods?|(?:three|six|nine|twelve)\s+months)\b"
    r"|(?:at|as\s+of)\s+(?:[A-Z][a-z]+\s+\d{1,2}|\d)).*$",
    re.IGNORECASE,
)
# Management's report on the statements or on internal control (SEC Regulation S-K, Item
# 308), the auditor's report's peer.
_MANAGEMENT_REPORT = re.compile(r"management['’]?s\s+(?:annual\s+)?report\b", re.IGNORECASE)
# A report's addressee, when it is set as a heading.
_ADDRESSEE = re.compile(r"\s*to\s+the\s", re.IGNORECASE)
# A title whose subject is the statements: "Index to Consolidated Financial Statements",
# "Notes to the Financial Statements", "Consolidated Financial Information".
_ABOUT_STATEMENTS = re.compile(
    r"^(?:(?:index|notes)\s+to\s+(?:the\s+)?)?(?:(?:consolidated|combined|condensed)\s+)*"
    r"financial\s+(?:statements|information)\b",
    re.IGNORECASE,
)
# A heading that names the statements may hold them: "Consolidated Financial Statements",
# "Financial Information".
_NAMES_STATEMENTS = re.compile(r"\bfinancial\s+(?:statements|information)\b", re.IGNORECASE)


def numbering_rank(title: str, profile: Profile = GENERIC) -> float | None:
    """The rank a title's own numbering or keyword gives it, or None (lower = higher)."""
    text = " ".join(title.split())
    m = _LETTER_NUMBER.match(text)
    if m:
        return NUMBER_RANK + 1 + m.group(1).count(".")
    if _APPENDIX.match(text):
        return NUMBER_RANK + 1
    if _EXHIBIT.match(text):
        return EXHIBIT_RANK
    cand = classify_line(text, profile)
    if cand is None or cand.toc_like:
        return None
    if cand.kind == Kind.NUMBER and cand.number is not None:
        return NUMBER_RANK + len(cand.number)
    return RANK.get(cand.kind)


def levels_from_look(headings: list[Heading]) -> None:
    """Set every heading's level from its numbering and its style's place.

    An unnumbered heading right above the first of a numbered run ("Notes to Consolidated
    Financial Statements" over "Note 1 – …"), set at least as prominently, heads that run.
    """
    style_rank = _style_ranks(headings)
    ranks = [h.rank if h.rank is not None else style_rank[h.prominence] for h in headings]
    for n in range(len(headings) - 1):
        nxt = headings[n + 1]
        own = headings[n]
        if own.rank is None and nxt.rank is not None and ranks[n] >= nxt.rank:
            following = " ".join(nxt.title.split())
            # an exhibit's number is the filing's exhibit list's ("23.1"), not a run's first
            if (
                _visual(own.prominence) <= _visual(nxt.prominence)
                and _FIRST.match(following)
                and not _EXHIBIT.match(following)
            ):
                ranks[n] = nxt.rank - _STEP / 2
    _letters_alike(headings, ranks)
    _reports_hold_their_parts(headings, ranks)
    _runs_hold_their_subheadings(headings, ranks)
    _repeats_go_below(headings, ranks)
    _nest(headings, ranks)


def _nest(headings: list[Heading], ranks: list[float]) -> None:
    """Levels from ranks: each heading under the open ones of higher rank. A statement's
    caption also closes the prose before it and the auditor's report. An auditor's
    report, or a title that names the statements as its subject ("Index to Consolidated
    Financial Statements"), closes the report it follows, the auditor's or management's
    (Nike sets its auditor's report smaller than "MANAGEMENT'S ANNUAL REPORT ON INTERNAL
    CONTROL …" and it sat inside it; American Express prints its index after the report,
    in the report's style); a critical audit matter's "… Refer to Note 1 to the financial
    statements" does not."""
    stack: list[tuple[float, bool, bool]] = []  # open: rank, a statement ends it, a report
    for h, rank in zip(headings, ranks, strict=True):
        text = " ".join(h.title.split())
        statement = _is_statement(text)
        audit = bool(AUDIT_REPORT.match(text))
        if (audit or _ABOUT_STATEMENTS.match(text)) and any(r for _, _, r in stack):
            while not stack.pop()[2]:
                pass
        while stack and (stack[-1][0] >= rank or (statement and stack[-1][1])):
            stack.pop()
        h.level = min(MAX_LEVEL, len(stack) + 1)
        # a statement's caption ends a prose heading's section and the auditor's report's
        # (named by a standard title or not); a numbered or named part of the filing, or a
        # heading that names the statements ("Consolidated Financial Statements"), may hold them
        prose = h.rank is None and not h.known and not _NAMES_STATEMENTS.search(text)
        report = audit or bool(_MANAGEMENT_REPORT.match(text))
        stack.append((rank, not statement and (audit or prose), report))


def _is_statement(title: str) -> bool:
    """Whether a title is a primary statement's qualified caption (see ``_QUALIFIED``), its
    units or period printed after it or not."""
    text = _TAIL.sub("", " ".join(title.split()))
    return bool(_QUALIFIED.match(text) and STATEMENT_TITLE.match(text))


def _letters_alike(headings: list[Heading], ranks: list[float]) -> None:
    """The next letter of a lettered run ("B. Divestitures" after "A. Acquisitions", with no
    heading above A's rank between them; or the one after, a letter whose heading was not
    found) takes A's rank whatever its style: Pfizer 2021 set Note 2's "B." a point smaller
    than its "A.", and the divestitures sat under the acquisitions."""
    last: tuple[str, float] | None = None
    for n, h in enumerate(headings):
        if last is not None and ranks[n] < last[1]:
            last = None  # a higher heading between (the next note): a new run
        letter = LETTERED.match(" ".join(h.title.split()))
        if letter is None:
            continue
        if last is not None and 1 <= ord(letter.group(1)) - ord(last[0]) <= LETTER_GAP:
            ranks[n] = last[1]
        last = (letter.group(1), ranks[n])


def _reports_hold_their_parts(headings: list[Heading], ranks: list[float]) -> None:
    """An auditor's report heads the parts the auditing standards write it in ("Opinion on
    the Financial Statements", "Basis for Opinion", "Critical Audit Matters"), whatever the
    look of its title: Lockheed Martin 2022 set the report's title in the bold italic of
    its minor headings and the parts in bold upright, so the opinion sat beside the report,
    whose own section held two lines. The addressee set as a heading ("To the Board of
    Directors and Shareholders of …", American Express) is one part among the others, not
    their head. A report raised above its parts raises the filing's other reports with it:
    one report is never inside another."""
    reports = [
        r
        for r, h in enumerate(headings)
        if h.rank is None and AUDIT_REPORT.match(" ".join(h.title.split()))
    ]
    raised = False
    for r in reports:
        parts = _report_parts(headings, ranks, r)
        named = [m for m in parts if not _ADDRESSEE.match(headings[m].title)]
        if named:  # the addressee ranks with the parts it addresses
            for m in set(parts) - set(named):
                ranks[m] = min(ranks[n] for n in named)
        top = min((ranks[m] for m in parts), default=None)
        if top is not None and top <= ranks[r]:
            ranks[r] = top - _STEP / 2
            raised = True
    if raised:
        top = min(ranks[r] for r in reports)
        for r in reports:
            ranks[r] = top


def _report_parts(headings: list[Heading], ranks: list[float], r: int) -> list[int]:
    """Report ``r``'s parts: the unnumbered headings after its title that bear a part's
    name, up to a statement, a numbered heading, the next report, or a heading at or above
    the parts' rank that is no part (what the parts hold stays theirs)."""
    parts: list[int] = []
    floor = ranks[r]
    for m in range(r + 1, len(headings)):
        title = " ".join(headings[m].title.split())
        if headings[m].rank is not None or _is_statement(title) or AUDIT_REPORT.match(title):
            break
        if AUDIT_PART.match(title):
            parts.append(m)
            floor = min(floor, ranks[m])
        elif ranks[m] <= floor:
            break
    return parts


def _repeats_go_below(headings: list[Heading], ranks: list[float]) -> None:
    """Headings of one style that repeat a set of titles, each set after a heading of that
    style whose title is its own ("Industrial Business:", then "Year 2018 results:", "Year
    2017 results:"; "Safety and Graphics Business:", then the same two), go below the
    heading before them. Set alike, the look cannot tell the levels apart, but a reader
    can: titles printed once per group are the group's parts, and the title before each
    group names it. A group moves only when it has two or more titles, none twice, and
    another such group opens on its first title; nothing moves when a repeat comes before
    the first head: the set then began under a heading not found (Kraft Heinz's pension and
    postretirement plans), and the titles between the repeats are its parts, not heads."""
    for run in _peer_runs(headings, ranks):
        keys = {n: title_key(headings[n].title) for n in run}
        counts = Counter(keys.values())
        if counts[keys[run[0]]] > 1:
            continue
        groups: list[list[int]] = []
        for n in run:
            if counts[keys[n]] == 1:
                groups.append([])  # a head
            else:
                groups[-1].append(n)
        sets = [g for g in groups if 1 < len(g) == len({keys[n] for n in g})]
        opening = Counter(keys[g[0]] for g in sets)
        for g in sets:
            if opening[keys[g[0]]] > 1:
                for n in g:
                    ranks[n] = _below(ranks[n], ranks[n])  # a step below its head


def _peer_runs(headings: list[Heading], ranks: list[float]) -> list[list[int]]:
    """Runs of unnumbered headings of one rank with no heading of a higher rank between
    them; a numbered or named heading of their rank ends a run too (those below them do
    not)."""
    runs: list[list[int]] = []
    open_runs: dict[float, list[int]] = {}
    for n, (h, rank) in enumerate(zip(headings, ranks, strict=True)):
        for r in [r for r in open_runs if r > rank]:
            runs.append(open_runs.pop(r))
        if h.rank is not None or h.known:
            runs.extend(open_runs.pop(r) for r in [r for r in open_runs if r >= rank])
            continue
        open_runs.setdefault(rank, []).append(n)
    return [*runs, *open_runs.values()]


def _run_member(title: str) -> tuple[object, int, str] | None:
    """A numbered heading's run (its keyword, or the number above its own: "2.3" is of
    "2"'s run), its number in the run and its label; None for any other heading."""
    cand = classify_line(" ".join(title.split()))
    if cand is None or cand.toc_like or cand.kind in UNRANKED:
        return None
    if cand.kind == Kind.NUMBER and cand.number:
        return (cand.number[:-1], cand.number[-1], cand.key)
    number = re.match(r"\w+ (\d+)", cand.key)
    return (cand.kind, int(number.group(1)), cand.key) if number else None


def _runs_hold_their_subheadings(headings: list[Heading], ranks: list[float]) -> None:
    """Two headings numbered one after the other ("NOTE 4 —", then "NOTE 5 —") are
    siblings, so the unnumbered headings between them belong to the first: one that would
    rank above the run, or with it, takes a place just below it, whatever its look.
    Microsoft sets its notes' titles at body size and their subheadings in bold: each note
    nested in the last subheading of the note before. A heading set right above the next
    of the run is left alone (it may head a group of notes), and so is a run that a heading
    of a higher numbered rank interrupts. After the run's last member, the styles put below
    it stay there up to the next heading that is named (the auditor's report), numbered, a
    statement or of another style."""
    last: dict[object, tuple[int, int, str]] = {}  # a run's latest member: index, number, label
    styles: dict[object, set[Prominence]] = {}  # the styles each run put below it
    for j, h in enumerate(headings):
        member = _run_member(h.title) if h.rank is not None else None
        if member is None:
            continue
        family, number, label = member
        before = last.get(family)
        last[family] = (j, number, label)
        i = before[0] if before is not None else j
        if (
            before is None
            or not 0 <= number - before[1] <= 1
            or label == before[2]
            or ranks[j] != ranks[i]
            or any(headings[m].rank is not None and ranks[m] < ranks[i] for m in range(i, j))
        ):
            styles[family] = set()  # a run starts here
            continue
        for m in range(i + 1, j):
            if headings[m].rank is None and ranks[m] <= ranks[i] and not _heads(headings, m, j):
                styles[family].add(headings[m].prominence)
                ranks[m] = _below(ranks[i], ranks[m])
    for family, (j, _, _) in last.items():
        for m in range(j + 1, len(headings)):
            h = headings[m]
            if h.rank is not None or h.known or h.prominence not in styles[family]:
                break
            if _is_statement(h.title):
                break
            ranks[m] = _below(ranks[j], ranks[m])


def _heads(headings: list[Heading], m: int, j: int) -> bool:
    """Whether heading ``m`` is set right above heading ``j`` (the next line or the one
    after: a title over the part it names)."""
    return (
        m + 1 == j
        and headings[j].page == headings[m].page
        and headings[j].start - headings[m].end <= 1
    )


def _below(run_rank: float, rank: float) -> float:
    """A rank just below ``run_rank`` (within one style step) that keeps the order of the
    ranks it replaces (at or above ``run_rank``, none negative)."""
    return run_rank + _STEP * (1 + rank) / (2 + run_rank)


def _style_ranks(headings: list[Heading]) -> dict[Prominence, float]:
    by_style: dict[Prominence, list[Heading]] = defaultdict(list)
    first: dict[Prominence, int] = {}
    for n, h in enumerate(headings):
        by_style[h.prominence].append(h)
        first.setdefault(h.prominence, n)
    # styles alike to the eye (bold upright "1. Basis", bold italic "Sale of Subsidiary")
    # rank in the order they first appear, numbered or not
    order = sorted(by_style, key=lambda s: (_visual(s), first[s], s))
    ranks: dict[Prominence, float] = {}
    ceiling = 0.0  # the deepest numbered rank among styles at least this prominent
    step = 0
    for style in order:
        members = by_style[style]
        numbered = [h.rank for h in members if h.rank is not None]
        anchor = _anchor(numbered, len(members))
        if anchor is not None:
            ranks[style] = anchor
        else:
            step += 1
            ranks[style] = max([ceiling, *numbered]) + step * _STEP
        ceiling = max([ceiling, ranks[style], *numbered])
    return ranks


def _visual(prominence: Prominence) -> Prominence:
    """The part of a style that ranks it by look (its last part, italic, only tells styles
    apart: whether italic sits above or below upright differs between documents)."""
    return prominence[:-1]


def _anchor(numbered: list[float], members: int) -> float | None:
    """The numbered rank most of a style's headings share, if they do."""
    if not numbered or len(numbered) < ANCHOR_SHARE * members:
        return None
    rank, count = Counter(numbered).most_common(1)[0]
    return rank if count >= ANCHOR_SHARE * len(numbered) else None


def levels_from_ranks(found: list[Found]) -> None:
    """Level = 1 + open headings of higher rank: PART → Item → Note nest, while a later
    Article after Item 16 climbs back to just below the PART. Unranked headings (caps,
    statements) sit one level below the latest ranked one."""
    for f in found:
        c = f.cand
        if c.kind == Kind.NUMBER and c.number is not None:
            f.rank = NUMBER_RANK + len(c.number)
        elif c.kind not in UNRANKED:
            f.rank = RANK[c.kind]
    stack: list[float] = []
    for f in found:
        if f.cand.kind in UNRANKED:
            f.level = min(MAX_LEVEL, len(stack) + 1)
            continue
        while stack and stack[-1] >= f.rank:
            stack.pop()
        f.level = min(MAX_LEVEL, len(stack) + 1)
        stack.append(f.rank)
