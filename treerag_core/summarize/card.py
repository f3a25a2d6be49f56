"""A document's card: what the library index routes a question by, built once at indexing.

A team asks its whole library without knowing which file holds the answer, so each document
is described the way a person would pick it off a shelf: its title and file name, its kind
(annual report, manual, policy, …), the periods it covers, the names it is about, a few
sentences of description and its top-level outline. Everything comes from the document
itself (its top sections' summaries: a model's when a model summarised it, else their
leads), so a card costs no model call. An editor's corrections live on the document
(``card_edits``), so they are kept across re-indexing of the same file and in exports.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any, TypedDict

from ..text.language import indexed_language
from ..text.tokens import STOPWORDS
from ..tree.labels import heading_label
from ..types import Document, FlatNode
from .describe import business_sentence, describe, main_parts, opening_text, registrant
from .digest import boilerplate_kind, leading_summary
from .keyterms import extract_tags

# Card fields an editor may correct on the Registry page (kept across re-indexing).
EDITABLE_FIELDS = ("kind", "periods", "description", "language")
# Another version whenever the cards this module makes change, so that the library index
# makes each entry again, once (2: the registrant under the file number, the organisation's
# own "… is a … company", the cover's legal words no names).
CARD_VERSION = 2
# The description: the first few top-level sections' summaries, at most this long.
DESCRIPTION_SECTIONS = 4
DESCRIPTION_CHARS = 420
MAX_OUTLINE = 40  # top-level headings kept on the card (a 10-K has about 25 items)
# A period named this often (the file name counts 5, a "fiscal year ended" 2) is kept: a
# year mentioned once in passing on the cover is not what the document covers.
MIN_PERIOD_WEIGHT = 2
# Words that head many documents without naming what they are about: never a title, and
# never one of the names on the card.
GENERIC_WORDS = (
    frozenset(
        """contents table index item items part section chapter page inc llc ltd corp company
    registrant form securities exchange commission united states washington annual
    quarterly report act notes yes pursuant indicate january february march april may june
    july august september october november december rule class note due stock common senior
    fixed floating rate par value share shares new york nasdaq market llc introduction
    summary overview preface abstract foreword""".split()
    )
    | STOPWORDS
)
MAX_NAMES = 10
_ROMAN = re.compile(r"[ivxlc]+")
# How much of the text is read for the words it also writes in lower case: a lone word that
# the document writes so is a common word ("rule", "class", "results"), not a name.
COMMON_WORDS_CHARS = 300_000
# A word standing alone in running text: not part of an address, a path or a package name.
_PLAIN_WORD = re.compile(r"(?<![\w./@-])[A-Za-z][a-z]+(?![\w./@-])")
MAX_PERIODS = 6

# A document's kind from words in its name or opening, first match wins: the common kinds a
# team keeps. A named constant: callers may extend or replace it.
KIND_RULES: tuple[tuple[str, str], ...] = (
    ("quarterly report", r"\b10-?q\b|quarterly report|form 10-q"),
    ("annual report", r"\b10-?k\b|annual report|form 10-k|\b20-?f\b"),
    ("current report", r"\b8-?k\b|current report|form 8-k"),
    ("earnings release", r"\bearnings\b|results for the (?:first|second|third|fourth) quarter"),
    ("slide deck", r"\.pptx?$|\.odp$|\bslides?\b|\bdeck\b|presentation"),
    ("spreadsheet", r"\.xlsx?$|\.xlsm$|\.ods$|\.csv$|\.tsv$"),
    ("contract", r"\bagreement\b|\bcontract\b|\bterms and conditions\b|hereinafter"),
    ("policy", r"\bpolicy\b|\bpolicies\b|\bhandbook\b|\bcode of conduct\b|\bguidelines\b"),
    ("manual", r"\bmanual\b|user'?s? guide|\breference guide\b|\bhandbook\b|\btutorial\b"),
    ("specification", r"\bspecification\b|\brfc\b|\bstandard\b"),
    ("minutes", r"\bminutes of\b|\bmeeting minutes\b"),
    ("report", r"\breport\b"),
)
_YEAR = re.compile(r"(?<![\d.,])(19[5-9]\d|20\d\d)(?![\d,])")
_QUARTER = re.compile(r"\b(?:q([1-4])|([1-4])q)[ _-]?(20\d\d)\b|\b(20\d\d)[ _-]?q([1-4])\b", re.I)
_FISCAL = re.compile(
    r"(?:fiscal|financial)\s+(?:year|quarter|period)s?\s+ended\s+([A-Z][a-z]+\s+\d{1,2},\s+\d{4})"
)


class Card(TypedDict, total=False):
    doc_id: str
    title: str
    file_name: str
    collection: str
    kind: str
    periods: list[str]
    names: list[str]
    description: str
    outline: list[str]
    sections: int
    pages: int | None
    language: str  # ISO 639-1: what its words are cut and stemmed as ("" unknown)
    # Sections in other languages, counted by language: {"en": 12} (each ranks in its own)
    other_languages: dict[str, int]
    edited: list[str]  # which of EDITABLE_FIELDS an editor set


def _roots(flat: Mapping[str, FlatNode]) -> list[FlatNode]:
    return [node for node in flat.values() if node.get("level") == 1]


def document_kind(file_name: str, opening: str, rules=KIND_RULES) -> str:  # noqa: ANN001
    """The first kind whose words are in the file name, else in the opening."""
    name = os.path.basename(file_name).lower().replace("_", " ")
    for text in (name, opening.lower()):
        for kind, pattern in rules:
            if re.search(pattern, text):
                return kind
    return "document"


def document_periods(file_name: str, opening: str) -> list[str]:
    """The years, quarters and fiscal periods the document covers, most named first."""
    found: Counter[str] = Counter()
    for text, weight in ((os.path.basename(file_name).replace("_", " "), 5), (opening, 1)):
        for match in _QUARTER.finditer(text):
            quarter = match.group(1) or match.group(2) or match.group(5)
            year = match.group(3) or match.group(4)
            found[f"Q{quarter} {year}"] += weight
            found[year] += weight
        for year in _YEAR.findall(text):
            found[year] += weight
    for ended in _FISCAL.findall(opening):
        found[f"ended {ended}"] += 2
    kept = [period for period, weight in found.most_common() if weight >= MIN_PERIOD_WEIGHT]
    return kept[:MAX_PERIODS]


def _description(
    roots: list[FlatNode], flat: Mapping[str, FlatNode], opening: str, kind: str, title: str
) -> str:
    """What the document is and covers (``describe``), then what it is about: the
    sentence saying what the organisation does, else the first substantive sections' leads
    (never a cover, contents or signature page), within the length."""
    parts: list[str] = [describe(flat, main_parts(flat), opening, kind, title)]
    business, _ = business_sentence(flat)
    if business:
        parts.append(business)
    for node in (roots or list(flat.values()))[: DESCRIPTION_SECTIONS * 2]:
        if business or len(parts) > DESCRIPTION_SECTIONS:
            break
        text = leading_summary(str(node.get("text") or ""), str(node.get("title") or ""))
        if (
            text
            and text not in parts
            and not boilerplate_kind(str(node.get("title") or ""), [text])
        ):
            parts.append(text)
    description = " ".join(parts)
    if len(description) > DESCRIPTION_CHARS:
        description = description[: DESCRIPTION_CHARS - 1].rsplit(" ", 1)[0] + "…"
    return description


def _generic(text: str) -> bool:
    """Only words that head many documents (a letter alone is no word: "D.C."; nor is a
    roman numeral: "Part III")."""
    words = [w for w in re.findall(r"[a-z]{2,}", text.lower()) if not _ROMAN.fullmatch(w)]
    return not words or all(word in GENERIC_WORDS for word in words)


def _title(document: Mapping[str, Any], roots: list[FlatNode]) -> str:
    """The title the file gives itself (an e-book's, a message's subject) unless it is only
    words every such file has (a filing's "UNITED STATES SECURITIES AND EXCHANGE COMMISSION
    Washington, D.C. 20549"), else the first top-level heading when it reads as a title,
    else the file's name."""
    declared = " ".join(str((document.get("metadata") or {}).get("title") or "").split())
    if declared and not _generic(declared):
        return declared
    stem = os.path.splitext(str(document.get("file_name") or ""))[0].replace("_", " ")
    first = heading_label(roots[0]) if roots else ""
    words = re.findall(r"[^\W\d_]{2,}", first)
    titled = len(words) >= 2 and len(first) <= 120 and not _generic(first)
    return first if titled else stem


def _is_name(term: str) -> bool:
    """A name a question may use: not a lone word in capitals from a cover's legal lines
    (``TRANSITION``), not a roman numeral, an amount or a year."""
    words = term.split()
    if not re.search(r"[^\W\d_]{2,}", term) or re.match(r"^[\d$€£]", term):
        return False
    return len(words) > 1 or not (term.isupper() or re.fullmatch(r"[IVXLC]+", term))


def _names(opening: str, authors: list[str], common: frozenset[str] = frozenset()) -> list[str]:
    """The document's authors and registrant, then the names the opening mentions most,
    without the words every such document has, nor a lone word the document also writes in
    lower case (``common``): "Rule 405" on a cover does not make "Rule" a name."""
    tags = extract_tags(opening, max_tags=MAX_NAMES * 2)
    found = [str(a) for a in authors] + ([who] if (who := registrant(opening)) else [])
    found += [
        t
        for t in tags
        if not _generic(t) and _is_name(t) and (" " in t.strip() or t.lower() not in common)
    ]
    return list(dict.fromkeys(found))[:MAX_NAMES]


def _common_words(flat: Mapping[str, FlatNode]) -> frozenset[str]:
    """The words the sections' text writes in lower case, standing alone, at least as often
    as capitalised: "information" and "class" are common words that a cover capitalises,
    while "Debian" or "Octave" stays a name though a command line writes it in lower case."""
    seen: Counter[str] = Counter()
    size = 0
    for node in flat.values():
        text = str(node.get("text") or "")
        seen.update(_PLAIN_WORD.findall(text))  # counted in C; each distinct word once below
        size += len(text)
        if size >= COMMON_WORDS_CHARS:
            break
    return frozenset(
        word for word, n in seen.items() if word.islower() and n >= seen[word.capitalize()]
    )


def card_naming(document: Document) -> dict[str, Any]:
    """What a question may name the document by (its title, file name, collection, kind
    and periods, with an editor's corrections): the part of the card read while a question
    is asked, without the names and description that read far more of the text."""
    flat = document.get("flat_nodes", {})
    edits = document.get("card_edits") or {}
    found = _naming(document, _roots(flat), opening_text(flat))
    return {**found, **{k: edits[k] for k in ("kind", "periods") if k in edits}}


def _naming(document: Document, roots: list[FlatNode], opening: str) -> dict[str, Any]:
    name = str(document.get("file_name") or "")
    return {
        "title": _title(document, roots),
        "file_name": name,
        "collection": str(document.get("collection") or ""),
        "kind": document_kind(name, opening),
        "periods": document_periods(name, opening),
    }


def build_card(document: Document) -> Card:
    """The card of an indexed document, with the corrections an editor made to it."""
    flat = document.get("flat_nodes", {})
    roots = _roots(flat)
    opening = opening_text(flat)
    naming = _naming(document, roots, opening)
    card: Card = {
        "doc_id": str(document.get("doc_id") or ""),
        **naming,  # type: ignore[typeddict-item]  # the naming fields, as typed on Card
        "names": _names(
            opening, (document.get("metadata") or {}).get("authors") or [], _common_words(flat)
        ),
        "description": _description(roots, flat, opening, naming["kind"], naming["title"]),
        "outline": [heading_label(node) for node in roots[:MAX_OUTLINE]],
        "sections": len(flat),
        "pages": document.get("total_pages"),
        "language": indexed_language(document),
        "other_languages": dict(Counter((document.get("section_languages") or {}).values())),
        "edited": [],
    }
    edits = document.get("card_edits") or {}
    for field in EDITABLE_FIELDS:
        if field in edits:
            card[field] = edits[field]  # type: ignore[literal-required]
            card["edited"].append(field)
    return card


def card_text(card: Mapping[str, Any]) -> dict[str, str]:
    """The card's fields as the index weighs them: what names the document, what it covers."""
    return {
        "name": f"{card.get('title', '')} {card.get('file_name', '').replace('_', ' ')}",
        "about": " ".join(
            [
                str(card.get("kind", "")),
                *map(str, card.get("periods") or []),
                *map(str, card.get("names") or []),
            ]
        ),  # fmt: skip
        "summary": " ".join([str(card.get("description", "")), *(card.get("outline") or [])]),
    }


def card_line(
    card: Mapping[str, Any],
    *,
    file_name: bool = False,
    names: bool = False,
    max_description: int | None = None,
) -> str:
    """The document in one line, wherever one is shown or quoted (an overview's first line,
    a routing prompt's card): ``Title (kind, periods): description``; with ``file_name``
    the file in front, with ``names`` the names it is about after the kind."""
    what = ", ".join(p for p in (str(card.get("kind") or ""),
                                 ", ".join(card.get("periods") or [])) if p)  # fmt: skip
    head = str(card.get("title") or card.get("file_name") or "")
    head += f" ({what})" if what else ""
    if file_name and card.get("file_name"):
        head = f"{card['file_name']} — {head}"
    if names and card.get("names"):
        head += " · " + ", ".join(map(str, card["names"]))[:80]
    description = " ".join(str(card.get("description") or "").split())
    if max_description and len(description) > max_description:
        description = description[: max_description - 1] + "…"
    return f"{head}: {description}" if description else head
