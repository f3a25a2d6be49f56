"""Words as the offline engine counts them, in any script: lower-case tokens without
stopwords, stemmed in the document's language.

A word is a run of letters, marks and digits in any script (``zusätzliches``, ``récupérer``,
``Benutzerkonto``, ``хранилище``, ``हिन्दी``), normalised (NFKC: full-width letters and digits
become plain ones; case folded) and, once stemmed, without the accents of Latin, Greek and
Cyrillic letters, so ``résumé`` and ``resume`` meet. Scripts written without spaces
(Chinese, Japanese kana and kanji, Korean Hangul, Thai, Lao, Khmer, Myanmar) give
overlapping character bigrams, the way Lucene's CJK analyser and paperless-ngx match them:
``練習用`` → ``練習``, ``習用``; a lone character is its own token.

Stemming and stopwords come from maintained lists (``snowballstemmer``, 30-odd languages;
``stop-words``), chosen by the language code a caller passes (:mod:`.language` finds it).
English is what it always was, and the default: its own stopword list (which also drops
the words of document structure: section, chapter, page) and a light plural strip; plain
ASCII text of an English document takes the old, faster path, so English rankings do not
move.

Why English is not stemmed further, though "leaving" then misses "leaves" and "reporting"
misses "report": measured three times, it lowered rows the engine was tuned on. Snowball
English in the library index alone (c244ff9, reverted in eb0a0eb): FinanceBench page hit
and right filing down. Snowball English in this tokenizer, and its inflectional steps
alone (7c418d7, reverted in the next commit): FinanceBench right filing 96.9 -> 95.4%,
the library's own questions 97.4 -> 94.7 / 92.1%, the fresh set's tuning half 80.8 ->
73.1%, the offline answer on our tuned questions 98.1 -> 90.4 / 92.3%, while the
held-out halves rose (second set 88.5 -> 92.3%, fresh 82.3 -> 82.3 / 88.2%). A rare exact
form ("acknowledged") loses its weight once it meets every "acknowledge" of a manual.
So the tokens keep the plural strip, and the ranking, the chunk baseline and library
routing read a question word's other inflections beside it, at a discount, where its own
form is missing (:mod:`.inflections`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache, lru_cache

import regex

# The tokenizer's version: kept statistics made by another one are made again.
TOKENS_VERSION = 4
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


# English ASCII text, the fast path: every byte but a letter, digit, apostrophe or hyphen
# becomes a space, and the pieces between spaces, stripped of apostrophes and hyphens at
# their ends, are the words the pattern ``[a-z0-9]+(?:['\-]+[a-z0-9]+)*`` finds in the
# lower-cased text (a match is a maximal run of those characters from its first letter or
# digit to its last). Done by C code (translate, split, map over a cache), not one regex
# match and one comprehension step a word: 2.5 times faster on a 2 MB document.
_ASCII_SPACES = bytes(
    c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789'-" else 32 for c in range(256)
)
ENGLISH_WORDS_CACHE = 32_768  # distinct pieces kept: a few documents' vocabulary, ~5 MB


def ascii_pieces(lowered: str) -> list[str]:
    """The runs of letters, digits, apostrophes and hyphens of lower-case ASCII text: the
    words ``WORD`` finds there, once stripped of apostrophes and hyphens at both ends (a
    run of those alone strips to nothing)."""
    return lowered.encode("ascii").translate(_ASCII_SPACES).decode("ascii").split()


@lru_cache(maxsize=ENGLISH_WORDS_CACHE)
def _english_token(piece: str) -> str:
    """A piece's token on the fast path: ``""`` for a stopword or no word at all."""
    word = piece.strip("'-")
    return "" if word in STOPWORDS else _plural(word)


# Scripts written without spaces between words: their runs become character bigrams.
UNSPACED = (
    r"\u0e00-\u0eff"  # Thai, Lao
    r"\u1000-\u109f"  # Myanmar
    r"\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"  # Hangul jamo, compatibility jamo, syllables
    r"\u1780-\u17ff"  # Khmer
    r"\u3040-\u30ff\u31f0-\u31ff"  # Hiragana, Katakana (with the prolonged sound mark)
    r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs, extension A, compatibility
    r"\U00020000-\U0003134f"  # CJK extensions B-G
)
# A word in any script, by the standard library's fast matcher (letters and digits)...
_WORD_ANY = re.compile(r"[^\W_]+(?:['’\-]+[^\W_]+)*")
_RUN = re.compile(f"([{UNSPACED}]+)")
# ...which cuts words at combining marks (Devanagari and Tamil vowel signs, Hebrew and
# Arabic points, Thai): text with one of those is matched by ``regex``'s marks-aware class.
COMBINING_MARKS = re.compile(
    "[\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670"
    "\u06d6-\u06ed\u0900-\u0eff\u1000-\u109f\u1780-\u17ff\u1ab0-\u1aff\u1dc0-\u1dff"
    "\u20d0-\u20ff\ufe20-\ufe2f]"
)
_WORD_MARKED = regex.compile(r"[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['’\-]+[\p{L}\p{M}\p{N}]+)*")
# Letters whose accents are dropped once a word is stemmed: Latin, Greek, Cyrillic.
_FOLDED_BASES = regex.compile(r"[\p{Latin}\p{Greek}\p{Cyrillic}]\p{Mn}+")

