"""Documents scored by their best answering sections: BM25F over each section's fields,
with term statistics summed over the documents the question may read.

Why sections and not passages summed: a long manual shares some words of almost every
question somewhere, and a sum of its passages' scores grows with its length; a FAQ's entry
that answers holds the question's words together, in its title and its few lines. BM25F
scores a section as one unit, its fields weighed (a title names what a section is about)
and each field's length normalised against that field's average, so a long section does
not win by holding more words. A document is then as good as its best section.

Why the scope's own statistics: the number of sections that hold a word and the average
section length are summed over the documents the person may read in the collection asked,
from each document's totals and postings (``treerag_core.library.section_terms``), so
adding documents to another collection moves nothing here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..library.section_terms import CARD_SECTION, FIELDS, POSTING
from ..text.inflections import add_other_forms

# BM25F's field weights (title and path, summary and tags, text) and length normalisation.
# A title or path that holds a question's word says the section is about it; a summary
# repeats the text's lead (offline) or digests it (a model's), so it counts as text does.
# Titles and summaries are short and alike in length: half normalised; texts fully.
SECTION_WEIGHTS = (3.0, 1.0, 1.0)
SECTION_B = (0.5, 0.5, 0.75)
# The card's fields (name, what it covers, description and outline), the same way: what
# names the document counts most, then its kind, periods and names, then its description.
CARD_WEIGHTS = (3.0, 2.0, 1.0)
CARD_B = (0.5, 0.5, 0.75)
K1 = 1.2  # BM25's usual saturation: a word's tenth occurrence adds little
# A document's section score: its best section alone. The next two are kept (the trace and
# the search model are shown them) but add nothing: a short document answers in one place
# (a policy's one section on the matter, a FAQ's one entry), while a long one has a second
# and third section that share some of the question's words by its length alone, so any
# share of them, however small, is a bonus for bulk (#41: an annual report's three sections
# on cards outscored a four-section policy's one section on corporate cards).
FURTHER_SECTIONS = 2
FURTHER_WEIGHT = 0.0


@dataclass
class DocumentScore:
    """One document's scores for a question (raw BM25F, not yet scaled)."""

    doc_id: str
    sections: float = 0.0
    card: float = 0.0
    best: list[tuple[int, float]] = field(default_factory=list)  # (section, score), best first
    card_terms: set[str] = field(default_factory=set)  # question terms in its card's name


@dataclass
class Statistics:
    """The scope's numbers: sections and cards counted, and each field's average length."""

    sections: int
    cards: int
    section_avg: tuple[float, float, float]
    card_avg: tuple[float, float, float]


def scope_statistics(totals: Mapping[str, Mapping[str, Any]]) -> Statistics:
    """Summed over the scope's documents' totals only."""
    sections = sum(int(t.get("sections") or 0) for t in totals.values())
    cards = len(totals)
    lengths = [sum((t.get("lengths") or [0, 0, 0])[f] for t in totals.values()) for f in range(3)]
    card = [sum((t.get("card") or [0, 0, 0])[f] for t in totals.values()) for f in range(3)]
    return Statistics(
        sections, cards,
        tuple(max(1.0, x / max(1, sections)) for x in lengths),
        tuple(max(1.0, x / max(1, cards)) for x in card),
    )  # fmt: skip


