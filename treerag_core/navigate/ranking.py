"""The offline ranking: sections scored by their best passage's BM25 against the question."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from threading import Event, Lock
from typing import Any, TypeVar

from ..store.base import Cache
from ..text.bm25 import BM25
from ..text.inflections import ENGLISH, other_forms
from ..text.language import Languages, detect_language, sample_of
from ..text.metrics import formula_words
from ..text.sentences import sentence_spans
from ..text.tokens import stopwords, tokenize
from ..tree.passages import (
    LASTING_MIN_PASSAGES,
    digest,
    passage_statistics,
    statistics_key,
)
from ..types import FlatNode

# How many section sets (a document, or a level's candidates) a RankingMemory keeps: the
# documents a server is asked about at once, and their levels, without growing unbounded.
MAX_REMEMBERED_SETS = 64
# How many quoted sections' pieces (a section's windows, its parsed table rows, its sentences,
# a cited reference's highlights) a RankingMemory keeps: the sections the recent questions
# quoted, a few each, about 3 KB an entry. Nine questions over three 10-Ks quote ~540: at 512
# the least recently used went first and a round of the same questions again rebuilt 472 of
# them (an LRU smaller than what is read in turn misses every time); 2,048 keeps some thirty
# questions' worth.
MAX_REMEMBERED_PIECES = 2048
T = TypeVar("T")
# A question's words as a person wrote them (a run of a script without spaces is one).
QUESTION_WORDS = re.compile(r"[^\W_]+")


# Query phrases and the words documents use for them: financial filings call the "income
# statement" a "statement of operations" and "capex" "purchases of property and equipment".
# Applied to the question only, so an added word can help a match but never create one
# where the question's own words appear. A named constant: callers may extend or replace it.
QUERY_EXPANSIONS: dict[str, str] = {
    "income statement": "statements of income operations earnings",
    "statement of income": "operations earnings",
    "p&l": "statements of income operations earnings",
    "balance sheet": "balance sheets financial position assets liabilities",
    "statement of financial position": "balance sheets assets liabilities",
    "cash flow statement": "statements of cash flows",
    "statement of cash flows": "cash flows",
    "capital expenditure": "purchases of property plant equipment additions",
    "capex": "capital expenditures purchases of property plant equipment",
    "ppne": "property plant equipment",
    "cogs": "cost of sales cost of goods sold",
    "r&d": "research and development",
    "sg&a": "selling general and administrative",
    "d&a": "depreciation and amortization",
    "working capital": "total current assets total current liabilities",
    "revenue": "net sales revenues",
    "dividends": "dividends paid",
    "employ": "employees employed people workforce headcount",
    "how many people": "employees employed workforce",
    "headcount": "employees employed workforce",
}


def expand_query(query: str, expansions: Mapping[str, str] = QUERY_EXPANSIONS) -> str:
    """The question with the words documents use for its phrases (``expansions``) and the
    line items of a metric it names (:func:`~..text.metrics.formula_words`: "quick ratio"
    is computed from rows no question says)."""
    asked = " ".join(filter(None, (query, formula_words(query))))
    lowered = asked.lower()
    extra = [words for phrase, words in expansions.items() if phrase in lowered]
    return " ".join([asked, *extra])


class _Lru:
    """A bounded, thread-safe map: least recently used first out. An entry is built once
    however many threads ask for it at once: the first builds it (outside the lock), the
    others wait for it. A server's people often ask the same thing together (the same
    question about the same filing, a chat page opened by several): each built it, and the
    same sections' windows, rows and sentences were made as many times as they asked. If
    the build fails, a waiting thread builds it itself. A build must not wait for a lock
    another build may hold (evidence, located under PDFium's lock, uses ``peek`` and
    ``put``)."""

    def __init__(self, size: int) -> None:
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._max = max(1, size)
        self._lock = Lock()
        self._building: dict[Hashable, Event] = {}

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        while True:
            with self._lock:
                if key in self._items:
                    self._items.move_to_end(key)
                    return self._items[key]
                pending = self._building.get(key)
                if pending is None:
                    done = self._building[key] = Event()
                    break
            pending.wait()  # another thread builds it; then look again
        try:
            made = build()
            self.put(key, made)
            return made
        finally:
            with self._lock:
                del self._building[key]
            done.set()

    def peek(self, key: Hashable) -> Any:
        """The entry under ``key``, or None, without building or waiting."""
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._max:
                self._items.popitem(last=False)


class RankingMemory:
    """What the offline engine derives from a document's text and can reuse for the next
    question, kept by whoever asks many questions (the app, once per process) and passed in
    with the retriever: the tokenised passages and BM25 statistics of section sets ranked,
    and the windows, table rows and sentences of sections quoted. Recomputing them for each
    question was most of an offline answer's CPU. Keyed by the text itself, so a re-indexed
    or re-summarised document is a new entry; bounded, least recently used first out;
    thread-safe. What it returns is shared: callers must not change it."""

    def __init__(
        self,
        max_sets: int = MAX_REMEMBERED_SETS,
        max_pieces: int = MAX_REMEMBERED_PIECES,
        lasting: Cache | None = None,
    ) -> None:
        self._sets = _Lru(max_sets)
        self._pieces = _Lru(max_pieces)
        self._lasting = lasting

    def get(self, key: Hashable, build: Callable[[], BM25]) -> BM25:
        """A section set's statistics (large: few are kept in memory; with a ``lasting``
        cache, a whole document's are kept there too, for every process and restart)."""
        if self._lasting is None:
            return self._sets.get(key, build)
        return self._sets.get(key, lambda: self._from_lasting(key, build))

    def _from_lasting(self, key: Hashable, build: Callable[[], BM25]) -> BM25:
        assert self._lasting is not None
        key_digest = digest(key)
        stored = self._lasting.get(key_digest)
        if stored is not None:
            try:
                return BM25.from_stored(stored)
            except ValueError:
                pass  # another layout or a damaged entry: built again, and replaced
        made = build()
        if len(made.keys) >= LASTING_MIN_PASSAGES:
            self._lasting.put(key_digest, made.stored())
        return made

    def piece(self, key: Hashable, build: Callable[[], T]) -> T:
        """Something derived from one section's text: small, many are kept."""
        return self._pieces.get(key, build)

    def kept(self, key: Hashable) -> Any:
        """A piece kept under ``key``, or None; never waits (see ``keep``)."""
        return self._pieces.peek(key)

    def keep(self, key: Hashable, value: Any) -> None:
        """Keep a piece made elsewhere: a cited reference's evidence, located while PDFium's
        lock is held, where waiting for another thread's build could never end."""
        self._pieces.put(key, value)


