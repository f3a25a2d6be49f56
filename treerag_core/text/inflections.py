"""The other inflections of an English word, as the offline tokenizer keeps them: what
library routing also looks for, at a discount, when a question's word is not the
document's ("leaving" and a policy's "leaves", "included" and a manual's "Including").

Why not stem English everywhere instead: measured three times (see ``text/tokens.py``), a
stemmed index lowered the rows the engine was tuned on while raising the held-out halves.
A rare exact form loses its weight once it meets every other form of its word. Here the
question's own form keeps its full weight, and another form of the word counts only where
the exact one is missing from a section, at ``routing.scoring.FORM_WEIGHT``.

Which forms: the word's inflections alone (plural, past, participles, third person; a
doubled final consonant, "y" and "ie"), each kept only when Snowball English gives it the
same stem as the word. Derived words ("configure" → "configuration") name another thing
often enough to be left out.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .tokens import tokenize

_ENDINGS = ("", "e", "s", "es", "ed", "d", "ing")
_VOWELS = "aeiou"


@cache
def _stem_of() -> Any:
    import snowballstemmer

    return snowballstemmer.stemmer("english")


def _candidates(word: str, stem: str) -> set[str]:
    """Spellings that may be ``word``'s inflections: its stem and the word itself, each
    with an inflectional ending, a doubled final consonant ("cap" → "capped") and a final
    "i" of the stem read as "y" ("appli" → "apply", "applied")."""
    bases = {word, stem, word[:-1] if word.endswith("e") else word}
    if stem.endswith("i"):
        bases.add(stem[:-1] + "y")
        bases.add(stem[:-1] + "ie")
    out: set[str] = set()
    for base in bases:
        out.update(base + ending for ending in _ENDINGS)
        if len(base) > 2 and base[-1] not in _VOWELS + "wxy" and base[-2] in _VOWELS:
            out.update(base + base[-1] + ending for ending in ("ed", "ing", "er"))
    return out


@cache
def inflected_forms(token: str) -> frozenset[str]:
    """The tokens (as English text is cut: plural stripped, stopwords out) of ``token``'s
    other inflections. Empty for a number, a short word or a word the stemmer leaves
    alone in every form."""
    if not token.isalpha() or not token.isascii() or len(token) < 3:
        return frozenset()
    stemmer = _stem_of()
    stem = stemmer.stemWord(token)
    forms: set[str] = set()
    for spelling in _candidates(token, stem):
        if spelling != token and stemmer.stemWord(spelling) == stem:
            forms.update(tokenize(spelling))
    forms.discard(token)
    return frozenset(forms)
