"""What ``bench.tree_quality`` measures on one indexed document's tree (pure functions).

The rules here are the bench's own, written from what a reader of a filing expects, not
taken from the reader's code, so the code is not graded by its own patterns:
- a section *repeats its parent's title* when its title, without a trailing "(pp. 3–4)",
  "(continued)" or "(part 2 of 3)", is the parent's title (or the start of it, cut with …, or
  the end of it, after a label such as "A-1 -");
- *sibling titles repeat* when two children of one parent carry the same title; *apart*
  when no two of them are next to each other and none is a generated piece (the document
  prints that heading for distinct sections), else *in a row* (ours, or printed twice in a
  row: the tree alone cannot tell a split continuation from two such sections);
- a filing *holds* a primary statement, the auditor's report or note N when a line of its
  text (or a title) is that caption standing alone; it has it *as a section* when a node's
  title is that caption.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

_SUFFIX = re.compile(r"\s*\((?:pp?\.|pages?|part|continued|slides?|sheets?)[^()]*\)\s*$", re.I)
_NON_ALNUM = re.compile(r"[^0-9a-z]+")
# "Consolidated", "Condensed", "Group": the qualifiers a statement's caption may open with.
_QUALIFIERS = r"(?:(?:the|consolidated|combined|condensed|interim|unaudited|group|company)\s+)*"
# "NIKE, Inc. Consolidated …", "3M Company and Subsidiaries Consolidated …": the company's name
_COMPANY = r"(?:(?:(?-i:[A-Z0-9])[\w.,&'’-]*|and|&)\s+){0,5}?"
STATEMENT_KINDS = {
    "income": r"(?:statements?\s+of\s+(?:consolidated\s+)?(?:income|earnings|operations)"
    r"(?!\s+and\s+comprehensive)|income\s+statements?|statements?\s+of\s+profit\s+or\s+loss)",
    "comprehensive income": r"(?:statements?\s+of\s+(?:consolidated\s+)?"
    r"(?:(?:income|earnings|operations)\s+and\s+)?comprehensive\s+(?:income|loss|earnings)"
    r"|statements?\s+of\s+comprehensive)",
    "balance sheet": r"(?:balance\s+sheets?|statements?\s+of\s+(?:consolidated\s+)?"
    r"financial\s+(?:position|condition))",
    "cash flows": r"(?:statements?\s+of\s+(?:consolidated\s+)?cash\s+flows?|cash\s+flows?\s+"
    r"statements?)",
    "equity": r"(?:statements?\s+of\s+(?:consolidated\s+)?(?:changes\s+in\s+)?(?:(?:stock|share)"
    r"(?:holders|owners)['’]?\s+(?:equity|deficit)|equity|shareowners['’]?\s+equity))",
}
AUDIT = (
    r"(?:report\s+of\s+independent\s+registered\s+public\s+accounting\s+firm|"
    r"independent\s+auditor(?:s|['’]s|s['’])?\s+report)"
)
# "(in millions)", "$ in millions", "— continued", "for the years ended …", "at December 31"
_CAPTION_TAIL = (
    r"(?:\s*(?:[,($\-–—]|for\s+the\b|at\s+\w|as\s+of\b|years?\s+ended\b|in\s+millions)"
    r".{0,90})?\s*$"
)
_LIST_MARK = re.compile(r"^(?:[a-z]|\d{1,2}|[ivx]{1,4})[).]\s+")  # "a) Condensed …"
_CAPTIONS = {
    kind: re.compile(rf"^{_COMPANY}{_QUALIFIERS}{pattern}{_CAPTION_TAIL}", re.I)
    for kind, pattern in {**STATEMENT_KINDS, "auditor's report": AUDIT}.items()
}
_NOTE = re.compile(r"^note\s+(\d{1,2})\b\s*(?:[.:\-–—]\s*)?([A-Z][A-Za-z ,&'’()\-]{2,})$", re.I)
# Under "Notes to … Financial Statements", a numbered title is a note: "1. Basis of …".
_NUMBERED = re.compile(r"^(?:note\s+)?(\d{1,2})\s*[.:\-–—]?\s+[A-Z]", re.I)
_NOTES_HEAD = re.compile(r"\bnotes\s+to\b.*\bfinancial\s+statements\b", re.I)
MAX_CAPTION_CHARS = 130  # a caption with its "(in millions, except per share data)"
MAX_TITLE_CHARS = (
    200  # a section title may carry the periods: "… for the three and six months ended …"
)
MIN_LABELLED_CHARS = (
    16  # a title that ends its parent's after a label: long enough not to be chance
)
MAX_NOTE_LINE_WORDS = 12  # "Note 5 — Property, Plant and Equipment"; a longer line is prose


def norm(title: str) -> str:
    return _NON_ALNUM.sub(" ", title.lower().replace("…", " ")).strip()


def node_label(node: dict[str, Any]) -> str:
    """The title as printed: its number ("1.2", "Note 4") back in front."""
    number = str(node.get("number") or "")
    return f"{number} {node.get('title', '')}".strip()


def repeats_parent(title: str, parent: str) -> bool:
    own, theirs = norm(_strip_suffix(title)), norm(parent)
    if not own or not theirs:
        return False
    cut = title.rstrip().endswith("…") or _strip_suffix(title).rstrip().endswith("…")
    # "Condensed Consolidated Statement of Income" under "A-1 - Condensed … of Income"
    label = theirs[: -len(own)].split() if theirs.endswith(" " + own) else []
    labelled = (
        len(own) >= MIN_LABELLED_CHARS
        and 0 < len(label) <= 3
        and any(c.isdigit() for c in "".join(label))
    )
    return own == theirs or labelled or (cut and len(own) >= 12 and theirs.startswith(own))


def _strip_suffix(title: str) -> str:
    while True:
        stripped = _SUFFIX.sub("", title)
        if stripped == title:
            return title
        title = stripped


def tree_shape(flat: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Counts of the tree: sections, top level, depth, repeats of parent and sibling titles."""
    nodes = list(flat.values())
    repeat_parent = sum(
        1
        for node in nodes
        if node.get("parent_id")
        and repeats_parent(node_label(node), node_label(flat[node["parent_id"]]))
    )
    siblings: dict[str | None, list[dict[str, Any]]] = {}
    for node in nodes:  # the flat tree keeps document order
        siblings.setdefault(node.get("parent_id"), []).append(node)
    apart = 0
    for kids in siblings.values():
        apart += sibling_repeats_apart(kids)
    repeat_sibling = sum(
        n
        for kids in siblings.values()
        for n in Counter(norm(node_label(k)) for k in kids).values()
        if n > 1
    )
    return {
        "sections": len(nodes),
        "top_level": sum(1 for node in nodes if not node.get("parent_id")),
        "depth": max((int(node.get("level") or 1) for node in nodes), default=0),
        "repeat_parent": repeat_parent,
        "repeat_sibling": repeat_sibling,
        "repeat_sibling_apart": apart,
        "generated": sum(1 for node in nodes if node.get("generated")),
    }