def _idf(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def score_documents(
    terms_by_doc: Mapping[str, set[str]],
    postings: Mapping[str, Mapping[str, Sequence[int]]],
    lengths: Mapping[str, Sequence[int]],
    totals: Mapping[str, Mapping[str, Any]],
    stats: Statistics,
    forms: Mapping[str, str] | None = None,
) -> dict[str, DocumentScore]:
    """Each document's best sections and card score for the question's terms
    (``terms_by_doc``: the terms the question is cut into in each document's language;
    ``postings`` and each document's sections' ``lengths`` as the index keeps them; the
    card's lengths are in its ``totals``; ``forms``: other inflections of the question's
    words, each with the word it stands for, counted as the ranking counts them:
    :func:`..text.inflections.add_other_forms`)."""
    forms = forms or {}
    section_df, card_df = _frequencies(postings)
    section_norm = _norms(SECTION_WEIGHTS, SECTION_B, stats.section_avg)
    card_norm = _norms(CARD_WEIGHTS, CARD_B, stats.card_avg)

    def term_scores(term: str) -> list[tuple[tuple[str, int], float]]:
        """The term's BM25F weight in each (document, section) holding it, the card too."""
        if term not in postings:
            return []
        idf_s, idf_c = _idf(stats.sections, section_df[term]), _idf(stats.cards, card_df[term])
        pairs = []
        for doc_id, ps in postings[term].items():
            if term not in terms_by_doc.get(doc_id, ()) or doc_id not in lengths:
                continue
            own, card = lengths[doc_id], totals[doc_id].get("card") or (0, 0, 0)
            for i in range(0, len(ps), POSTING):
                section, tf = ps[i], ps[i + 1 : i + POSTING]
                if section == CARD_SECTION:
                    score = idf_c * _saturated(tf, card, 0, card_norm)
                else:
                    score = idf_s * _saturated(tf, own, FIELDS * section, section_norm)
                pairs.append(((doc_id, section), score))
        return pairs

    scores: dict[tuple[str, int], float] = {}
    for term in postings:
        if term not in forms:
            for key, score in term_scores(term):
                scores[key] = scores.get(key, 0.0) + score
    add_other_forms(scores, forms, term_scores)
    return _by_document(scores, _card_names(terms_by_doc, postings, forms))


def _card_names(
    terms_by_doc: Mapping[str, set[str]],
    postings: Mapping[str, Mapping[str, Sequence[int]]],
    forms: Mapping[str, str],
) -> dict[str, set[str]]:
    """Each document's question terms (not other forms) that its card's name holds: its
    title and file name (the card's postings come last; their first count is the name's)."""
    names: dict[str, set[str]] = {}
    for term, by_doc in postings.items():
        for doc_id, ps in by_doc.items():
            if term in forms or term not in terms_by_doc.get(doc_id, ()) or len(ps) < POSTING:
                continue
            if ps[-POSTING] == CARD_SECTION and ps[-POSTING + 1]:
                names.setdefault(doc_id, set()).add(term)
    return names


def _by_document(
    scores: Mapping[tuple[str, int], float], names: Mapping[str, set[str]]
) -> dict[str, DocumentScore]:
    """Each document's card score and best sections (the best alone is its score)."""
    out: dict[str, DocumentScore] = {}
    weights: dict[str, dict[int, float]] = {}
    for (doc_id, section), score in scores.items():
        doc = out.get(doc_id)
        if doc is None:
            doc = out[doc_id] = DocumentScore(doc_id, card_terms=set(names.get(doc_id, ())))
        if section == CARD_SECTION:
            doc.card += score
        else:
            weights.setdefault(doc_id, {})[section] = score
    for doc_id, sections in weights.items():
        ranked = sorted(sections.items(), key=lambda x: -x[1])
        doc = out[doc_id]
        doc.best = ranked[: 1 + FURTHER_SECTIONS]
        doc.sections = ranked[0][1] + FURTHER_WEIGHT * sum(x for _, x in doc.best[1:])
    return out


def _frequencies(
    postings: Mapping[str, Mapping[str, Sequence[int]]],
) -> tuple[dict[str, int], dict[str, int]]:
    """How many sections, and how many cards, of the scope hold each term."""
    section_df: dict[str, int] = {}
    card_df: dict[str, int] = {}
    for term, by_doc in postings.items():
        cards = [ps[::POSTING].count(CARD_SECTION) for ps in by_doc.values()]
        section_df[term] = sum(len(ps) // POSTING for ps in by_doc.values()) - sum(cards)
        card_df[term] = sum(1 for n in cards if n)
    return section_df, card_df


def _norms(
    weights: tuple[float, ...], b: tuple[float, ...], avg: tuple[float, ...]
) -> tuple[float, ...]:
    """Each field's weight, and its ``b / average length`` and ``1 - b``: what BM25F's
    length normalisation needs, worked out once per question."""
    return tuple(x for f in range(3) for x in (weights[f], 1 - b[f], b[f] / avg[f]))


def _saturated(tf: Sequence[int], lengths: Sequence[int], at: int, n: tuple[float, ...]) -> float:
    """BM25F's saturated term weight of one posting: its counts by field ``tf`` in a
    section whose field lengths are ``lengths[at : at + 3]``."""
    weighted = (
        (n[0] * tf[0] / (n[1] + n[2] * lengths[at]) if tf[0] else 0.0)
        + (n[3] * tf[1] / (n[4] + n[5] * lengths[at + 1]) if tf[1] else 0.0)
        + (n[6] * tf[2] / (n[7] + n[8] * lengths[at + 2]) if tf[2] else 0.0)
    )
    return weighted / (K1 + weighted)
