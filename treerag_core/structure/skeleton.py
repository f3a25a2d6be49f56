"""Strategy: the PDF's bookmarks as the skeleton of the tree, the page's own headings below.

Authors' bookmarks are often a skeleton only: flat (``PART II``, ``Item 7``, ``Note 4``
side by side) or stopping at the Items of a filing. Siblings are nested by what their
titles say (:func:`nest_outline`: ``Part II`` › ``Item 7``; ``Notes to …`` › ``Note 4``;
``Chapter 3`` › ``3.1``), and the headings printed inside a bookmark's span — found by the
same typography and numbering the no-bookmark path uses — become its children. The result
names what it used: ``bookmarks`` alone, or ``bookmarks and typography``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..limits import Limits
from . import Structured
from .bookmarks import MIN_BOOKMARKS, SHORT_DOCUMENT_PAGES, find_title, title_key, with_outline
from .candidates import RANK, Kind, classify_line
from .headings import Heading, render
from .levels import numbering_rank
from .pages import OutlineEntry, ReadResult
from .profiles import AUDIT_REPORT, GENERIC, Profile, detect_profile
from .thresholds import MAX_LEVEL, MIN_NESTED_RANKED_SHARE
from .typeset import TYPOGRAPHY_PART, below_entries, checked_headings, measure

BOOKMARKS_SOURCE = "bookmarks"
SKELETON_SOURCE = "bookmarks and typography"
# A financial statement's caption ("Consolidated Balance Sheets", "Notes to Consolidated
# Financial Statements") ranks just below the Item that holds it and above its notes.
STATEMENT_RANK = (RANK[Kind.ITEM] + RANK[Kind.NOTE]) / 2
# An unnumbered bookmark between numbered siblings: below whichever of them came last.
BELOW_LATEST = float("inf")


def structure_from_bookmarks(result: ReadResult, limits: Limits) -> Structured | None:
    pages = result.pages or []
    outline = result.outline
    if not outline or (len(outline) < MIN_BOOKMARKS and len(pages) > SHORT_DOCUMENT_PAGES):
        return None
    typeset = measure(result, limits)
    if typeset is None:
        texts = [page.text for page in pages]
        nested = nest_outline(outline, detect_profile(texts))
        return Structured(
            with_outline(texts, nested), BOOKMARKS_SOURCE, {BOOKMARKS_SOURCE: len(nested)}
        )
    marks = place_bookmarks(typeset.layout.texts, nest_outline(outline, typeset.profile))
    headings = below_entries(marks, checked_headings(result, typeset))
    inner = len(headings) - len(marks)
    source = SKELETON_SOURCE if inner else BOOKMARKS_SOURCE
    parts = {BOOKMARKS_SOURCE: len(marks), **({TYPOGRAPHY_PART: inner} if inner else {})}
    return Structured(render(typeset.layout.texts, headings, typeset.dropped), source, parts)


def place_bookmarks(texts: list[list[str]], outline: list[OutlineEntry]) -> list[Heading]:
    """Each bookmark as a heading on its page, on its printed title's lines when found (else
    inserted after the bookmark before it on that page, consuming no line)."""
    per_page: dict[int, list[OutlineEntry]] = {}
    for entry in outline:
        per_page.setdefault(entry.page, []).append(entry)
    placed: list[tuple[int, int, int, Heading]] = []
    for page, entries in per_page.items():
        keys = [title_key(line) for line in texts[page]] if page < len(texts) else []
        cursor, used = 0, set[int]()
        for order, entry in enumerate(entries):
            found = find_title(keys, title_key(entry.title), cursor, used)
            start, end = (cursor, cursor) if found is None else (found[0], sum(found))
            used.update(range(start, end))
            placed.append((page, start, order, Heading(page, start, end, entry.title,
                                                       level=entry.level, known=True)))  # fmt: skip
            cursor = start
    return [h for *_, h in sorted(placed, key=lambda x: (x[0], x[1], x[2]))]


@dataclass
class _Node:
    entry: OutlineEntry | None
    children: list[_Node] = field(default_factory=list)


def nest_outline(outline: list[OutlineEntry], profile: Profile = GENERIC) -> list[OutlineEntry]:
    """The outline with siblings nested by their titles' numbering, levels made consecutive.

    Only a run of siblings most of which carry numbering of at least two ranks is nested
    (``PART I``, ``Item 1``, ``Item 2``): the author's own nesting stays, but for statements
    nested under the auditor's report (:func:`_statements_leave_reports`). An
    unnumbered sibling between numbered ones belongs to the numbered one before it, as an
    unnumbered heading in the text does ("General", "Products" after "Item 1. Business",
    before "Item 1A": a flat outline of a 10-K); before the first or after the last it is
    front or back matter and keeps the top of its run ("Signatures" beside the Parts), as
    does one after a statement's caption (a caption names no level of its own).
    """
    root = _Node(None)
    stack: list[tuple[int, _Node]] = [(0, root)]
    for entry in outline:
        while stack[-1][0] >= entry.level:
            stack.pop()
        node = _Node(entry)
        stack[-1][1].children.append(node)
        stack.append((entry.level, node))
    out: list[OutlineEntry] = []
    _walk(_regroup(_statements_leave_reports(root.children, profile), profile), 1, out, profile)
    return out


def _statements_leave_reports(nodes: list[_Node], profile: Profile) -> list[_Node]:
    """Bookmarks nested under an auditor's report from its first statement's caption on
    ("Consolidated Statements of Income", "Notes to …") follow the report instead: the report
    is on the statements, it does not hold them, whatever the author's outline nests (as the
    text path reads it: a statement's caption closes the report)."""
    out: list[_Node] = []
    for node in nodes:
        node.children = _statements_leave_reports(node.children, profile)
        out.append(node)
        if node.entry is None or not AUDIT_REPORT.match(" ".join(node.entry.title.split())):
            continue
        ranks = [title_rank(child.entry.title, profile) if child.entry else None
                 for child in node.children]  # fmt: skip
        first = next((n for n, rank in enumerate(ranks) if rank == STATEMENT_RANK), None)
        if first is not None:
            out.extend(node.children[first:])
            node.children = node.children[:first]
    return out