def remembered(memory: RankingMemory | None, key: Hashable, build: Callable[[], T]) -> T:
    """``build()``, kept in ``memory`` under ``key`` when there is one."""
    return build() if memory is None else memory.piece(key, build)


def remembered_sentences(memory: RankingMemory | None, text: str) -> list[tuple[str, int]]:
    """A section's sentences (:func:`~..text.sentences.sentence_spans`), cut once for the
    offline answer and the support check that reads the same section after it."""
    return remembered(memory, ("sentences", text), lambda: sentence_spans(text))


def rank_nodes(
    query: str,
    flat_nodes: Mapping[str, FlatNode],
    k: int = 5,
    candidates: Iterable[str] | None = None,
    memory: RankingMemory | None = None,
    language: str | Languages | None = None,
) -> list[tuple[str, float]]:
    """The ``k`` best nodes for ``query`` by their best passage's BM25 score, best first
    (ties in document order). ``memory`` keeps the passages' statistics between questions.
    ``language``: the document's (:func:`~.language.document_languages`, or its main
    language's code), in which the passages and the question are cut and stemmed; ``None``:
    told from the sections. An English question's words are also found in their other
    inflections (:mod:`..text.inflections`), at a discount."""
    return scored_nodes(query, flat_nodes, candidates, memory, language)[0][:k]


