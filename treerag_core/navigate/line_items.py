"""Sections whose tables print a line item the question names: read whatever their rank.

Why the BM25 ranking alone leaves them out: a statement's section is a bare table. Its row
"Inventories 1,867.3 1,820.5" holds the one word of the question that says what is asked,
once, while the question's other words (the company's name, "fiscal", the year) are
repeated by the prose around it: certifications, the auditor's report, notes and the MD&A
score higher on them. On our held-out questions the balance sheet of a filing ranked 35th
and 51st for its own "long-term debt" and "inventories" rows (24 sections are read), while
chunks of page text, whose running header repeats the company's name, found the page.

The document's tables are kept as data (``document["tables"]``, see
:mod:`~..text.table_data`), each row with its label. A question that names a row's whole
label ("long-term debt", "capital expenditures", "dividends paid") names a line item that
section prints: the few sections printing the most specific such labels are read, taking
the places of the last-ranked. No vocabulary: a label is matched by its own words, in the
question as the ranking searches it (:func:`~.ranking.expand_query`: with the words
filings use for its phrases and the rows of a metric's formula it names), stemmed.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from ..text.bm25 import BM25
from ..text.language import Languages
from ..text.table_data import tables_of
from ..text.tokens import tokenize
from .ranking import RankingMemory

# At most this many sections are read for the line items a question names, taking the last
# places of those read (24 offline). A line item is printed in a few places (the statement,
# its note, the cash flow statement's change in it): three hold the statement without
# pushing out more than three of the ranking's own picks, which at ranks 22-24 rarely hold
# what is asked.
LINE_ITEM_SECTIONS = 3
# A label names what is asked only when one of its words is held by at most this share of
# the document's passages (half; a share, not an idf, so that a short document's labels are
# judged as a long one's). A label made only of words most passages hold (the company's own
# name in a segment table or a stock graph, running headers, "Total") matches a question by
# the words every question about the document has, not by what it asks. A lower share (one
# in seven, until 2026-12-06) also left out the very line items a document is about: its
# "Goodwill" (17% of a 10-K's passages after a year of impairments) and an earnings
# release's "Operating Profit" (32% of its 31 passages), whose statements were then not read.
LINE_ITEM_MAX_SHARE = 0.5

RowLabels = dict[str, list[tuple[str, frozenset[str]]]]
# An aside in a row's label: "Capital expenditures (including capitalized software)", "Cash,
# end of period (Note 1)", "Net income (loss)". It qualifies the line item; a question names
# the item without it.
_ASIDE = re.compile(r"\s*\([^()]*\)")


def remembered_labels(
    document: Mapping[str, Any], language: Languages, memory: RankingMemory | None
) -> RowLabels:
    """The document's row labels (:func:`row_labels`), kept in ``memory`` for its next
    question when the document is a stored one (its id and indexing time name it)."""
    doc_id, indexed = document.get("doc_id"), document.get("indexed_at")
    if memory is None or not doc_id or not indexed:
        return row_labels(document, language)
    key = (
        "row labels",
        str(doc_id),
        str(indexed),
        language.main,
        tuple(sorted(language.sections.items())),
    )
    return memory.piece(key, lambda: row_labels(document, language))


def row_labels(document: Mapping[str, Any], language: Languages) -> RowLabels:
    """Each section's table row labels with their words, cut in the section's language
    (``{node_id: [(label, words)]}``), an aside in parentheses left out of the words
    (:data:`_ASIDE`) unless the label is nothing else: built once per document and
    remembered."""
    out: RowLabels = {}
    for table in tables_of(document):
        nid = str(table.get("node_id") or "")
        cut = language.of(nid)
        seen = out.setdefault(nid, [])
        for row in table.get("rows") or []:
            label = str(row.get("label") or "")
            words = frozenset(tokenize(_ASIDE.sub("", label), cut)) or frozenset(
                tokenize(label, cut)
            )
            if words and any(w.isalpha() for w in words) and (label, words) not in seen:
                seen.append((label, words))
    return out


def line_item_sections(
    asked: set[str],
    labels: RowLabels,
    bm25: BM25,
    order: Mapping[str, int],
    limit: int = LINE_ITEM_SECTIONS,
    statements: Collection[str] = (),
) -> list[tuple[str, str]]:
    """The sections printing a row whose whole label the question's words ``asked`` name,
    most specific label first (the sum of its words' idf), then in document ``order`` (of
    the sections that may be read): ``[(node_id, label)]``, at most ``limit``; the most
    specific of them that is a primary statement (``statements``) first of all.

    Why a statement first: it is where a report states the line item, and the notes that
    break it down print the more specific labels ("Total revenues" in a segment note, where
    the income statement prints "Revenues"), which took every place.

    Document order, not the ranking's, between sections printing the same label: the
    ranking is what leaves a bare statement out, and a report states a line item where
    it reports it (the statements) before it breaks it down (the notes: deferred taxes,
    assets held for sale)."""
    best: dict[str, tuple[float, str]] = {}
    said = one_forms(asked)
    for nid, rows in labels.items():
        if nid not in order:
            continue
        for label, words in rows:
            if not names_label(words, asked, said):
                continue
            weight = specificity(words, bm25)
            if weight is not None and weight > best.get(nid, (0.0, ""))[0]:
                best[nid] = (weight, label)
    chosen = sorted(best, key=lambda nid: (-best[nid][0], order[nid]))
    stated = [nid for nid in chosen if nid in statements][:1]
    chosen = (stated + [nid for nid in chosen if nid not in stated])[:limit]
    return [(nid, best[nid][1]) for nid in chosen]


def specificity(words: frozenset[str], bm25: BM25) -> float | None:
    """How specific a label (or a title) is: the sum of its words' idf; None when even its
    rarest word is in more than :data:`LINE_ITEM_MAX_SHARE` of the passages (it says what
    every question about the document says)."""
    if min(bm25.passages_with(w) for w in words) > LINE_ITEM_MAX_SHARE * len(bm25.keys):
        return None
    return sum(bm25.idf(w) for w in words)


def named_labels(asked: set[str], rows: list[tuple[str, frozenset[str]]]) -> list[str]:
    """The labels of ``rows`` (one section's) whose words the question's ``asked`` name."""
    said = one_forms(asked)
    return [label for label, words in rows if names_label(words, asked, said)]


def names_label(words: frozenset[str], asked: set[str], said: set[str]) -> bool:
    """Whether the question's words name a label whole (``said``: their :func:`one_forms`)."""
    return words <= asked or one_forms(words) <= said


def one_forms(words: set[str] | frozenset[str]) -> set[str]:
    """The words with their ``-y`` and ``-ies`` forms as one ("inventory", and "inventorie"
    that English's plural strip leaves of "Inventories"): a statement labels its row in the
    plural, a question asks in the singular. Only where a label must be named whole; in the
    ranking, a "companies" asked would meet every "Company" of a filing."""
    return {w[:-1] + "ie" if len(w) > 3 and w[-1] == "y" and w[-2] not in "aeiouy" else w
            for w in words}  # fmt: skip
