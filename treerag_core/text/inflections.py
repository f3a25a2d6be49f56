"""The other inflections of an English word, as the offline tokenizer keeps them: what
library routing also looks for, at a discount, when a question's word is not the
document's ("leaving" and a policy's "leaves", "included" and a manual's "Including").

Why not stem English everywhere instead: measured three times (see ``text/tokens.py``), a
stemmed index lowered the rows the engine was tuned on while raising the held-out halves.
A rare exact form loses its weight once it meets every other form of its word. Here the
question's own form keeps its full weight, and another form of the word counts only where
the exact one is missing from a section, at ``FORM_WEIGHT``.

Which forms: the word's inflections alone (plural, past, participles, third person; a
doubled final consonant, "y" and "ie"), each kept only when Snowball English gives it the
same stem as the word. Derived words ("configure" → "configuration") name another thing
often enough to be left out.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from functools import cache, lru_cache
from typing import Any, TypeVar

from .tokens import tokenize

K = TypeVar("K", bound=Hashable)
ENGLISH = frozenset({"", "en"})  # the languages whose words are cut with a plural strip alone
# What another inflection of a question's word counts for ("leaves" for "leaving"), where
# the section or passage lacks the word's own form: some evidence of the same subject, less
# than the words the question uses.
FORM_WEIGHT = 0.5
FORMS_CACHE = 16_384  # question words whose forms are kept: a server's vocabulary, bounded
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


@lru_cache(maxsize=FORMS_CACHE)
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


def other_forms(asked: Iterable[str]) -> dict[str, str]:
    """The other inflections of a question's English tokens, each with the token it stands
    for; none that the question itself holds."""
    words = set(asked)
    return {form: word for word in sorted(words) for form in inflected_forms(word)
            if form not in words}  # fmt: skip


def add_other_forms(
    scores: dict[K, float],
    forms: Mapping[str, str],
    scored: Callable[[str], Iterable[tuple[K, float]]],
) -> None:
    """Add to ``scores`` (passage → score) each other form's best score for a question
    word, at ``FORM_WEIGHT``, in the passages that lack the word's own form. ``scored``:
    a term's (passage, score) pairs."""
    best: dict[tuple[K, str], float] = {}
    for form, word in forms.items():
        for key, score in scored(form):
            if score > best.get((key, word), 0.0):
                best[(key, word)] = score
    held: dict[str, set[K]] = {}
    for (key, word), score in best.items():
        own = held.get(word)
        if own is None:
            own = held[word] = {k for k, _ in scored(word)}
        if key not in own:
            scores[key] = scores.get(key, 0.0) + FORM_WEIGHT * score
