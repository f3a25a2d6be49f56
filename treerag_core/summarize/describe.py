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
# How much of the document's start the kind, periods and names are read from: a filing's
# cover page and first items, a manual's title page and preface.
OPENING_CHARS = 6000
_REGISTRANT = re.compile(  # \s: a cover's spaces are often no-break ones
    r"^(?P<name>[^\n()]{2,80})\n\s*\(exact\s+name\s+of\s+registrant", re.I | re.M
)
_FILE_NUMBER = re.compile(r"\bfile\s+(?:number|no\.?)", re.I)
# A name: a capital or digit first, no sentence ("State of Incorporation: …" has a colon).
_UNDER_FILE_NUMBER = re.compile(
    r"^commission\s+file\s+(?:number|no\.?)[^\n]*\n(?P<name>(?-i:[A-Z0-9])[^\n():;]{1,78})$",
    re.I | re.M,
)
_ENDED = re.compile(
    r"(?P<what>fiscal\s+year|year|quarterly\s+period|quarter|period)\s+ended\s+"
    r"(?P<month>[a-z]+)\s+(?P<day>\d{1,2}),?\s+(?P<year>\d{4})",
    re.I,
)
_FORM = re.compile(r"\bform\s+(10-?k|10-?q|20-?f|8-?k|40-?f)\b", re.I)
# The forms each kind is filed on: an earnings release that mentions the coming Form 10-Q is
# not on it.
KIND_FORMS = {"annual report": ("10K", "20F", "40F"), "quarterly report": ("10Q",),
              "current report": ("8K",)}  # fmt: skip
# A filing's main Items, as a reader names them: (pattern on the title, name).
FILING_PARTS: tuple[tuple[str, str], ...] = (
    (r"^item\s*1\.?\s*business\b", "business"),
    (r"^item\s*1a\.?\s*risk\s+factors", "risk factors"),
    (r"management['’]s\s+discussion\s+and\s+analysis", "MD&A"),
    (r"^item\s*[18]\.?\s*(?:consolidated\s+|condensed\s+)*financial\s+statements", "financial "
     "statements"),
)  # fmt: skip
_NOTE = re.compile(r"^note\s+\d+|^\d{1,2}\.\s+[A-Z]", re.I)


def opening_text(flat: Mapping[str, FlatNode]) -> str:
    """The document's first characters, headings included, in reading order."""
    out, size = [], 0
    for node in flat.values():
        piece = f"{heading_label(node)}\n{node.get('text') or ''}\n"
        out.append(piece)
        size += len(piece)
        if size >= OPENING_CHARS:
            break
    return "".join(out)[:OPENING_CHARS]


def registrant(opening: str) -> str:
    """The name a filing's cover gives the registrant, or "": the line above "(Exact name
    of registrant …)", else the line under "Commission file number …" (3M's and Microsoft's
    covers print no such caption). Never the file number itself (Coca-Cola's name is a
    logo, and the line above its caption is the number)."""
    found = _REGISTRANT.search(opening)
    name = " ".join(found.group("name").split()) if found else ""
    if name and not _FILE_NUMBER.search(name):
        return name
    below = _UNDER_FILE_NUMBER.search(opening)
    return " ".join(below.group("name").split()) if below else ""


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
# …or, first of all, the organisation saying what it is, its subject first after at most a
# short opening clause: "Pfizer Inc. is a research-based, global biopharmaceutical company",
# "We are one of the largest global food and beverage companies", "With a history dating
# back to 1886, American Water is the largest … utility company", "Our principal business
# activity is …". The subject: we, the company, or the registrant's name (its first word,
# then up to four capitalised words and an aside: "Verizon Communications Inc. (the
# Company) is …"). A segment's sentence ("GMNS also provides …"), a glossary's ("Emerging
# Markets Includes … markets") or a contract's ("The Company is a party to …") is not one.
SELF_DESCRIPTION = (
    r"^(?:[^.;]{{0,60}},\s+)?(?:our\s+principal\s+business|(?:we|the\s+company|{name}"
    r"(?:[\s,]+(?-i:[A-Z])[\w.&'’-]*){{0,4}}(?:\s*\([^)]{{0,80}}\))?,?)\s+(?:is|are)\s+"
    r"(?:a|an|the|one\s+of)\b(?:(?!\b(?:that|which|to)\b)[^.;]){{0,80}}?\b(?:compan(?:y|ies)|"
    r"corporation|business|manufacturer|provider|leader|utility|organi[sz]ation|enterprise|"
    r"group|bank|retailer|producer)\b)"
)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)
BUSINESS_SECTIONS = 60  # where to look: the document's first sections
BUSINESS_CHARS = 360


def business_sentence(flat: Mapping[str, FlatNode]) -> tuple[str, str]:
    """``(sentence, node_id)``: the first sentence of the document's first sections in which
    the organisation says what it is (:data:`SELF_DESCRIPTION`), else the first saying what
    it does (:data:`BUSINESS_SENTENCE`); one that opens as a sentence does (("", "") when
    none)."""
    name = _ARTICLE.sub("", registrant(opening_text(flat))).split(maxsplit=1)
    named = re.escape(name[0].rstrip(",.")) if name and len(name[0]) > 1 else "(?!)"
    says_what_it_is = re.compile(SELF_DESCRIPTION.format(name=named), re.I)
    fallback = ("", "")
    for nid, node in list(flat.items())[:BUSINESS_SECTIONS]:
        for sentence in iter_sentences(str(node.get("text") or "")):
            if len(sentence) > BUSINESS_CHARS or not (
                sentence[:1].isupper() or sentence[:1].isdigit()
            ):
                continue  # long, a fragment, or a list's "(2) Valued at …"
            itself = says_what_it_is.search(sentence)
            if not (itself or (not fallback[0] and BUSINESS_SENTENCE.search(sentence))):
                continue
            words = sentence.split()
            if len(words) < 6:
                continue
            if not _substantive(node):  # a cover's or signature page's: none of its own
                break
            if itself:
                return " ".join(words), nid
            fallback = (" ".join(words), nid)
    return fallback


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
    printed = form.group(1).upper().replace("-", "") if form else ""
    if printed and KIND_FORMS.get(what) and printed in KIND_FORMS[what]:
        what += f" on Form {printed[:-1]}-{printed[-1]}"
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
