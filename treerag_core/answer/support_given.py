"""What a question gives the answer checked against it (:mod:`.support`): the terms, names
and years an answer may repeat without a source, the unit it asks the answer in, the
figures it states, and whether it asks for a figure to be computed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..navigate.ranking import RankingMemory
from ..text.figures import MULTIPLIERS, Figure, figures_in
from ..text.numbers import years_in
from .claims import Passage, compact, company_keys, terms_of
from .offline.computed import EngineFigure
from .offline.question import INSTRUCTION_WORDS, METRIC_SYNONYMS, read_question
from .support_steps import Steps, steps_asked

# A question that asks for a computed figure (English; extend for other languages).
COMPUTE_WORDS = re.compile(
    r"\b(?:calculat\w*|comput\w*|ratios?|margins?|defined as|average|cagr|growth rate|"
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


Whole = Callable[[str], Sequence[Mapping[str, Any]]]


def given_of(
    question: str,
    known: str,
    sections: Sequence[Mapping[str, Any]],
    language: str,
    results: Sequence[str],
    engine: Callable[[], Sequence[EngineFigure]] | None,
    whole: Whole | None = None,
    memory: RankingMemory | None = None,
) -> Given:
    """What the answer may say without a source, and what it is checked with."""
    given = f"{question}\n{known}\n" + " ".join(str(s.get("file_name") or "") for s in sections)
    context = Given(terms_of(given, language), compact(given), set(years_in(question)),
                     asked_terms(question, language))  # fmt: skip
    context.question = question
    context.computes = bool(COMPUTE_WORDS.search(question))
    context.steps = steps_asked(question)
    context.results = [f for text in results for f in figures_in(text) if not f.year]
    unit = ASKED_UNIT.search(question)
    context.unit = MULTIPLIERS[unit.group(1).lower()] if unit else 1.0
    context.figures = [f for f in figures_in(question) if not f.year]
    context.engine, context.whole, context.language = engine, whole, language
    context.memory = memory
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
        self.question = ""  # the question as asked (its years, its words for the steps)
        self.steps = Steps()  # the steps of a computation it asks for (:mod:`.support_steps`)
        # What the app computed from cited cells for this answer (:mod:`.calculations`).
        self.results: list[Figure] = []
        self.unit = 1.0  # the unit the question asks the answer in (1e9: "in USD billions")
        self.figures: list[Figure] = []  # the figures the question states ("365 * …")
        self.engine: Callable[[], Sequence[EngineFigure]] | None = None
        self.companies: list[str] = []  # the files' companies (:func:`.claims.company_keys`)
        self.whole: Whole | None = None  # ref → the whole sections it is an excerpt of
        self.language = ""
        self.memory: RankingMemory | None = None  # where the sentences cut are kept
        self._wholes: dict[str, list[Passage]] = {}
        self._computed: Sequence[EngineFigure] | None = None

    def whole_passages(self, ref: str) -> list[Passage]:
        """The whole sections a cited excerpt was cut from, as passages (cut once per answer)."""
        if ref not in self._wholes:
            found = self.whole(ref) if self.whole else ()
            self._wholes[ref] = [Passage(ref, s, self.language, self.memory) for s in found]
        return self._wholes[ref]

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


def whole_sections(
    references: Sequence[Mapping[str, Any]], documents: Mapping[str, Mapping[str, Any]]
) -> Whole:
    """ref → the whole sections (each as ``text``, pages and page marks) that what was read
    of it was cut from, when it was cut: a citation opens the section, not the excerpt the
    answer model was shown, so a figure printed on the section's page the excerpt left out
    is in the source the sentence cites. The references are read at each call (they are
    renumbered once the answer is written)."""

    def whole(ref: str) -> list[dict[str, Any]]:
        cited = next((r for r in references if str(r.get("ref")) == ref), None)
        if cited is None:
            return []
        flat = (documents.get(str(cited.get("doc_id", ""))) or {}).get("flat_nodes") or {}
        out = []
        for span in cited.get("spans") or []:
            node = flat.get(span.get("node_id")) or {}
            text = str(node.get("text") or "")
            if int(span.get("end", 0)) - int(span.get("start", 0)) < len(text):
                out.append({"ref": ref, "text": text, "page_start": node.get("page_start"),
                            "page_marks": node.get("page_marks") or [],
                            "page_unit": cited.get("page_unit") or "page"})  # fmt: skip
        return out

    return whole


# A question asking for one of these kinds wants a figure in its answer.
FIGURE_KINDS = ("amount", "count")


@lru_cache(maxsize=256)
def _kind(question: str, language: str) -> str:
    return read_question(question, language=language).kind


def missing_figure(
    question: str, claims: list[dict[str, Any]], passages: list[Passage], language: str
) -> bool:
    """A question asking for a figure, passages holding figures, and an answer that states
    none of them."""
    if not question or _kind(question, language) not in FIGURE_KINDS:
        return False
    if not any(p.numbers for p in passages):
        return False
    return not any(r.get("figures") for r in claims if r["verdict"] != "unsupported")
    # (a figure stated in a sentence not refuted: found, found elsewhere, or computed in
    # more steps than the check reproduces: doubtful, but stated)
