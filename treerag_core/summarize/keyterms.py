"""Offline names: the names, acronyms, amounts with units and years a text mentions most.

The card reads a document's names (who and what it is about) from its opening with
:func:`extract_tags`; a section's *tags* are topics, not names, and come from
``summarize.phrases``. ``leading_summary`` lives in ``summarize.digest`` (kept here by name).
"""

from __future__ import annotations

import re
from collections import Counter

from ..text.tokens import STOPWORDS
from .digest import leading_summary

_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9&]{1,9}s?\b")
_UNITS = (
    r"%|percent|per cent|kg|g|mg|km|m|cm|mm|mi|ft|lb|lbs|t|l|ml|s|ms|h|hrs?|min|mins|"
    r"seconds?|minutes?|hours?|days?|weeks?|months?|years?|KB|MB|GB|TB|kB|Hz|kHz|MHz|GHz|"
    r"W|kW|MW|V|kV|A|°C|°F|K|USD|EUR|GBP|dollars?|euros?|pounds?|million|billion|trillion"
)
_NUMBER_UNIT = re.compile(
    r"(?:[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|trillion|[kKmMbB]n?))?)"
    r"|(?:\b\d[\d,]*(?:\.\d+)?\s?(?:" + _UNITS + r")(?![A-Za-z]))"
)
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_CAP_PHRASE = re.compile(
    r"\b[A-Z][a-zA-Z'’\-]+(?:[ \t]+(?:(?:of|the|de|la|von|van|and|for|&)[ \t]+)?[A-Z][a-zA-Z'’\-]+)*"
)


def extract_tags(text: str, title: str = "", max_tags: int = 8) -> list[str]:
    """Named entities and key terms: capitalised phrases, acronyms, amounts with units, years.

    Ranked by frequency, then first appearance; a capitalised word that only ever starts a
    sentence is not taken for a name.
    """
    source = f"{title}.\n{text}"
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}

    def add(term: str, pos: int, weight: int = 1) -> None:
        term = term.strip(" ,.;:-'’")
        if len(term) < 2:
            return
        counts[term] += weight
        first.setdefault(term, pos)

    for m in _NUMBER_UNIT.finditer(source):
        add(m.group(0), m.start(), 2)
    for m in _ACRONYM.finditer(source):
        if m.group(0).lower() not in STOPWORDS:
            add(m.group(0), m.start(), 2)
    for m in _CAP_PHRASE.finditer(source):
        phrase = m.group(0)
        words = phrase.split()
        sentence_start = m.start() == 0 or source[: m.start()].rstrip()[-1:] in {
            ".",
            "!",
            "?",
            "\n",
            ":",
            "",
        }
        if len(words) == 1:
            word = words[0]
            if word.lower() in STOPWORDS or _ACRONYM.fullmatch(word):
                continue
            if sentence_start and source.count(word) < 2:
                continue
        elif sentence_start and words[0].lower() in STOPWORDS:
            phrase = " ".join(words[1:])
        add(phrase, m.start())
    for m in _YEAR.finditer(source):
        add(m.group(0), m.start())
    ranked = sorted(counts, key=lambda t: (-counts[t], first[t]))
    tags: list[str] = []
    seen: set[str] = set()
    for term in ranked:
        key = term.lower()
        if key in seen or any(key in s for s in seen if len(key) < len(s)):
            continue
        seen.add(key)
        tags.append(term)
        if len(tags) >= max_tags:
            break
    return tags


__all__ = ["extract_tags", "leading_summary"]
