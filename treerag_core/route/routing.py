"""Which documents of the library a question is about, before any document is opened.

Offline, in three steps, each explained document by document in the trace:

1. **Score** every document the person may read by its best answering sections (BM25F
   over section titles, paths, summaries and text: :mod:`treerag_core.route.scoring`) and,
   apart, by its card; the statistics are the scope's own, so documents outside the
   collection or the person's readable set move nothing.
2. **Filter** by what the question names (:mod:`treerag_core.route.named`): a company,
   product, person or title keeps the documents whose cards name it; a period keeps the
   documents whose own period it is (and those that have none). Nothing named: no filter.
3. **Keep** the best; several only when the question compares, or when the next ones are
   too close to the best to tell apart.

With a search model, the model makes the choice in one call, reading the cards of the
documents the offline ranking puts first (``SHORTLIST`` of them, or every card of a small
library) with each one's best sections' titles, so the call's size does not grow with the
library; a failed call or a reply that names no card falls back on the offline choice, and
says so.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
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
from ..text.inflections import ENGLISH, other_forms
from ..text.language import detect_language
from ..text.messages import Phrase, raised, said_in
from ..text.tokens import tokenize
from .named import (
    Named,
    name_filter,
    name_terms,
    names_in_file_names,
    period_filter,
    read_question,
    with_aliases,
)
from .scoring import DocumentScore, scope_statistics, score_documents

DEFAULT_K = 5  # documents opened for one question at most: a comparison names two or three
# How a document's two scores combine, each scaled to the best candidate's: its sections
# say what it holds, its card what it is. The card is short and its words (kinds, years)
# are shared by many cards, and names and periods are filters already: it weighs a quarter.
CARD_SHARE = 0.25
SECTION_SHARE = 1 - CARD_SHARE
# A question that compares keeps the documents within this share of the best (and the best
# of each name it gives); one that does not keeps the best alone, and a next one only when
# it is within ``CLOSE_RATIO``: closer than the ranking can tell apart.
KEEP_RATIO = 0.8
CLOSE_RATIO = 0.95
TRACE_DOCUMENTS = 12  # documents listed in the trace (the kept ones and the nearest misses)
BEST_SECTIONS = 3  # best sections' titles shown per document (trace, search model)
# Cards the search model reads for one question: the offline ranking's best this many (a
# library this small is shown whole). About 80 tokens a card: a bounded call at any size.
SHORTLIST = 40
CARD_DESCRIPTION_CHARS = 200
_POSSESSIVE = re.compile(r"['’]s\b", re.I)  # "3M's" is asked of the documents about "3M"
_PERIOD = re.compile(r"^(?:fy|q[1-4])?(\d{4})(?:q[1-4])?$")
_JOINED = re.compile(r"[^\W_]+(?:[-'’.][^\W_]+)+")  # one word written in parts: "coca-cola"
_JOINERS = re.compile(r"[-'’.]")


def routing_tokens(query: str, language: str = "") -> list[str]:
    """The question's terms as the library index cut its documents in ``language`` (the
    offline tokenizer), with what names are often written as in file names and headings:
    periods split out ("fy2022" → "2022") and a word written in parts joined ("coca-cola" →
    "cocacola"). Two separate words are not joined here ("log file" is not also "logfile"):
    the joined form would count the same words a second time, with the largest weight of
    all since it is rare, wherever a section happens to spell it so. A name's words are
    joined where the question capitalises them (``named.name_terms``: "Best Buy" →
    "bestbuy")."""
    asked = _POSSESSIVE.sub("", expand_query(query))
    kept = tokenize(asked, language)
    extra = [m.group(1) for w in kept if (m := _PERIOD.match(w)) and m.group(1) != w]
    extra += [_JOINERS.sub("", w.lower()) for w in _JOINED.findall(asked)]
    return list(dict.fromkeys(kept + extra))


@dataclass
class Considered:
    """One document as routing saw it."""

    doc_id: str
    file_name: str
    collection: str
    card: float = 0.0  # scaled to the best card's score: 0..1
    passages: float = 0.0  # its best sections, scaled to the best document's: 0..1
    score: float = 0.0
    kept: bool = False
    why: str = ""
    period: str = ""  # how its own period weighed, when the question names one
    named: str = ""  # how the names the question gives weighed
    sections: list[int] = field(default_factory=list)  # its best sections, best first
    titles: list[str] = field(default_factory=list)  # their titles
    filtered: bool = False  # dropped by a name or period the question gives
    language: str = ""  # its document's: what an answer from it is written in

    def trace(self, language: str | None = None) -> dict[str, Any]:
        """As the answer's trace shows it, the reasons in ``language``."""
        return {
            "doc_id": self.doc_id,
            "file_name": self.file_name,
            "collection": self.collection,
            "score": round(self.score, 3),
            "card": round(self.card, 3),
            "passages": round(self.passages, 3),
            "kept": self.kept,
            "why": said_in(self.why, language),
            **({"period": said_in(self.period, language)} if self.period else {}),
            **({"named": said_in(self.named, language)} if self.named else {}),
            **({"best_sections": self.titles} if self.titles else {}),
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
    filters: list[str] = field(default_factory=list)  # the filters applied, with why
    asked: str = ""  # the question's language

    @property
    def doc_ids(self) -> list[str]:
        return [c.doc_id for c in self.picked]

    @property
    def language(self) -> str:
        """The answer's language, as the answer tells it (``Prepared.language``): the
        opened documents' when they share one, else the question's."""
        languages = {c.language for c in self.picked}
        return languages.pop() if len(languages) == 1 else self.asked

    def trace(self, language: str | None = None) -> dict[str, Any]:
        """What the answer's trace shows, its reasons and notes in ``language`` (by default
        the answer's: a German answer explains its routing in German)."""
        said = self.language if language is None else language
        return {
            "engine": self.engine,
            "searched": self.searched,
            "opened": self.doc_ids,
            "documents": [c.trace(said) for c in self.considered[:TRACE_DOCUMENTS]],
            **({"filters": [said_in(f, said) for f in self.filters]} if self.filters else {}),
            **({"note": said_in(self.note, said)} if self.note else {}),
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
        raise raised(ConfigError, "error.no_library_index", where=store.location)
    rows = scope_rows(store, principal, collection)
    sync_index(store, rows, complete=principal is None and not collection)
    by_id = {row["doc_id"]: row for row in rows}
    allowed: Collection[str] | None = None if principal is None and not collection else by_id
    index = store.library_index()
    totals = {d: t for d, t in index.totals(allowed).items() if d in by_id}
    named = read_question(query)
    asked = with_aliases(query)
    by_language = {lang: set(routing_tokens(asked, lang)) | name_terms(named)
                   for lang in {str(t.get("language") or "") for t in totals.values()}}  # fmt: skip
    forms = other_forms(t for lang in ENGLISH & by_language.keys() for t in by_language[lang])
    for lang in ENGLISH & by_language.keys():
        by_language[lang] = by_language[lang] | forms.keys()
    terms = {d: by_language[str(t.get("language") or "")] for d, t in totals.items()}
    postings = index.postings(set().union(*by_language.values()), allowed)
    lengths = index.lengths({d for by_doc in postings.values() for d in by_doc})
    stats = scope_statistics(totals)
    scores = score_documents(terms, postings, lengths, totals, stats, forms)
    for doc_id, held in names_in_file_names(named, {d: by_id[d] for d in scores}).items():
        scores[doc_id].card_terms |= held
    considered, filters = _filtered(_considered(scores, by_id, totals), scores, named, totals)
    _best_sections(considered, index)
    routing = _keep(considered, len(by_id), k, named)
    return replace(routing, rows=by_id, filters=filters, asked=detect_language(query))


def _considered(
    scores: Mapping[str, DocumentScore], rows: Mapping[str, Any],
    totals: Mapping[str, Mapping[str, Any]],
) -> list[Considered]:  # fmt: skip
    out = []
    for doc_id, s in scores.items():
        row = rows[doc_id]
        c = Considered(doc_id, str(row.get("file_name")), collection_of(row),
                       language=str(totals[doc_id].get("language") or ""))  # fmt: skip
        c.sections = [i for i, _ in s.best]
        out.append(c)
    return out


def _filtered(
    considered: list[Considered], scores: Mapping[str, DocumentScore], named: Named,
    totals: Mapping[str, Mapping[str, Any]],
) -> tuple[list[Considered], list[str]]:  # fmt: skip
    """The candidates after the name and period filters (the dropped ones last, marked),
    each scored against the best remaining candidate; and the filters applied, with why."""
    filters: list[str] = []
    alive = {c.doc_id for c in considered}
    card_terms = {d: scores[d].card_terms for d in alive}
    kept, why = name_filter(named, card_terms)
    by_id = {c.doc_id: c for c in considered}
    if kept is not None:
        names = ", ".join(w for w, _ in named.names)
        filters.append(Phrase("route.filter_names", names=names, count=len(kept)))
        for doc_id, reason in why.items():
            by_id[doc_id].named = reason
        alive &= kept
    kept, why = period_filter(named, totals, alive)
    if kept is not None:
        asked = ", ".join(named.quarters + named.years)
        filters.append(Phrase("route.filter_period", asked=asked, count=len(kept & alive)))
        for doc_id, reason in why.items():
            by_id[doc_id].period = reason
        alive &= kept
    best_s = max((scores[d].sections for d in alive), default=0.0) or 1.0
    best_c = max((scores[d].card for d in alive), default=0.0) or 1.0
    for c in considered:
        s = scores[c.doc_id]
        c.passages, c.card = s.sections / best_s, s.card / best_c
        c.score = SECTION_SHARE * c.passages + CARD_SHARE * c.card
        c.filtered = c.doc_id not in alive
    considered.sort(key=lambda c: (c.filtered, -c.score, c.file_name))
    return considered, filters


def _best_sections(considered: list[Considered], index: LibraryIndex) -> None:
    """The best sections' titles of the documents the trace shows."""
    shown = [c for c in considered[:SHORTLIST] if c.sections]
    if not shown:
        return
    sections = index.sections([c.doc_id for c in shown])
    for c in shown:
        titles = (sections.get(c.doc_id) or {}).get("titles") or []
        c.titles = [titles[i] for i in c.sections[:BEST_SECTIONS] if i < len(titles)]


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
    """The prompt for the search model over the shortlisted cards (None: nothing to show),
    each with its best sections' titles; only the shortlist's cards are read. ``earlier``:
    the conversation's last question."""
    shortlist = list(routing.considered[:SHORTLIST])
    if len(routing.rows) <= SHORTLIST:  # a small library: every card, matched or not
        seen = {c.doc_id for c in shortlist}
        shortlist += [Considered(d, str(r.get("file_name")), collection_of(r),
                                 language=str(r.get("language") or ""))
                      for d, r in routing.rows.items() if d not in seen]  # fmt: skip
    if not shortlist:
        return None
    cards = index.cards([c.doc_id for c in shortlist])
    numbered = {str(n): c for n, c in enumerate(shortlist, 1)}
    lines = [f"[{n}] {_card_with_sections(c, cards.get(c.doc_id) or {})}"
             for n, c in numbered.items()]  # fmt: skip
    user = LIBRARY_ROUTING_USER_PROMPT.format(
        history=f"Earlier question: {earlier}\n" if earlier else "", query=query,
        cards="\n".join(lines),
        extra_context=f"Context: {extra_context}\n" if extra_context else "",
    )  # fmt: skip
    return RoutingCall(LIBRARY_ROUTING_SYSTEM_PROMPT.format(max_documents=k), user, numbered)


def _card_with_sections(c: Considered, card: dict[str, Any]) -> str:
    """One card as the search model reads it (the one ``card_line``), then the titles of its
    sections that match the question best: what it holds, not its outline."""
    line = card_line({"file_name": c.file_name, **card}, file_name=True, names=True,
                     max_description=CARD_DESCRIPTION_CHARS)  # fmt: skip
    best = f" — Best sections: {'; '.join(t[:80] for t in c.titles)}" if c.titles else ""
    return line + best


def model_choice(
    routing: Routing, call: RoutingCall, reply: str | None, error: str, k: int
) -> Routing:
    """The routing the model's reply makes (its order kept), or the offline one with why."""
    ids, reasoning, how = parse_search_reply(reply or "", list(call.numbered))
    if error or not ids and how != "json-empty":
        why = error or Phrase("route.model_no_card")
        return replace(routing, note=Phrase("route.model_failed", why=why))
    for c in routing.considered:
        c.kept, c.why = False, Phrase("route.model_not_picked")
    picked = [call.numbered[n] for n in ids[:k]]
    said = reasoning[:160].rstrip(": ")
    for c in picked:
        c.kept = True
        c.why = (
            Phrase("route.model_picked_why", reasoning=said)
            if said
            else (Phrase("route.model_picked"))
        )
    order = {c.doc_id: i for i, c in enumerate(picked)}
    considered = sorted({c.doc_id: c for c in [*picked, *routing.considered]}.values(),
                        key=lambda c: (order.get(c.doc_id, len(order)), -c.score))  # fmt: skip
    note = "" if picked else Phrase("route.model_none")
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
    best.kept, best.why = True, Phrase("route.checked_best")
    for c in chosen.picked[k - 1 :]:
        c.kept, c.why = False, Phrase("route.model_over_limit", count=k)
    note = Phrase("route.checked_note")
    picked = [chosen.picked[0], best, *chosen.picked[1:]][:k]
    return replace(chosen, picked=picked, note=note)


def _keep(considered: list[Considered], searched: int, k: int, named: Named) -> Routing:
    """The best candidate; with it, when the question compares, the others within
    ``KEEP_RATIO`` (and the best of each name given), else only those within
    ``CLOSE_RATIO``."""
    candidates = [c for c in considered if not c.filtered]
    if not candidates:
        return Routing([], considered, searched, note=Phrase("route.no_match"))
    best = candidates[0].score or 1.0
    ratio = KEEP_RATIO if named.compares else CLOSE_RATIO
    picked: list[Considered] = []
    for rank, c in enumerate(candidates, 1):
        close = c.score >= ratio * best
        if len(picked) < k and close:
            c.kept = True
            share = f"{c.score / best:.0%}"
            c.why = Phrase("route.best") if rank == 1 else Phrase("route.share", share=share)
            picked.append(c)
        elif close:
            c.why = Phrase("route.too_many", count=k)
        else:
            below = "route.below_cut_compares" if named.compares else "route.below_cut"
            c.why = Phrase(below, share=f"{c.score / best:.0%}", cut=f"{ratio:.0%}")
    if named.compares:
        for c in _best_of_each_name(candidates, named):
            if c not in picked and len(picked) < k:
                c.kept, c.why = True, Phrase("route.best_of_name")
                picked.append(c)
    for c in considered:
        if c.filtered:
            c.why = _filtered_out(c)
    return Routing(picked, considered, searched)


def _filtered_out(c: Considered) -> str:
    """Why a filter dropped ``c``: the name its card lacks, the period that is not its own."""
    named = c.named if _said(c.named, "route.card_lacks") else ""
    period = c.period if _said(c.period, "route.other_period") else ""
    if named and period:
        return Phrase("route.filtered_out_both", named=named, period=period)
    return Phrase("route.filtered_out", reason=named or period)


def _said(reason: str, key: str) -> bool:
    return isinstance(reason, Phrase) and reason.key == key


def _best_of_each_name(candidates: list[Considered], named: Named) -> list[Considered]:
    """For a comparison: each name's best document ("Compare 3M and Pfizer": one each)."""
    out = []
    for written, _ in named.names:
        for c in candidates:  # best first
            if written in c.named:
                out.append(c)
                break
    return out
