"""Okapi BM25 over a small in-memory collection; deterministic, no dependencies.

Kept as postings (each term's passages and counts) rather than a count table per passage:
a question has a few terms, so scoring visits only the passages that hold one of them
instead of every passage for every term (a 300-page filing's ranking: ~1,500 passages).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping

BM25_K1 = 1.5  # term-frequency saturation: the usual Okapi value
BM25_B = 0.75  # length normalisation: the usual Okapi value


class BM25:
    def __init__(
        self, docs: Mapping[Hashable, Iterable[str]], k1: float = BM25_K1, b: float = BM25_B
    ) -> None:
        self.k1, self.b = k1, b
        postings: dict[str, list[tuple[Hashable, int]]] = {}
        self.length: dict[Hashable, int] = {}
        for key, tokens in docs.items():
            counts = Counter(tokens)
            self.length[key] = sum(counts.values())
            for term, f in counts.items():
                postings.setdefault(term, []).append((key, f))
        self.postings = postings
        self.avg = (sum(self.length.values()) / len(self.length)) if self.length else 0.0
        n = len(self.length)
        self.idf = {
            t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in postings.items()
        }

    def scores(self, query_tokens: list[str]) -> dict[Hashable, float]:
        """Each passage holding a query term, with its score (terms counted once)."""
        out: dict[Hashable, float] = {}
        k1, b, avg = self.k1, self.b, self.avg or 1
        for term in set(query_tokens):
            idf = self.idf.get(term)
            if idf is None:
                continue
            for key, f in self.postings[term]:
                norm = k1 * (1 - b + b * self.length[key] / avg)
                out[key] = out.get(key, 0.0) + idf * f * (k1 + 1) / (f + norm)
        return {key: score for key, score in out.items() if score > 0}
