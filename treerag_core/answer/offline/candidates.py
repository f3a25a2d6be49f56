"""What the extractive answer chooses from: candidate rows and sentences, and how words weigh.

Both kinds of candidate are scored on one scale: how much of the question's metric they
name (0 to 1), times one plus what they gain for fitting the question's kind and period,
times what they keep after penalties (wrong period, run-on sentence). A fit counts only as
much as the candidate is about the question; the answer starts with whichever scores best.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from ...text.tokens import STOPWORDS, ascii_pieces
from .question import WEAK_WORDS, Question, plain_punctuation, stem, stems

# A weak word ("total", "net") weighs this share of its inverse document frequency.
WEAK_WORD_WEIGHT = 0.3
# A synonym phrase whose words are all there but out of order names the metric this much.
UNORDERED_PHRASE = 0.5
# The question's own words beat a synonym: "net sales" asked, "Net sales" over "Total revenues".
SYNONYM_SHARE = 0.9
STEMS_CACHE = 32_768  # distinct words whose stems are kept: a few documents' vocabulary


@lru_cache(maxsize=STEMS_CACHE)
def _word_stem(piece: str) -> str | None:
    """A piece's stem (:func:`.question.stem`); None for a stopword or no word at all."""
    word = piece.strip("'-")
    return None if not word or word in STOPWORDS else stem(word)


@dataclass
class AnswerLine:
    """One possible answer line: a table row or a sentence, where it is and how it fits."""

    kind: str  # "row" or "sentence"
    text: str  # the line as the answer prints it, without its citation
    score: float
    section: int  # index into the sections the answer reads
    offset: int  # where it starts in that section's text (for its page)
    key: str  # what makes two candidates the same answer
    figures: frozenset[str] = field(default_factory=frozenset)
    terms: frozenset[str] = field(default_factory=frozenset)  # the question's words it says
    size: float = 0.0  # a row's largest figure printed: breaks ties between equal rows


class Vocabulary:
    """The words of everything one answer may quote: their stems (remembered, since the same
    words recur in every row and sentence) and their inverse document frequency, so "total"
    or "net" (in every other row) count less than "inventories" (in one)."""

    def __init__(self, units: Iterable[str], language: str = ""):
        self.language = "" if language == "en" else language
        self._texts: dict[str, list[str]] = {}
        df: Counter[str] = Counter()
        n = 0
        for unit in units:
            df.update(set(self.stems(unit)))
            n += 1
        self.n, self.df = max(n, 1), df
        self._weights: dict[str, float] = {}

    def stems(self, text: str) -> list[str]:
        """The stems of a text's words, stopwords dropped (see :func:`.question.stems`)."""
        found = self._texts.get(text)
        if found is not None:
            return found
        plain = plain_punctuation(text)
        if self.language or not plain.isascii():
            # another language, or other scripts: cut as questions are
            found = self._texts[text] = stems(text, self.language)
        else:  # each word's stem remembered: the same words recur in every row and sentence
            found = [s for s in map(_word_stem, ascii_pieces(plain.lower())) if s is not None]
            self._texts[text] = found
        return found

    def stem_set(self, parts: Iterable[str]) -> set[str]:
        """The stems of the parts joined by spaces, as a set: cut part by part where
        :meth:`stems` cuts word by word (each part remembered, so a table heading above a
        hundred rows is cut once), else cut whole, by the text's language."""
        parts = list(parts)
        joined = " ".join(parts)
        if self.language or not plain_punctuation(joined).isascii():
            return set(self.stems(joined))
        return {w for part in parts for w in self.stems(part)}

    def __call__(self, term: str) -> float:
        weight = self._weights.get(term)
        if weight is None:
            weight = math.log(1 + self.n / (self.df.get(term, 0) + 1))
            weight *= WEAK_WORD_WEIGHT if term in WEAK_WORDS else 1.0
            self._weights[term] = weight
        return weight

    def coverage(self, have: set[str] | frozenset[str], want: Iterable[str]) -> float:
        """The weighted share of ``want`` that ``have`` contains (0 when ``want`` is empty).

        A wanted word found nowhere in what the answer may quote ("explicitly", the
        company's name) can be matched by nothing, so it does not count against anything."""
        terms = {t for t in want if t in self.df}
        total = sum(self(t) for t in terms)
        return sum(self(t) for t in terms if t in have) / total if total else 0.0

    def names_metric(self, have: list[str], question: Question) -> float:
        """How fully the stems ``have`` name what the question asks: its own metric words,
        or the best of the synonym phrases for it (a row saying "Purchases of property, plant
        and equipment" fully names "capital expenditures"). A phrase counts in full only when
        its words come in its order ("Other income (expense), net" does not say "net income")."""
        present = set(have)
        if present.isdisjoint(question.metric_terms()):
            return 0.0  # names nothing asked (most sentences): no need to weigh
        # "total revenue" is named by "Revenues": a weak word may be left out
        strong = [t for t in question.metric if t not in WEAK_WORDS] or question.metric
        own = self.coverage(present, strong)
        synonyms = max(
            (
                self.coverage(present, p) * (1.0 if in_order(p, have) else UNORDERED_PHRASE)
                for p in question.phrases
            ),
            default=0.0,
        )
        return max(own, SYNONYM_SHARE * synonyms)


def in_order(phrase: list[str], words: list[str]) -> bool:
    """``phrase`` occurs in ``words`` in its order (other words may come between)."""
    it = iter(words)
    return all(any(w == p for w in it) for p in phrase)