def _walk(nodes: list[_Node], level: int, out: list[OutlineEntry], profile: Profile) -> None:
    for node in nodes:
        assert node.entry is not None
        out.append(OutlineEntry(node.entry.title, min(level, MAX_LEVEL), node.entry.page))
        _walk(_regroup(node.children, profile), level + 1, out, profile)


def _regroup(siblings: list[_Node], profile: Profile) -> list[_Node]:
    """Siblings nested under one another where their numbering ranks say so."""
    ranks = [title_rank(node.entry.title, profile) if node.entry else None for node in siblings]
    ranked = [r for r in ranks if r is not None]
    if len(set(ranked)) < 2 or len(ranked) < MIN_NESTED_RANKED_SHARE * len(siblings):
        return siblings
    top = min(ranked)
    last = max(i for i, rank in enumerate(ranks) if rank is not None)
    numbered = False  # the latest ranked sibling is numbered (not a statement's caption)
    out: list[_Node] = []
    stack: list[tuple[float, _Node]] = []
    for i, (node, rank) in enumerate(zip(siblings, ranks, strict=True)):
        if rank is None:
            rank = BELOW_LATEST if numbered and i < last else top
        else:
            numbered = rank != STATEMENT_RANK
        while stack and stack[-1][0] >= rank:
            stack.pop()
        # after the whole subtree of the sibling it now sits under: document order holds
        (stack[-1][1].children if stack else out).append(node)
        stack.append((rank, node))
    return out


def title_rank(title: str, profile: Profile) -> float | None:
    """The rank a bookmark's title gives it: its numbering or keyword, or a statement's
    caption under the financial profile."""
    rank = numbering_rank(title, profile)
    if rank is not None:
        return rank
    candidate = classify_line(title, profile)
    return STATEMENT_RANK if candidate is not None and candidate.kind == Kind.STATEMENT else None
