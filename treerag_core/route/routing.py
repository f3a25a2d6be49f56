"""Which documents of the library a question is about, before any document is opened.

Offline, every document the person may read is ranked by its card (name, kind, periods,
names, description, outline: what a question usually names) and by its best passages
(what it actually says), each scaled to the best document's score, and only the documents
that stand out are kept: within ``KEEP_RATIO`` of the best, at most ``k``. With a search
model, the model makes the choice in one call, reading the cards of the documents the
offline ranking puts first (``SHORTLIST`` of them, or every card of a small library), so
the call's size does not grow with the library; a failed call or a reply that names no
card falls back on the offline choice, and says so. Either way the choice is explained
document by document in the trace.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from ..access.principal import Principal
from ..access.rules import readable_rows
from ..errors import ConfigError
from ..library.catalog import sync_index
from ..llm.prompts import LIBRARY_ROUTING_SYSTEM_PROMPT, LIBRARY_ROUTING_USER_PROMPT
from ..llm.replies import parse_search_reply
from ..llm.schemas import routing_schema
from ..navigate.ranking import expand_query
from ..store.base import DocumentStore, LibraryIndex, WithLibraryIndex, collection_of
from ..summarize.card import card_line
from ..text.tokens import STOPWORDS, spaced

DEFAULT_K = 5  # documents opened for one question at most: a comparison names two or three
# A document is kept when its score is at least this share of the best one's: a question
# about one filing keeps that filing; one that two documents answer alike keeps both.
KEEP_RATIO = 0.8
# How a document's two scores combine: its card says what it is, its passages what it says.
# The passages weigh more: in a small library a card's words (years, kinds) are shared by
# most cards and tell little (FinanceBench dev set, 37 filings alone: right filing 76.9% at
# 0.55, 92.3% at 0.3; in a library of 1,037: 89.2% and 96.9%).
CARD_SHARE = 0.3
PASSAGE_SHARE = 1 - CARD_SHARE
# How many passages the library search returns: enough that each of the best documents
# is represented by its best few.
PASSAGE_POOL = 400
# A document's passage score: its best passage plus a little for each further good one
# (a document that discusses the subject throughout beats one that mentions it once).
FURTHER_PASSAGES = 2
FURTHER_WEIGHT = 0.25
# A question that names a year prefers the documents whose own period it is (a card's first
# period: the file name's, or the "fiscal year ended") over those that only mention it
# (last year's filing quotes this year's outlook; a quarterly release compares with the year
# before): among the best-ranked, their scores are multiplied by the first factor, those of
# another known period by the second. A factor, not a bonus: documents of the asked year
# keep their distances to each other (every 2022 filing must not crowd in beside the one a
# 2022 question is about).
PERIOD_FACTOR = 1.15
OTHER_PERIOD_FACTOR = 0.85
PERIOD_CHECKED = 40  # the best-ranked documents whose period is compared (their cards read)
TRACE_DOCUMENTS = 12  # documents listed in the trace (the kept ones and the nearest misses)
# Cards the search model reads for one question: the offline ranking's best this many (a
# library this small is shown whole). About 60 tokens a card: a bounded call at any size.
SHORTLIST = 40
CARD_DESCRIPTION_CHARS = 200
# "FY2022", "fiscal 2022", "Q2 2023", "2023Q2": the year is also asked on its own.
_WORD = re.compile(r"[^\W_]+")
_POSSESSIVE = re.compile(r"['’]s\b", re.I)  # "3M's" is asked of the documents about "3M"
_PERIOD = re.compile(r"^(?:fy|q[1-4])?(\d{4})(?:q[1-4])?$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_YEAR_IN = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def routing_tokens(query: str) -> list[str]:
    """The question's words for the library index (which stems them as it stems the
    documents), stopwords left out, with what names are often written as in file names and
    headings: periods split out ("fy2022" → "2022") and each pair of neighbouring words
    joined ("best buy" → "bestbuy", "coca-cola" → "cocacola")."""
    asked = spaced(_POSSESSIVE.sub("", expand_query(query)))  # CJK: its bigrams, as indexed
    words = [w.lower() for w in _WORD.findall(asked)]
    kept = [w for w in words if w not in STOPWORDS]
    extra = [m.group(1) for w in kept if (m := _PERIOD.match(w)) and m.group(1) != w]
    extra += [a + b for a, b in itertools.pairwise(words)
              if a.isalpha() and b.isalpha() and not {a, b} & STOPWORDS]  # fmt: skip
    return list(dict.fromkeys(kept + extra))


@dataclass
class Considered:
    """One document as routing saw it."""

    doc_id: str
    file_name: str
    collection: str
    card: float = 0.0  # scaled to the best card's score: 0..1
    passages: float = 0.0  # scaled to the best document's passages: 0..1
    score: float = 0.0
    kept: bool = False
    why: str = ""
    period: str = ""  # how its own period weighed, when the question names a year

    def trace(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "file_name": self.file_name,
            "collection": self.collection,
            "score": round(self.score, 3),
            "card": round(self.card, 3),
            "passages": round(self.passages, 3),
            "kept": self.kept,
            "why": self.why,
            **({"period": self.period} if self.period else {}),
        }


@dataclass
class Routing:
    """The documents a question goes to, and why."""

    picked: list[Considered]
    considered: list[Considered]
    searched: int  # documents the person may read in the scope
    engine: str = "offline"
    note: str = ""
    rows: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)  # the scope
    usage: dict[str, Any] = field(default_factory=dict)  # the routing call's, with a model

    @property
    def doc_ids(self) -> list[str]:
        return [c.doc_id for c in self.picked]

    def trace(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "searched": self.searched,
            "opened": self.doc_ids,
            "documents": [c.trace() for c in self.considered[:TRACE_DOCUMENTS]],
            **({"note": self.note} if self.note else {}),
            **({"usage": self.usage} if self.usage else {}),
        }


def scope_rows(
    store: DocumentStore, principal: Principal | None, collection: str | None
) -> list[dict[str, Any]]:
    """The listed documents a question may be routed to: readable, in the collection."""
    rows = readable_rows(store.list(), store, principal)
    if collection:
        rows = [row for row in rows if collection_of(row) == collection]
    return rows


def route(
    query: str,
    store: DocumentStore,
    principal: Principal | None = None,
    collection: str | None = None,
    k: int = DEFAULT_K,
) -> Routing:
    """The offline routing of ``query`` over the documents the principal may read."""
    if not isinstance(store, WithLibraryIndex):
        raise ConfigError(f"{store.location} keeps no library index: name the documents to ask.")
    rows = scope_rows(store, principal, collection)
    sync_index(store, rows, complete=principal is None and not collection)
    by_id = {row["doc_id"]: row for row in rows}
    allowed: Collection[str] | None = None if principal is None and not collection else by_id
    tokens = routing_tokens(query)
    index = store.library_index()
    cards = index.search_cards(tokens, allowed)
    passages = index.search_passages(tokens, allowed, PASSAGE_POOL)
    considered = _by_period(_score(by_id, cards, passages), asked_years(tokens), index)
    return replace(_keep(considered, len(by_id), k), rows=by_id)


def asked_years(tokens: list[str]) -> set[str]:
    """The years a question names ("FY2020", "2020", "Q2 2023" → "2020", "2023")."""
    return {t for t in tokens if _YEAR.match(t)}


def own_year(card: dict[str, Any]) -> str | None:
    """The year a document is about: its card's first period's."""
    periods = card.get("periods") or []
    found = _YEAR_IN.search(str(periods[0])) if periods else None
    return found.group(0) if found else None


def _by_period(
    considered: list[Considered], years: set[str], index: LibraryIndex
) -> list[Considered]:
    """The best-ranked documents re-weighed by their own period (see ``PERIOD_FACTOR``)."""
    if not years or not considered:
        return considered
    head = considered[:PERIOD_CHECKED]
    cards = index.cards([c.doc_id for c in head])
    for c in head:
        year = own_year(cards.get(c.doc_id) or {})
        if year in years:
            c.score *= PERIOD_FACTOR
            c.period = f"its own period, {year}, is the one asked"
        elif year is not None:
            c.score *= OTHER_PERIOD_FACTOR
            c.period = f"its own period is {year}, not the one asked"
    return sorted(considered, key=lambda c: (-c.score, c.file_name))


def _score(
    rows: dict[str, dict[str, Any]],
    cards: dict[str, float],
    passages: list[tuple[str, str, float]],
) -> list[Considered]:
    per_doc: dict[str, list[tuple[str, float]]] = {}
    for doc_id, node_id, score in passages:
        if doc_id in rows:
            per_doc.setdefault(doc_id, []).append((node_id, score))
    passage_score = {
        doc_id: hits[0][1] + FURTHER_WEIGHT * sum(s for _, s in hits[1 : 1 + FURTHER_PASSAGES])
        for doc_id, hits in per_doc.items()
    }
    best_card = max((s for d, s in cards.items() if d in rows), default=0.0) or 1.0
    best_passage = max(passage_score.values(), default=0.0) or 1.0
    out = []
    for doc_id in set(per_doc) | {d for d in cards if d in rows}:
        row = rows[doc_id]
        c = Considered(doc_id, str(row.get("file_name")), collection_of(row))
        c.card = max(0.0, cards.get(doc_id, 0.0)) / best_card
        c.passages = passage_score.get(doc_id, 0.0) / best_passage
        c.score = CARD_SHARE * c.card + PASSAGE_SHARE * c.passages
        out.append(c)
    out.sort(key=lambda c: (-c.score, c.file_name))
    return out


@dataclass
class RoutingCall:
    """The one model call that picks documents: its prompt and the cards' numbers."""

    system: str
    user: str
    numbered: dict[str, Considered]

    @property
    def schema(self) -> dict[str, Any]:
        return routing_schema(int(n) for n in self.numbered)


