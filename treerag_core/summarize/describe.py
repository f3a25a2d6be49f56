"""What a document is and covers, in one sentence: the card's description.

``NIKE, Inc. annual report on Form 10-K for fiscal 2023 (year ended May 31, 2023):
business, risk factors, MD&A, financial statements and notes``: who (a filing's registrant,
named on its cover), what kind, which period, and what it covers: a filing's main Items
when it has them, else the document's largest top-level parts. Never its cover, contents
or signature page, which every such document has and which say nothing of this one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..text.sentences import iter_sentences
from ..tree.labels import heading_label
from ..types import FlatNode
from .digest import boilerplate_of, sentence_case

MAX_COVERS = 5  # parts named in the description
MAX_PART_CHARS = 48  # a part's name, cut
_REGISTRANT = re.compile(r"^(?P<name>[^\n()]{2,80})\n\s*\(exact name of registrant", re.I | re.M)
_ENDED = re.compile(
    r"(?P<what>fiscal\s+year|year|quarterly\s+period|quarter|period)\s+ended\s+"
    r"(?P<month>[a-z]+)\s+(?P<day>\d{1,2}),?\s+(?P<year>\d{4})",
    re.I,
)
_FORM = re.compile(r"\bform\s+(10-?k|10-?q|20-?f|8-?k|40-?f)\b", re.I)
# A filing's main Items, as a reader names them: (pattern on the title, name).
FILING_PARTS: tuple[tuple[str, str], ...] = (
    (r"^item\s*1\.?\s*business\b", "business"),
    (r"^item\s*1a\.?\s*risk\s+factors", "risk factors"),
    (r"management['’]s\s+discussion\s+and\s+analysis", "MD&A"),
    (r"^item\s*[18]\.?\s*(?:consolidated\s+|condensed\s+)*financial\s+statements", "financial "
     "statements"),
)  # fmt: skip
_NOTE = re.compile(r"^note\s+\d+|^\d{1,2}\.\s+[A-Z]", re.I)


def registrant(opening: str) -> str:
    """The name a filing's cover gives the registrant, or ""."""
    found = _REGISTRANT.search(opening)
    return " ".join(found.group("name").split()) if found else ""


def period_phrase(opening: str) -> str:
    """``fiscal 2023 (year ended May 31, 2023)``, ``the quarter ended July 29, 2023``, or ""."""
    found = _ENDED.search(opening)
    if not found:
        return ""
    date = f"{found.group('month').capitalize()} {found.group('day')}, {found.group('year')}"
    if "year" in found.group("what").lower():
        return f"fiscal {found.group('year')} (year ended {date})"
    return f"the quarter ended {date}"


def _filing_covers(flat: Mapping[str, FlatNode]) -> list[str]:
    titles = [heading_label(node) for node in flat.values()]
    covers = []
    for pattern, name in FILING_PARTS:
        if any(re.search(pattern, t, re.I) for t in titles):
            covers.append(name)
    if covers and covers[-1] == "financial statements" and any(_NOTE.match(t) for t in titles):
        covers[-1] = "financial statements and notes"
    return covers if len(covers) >= 2 else []


def _size(flat: Mapping[str, FlatNode], node_id: str) -> int:
    node = flat[node_id]
    own = len(str(node.get("text") or ""))
    return own + sum(_size(flat, c) for c in node.get("children") or [] if c in flat)


def _substantive(node: Mapping[str, Any]) -> bool:
    return boilerplate_of(str(node.get("text") or ""), str(node.get("title") or "")) is None


def _largest_parts(flat: Mapping[str, FlatNode], parts: Sequence[str]) -> list[str]:
    """The largest top-level parts, in document order, named without their numbers."""
    kept = [nid for nid in parts if _substantive(flat[nid])]
    biggest = sorted(kept, key=lambda nid: -_size(flat, nid))[:MAX_COVERS]
    names: list[str] = []
    for nid in [n for n in kept if n in biggest]:
        printed = str(flat[nid].get("title") or "")
        name = sentence_case(printed).rstrip(".:")
        if printed.isupper():  # printed in capitals: lower case, as in a sentence
            name = name[:1].lower() + name[1:]
        if len(name) > MAX_PART_CHARS:
            name = name[: MAX_PART_CHARS - 1].rsplit(" ", 1)[0] + "…"
        if name and name.lower() not in (n.lower() for n in names):
            names.append(name)
    return names


def _join(names: Sequence[str]) -> str:
    return ", ".join(names)


# A sentence saying what an organisation does: "NIKE designs, develops, markets and sells …",
# "Our principal business activity is …". English; a named constant, to extend.
BUSINESS_SENTENCE = re.compile(
    r"\b(?:designs|develops|manufactures|markets|sells|provides|operates|offers|"
    r"principal business|is a (?:leading|global|worldwide|diversified)|is one of the)\b"
)
BUSINESS_SECTIONS = 60  # where to look: the document's first sections
BUSINESS_CHARS = 240


def business_sentence(flat: Mapping[str, FlatNode]) -> tuple[str, str]:
    """``(sentence, node_id)``: the first sentence saying what the organisation does, from
    the document's first sections (("", "") when none does)."""
    for nid, node in list(flat.items())[:BUSINESS_SECTIONS]:
        for sentence in iter_sentences(str(node.get("text") or "")):
            if not BUSINESS_SENTENCE.search(sentence) or len(sentence) > BUSINESS_CHARS:
                continue  # the cheapest tests first: most sentences fail them
            words = sentence.split()
            if 6 <= len(words) and any(c.islower() for c in sentence):
                if not _substantive(node):  # a cover's or signature page's: none of its own
                    break
                return " ".join(words), nid
    return "", ""


def main_parts(flat: Mapping[str, FlatNode]) -> list[str]:
    """The document's top-level parts: its level-1 sections, or, under a lone title
    heading, its sub-sections."""
    roots = [nid for nid, node in flat.items() if not node.get("parent_id")]
    if len(roots) == 1 and flat[roots[0]].get("children"):
        return [c for c in flat[roots[0]]["children"] if c in flat]
    return roots


def describe(
    flat: Mapping[str, FlatNode], parts: Sequence[str], opening: str, kind: str, title: str
) -> str:
    """The card's first sentence: who, what kind, which period, what it covers."""
    who = registrant(opening)
    form = _FORM.search(opening)
    what = kind if kind and kind != "document" else ""
    if form and what:
        what += f" on Form {form.group(1).upper().replace('10K', '10-K').replace('10Q', '10-Q')}"
    when = period_phrase(opening)
    if who:
        head = f"{who} {what}".strip()
    else:  # the card's line names the title already
        article = "An" if what[:1] in "aeiou" else "A"
        head = f"{article} {what}" if what else title
    if when:
        head += f" for {when}"
    covers = _filing_covers(flat) or _largest_parts(flat, parts)
    if not covers:
        return head + "."
    return f"{head}: {_join(covers)}."
