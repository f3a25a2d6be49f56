"""What a question gives the answer checked against it (:mod:`.support`): the terms, names
and years an answer may repeat without a source, the unit it asks the answer in, the
figures it states, and whether it asks for a figure to be computed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..text.figures import MULTIPLIERS, Figure, figures_in
from ..text.numbers import years_in
from .claims import compact, company_keys, terms_of
from .offline.computed import EngineFigure
from .offline.question import INSTRUCTION_WORDS, METRIC_SYNONYMS

# A question that asks for a computed figure (English; extend for other languages).
COMPUTE_WORDS = re.compile(
    r"\b(?:calculat\w*|comput\w*|ratio|margin|defined as|average|cagr|growth rate|"
    r"per cent(?:age)?|percent(?:age)?|rounded?|turnover|days|return on)\b",
    re.I,
)
# A question that names the unit of its answer ("Answer in USD billions"): an answer's
# figure without a unit word of its own is read in it ("$8.70" is $8.70 billion).
ASKED_UNIT = re.compile(
    r"\b(?:in|of)\s+(?:units of\s+)?(?:(?:USD|US\$|\$|dollars?)\s+)?"
    r"(thousands|millions|billions)\b",
    re.I,
)


def given_of(
    question: str,
    known: str,
    sections: Sequence[Mapping[str, Any]],
    language: str,
    results: Sequence[str],
    engine: Callable[[], Sequence[EngineFigure]] | None,
) -> Given:
    """What the answer may say without a source, and what it is checked with."""
    given = f"{question}\n{known}\n" + " ".join(str(s.get("file_name") or "") for s in sections)
    context = Given(terms_of(given, language), compact(given), set(years_in(question)),
                     asked_terms(question, language))  # fmt: skip
    context.computes = bool(COMPUTE_WORDS.search(question))
    context.results = [f for text in results for f in figures_in(text) if not f.year]
    unit = ASKED_UNIT.search(question)
    context.unit = MULTIPLIERS[unit.group(1).lower()] if unit else 1.0
    context.figures = [f for f in figures_in(question) if not f.year]
    context.engine = engine
    context.companies = company_keys(
        f"{known} " + " ".join(str(s.get("file_name") or "") for s in sections)
    )
    return context


class Given:
    """What the answer may repeat without a source: the question's terms, names and years
    (and the files' names)."""

    def __init__(self, terms: set[str], compacted: str, years: set[int], asked: set[str]) -> None:
        self.terms, self.compact, self.years = terms, compacted, years
        self.asked = asked  # the question's own terms: what the lines that compute are about
        # The question asks for a figure to be computed (a ratio, a growth rate): one the
        # check cannot reproduce from two printed figures is doubtful, not refuted.
        self.computes = False
        # What the app computed from cited cells for this answer (:mod:`.calculations`).
        self.results: list[Figure] = []
        self.unit = 1.0  # the unit the question asks the answer in (1e9: "in USD billions")
        self.figures: list[Figure] = []  # the figures the question states ("365 * …")
        self.engine: Callable[[], Sequence[EngineFigure]] | None = None
        self.companies: list[str] = []  # the files' companies (:func:`.claims.company_keys`)
        self._computed: Sequence[EngineFigure] | None = None

    def computed(self) -> Sequence[EngineFigure]:  # the engine's: once per answer, if asked
        if self._computed is None:
            self._computed = self.engine() if self.engine else ()
        return self._computed


@lru_cache(maxsize=256)
def asked_terms(question: str, language: str) -> set[str]:
    """What the question asks about, as the lines that compute an answer name it: its own
    words but those of instruction ("using the income statement"), and every name
    documents print for a metric it names ("revenue": "total net sales")."""
    lowered = question.lower()
    words = [w for w in re.findall(r"\w+", lowered) if w not in INSTRUCTION_WORDS]
    for group in METRIC_SYNONYMS:
        if any(re.search(rf"\b{re.escape(phrase)}\b", lowered) for phrase in group):
            words += " ".join(group).split()
    return terms_of(" ".join(words), language)
