"""Okapi BM25 over a small in-memory collection; deterministic, no dependencies.

Kept as postings (each term's passages and counts) rather than a count table per passage:
a question has a few terms, so scoring visits only the passages that hold one of them
instead of every passage for every term (a 300-page filing's ranking: ~1,500 passages).
The postings pack into a compact stored form (:meth:`BM25.stored`), so a document's
statistics can be kept on disk and read back in milliseconds instead of being rebuilt from
its text by every process that ranks it; a stored form's postings are unpacked only for the
terms a question asks.
"""

from __future__ import annotations

import base64
import itertools
import math
import zlib
from array import array
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from .inflections import add_other_forms

BM25_K1 = 1.5  # term-frequency saturation: the usual Okapi value
BM25_B = 0.75  # length normalisation: the usual Okapi value
STORED_VERSION = 1  # the stored form's layout
# A section is ranked, and the library index cut, by passages of the size the answer context
# gives each offline pick (navigate.ANSWER_CONTEXT_CHARS is OFFLINE_SECTIONS of these).
PASSAGE_CHARS = 2000
_COUNT_BITS = 12  # a packed posting: passage number << 12 | count (capped at 4,095)
_COUNT_MASK = (1 << _COUNT_BITS) - 1


class BM25:
    def __init__(
        self, docs: Mapping[Hashable, Iterable[str]], k1: float = BM25_K1, b: float = BM25_B
    ) -> None:
        self.k1, self.b = k1, b
        self.keys: list[Hashable] = []
        self.lengths: list[int] = []
        # Each term's postings packed as they are stored (passage << 12 | count, in C
        # arrays): no tuple per posting, which a fresh process paid for in page faults.
        postings: dict[str, array] = {}
        cap = _COUNT_MASK
        for number, (key, tokens) in enumerate(docs.items()):
            counts = Counter(tokens)
            self.keys.append(key)
            self.lengths.append(sum(counts.values()))
            at = number << _COUNT_BITS
            for term, f in counts.items():
                packed = postings.get(term)
                if packed is None:
                    postings[term] = packed = array("I")
                packed.append(at | (f if f < cap else cap))
        self._postings = postings
        self._packed: tuple[dict[str, tuple[int, int]], array] | None = None

    @property
    def avg(self) -> float:
        return (sum(self.lengths) / len(self.lengths)) if self.lengths else 0.0

    def _hits(self, term: str) -> list[tuple[int, int]] | None:
        """The term's postings: (passage number, count)."""
        if self._packed is None:
            found = self._postings.get(term)
        else:
            where, packed = self._packed
            span = where.get(term)
            found = None if span is None else packed[span[0] : span[1]]
        if found is None:
            return None
        return [(p >> _COUNT_BITS, p & _COUNT_MASK) for p in found]

    def holds(self, term: str) -> bool:
        """Whether any passage has the term."""
        return bool(self._hits(term))

    def _idf(self, passages: int) -> float:
        n = len(self.keys)
        return math.log(1 + (n - passages + 0.5) / (passages + 0.5))

    def passages_with(self, term: str) -> int:
        """How many passages hold the term (its document frequency)."""
        return len(self._hits(term) or ())

    def idf(self, term: str) -> float:
        """How specific a term is to the passages holding it (highest for one none holds)."""
        return self._idf(self.passages_with(term))

    def scores(
        self, query_tokens: list[str], forms: Mapping[str, str] | None = None
    ) -> dict[Hashable, float]:
        """Each passage holding a query term, with its score (terms counted once).
        ``forms``: other inflections of the question's words (:mod:`.inflections`)."""
        return self.scores_apart(query_tokens, forms)[1]

    def scores_apart(
        self, query_tokens: list[str], forms: Mapping[str, str] | None = None
    ) -> tuple[dict[Hashable, float], dict[Hashable, float]]:
        """The passages' scores on the question's own words alone, and with ``forms`` too:
        one pass for a caller that needs both (how near the best a section is, and the
        order of sections)."""
        own: dict[int, float] = {}
        for term in set(query_tokens):
            for number, score in self._term_scores(term):
                own[number] = own.get(number, 0.0) + score
        both = dict(own)
        if forms:
            add_other_forms(both, forms, self._term_scores)
        return self._keyed(own), (self._keyed(both) if forms else self._keyed(own))

    def _keyed(self, scores: Mapping[int, float]) -> dict[Hashable, float]:
        return {self.keys[number]: score for number, score in scores.items() if score > 0}

    def _term_scores(self, term: str) -> list[tuple[int, float]]:
        """Each passage holding the term, with the term's BM25 weight in it."""
        hits = self._hits(term)
        if not hits:
            return []
        k1, b, avg = self.k1, self.b, self.avg or 1
        idf, lengths = self._idf(len(hits)), self.lengths
        return [
            (number, idf * f * (k1 + 1) / (f + k1 * (1 - b + b * lengths[number] / avg)))
            for number, f in hits
        ]

    def stored(self) -> dict[str, Any]:
        """A JSON-serialisable copy (keys must be strings, numbers or tuples of them)."""
        if self._packed is not None:
            raise ValueError("a BM25 read from its stored form is stored already")
        terms = list(self._postings)
        packed = array("I")
        for term in terms:
            packed.extend(self._postings[term])
        return {
            "v": STORED_VERSION,
            "k1": self.k1,
            "b": self.b,
            "keys": [list(k) if isinstance(k, tuple) else k for k in self.keys],
            "lengths": self.lengths,
            "terms": terms,
            "df": [len(self._postings[t]) for t in terms],
            "postings": base64.b64encode(zlib.compress(packed.tobytes(), 1)).decode(),
        }

    @classmethod
    def from_stored(cls, value: Mapping[str, Any]) -> BM25:
        """The statistics :meth:`stored` wrote; ``ValueError`` when they are not that."""
        try:
            if value["v"] != STORED_VERSION:
                raise ValueError("another layout")
            bm25 = cls({}, float(value["k1"]), float(value["b"]))
            bm25.keys = [tuple(k) if isinstance(k, list) else k for k in value["keys"]]
            bm25.lengths = [int(n) for n in value["lengths"]]
            packed = array("I")
            packed.frombytes(zlib.decompress(base64.b64decode(value["postings"])))
            ends = list(itertools.accumulate(value["df"]))
            where = {t: (end - df, end) for t, df, end in zip(value["terms"], value["df"], ends,
                                                             strict=True)}  # fmt: skip
        except (KeyError, TypeError, ValueError, zlib.error) as exc:
            raise ValueError(f"not stored BM25 statistics: {exc}") from exc
        if len(bm25.keys) != len(bm25.lengths) or (ends[-1] if ends else 0) != len(packed):
            raise ValueError("not stored BM25 statistics: sizes disagree")
        bm25._packed = (where, packed)
        return bm25
