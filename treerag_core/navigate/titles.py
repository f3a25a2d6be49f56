"""Sections whose whole title the question names ("How many employees …" names the section
"Employees", "… PepsiCo's Europe division …" the section "Europe"): read whatever their rank.

Why the ranking alone leaves them out: a short section under its own heading holds the
question's one telling word a few times, while long passages elsewhere hold its other
words (the company's name, the year, "division", "employed" in an officer's agreement); a
search model reading the outline picks the section by its title. A title is the author's
name for what a section holds: when the question says all of it, the section is read, as
a statement's row is (:mod:`.line_items`), with the same test of specificity.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from ..text.bm25 import BM25
from ..text.language import Languages
from ..text.tokens import tokenize
from ..tree.labels import own_title
from .line_items import names_label, one_forms, specificity

# At most this many sections are read for the titles a question names (taking the last
# places of those read, after the line items' and the named statement's).
TITLE_SECTIONS = 1
# A title's label or number goes before its words: "Item 1A. Risk Factors", "Note 4 —
# Debt", "A. Acquisitions", "2.1 Scope".
_LABEL = re.compile(
    r"^(?:(?:part|item|note|chapter|section|article|schedule|exhibit)\s+[\dIVXLC]+[A-Z]?[.:]?"
    r"|(?-i:[A-Z])[.)]|\d{1,3}(?:\.\d{1,3})*[.)]?)(?:\s*[—–:-]\s*|\s+)(?=\S)",
    re.IGNORECASE,
)


def titled_sections(
    asked: set[str],
    flat: Mapping[str, Mapping[str, Any]],
    pool: Collection[str],
    bm25: BM25,
    languages: Languages,
    places: Mapping[str, int],
    limit: int = TITLE_SECTIONS,
) -> list[str]:
    """The sections of ``pool`` whose whole title (without its label) the question's words
    ``asked`` name, most specific title first (:func:`.line_items.specificity`), then best
    ranked (``places``: a division's "Europe" in the MD&A that discusses its profit before the one
    in Item 1 that lists its countries); none whose title only says what most passages say
    (the company's name, "General"), nor a piece cut from a long section (its title is not
    the author's)."""
    said = one_forms(asked)
    best: list[tuple[float, int, str]] = []
    for nid in pool:
        node = flat[nid]
        if node.get("generated") or not str(node.get("text") or "").strip():
            continue
        words = frozenset(tokenize(_LABEL.sub("", own_title(node)), languages.of(nid)))
        if not words or not any(w.isalpha() for w in words):
            continue
        if not names_label(words, asked, said):
            continue
        if (weight := specificity(words, bm25)) is not None:
            best.append((-weight, places.get(nid, len(places)), nid))
    return [nid for _, _, nid in sorted(best)[:limit]]