# A language code (ISO 639-1, as :mod:`.language` gives it) → snowballstemmer's name.
SNOWBALL_NAMES = {
    "ar": "arabic", "ca": "catalan", "cs": "czech", "da": "danish", "de": "german",
    "el": "greek", "es": "spanish", "eu": "basque", "fi": "finnish", "fr": "french",
    "ga": "irish", "hi": "hindi", "hu": "hungarian", "hy": "armenian", "id": "indonesian",
    "it": "italian", "lt": "lithuanian", "ne": "nepali", "nl": "dutch", "no": "norwegian",
    "pl": "polish", "pt": "portuguese", "ro": "romanian", "ru": "russian", "sr": "serbian",
    "sv": "swedish", "ta": "tamil", "tr": "turkish", "yi": "yiddish", "fa": "persian",
}  # fmt: skip


def fold_accents(word: str) -> str:
    """The word without the combining accents of Latin, Greek and Cyrillic letters."""
    if word.isascii():  # no accents to drop (and NFD leaves ASCII as it is)
        return word
    decomposed = unicodedata.normalize("NFD", word)
    return unicodedata.normalize("NFC", _FOLDED_BASES.sub(lambda m: m.group()[0], decomposed))


@cache
def stopwords(language: str) -> frozenset[str]:
    """The language's stopwords (English's own list for English and unknown languages),
    as written and without accents."""
    if language in ("", "en"):
        return STOPWORDS
    from stop_words import LANGUAGE_MAPPING, get_stop_words

    name = LANGUAGE_MAPPING.get({"no": "nb"}.get(language, language))  # its Norwegian
    words = get_stop_words(name) if name else []
    lowered = {unicodedata.normalize("NFKC", w).casefold() for w in words}
    return frozenset(lowered | {fold_accents(w) for w in lowered})


def stemmer(language: str) -> Callable[[str], str] | None:
    """The language's Snowball stemmer, if it has one (English keeps its plural strip): a
    new one each call, since a Snowball stemmer keeps the word it works on in itself and
    one shared by threads (a server's requests, documents navigated at once) gives wrong
    stems and IndexErrors."""
    made = _stemmer_class(language)
    return made().stemWord if made is not None else None


@cache
def _stemmer_class(language: str) -> type | None:
    name = SNOWBALL_NAMES.get(language)
    if name is None:
        return None
    import snowballstemmer

    return type(snowballstemmer.stemmer(name))


def _plural(word: str) -> str:
    return word[:-1] if len(word) > 4 and word[-1] == "s" and word[-2] != "s" else word


# Japanese writes content words in kanji and katakana and most grammar in hiragana: a run is
# cut where hiragana meets another script, and a hiragana piece of one or two characters (a
# particle: に, の, を, には) is no token. Chinese and Korean runs are one script: unchanged.
_KANA_EDGE = regex.compile(r"[\u3040-\u309f]+|[^\u3040-\u309f]+")
PARTICLE_CHARS = 2


def _bigrams(run: str) -> list[str]:
    out: list[str] = []
    for piece in _KANA_EDGE.findall(run):
        if "\u3040" <= piece[0] <= "\u309f" and len(piece) <= PARTICLE_CHARS and piece != run:
            continue
        out.extend(
            [piece] if len(piece) == 1 else [piece[i : i + 2] for i in range(len(piece) - 1)]
        )
    return out


def tokenize(text: str, language: str = "", other: str = "") -> list[str]:
    """Word tokens without stopwords, stemmed in ``language`` (an ISO 639-1 code; ``""``
    and ``"en"``: English's plural strip); bigrams for scripts without spaces. ``other``:
    the document's own language, for a section in another: its words in the document's
    script (a Russian title over an English text) are stemmed as the document's are."""
    if language in ("", "en") and text.isascii():
        return list(filter(None, map(_english_token, ascii_pieces(text.lower()))))
    rules = _rules(language)
    script = SCRIPT_OF_LANGUAGE.get(other, "latin") if other else ""
    alternate = (
        _rules(other) if script and script != SCRIPT_OF_LANGUAGE.get(language, "latin") else None
    )
    lowered = unicodedata.normalize("NFKC", text).casefold()
    matcher = _WORD_MARKED if COMBINING_MARKS.search(lowered) else _WORD_ANY
    split_forms = language not in ("", "en")  # English keeps the fast path's words
    if not split_forms and alternate is None:
        return _english(matcher.findall(lowered))
    out: list[str] = []
    for word in matcher.findall(lowered):
        stop, stem = alternate if alternate and _script(word) == script else rules
        for one in _word_forms(word) if split_forms else (word,):
            if not one.isascii():
                _add_any(one, stop, stem, out)
            elif one and one not in stop:  # _add_word inline: most words of most texts are ASCII
                one = stem(one) if stem is not None else one
                folded = fold_accents(one)
                if folded == one or folded not in stop:
                    out.append(folded)
    return out