def routing_call(
    query: str, routing: Routing, index: LibraryIndex, k: int, earlier: str = "",
    extra_context: str = "",
) -> RoutingCall | None:  # fmt: skip
    """The prompt for the search model over the shortlisted cards (None: nothing to show);
    only the shortlist's cards are read. ``earlier``: the conversation's last question."""
    shortlist = list(routing.considered[:SHORTLIST])
    if len(routing.rows) <= SHORTLIST:  # a small library: every card, matched or not
        seen = {c.doc_id for c in shortlist}
        shortlist += [Considered(d, str(r.get("file_name")), collection_of(r))
                      for d, r in routing.rows.items() if d not in seen]  # fmt: skip
    if not shortlist:
        return None
    cards = index.cards([c.doc_id for c in shortlist])
    numbered = {str(n): c for n, c in enumerate(shortlist, 1)}
    lines = [f"[{n}] " + card_line({"file_name": c.file_name, **(cards.get(c.doc_id) or {})},
                                   file_name=True, names=True,
                                   max_description=CARD_DESCRIPTION_CHARS)
             for n, c in numbered.items()]  # fmt: skip
    user = LIBRARY_ROUTING_USER_PROMPT.format(
        history=f"Earlier question: {earlier}\n" if earlier else "", query=query,
        cards="\n".join(lines),
        extra_context=f"Context: {extra_context}\n" if extra_context else "",
    )  # fmt: skip
    return RoutingCall(LIBRARY_ROUTING_SYSTEM_PROMPT.format(max_documents=k), user, numbered)