def sibling_repeats_apart(kids: list[dict[str, Any]]) -> int:
    """Siblings whose title repeats only *apart*: every other sibling of that title is
    separated from it by a sibling of another title, and none is a generated piece. That is
    a heading the document prints for distinct sections ("Description", "Judgments …",
    "Description", …, one set per estimate). The rest of the repeats (the same title twice
    in a row, a generated piece) are ours, or a heading printed twice in a row: a
    continuation the tree split, or two sections one after another under one heading."""
    titles = [norm(node_label(k)) for k in kids]
    counts = Counter(titles)
    ours = {
        t
        for i, t in enumerate(titles)
        if counts[t] > 1
        and ((i and titles[i - 1] == t) or any(kids[j].get("generated")
                                                for j, u in enumerate(titles) if u == t))
    }  # fmt: skip
    return sum(n for t, n in counts.items() if n > 1 and t not in ours)


def caption_kind(line: str, limit: int = MAX_CAPTION_CHARS) -> list[str]:
    """Which statements (or the auditor's report) a line or title names as a caption."""
    text = _LIST_MARK.sub("", " ".join(line.split()))
    if not text or len(text) > limit or "notes to" in text.lower():
        return []
    return [kind for kind, pattern in _CAPTIONS.items() if pattern.match(text)]


def note_number(line: str) -> int | None:
    text = " ".join(line.split())
    m = _NOTE.match(text)
    if not m or len(text.split()) > MAX_NOTE_LINE_WORDS:
        return None
    return int(m.group(1))


