"""Words as the offline engine counts them: lower-case tokens without stopwords."""

from __future__ import annotations

import re

# The tokenizer's version: kept statistics made by another one are made again.
TOKENS_VERSION = 1
CHARS_PER_TOKEN = 4  # about four characters a token: budgets checked before a call

WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each few
    for from further had has have having he her here hers him his how i if in into is it its
    itself just me more most my no nor not now of off on once only or other our out over own
    same she should so some such than that the their them then there these they this those
    through to too under until up very was we were what when where which while who whom why
    will with would you your yours shall may might must upon within without per via etc
    section chapter part page pages document""".split()
)


# A word of lower-case text without its trailing apostrophes and hyphens (WORD, stripped).
_LOWER_WORD = re.compile(r"[a-z0-9]+(?:['’\-]+[a-z0-9]+)*")


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens without stopwords, with a light plural strip."""
    return [
        w[:-1] if len(w) > 4 and w[-1] == "s" and w[-2] != "s" else w
        for w in _LOWER_WORD.findall(text.lower())
        if w not in STOPWORDS
    ]


def estimate_tokens(text: str) -> int:
    """Characters / 4: the one token estimate for budgets and for evaluation."""
    return len(text) // CHARS_PER_TOKEN