def model_choice(
    routing: Routing, call: RoutingCall, reply: str | None, error: str, k: int
) -> Routing:
    """The routing the model's reply makes (its order kept), or the offline one with why."""
    ids, reasoning, how = parse_search_reply(reply or "", list(call.numbered))
    if error or not ids and how != "json-empty":
        why = error or "the reply named no card"
        return replace(routing, note=f"search model: {why}; the offline choice")
    for c in routing.considered:
        c.kept, c.why = False, "not picked by the search model"
    picked = [call.numbered[n] for n in ids[:k]]
    for c in picked:
        c.kept, c.why = True, f"picked by the search model: {reasoning[:160]}".rstrip(": ")
    order = {c.doc_id: i for i, c in enumerate(picked)}
    considered = sorted({c.doc_id: c for c in [*picked, *routing.considered]}.values(),
                        key=lambda c: (order.get(c.doc_id, len(order)), -c.score))  # fmt: skip
    note = "" if picked else "the search model found no document for the question"
    return replace(routing, picked=picked, considered=considered, engine="model", note=note)


def checked_choice(chosen: Routing, offline: Routing, k: int) -> Routing:
    """The model's documents, with the offline routing's best opened too when the model
    picked none of those the question's words find: navigation's offline check, for the
    library. A model too weak to route (SmolLM2-135M named the wrong filing for every
    question bench.local_model asked of the library, where the offline routing named the
    right one) still reaches the document the question's words name."""
    if chosen.engine != "model" or not chosen.picked or not offline.picked:
        return chosen
    if set(offline.doc_ids) & set(chosen.doc_ids):
        return chosen
    best = offline.picked[0]
    best.kept, best.why = True, "the offline ranking's best, opened too (offline check)"
    for c in chosen.picked[k - 1 :]:
        c.kept, c.why = False, f"picked by the search model, but only {k} documents are opened"
    note = ("offline check: none of the documents the search model picked is among those the "
            "question's words find; the offline ranking's best is opened too")  # fmt: skip
    picked = [chosen.picked[0], best, *chosen.picked[1:]][:k]
    return replace(chosen, picked=picked, note=note)


def _keep(considered: list[Considered], searched: int, k: int) -> Routing:
    if not considered:
        return Routing([], [], searched, note="no document in the library matches the question")
    best = considered[0].score
    picked = []
    for rank, c in enumerate(considered, 1):
        if len(picked) < k and c.score >= KEEP_RATIO * best:
            c.kept = True
            c.why = "the best match" if rank == 1 else f"{c.score / best:.0%} of the best"
            picked.append(c)
        elif c.score >= KEEP_RATIO * best:
            c.why = f"close, but only {k} documents are opened"
        else:
            c.why = f"{c.score / best:.0%} of the best, below the {KEEP_RATIO:.0%} cut"
    return Routing(picked, considered, searched)