def _english(words: list[str]) -> list[str]:
    """English tokens of words found in text that is not all ASCII: its ASCII words as the
    fast path cuts them (stopwords out, plurals stripped; no accents to fold), the others
    word by word. An ASCII word's token comes from the fast path's cache (its words never
    start or end with an apostrophe or a hyphen, which the cache strips)."""
    out: list[str] = []
    for word in words:
        if not word.isascii():
            _add_any(word, STOPWORDS, _plural, out)
        else:
            token = _english_token(word)
            if token:
                out.append(token)
    return out


# The script a language is written in, where it is not Latin (see ``tokenize``'s ``other``).
SCRIPT_OF_LANGUAGE = {
    "ru": "cyrillic", "uk": "cyrillic", "bg": "cyrillic", "sr": "cyrillic", "el": "greek",
    "ar": "arabic", "fa": "arabic", "he": "hebrew", "yi": "hebrew", "hi": "devanagari",
    "ne": "devanagari",
}  # fmt: skip
_SCRIPT_STARTS = (("\u0370", "\u0400", "greek"), ("\u0400", "\u0530", "cyrillic"),
                  ("\u0590", "\u0600", "hebrew"), ("\u0600", "\u0700", "arabic"),
                  ("\u0900", "\u0980", "devanagari"))  # fmt: skip


def _script(word: str) -> str:
    """The script of a word's first letter: ``latin`` for any not named above."""
    first = word[0]
    return next((name for low, high, name in _SCRIPT_STARTS if low <= first < high), "latin")


def _rules(language: str) -> tuple[frozenset[str], Callable[[str], str] | None]:
    """A language's stopwords and stemmer (English: its own list and plural strip)."""
    return stopwords(language), _plural if language in ("", "en") else stemmer(language)


_APOSTROPHES = re.compile(r"['’]+")


def _word_forms(word: str) -> list[str]:
    """An elided word at its apostrophes (``l'ordinateur``: ``l``, ``ordinateur``); a
    compound's parts and the parts written as one word (``Standard-Papiergröße``:
    ``standard``, ``papiergröße``, ``standardpapiergröße``), so each form finds the others."""
    forms: list[str] = []
    for piece in _APOSTROPHES.split(word) if "'" in word or "’" in word else [word]:
        parts = [p for p in piece.split("-") if p]
        forms.extend([*parts, "".join(parts)] if len(parts) > 1 else parts)
    return forms


def _add_any(word: str, stop: frozenset[str], stem: Callable[[str], str] | None,
             out: list[str]) -> None:  # fmt: skip
    """A word's tokens: itself, or the bigrams of its runs in scripts without spaces."""
    if word.isascii():
        _add_word(word, stop, stem, out)
        return
    for i, part in enumerate(_RUN.split(word)):  # odd parts are unspaced runs
        if i % 2:
            out.extend(g for g in _bigrams(part) if g not in stop)
        elif part:
            _add_word(part.strip("'’-"), stop, stem, out)


def _add_word(word: str, stop: frozenset[str], stem: Callable[[str], str] | None,
              out: list[str]) -> None:  # fmt: skip
    """A word's token, stemmed then without accents, unless it is a stopword."""
    if not word or word in stop:
        return
    word = stem(word) if stem is not None else word
    folded = fold_accents(word)
    if folded == word or folded not in stop:  # "supprimés" → "supprim": still no stopword
        out.append(folded)


class TextTokens:
    """The tokens of texts cut once for several uses within one piece of work (a section's
    text counted for the library index and cut into the ranking's passages, at indexing):
    held by the caller for that work only, so no state outlives it. Callers must not change
    the lists it returns."""

    def __init__(self) -> None:
        self._made: dict[tuple[str, str], list[str]] = {}

    def __call__(self, text: str, language: str = "") -> list[str]:
        made = self._made.get((text, language))
        if made is None:
            made = self._made[(text, language)] = tokenize(text, language)
        return made


def spaced(text: str) -> str:
    """The text with each run of a script written without spaces replaced by its bigrams,
    space-separated: how a full-text engine that cuts words at spaces (SQLite's FTS5,
    PostgreSQL's parser) is given Chinese, Japanese, Korean or Thai to index and to search."""
    if text.isascii():
        return text
    return _RUN.sub(lambda m: f" {' '.join(_bigrams(m.group()))} ", text)


def estimate_tokens(text: str) -> int:
    """Characters / 4: the one token estimate for budgets and for evaluation."""
    return len(text) // CHARS_PER_TOKEN
