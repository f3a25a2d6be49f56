"""A document's section statistics for the library index, built once at indexing.

Routing ranks documents by their best answering sections (BM25F over each section's title
and path, summary and tags, and text), so the index keeps, for every term of a document,
which sections hold it and how often in each field, and, once per document, each section's
field lengths: a question reads the postings of its own terms only, and the lengths of
the documents they are in, among the documents it may read, and
the term statistics (how many sections hold a term, how long a section is on average) are
summed over those documents alone. That is what keeps a collection's routing its own: no
number of the index is library-wide.

The card is kept the same way, as section ``CARD_SECTION`` with its own three fields (name,
what it covers, description and outline), so the card is scored by the same BM25F over the
cards of the same documents.

Words are cut by the offline engine's tokenizer in the document's language, so a question
is cut as its documents were.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from ..summarize.card import card_text
from ..text.tokens import tokenize
from ..tree.labels import heading_label

QUARTERLY_KINDS = ("quarterly report", "earnings release")
_QUARTER = re.compile(r"^Q[1-4] (?:19|20)\d\d$")
CARD_SECTION = -1  # the card's postings, beside the sections' (which count from 0)
POSTING = 4  # a posting's numbers: section, then the term's count in title, summary, text
FIELDS = 3  # a section's lengths: title, summary, text


def section_fields(node: Mapping[str, Any]) -> tuple[str, str, str]:
    """A section's three fields: its title with its path (the headings above it name what
    it is about: "Debian FAQ > Package tools > dpkg"), its summary and tags, its text."""
    title = f"{node.get('path') or ''} {heading_label(node)}"
    summary = f"{node.get('summary') or ''} {' '.join(map(str, node.get('tags') or []))}"
    return title, summary, str(node.get("text") or "")


def own_period(card: Mapping[str, Any]) -> str:
    """The period a document is about: a quarter's report's quarter ("Q2 2023"), else its
    card's first period (the file name's year, or the "fiscal year ended"). A quarter
    named in an annual report's opening does not make it a quarter's."""
    periods = [str(p) for p in card.get("periods") or []]
    if card.get("kind") in QUARTERLY_KINDS:
        quarters = [p for p in periods if _QUARTER.match(p)]
        if quarters:
            return quarters[0]
    return periods[0] if periods else ""


def section_entry(
    flat_nodes: Mapping[str, Mapping[str, Any]],
    card: Mapping[str, Any],
    tokens: Callable[[str, str], list[str]] = tokenize,
) -> dict[str, Any]:
    """The postings of every term, flat (``{term: [section, tf title, tf summary, tf text,
    section, ...]}``, sections in order, the card's last), each section's field lengths,
    flat (``[len title, len summary, len text, ...]``: kept once, not in every posting,
    which made the index three times the size), the document's totals (sections, summed
    field lengths, the card's field lengths, its language, its own period and kind) and each
    section's node id and title (what the trace and the search model are shown of the best
    sections). ``tokens``: how a text is cut (indexing passes a
    :class:`~..text.tokens.TextTokens` it shares)."""
    language = str(card.get("language") or "")
    postings: dict[str, list[int]] = {}
    lengths: list[int] = []
    nodes, titles = [], []
    for i, (node_id, node) in enumerate(flat_nodes.items()):
        lengths += _add(postings, i, section_fields(node), language, tokens)
        nodes.append(str(node_id))
        titles.append(heading_label(node)[:120])
    fields = card_text(card)
    card_lengths = _add(postings, CARD_SECTION, (fields["name"], fields["about"],
                        fields["summary"]), language, tokens)  # fmt: skip
    sums = [sum(lengths[f::FIELDS]) for f in range(FIELDS)]
    totals = {"sections": len(nodes), "lengths": sums, "card": card_lengths, "language": language,
              "period": own_period(card), "kind": str(card.get("kind") or "")}  # fmt: skip
    return {"postings": postings, "lengths": lengths, "totals": totals, "nodes": nodes,
            "titles": titles}  # fmt: skip


def _add(
    postings: dict[str, list[int]], section: int, fields: tuple[str, str, str],
    language: str, tokens: Callable[[str, str], list[str]] = tokenize,
) -> list[int]:  # fmt: skip
    """Add one section's postings; returns its three field lengths."""
    title, summary, text = counts = [Counter(tokens(text, language)) for text in fields]
    rows = postings.get  # bound once: a call a term
    for term, n in text.items():  # most terms are only the text's: their counts there
        row = rows(term)
        if row is None:
            postings[term] = [section, 0, 0, n]
        else:
            row += (section, 0, 0, n)
    for term, n in title.items():  # then the few of the title and summary, in place
        if term in text:
            postings[term][-3] = n
        else:
            postings.setdefault(term, []).extend((section, n, summary.get(term, 0), 0))
    for term, n in summary.items():
        if term in text:
            postings[term][-2] = n
        elif term not in title:
            postings.setdefault(term, []).extend((section, 0, n, 0))
    return [sum(c.values()) for c in counts]
