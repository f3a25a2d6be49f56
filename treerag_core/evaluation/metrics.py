"""Retrieval metrics: did what was retrieved hold the gold evidence, and at what cost?

- page hit: some retrieved item's pages contain a gold page;
- section hit: some retrieved item's title (or a title on its path) is a gold title;
- how much was retrieved (items, distinct pages, tokens), since retrieving everything hits
  trivially. Tokens are characters / 4 throughout;
- answer hit: the offline answer says the figure the gold answer prints (:mod:`.answers`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Retrieved:
    """One retrieved item (a tree node or a chunk) as the metrics see it."""

    label: str  # node id or "chunk 17"
    page_start: int | None
    page_end: int | None
    tokens: int
    titles: list[str] = field(default_factory=list)  # own title and its path's titles
    pages: list[int] | None = None  # explicit pages (chunks); else the start..end range

    def page_set(self) -> set[int]:
        if self.pages is not None:
            return set(self.pages)
        if self.page_start is None:
            return set()
        return set(range(self.page_start, (self.page_end or self.page_start) + 1))


@dataclass
class QuestionResult:
    id: str
    question: str
    document: str
    gold_pages: list[int]
    gold_sections: list[str]
    retrieved: list[Retrieved]
    page_hit: bool | None
    section_hit: bool | None
    tokens: int
    note: str = ""
    answer: str | None = None  # the offline engine's answer (graded questions only)
    answer_figures: list[str] = field(default_factory=list)  # printed gold figures
    answer_hit: bool | None = None
    first_line_hit: bool | None = None  # … and says it in its first line
    # The answer checked against the sections it read (answer/support.py): its sentences
    # that state something, those supported, and whether the check flagged it.
    sentences: int = 0
    sentences_supported: int = 0
    flagged: bool | None = None

    @property
    def pages_retrieved(self) -> int:
        return len(set().union(*(r.page_set() for r in self.retrieved))) if self.retrieved else 0


# --- metrics (pure) ------------------------------------------------------------------


def page_hit(retrieved: Iterable[Retrieved], gold_pages: Iterable[int]) -> bool | None:
    """True when any gold page lies inside any retrieved item's pages; None without gold."""
    gold = {int(p) for p in gold_pages}
    if not gold:
        return None
    return any(r.page_set() & gold for r in retrieved)


def _norm(title: str) -> str:
    return " ".join(str(title).lower().replace("’", "'").split()).strip(" .:")


def section_hit(retrieved: Iterable[Retrieved], gold_sections: Iterable[str]) -> bool | None:
    """True when a retrieved item's title, or a title above it, equals a gold title
    (case and spacing ignored); None without gold titles."""
    gold = {_norm(t) for t in gold_sections if str(t).strip()}
    if not gold:
        return None
    return any(_norm(t) in gold for r in retrieved for t in r.titles)


def summarize_results(results: Sequence[QuestionResult]) -> dict[str, Any]:
    """Hit rates over the questions that have that kind of gold, and mean costs."""

    def rate(values: list[bool | None]) -> float | None:
        scored = [v for v in values if v is not None]
        return round(sum(scored) / len(scored), 4) if scored else None

    n = len(results) or 1
    return {
        "questions": len(results),
        "page_hit_rate": rate([r.page_hit for r in results]),
        "page_questions": sum(r.page_hit is not None for r in results),
        "section_hit_rate": rate([r.section_hit for r in results]),
        "section_questions": sum(r.section_hit is not None for r in results),
        "answer_hit_rate": rate([r.answer_hit for r in results]),
        "answer_questions": sum(r.answer_hit is not None for r in results),
        "first_line_hit_rate": rate([r.first_line_hit for r in results]),
        "sentences_supported_rate": (
            round(sum(r.sentences_supported for r in results) / total, 4)
            if (total := sum(r.sentences for r in results))
            else None
        ),
        "flagged_answers": sum(bool(r.flagged) for r in results),
        "mean_sections_retrieved": round(sum(len(r.retrieved) for r in results) / n, 2),
        "mean_pages_retrieved": round(sum(r.pages_retrieved for r in results) / n, 2),
        "mean_tokens": round(sum(r.tokens for r in results) / n, 1),
    }
