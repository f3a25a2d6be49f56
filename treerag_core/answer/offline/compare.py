"""Comparisons across documents: the same quantity read or computed in each, as a table.

"Compare gross margin across Acme, Globex and Initech in 2022", "How did revenue compare
across our suppliers from 2021 to 2023?": the quantity is what the question asks without its
list of names (read as a single question would be: a named metric, a definition, or a
printed line item); each document asked is one row, each period one column, and each cell
is computed from that document's own tables (:mod:`.compute`), so each carries its own
citations. A cell a document cannot give says so; the table is never filled by a guess.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...text.numbers import years_in
from .asks import Ask, metric_phrase, read_ask

COMPARE = re.compile(
    r"\bcompare\b|\bcompared\b|\bacross\b|\bversus\b|\bvs\.?(?!\w)|\bwhich of\b|\beach of\b",
    re.I,
)
# A name: capitalised words, or one opening with digits then letters ("3M", "23andMe").
_WORD = r"(?:[A-Z]|\d+[A-Za-z])[\w&'’.-]*"
_NAME = rf"{_WORD}(?:\s+{_WORD})*"
_NAMES = re.compile(
    rf"\s*\b(?:across|among|between|for|of|at)\s+(?:the\s+)?{_NAME}"
    rf"(?:\s*,\s*{_NAME})*(?:,?\s+(?:and|vs\.?|versus)\s+{_NAME})?",
)
_PERIODS = re.compile(
    r"\b(?:from|between)\s+(?:fy)?((?:19|20)\d\d)\s+(?:to|and)\s+(?:fy)?((?:19|20)\d\d)", re.I
)


def comparison(question: str) -> tuple[Ask, list[int]] | None:
    """What to read in each document, and the periods to read it in; None when the
    question compares nothing or names no period."""
    if not COMPARE.search(question):
        return None
    years = sorted(set(years_in(question)))
    span = _PERIODS.search(question)
    if span:
        years = list(range(int(span.group(1)), int(span.group(2)) + 1))
    if not years:
        return None
    cleaned = _NAMES.sub(" ", question)
    cleaned = re.sub(r"^\s*(?:how did|how does)\s+", "What was ", cleaned, flags=re.I)
    cleaned = re.sub(r"^\s*compare\s+(?:the\s+)?", "What was the ", cleaned, flags=re.I)
    cleaned = re.sub(r"\b(?:compare[ds]?|across|versus|vs\.?)(?!\w)", " ", cleaned, flags=re.I)
    cleaned = _PERIODS.sub(f" in {years[-1]}", cleaned)
    ask = read_ask(cleaned.rstrip("?. ") + "?")
    if ask is None or ask.kind in ("growth", "change", "cagr") or ask.average:
        phrase = metric_phrase(cleaned)
        if not phrase:
            return None
        ask = Ask(phrase[:1].upper() + phrase[1:], phrase, (years[-1],))
    return ask, years


def per_period(ask: Ask, year: int) -> Ask:
    """The ask read in one period: its formula's leaves default to that year."""
    return replace(ask, years=(year,), average=False)
