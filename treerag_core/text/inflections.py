"""English words without their inflections: the Porter2 (Snowball English) algorithm's
steps for endings that inflect a word (possessive; plural and third person -s, -es, -ies;
past -ed and -ing, with their adverbs -edly, -ingly; a final -y as -i; a final -e and
double -ll), without its steps for endings that derive another word (-ity, -ness, -ive,
-ation, -er, -ment...).

Why not all of Snowball: its derivational steps join words that mean different things
("severity" and "several" are both ``sever``, "engineer" and "engine" both ``engin``).
The inflectional steps keep what the plural strip alone missed: "leaving", "leaves" and
"leave" meet (``leav``), as do "reporting" and "report". Algorithm: https://snowballstem.org/algorithms/english/stemmer.html (steps 0,
1a, 1b, 1c and 5; its R1, R2 and short-syllable rules as written there).
"""

from __future__ import annotations

_VOWELS = frozenset("aeiouy")
_DOUBLES = ("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt")
_R1_PREFIXES = ("gener", "commun", "arsen")
# The algorithm's own exceptions: whole words stemmed so (or kept) before any step, and
# words kept as they are after step 1a.
_EXCEPTIONS = {"skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie",
               **dict.fromkeys(("sky", "news", "howe", "atlas", "cosmos", "bias",
                                "andes"))}  # fmt: skip
_KEPT_AFTER_1A = frozenset("inning outing canning herring earring proceed exceed succeed".split())


def _vowels(word: str) -> list[bool]:
    """Which letters are vowels: a y at the start or after a vowel is a consonant."""
    out: list[bool] = []
    for i, c in enumerate(word):
        out.append(c in _VOWELS and not (c == "y" and (i == 0 or out[i - 1])))
    return out


def _region(vowel: list[bool], start: int) -> int:
    """Where the region after the first non-vowel following a vowel (from ``start``) begins."""
    for i in range(start + 1, len(vowel)):
        if not vowel[i] and vowel[i - 1]:
            return i + 1
    return len(vowel)


def _short_syllable(word: str, vowel: list[bool], end: int) -> bool:
    """The letters before ``end`` end in a short syllable: non-vowel, vowel, non-vowel
    other than w, x or Y; or, the whole of a two-letter stem, vowel then non-vowel."""
    if end == 2:
        return vowel[0] and not vowel[1]
    if end < 3:
        return False
    last = word[end - 1]
    return (not vowel[end - 3] and vowel[end - 2] and not vowel[end - 1]
            and last not in "wx" and not (last == "y" and not vowel[end - 1]))  # fmt: skip


def inflection_stem(word: str) -> str:
    """An English word (lower case) without its inflectional ending (see the module)."""
    if len(word) <= 2:
        return word
    word = word.replace("’", "'")
    for ending in ("'s'", "'s", "'"):  # step 0: possessives
        if word.endswith(ending):
            word = word[: -len(ending)]
            break
    if word in _EXCEPTIONS:
        return _EXCEPTIONS[word] or word
    word = _step_1a(word)
    if word in _KEPT_AFTER_1A:
        return word
    vowel = _vowels(word)
    r1 = next((len(p) for p in _R1_PREFIXES if word.startswith(p)), _region(vowel, 0))
    word = _step_1b(word, vowel, r1)
    vowel = _vowels(word)
    if len(word) > 2 and word[-1] == "y" and not vowel[-2]:  # step 1c
        word = word[:-1] + "i"
    return _step_5(word, r1)


def _step_1a(word: str) -> str:
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith(("ied", "ies")):
        return word[:-2] if len(word) > 4 else word[:-1]
    if word.endswith(("us", "ss")) or not word.endswith("s"):
        return word
    vowel = _vowels(word)
    return word[:-1] if any(vowel[: len(word) - 2]) else word


def _step_1b(word: str, vowel: list[bool], r1: int) -> str:
    for ending in ("eedly", "eed"):
        if word.endswith(ending):
            return word[: -len(ending)] + "ee" if len(word) - len(ending) >= r1 else word
    for ending in ("ingly", "edly", "ing", "ed"):
        if word.endswith(ending):
            stem = word[: -len(ending)]
            if not any(vowel[: len(stem)]):
                return word
            if stem.endswith(("at", "bl", "iz")):
                return stem + "e"
            if stem.endswith(_DOUBLES) and not (len(stem) == 3 and stem[0] in "aeo"):  # add
                return stem[:-1]
            if _short_syllable(stem, vowel, len(stem)) and r1 >= len(stem):
                return stem + "e"
            return stem
    return word


def _step_5(word: str, r1: int) -> str:
    vowel = _vowels(word)
    r2 = _region(vowel, r1) if r1 < len(word) else len(word)
    if word.endswith("e"):
        end = len(word) - 1
        if end >= r2 or (end >= r1 and not _short_syllable(word, vowel, end)):
            return word[:-1]
    elif word.endswith("ll") and len(word) - 1 >= r2:
        return word[:-1]
    return word
