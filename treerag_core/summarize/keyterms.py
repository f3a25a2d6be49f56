"""Offline summaries and tags: a section's leading sentences and its key terms.

Honest and free: the summary is the section's own opening, the tags are the names, acronyms,
amounts with units and years it mentions most.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..text.sentences import split_sentences
from ..text.tokens import STOPWORDS

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


def leading_summary(text: str, title: str = "", max_chars: int = 200) -> str:
    """The section's first sentences, up to ``max_chars``: honest and free."""
    summary = ""
    for sentence in split_sentences(text):
        if sentence.startswith(("|", "```")) or sentence == title:
            continue
        candidate = f"{summary} {sentence}".strip()
        if len(candidate) > max_chars:
            if not summary:
                summary = candidate[: max_chars - 1].rsplit(" ", 1)[0] + "…"
            break
        summary = candidate
        if len(summary) > max_chars * 0.6:
            break
    return summary


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


def offline_summary(node: Mapping[str, Any]) -> dict[str, Any]:
    """``{"summary", "tags"}`` for one node from its own text (or its title when empty)."""
    text = str(node.get("text") or "")
    title = str(node.get("title") or "")
    return {"summary": leading_summary(text, title), "tags": extract_tags(text, title)}
