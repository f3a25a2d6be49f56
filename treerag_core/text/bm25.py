"""Okapi BM25 over a small in-memory collection; deterministic, no dependencies."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any


class BM25:
    def __init__(self, docs: Mapping[Any, Iterable[str]], k1: float = 1.5, b: float = 0.75):
        self.k1, self.b = k1, b
        self.tf: dict[Any, Counter[str]] = {key: Counter(toks) for key, toks in docs.items()}
        self.length = {key: sum(c.values()) for key, c in self.tf.items()}
        self.avg = (sum(self.length.values()) / len(self.length)) if self.length else 0.0
        df: Counter[str] = Counter()
        for counts in self.tf.values():
            df.update(counts.keys())
        n = len(self.tf)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def scores(self, query_tokens: list[str]) -> dict[Any, float]:
        out: dict[Any, float] = {}
        terms = set(query_tokens)
        for key, counts in self.tf.items():
            score = 0.0
            norm = self.k1 * (1 - self.b + self.b * self.length[key] / (self.avg or 1))
            for term in terms:
                f = counts.get(term)
                if f:
                    score += self.idf[term] * f * (self.k1 + 1) / (f + norm)
            if score > 0:
                out[key] = score
        return out