def filing_parts(flat: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Which statements, auditor's report and notes the filing holds, which are sections of
    their own, and how many statement sections sit under a prose heading."""
    held: set[str] = set()
    sectioned: set[str] = set()
    notes_held: set[int] = set()
    notes_sectioned: set[int] = set()
    statement_sections = under_prose = 0
    note_parents: list[str] = []  # each numbered note section's parent
    for node in flat.values():
        title = _strip_suffix(node_label(node))
        kinds = caption_kind(title, MAX_TITLE_CHARS)
        for kind in kinds:
            held.add(kind)
            sectioned.add(kind)
        if set(kinds) & set(STATEMENT_KINDS):
            statement_sections += 1
            under_prose += _under_prose(flat, node)
        number = note_number(title)
        if number is None and _under_notes(flat, node):
            m = _NUMBERED.match(title)
            number = int(m.group(1)) if m else None
        if number is not None:
            notes_held.add(number)
            notes_sectioned.add(number)
            if not node.get("generated"):
                note_parents.append(str(node.get("parent_id") or ""))
        for line in str(node.get("text") or "").split("\n"):
            if len(line) <= MAX_CAPTION_CHARS:
                held.update(caption_kind(line))
                number = note_number(line)
                if number is not None:
                    notes_held.add(number)
    return {
        "held": sorted(held),
        "sectioned": sorted(sectioned & held),
        "notes_held": sorted(notes_held),
        "notes_sectioned": sorted(notes_sectioned & notes_held),
        "statement_sections": statement_sections,
        "statements_under_prose": under_prose,
        "note_sections": len(note_parents),
        "notes_out_of_line": _out_of_line(note_parents),
        **report_parts(flat),
    }


# An auditor's report's title however it goes on, and the parts the auditing standards
# write it in (PCAOB AS 3101/2201, ISA 700/701): the scorer's own words, not the reader's.
_REPORT = re.compile(
    r"^(?:report\s+of\s+independent\s+(?:registered\s+public\s+accounting\s+firm|auditors?)"
    r"|independent\s+auditor\S*\s+report)\b", re.I,
)  # fmt: skip
_MANAGEMENT_REPORT = re.compile(r"management['’]?s\s+(?:annual\s+)?report\b", re.I)
_REPORT_PART = re.compile(
    r"^(?:opinions?\s+on\b|basis\s+for\s+(?:\w+\s+)?opinion|(?:critical|key)\s+audit\s+"
    r"matters?|definition\s+and\s+limitations?\s+of)", re.I,
)  # fmt: skip


def report_parts(flat: dict[str, dict[str, Any]]) -> dict[str, int]:
    """The auditor's reports' standard parts that follow a report's title (up to the next
    statement or report) and how many of them are not inside the report's section: a
    report whose opinion sits beside it holds only its addressee. And the auditor's reports,
    and how many sit inside another report (management's, or another auditor's): the
    reports are peers."""
    parts = outside = reports = nested = 0
    report: str | None = None
    for nid, node in flat.items():
        title = _strip_suffix(node_label(node))
        if _REPORT.match(title):
            report = nid
            reports += 1
            nested += _inside_report(flat, nid)
        elif set(caption_kind(title, MAX_TITLE_CHARS)) & set(STATEMENT_KINDS):
            report = None
        elif report is not None and _REPORT_PART.match(title):
            parts += 1
            outside += not _inside(flat, nid, report)
    return {
        "report_parts": parts,
        "report_parts_outside": outside,
        "reports": reports,
        "reports_inside_reports": nested,
    }


def _inside_report(flat: dict[str, dict[str, Any]], nid: str) -> bool:
    parent = flat[nid].get("parent_id")
    while parent:
        title = _strip_suffix(node_label(flat[parent]))
        if _REPORT.match(title) or _MANAGEMENT_REPORT.search(title):
            return True
        parent = flat[parent].get("parent_id")
    return False


def _inside(flat: dict[str, dict[str, Any]], nid: str, ancestor: str) -> bool:
    parent = flat[nid].get("parent_id")
    while parent:
        if parent == ancestor:
            return True
        parent = flat[parent].get("parent_id")
    return False


def _out_of_line(parents: list[str]) -> int:
    """Numbered notes not under the parent most of them share: the notes are siblings, so
    a note nested in another note's subheading (or split off from the rest) is misplaced."""
    if not parents:
        return 0
    return len(parents) - Counter(parents).most_common(1)[0][1]


# What a statement may sit under: a part of the filing (PART, Item, Note, Exhibit, Schedule,
# a number or an exhibit's "A-1"), a heading that names the financial statements, or
# another statement (a statement printed over pages); else it is inside some prose section
# (the auditor's report, a subheading of the text before it).
_PART_OF_FILING = re.compile(r"^(?:part|item|note|exhibit|schedule|[a-z]-?\d|\d)", re.I)


def _under_prose(flat: dict[str, dict[str, Any]], node: dict[str, Any]) -> bool:
    parent = flat.get(str(node.get("parent_id") or ""))
    if parent is None:
        return False
    title = _strip_suffix(node_label(parent))
    named = re.search(r"financial\s+statements|financial\s+information", title, re.I)
    named = named and not _REPORT.match(title)  # the auditor's report on them is prose
    return not (_PART_OF_FILING.match(title) or named or set(caption_kind(title, MAX_TITLE_CHARS))
                & set(STATEMENT_KINDS))  # fmt: skip


def _under_notes(flat: dict[str, dict[str, Any]], node: dict[str, Any]) -> bool:
    parent = node.get("parent_id")
    while parent:
        if _NOTES_HEAD.search(str(flat[parent].get("title") or "")):
            return True
        parent = flat[parent].get("parent_id")
    return False