def scored_nodes(
    query: str,
    flat_nodes: Mapping[str, FlatNode],
    candidates: Iterable[str] | None = None,
    memory: RankingMemory | None = None,
    language: str | Languages | None = None,
) -> tuple[list[tuple[str, float]], dict[str, float]]:
    """Every node :func:`rank_nodes` ranks, best first, and each node's score on the
    question's own words alone (no other forms), from the same pass."""
    ids, languages = _ranked_set(flat_nodes, candidates, language)
    bm25 = _statistics(flat_nodes, ids, languages, memory)
    asked = question_terms(query, languages)
    english = languages.for_question(query) in ENGLISH
    own, both = bm25.scores_apart(asked, other_forms(asked) if english else None)
    order = {nid: i for i, nid in enumerate(ids)}
    best = _best_by_node(both)
    ranked = sorted(best.items(), key=lambda kv: (-kv[1], order[kv[0]]))
    return ranked, _best_by_node(own)


def _best_by_node(scores: Mapping[Hashable, float]) -> dict[str, float]:
    """Each node's best passage score (passage keys are (node id, number))."""
    best: dict[str, float] = {}
    for key, score in scores.items():
        nid = str(key[0])  # type: ignore[index]  # keys here are (node id, number)
        best[nid] = max(best.get(nid, 0.0), score)
    return best


def question_terms(query: str, languages: Languages) -> list[str]:
    """The question's words as the ranking searches them: expanded, cut and stemmed."""
    return tokenize(expand_query(query), languages.for_question(query))


def ranking_statistics(
    flat_nodes: Mapping[str, FlatNode],
    candidates: Iterable[str] | None = None,
    memory: RankingMemory | None = None,
    language: str | Languages | None = None,
) -> tuple[BM25, Languages]:
    """The statistics :func:`rank_nodes` ranks by (the same object, with the same
    ``memory``), and the languages the sections are cut in."""
    ids, languages = _ranked_set(flat_nodes, candidates, language)
    return _statistics(flat_nodes, ids, languages, memory), languages


def known_share(
    query: str,
    asked_language: str,
    flat_nodes: Mapping[str, FlatNode],
    language: Languages,
    memory: RankingMemory | None = None,
) -> float:
    """The share of the question's words (all but its language's stopwords) that the
    document's text holds, cut as the question's language or as the document's would cut
    them: how much of a question in another language the offline ranking can match."""
    stop = stopwords(asked_language)
    words = {w for w in QUESTION_WORDS.findall(query.casefold()) if w not in stop}
    if not words:
        return 1.0
    ids, languages = _ranked_set(flat_nodes, None, language)
    bm25 = _statistics(flat_nodes, ids, languages, memory)
    cuts = (asked_language, *sorted(languages.all()))
    known = [w for w in words if any(bm25.holds(t) for c in cuts for t in tokenize(w, c))]
    return len(known) / len(words)


def _ranked_set(
    flat_nodes: Mapping[str, FlatNode],
    candidates: Iterable[str] | None,
    language: str | Languages | None,
) -> tuple[list[str], Languages]:
    ids = [
        nid for nid in (candidates if candidates is not None else flat_nodes) if nid in flat_nodes
    ]
    if isinstance(language, Languages):
        return ids, language
    if language is None:
        language = detect_language(sample_of(flat_nodes[nid] for nid in ids))
    return ids, Languages(language)


def _statistics(
    flat_nodes: Mapping[str, FlatNode],
    ids: list[str],
    languages: Languages,
    memory: RankingMemory | None,
) -> BM25:
    """The passages' BM25 statistics, each section cut in its own language (read back from
    the store's cache when indexing kept them there, see :mod:`~..tree.passages`)."""

    def build() -> BM25:
        return passage_statistics(flat_nodes, ids, languages)

    if memory is None:
        return build()
    return memory.get(statistics_key(flat_nodes, ids, languages), build)
