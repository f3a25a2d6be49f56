"""Which language a text is written in, from its letters and its commonest words.

The script decides first (kana: Japanese; Hangul: Korean; Han alone: Chinese; Greek,
Hebrew, Thai, Devanagari…); within Latin, Cyrillic and Arabic script the language whose
stopwords (the ``stop-words`` lists) make up the largest share of the words wins. That
needs no model and no data beyond the lists the tokenizer already uses, and on a page of
text it is right for every language those lists cover; on a few words (a question) it may
be unsure, and then says ``""`` so the caller keeps the document's language.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .tokens import stopwords

# Enough text to be sure of a language (a few pages), spread over a document's sections.
SAMPLE_CHARS = 20_000
# A language is named only when its stopwords are at least this share of the sample's
# words (a page of running text: 25-50%; a list of names or figures: a few percent)...
MIN_STOPWORD_SHARE = 0.08
# ...and at least this many of them were seen (a short question has two or three).
MIN_STOPWORD_HITS = 2
# A text asked in one language is said to be in another only with at least this many of
# that one's stopwords (see detect_language).
MIN_OTHER_HITS = 3
# A section is told to be in another language than its document only on this much text
# (a short paragraph; a heading or a table row says too little), read up to
# SECTION_SAMPLE_CHARS...
SECTION_SAMPLE_MIN_CHARS = 200
SECTION_SAMPLE_CHARS = 2_000
# ...and only when that language's stopwords are at least this many times the main
# language's in it (a Spanish exhibit: dozens to none; an English note quoting "de la").
OTHER_LANGUAGE_MARGIN = 2.0
# ...and only on running text: at least this many different stopwords of three letters or
# more (a list of subsidiaries, "Noble Leasing LLC … S.R.L. Romania", matched Romanian's
# one-letter stopwords; in the Debian FAQ's untranslated sections 4-45 are seen, in the
# filings' lists of names 0-1).
MIN_SECTION_STOPWORDS = 4

_SCRIPTS = {
    "kana": "[\u3040-\u30ff]",
    "hangul": "[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]",
    "han": "[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]",
    "latin": "[A-Za-z\u00c0-\u024f]",
    "cyrillic": "[\u0400-\u04ff]",
    "greek": "[\u0370-\u03ff]",
    "arabic": "[\u0600-\u06ff]",
    "hebrew": "[\u0590-\u05ff]",
    "devanagari": "[\u0900-\u097f]",
    "thai": "[\u0e00-\u0e7f]",
}
_SCRIPT_RES = {name: re.compile(pattern) for name, pattern in _SCRIPTS.items()}
# A letter of any script but Latin: a text without one is in Latin script, or in none,
# told without counting each script's letters (ten passes over the text).
_OTHER_SCRIPTS = re.compile(
    "|".join(pattern for name, pattern in _SCRIPTS.items() if name != "latin")
)
# Scripts that name one language here; the others are told apart by their stopwords.
_ONE_LANGUAGE = {"hangul": "ko", "greek": "el", "hebrew": "he", "thai": "th"}
CANDIDATES = {
    "latin": ("en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "fi", "pl", "cs",
              "sk", "ro", "hu", "tr", "ca", "id", "vi"),
    "cyrillic": ("ru", "uk", "bg"),
    "arabic": ("ar", "fa"),
    "devanagari": ("hi",),
}  # fmt: skip
# Words are runs of letters standing alone: the letters of a code such as "A00412" or "Q3"
# are no word (an order sheet's thousand "A…" codes counted Czech's stopword "a").
_WORDS = re.compile(r"\b[^\W\d_]+\b")
# _WORDS in lower-case ASCII text, where a word character is [a-z0-9_]: the runs of word
# characters (every other byte made a space, then split) that are all letters. The same
# words, found by C code alone (2,000 sections' samples at indexing: 31 ms -> 13 ms)
_ASCII_WORD_CHARS = bytes(
    c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789_" else 32 for c in range(256)
)
LANGUAGE_NAMES = {
    "en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian",
    "pt": "Portuguese", "nl": "Dutch", "sv": "Swedish", "da": "Danish", "no": "Norwegian",
    "fi": "Finnish", "pl": "Polish", "cs": "Czech", "sk": "Slovak", "ro": "Romanian",
    "hu": "Hungarian", "tr": "Turkish", "ca": "Catalan", "id": "Indonesian",
    "vi": "Vietnamese", "ru": "Russian", "uk": "Ukrainian", "bg": "Bulgarian", "ar": "Arabic",
    "fa": "Persian", "hi": "Hindi", "ja": "Japanese", "zh": "Chinese", "ko": "Korean",
    "el": "Greek", "he": "Hebrew", "th": "Thai",
}  # fmt: skip


def _script(sample: str) -> str:
    """The script most of the letters are in (kana counts for Japanese even beside kanji).
    ASCII text holds no letter of another script: only its Latin letters are counted."""
    if sample.isascii() or not _OTHER_SCRIPTS.search(sample):  # a filing's "’" and "—"
        return "latin" if _SCRIPT_RES["latin"].search(sample) else ""
    counts = {name: len(rx.findall(sample)) for name, rx in _SCRIPT_RES.items()}
    if counts["kana"] and counts["kana"] >= 0.05 * (counts["kana"] + counts["han"]):
        counts["kana"] += counts.pop("han")
    best = max(counts, key=lambda name: counts[name])
    return best if counts[best] else ""


def detect_language(text: str, expected: str = "") -> str:
    """The text's language as an ISO 639-1 code, or ``""`` when it cannot be told.
    ``expected``: the language the text was asked to be in (a reply to a question). A text
    holding some of its stopwords is said to be in it unless another language's stopwords
    are at least OTHER_LANGUAGE_MARGIN times as many, and at least MIN_OTHER_HITS: a
    short English reply naming "Best Buy Co., Inc." holds English's "to" and "the", and
    Slovak's too plus its "co"; "1 percentage point" has French's "point". A word or two
    is no evidence of another language; a reply written in one has many."""
    language, hits = _detect(text[:SAMPLE_CHARS])
    if expected and language and language != expected and hits.get(expected):
        if hits[language] < max(MIN_OTHER_HITS, OTHER_LANGUAGE_MARGIN * hits[expected]):
            return expected
    return language


def _detect(sample: str, main: str = "") -> tuple[str, dict[str, int]]:
    """The sample's language (or ``""``) and each candidate language's stopword count.
    With a document's ``main`` language: a sample where no other language's stopwords can
    reach OTHER_LANGUAGE_MARGIN times main's is said to be in ``main`` (no counts), without
    counting each candidate's (what :func:`section_languages` would decide from them)."""
    script = _script(sample)
    if script in ("kana", "han"):
        return ("ja" if script == "kana" else "zh"), {}
    if script in _ONE_LANGUAGE:
        return _ONE_LANGUAGE[script], {}
    candidates = CANDIDATES.get(script)
    words = _words(sample) if candidates else []
    if not candidates or not words:
        return "", {}
    counts = Counter(words)
    # The sample's stopwords of any candidate, found once (a set intersection walks the
    # smaller side), then counted for each language that has them: one pass, not one a
    # candidate language (twenty for Latin script).
    common = _all_stopwords(script) & set(counts)
    if main in candidates:
        own_words = stopwords(main)
        own = sum(counts[w] for w in common if w in own_words)
        if own and sum(counts[w] for w in common) < OTHER_LANGUAGE_MARGIN * own:
            return main, {}
    hits = dict.fromkeys(candidates, 0)
    holders = _holders(script)
    for w in common:
        for lang in holders[w]:
            hits[lang] += counts[w]
    best = max(candidates, key=lambda lang: hits[lang])
    if hits[best] < MIN_STOPWORD_HITS or hits[best] < MIN_STOPWORD_SHARE * len(words):
        return "", hits
    return best, hits


@cache
def _all_stopwords(script: str) -> frozenset[str]:
    """Every candidate language's stopwords of a script: no one language's count in a
    sample can be more than theirs."""
    return frozenset().union(*(stopwords(lang) for lang in CANDIDATES.get(script, ())))


@cache
def _holders(script: str) -> dict[str, tuple[str, ...]]:
    """Each stopword of a script's candidate languages, with the languages that have it (in
    the candidates' order). Built a language at a time: asking each of 9,000 words of twenty
    lists whether it holds them cost every fresh process (a server's first question, an
    indexing worker) 19 ms, this 3 ms."""
    found: dict[str, list[str]] = {}
    for lang in CANDIDATES.get(script, ()):
        for w in stopwords(lang):
            held = found.get(w)
            if held is None:
                found[w] = [lang]
            else:
                held.append(lang)
    return {w: tuple(langs) for w, langs in found.items()}


def _words(sample: str) -> list[str]:
    """The sample's words, case folded (ASCII text: its lower-case letters, the same words
    found in a quarter of the time)."""
    if sample.isascii():
        runs = sample.lower().encode("ascii").translate(_ASCII_WORD_CHARS).decode("ascii")
        return list(filter(str.isalpha, runs.split()))
    return [w.casefold() for w in _WORDS.findall(sample)]


def section_languages(nodes: Mapping[str, Mapping[str, Any]], main: str) -> dict[str, str]:
    """The sections written in another language than the document's ``main`` one (a
    bilingual contract's other half, a filing's exhibit in Spanish): node id → language.

    A section is told apart only on enough text of its own, and only when its language's
    stopwords clearly outnumber the main language's in it: a short English section quoting
    a French name stays English."""
    found: dict[str, str] = {}
    for nid, node in nodes.items():
        text = str(node.get("text") or "")
        if len(text) < SECTION_SAMPLE_MIN_CHARS:
            continue
        sample = f"{node.get('title') or ''}\n{text[:SECTION_SAMPLE_CHARS]}"
        language, hits = _detect(sample, main)
        if not language or language == main:
            continue
        if hits and (
            hits[language] < OTHER_LANGUAGE_MARGIN * hits.get(main, 0)
            or _distinct_stopwords(sample, language) < MIN_SECTION_STOPWORDS
        ):
            continue
        found[nid] = language
    return found


def _distinct_stopwords(sample: str, language: str) -> int:
    """How many different stopwords of three letters or more the sample has: running text
    uses many, a list of names a few initials and particles ("S.A. de C.V.", "v.")."""
    words = {w.casefold() for w in _WORDS.findall(sample) if len(w) >= 3}
    return len(words & stopwords(language))


@dataclass(frozen=True)
class Languages:
    """What a document's words are cut and stemmed as: its main language, and the
    sections written in another (:func:`section_languages`)."""

    main: str = ""
    sections: Mapping[str, str] = field(default_factory=dict)

    def of(self, node_id: str) -> str:
        return self.sections.get(node_id, self.main)

    def all(self) -> set[str]:
        return {self.main, *self.sections.values()}

    def for_question(self, query: str) -> str:
        """The language to cut a question in: its own when the document has sections in
        it (each half of a bilingual document is found in its own words), else the main."""
        if not self.sections:
            return self.main
        asked = detect_language(query)
        return asked if asked in self.all() else self.main

    def foreign(self, query: str) -> str:
        """The question's language when it is surely none of the document's, else ``""``:
        an English question about a German manual."""
        asked = detect_language(query)
        return asked if asked and self.main and asked not in self.all() else ""


def sample_of(nodes: Iterable[Mapping[str, Any]], limit: int = SAMPLE_CHARS) -> str:
    """Text from across a document's sections (each one's opening), up to ``limit``."""
    nodes = list(nodes)
    share = max(200, limit // max(1, len(nodes)))
    parts, size = [], 0
    for node in nodes:
        piece = f"{node.get('title') or ''}\n{str(node.get('text') or '')[:share]}"
        parts.append(piece)
        size += len(piece)
        if size >= limit:
            break
    return "\n".join(parts)


def indexed_language(document: Mapping[str, Any]) -> str:
    """The language found at indexing; for a document indexed before languages were
    recorded, told from its sections."""
    recorded = document.get("language")
    if isinstance(recorded, str):
        return recorded
    return detect_language(sample_of((document.get("flat_nodes") or {}).values()))


def document_language(document: Mapping[str, Any]) -> str:
    """The language an editor set on the document's card, else :func:`indexed_language`."""
    edited = (document.get("card_edits") or {}).get("language")
    return edited if isinstance(edited, str) and edited else indexed_language(document)


def document_languages(document: Mapping[str, Any]) -> Languages:
    """The document's main language (:func:`document_language`) and its sections in others."""
    main = document_language(document)
    others = document.get("section_languages") or {}
    return Languages(main, {nid: lang for nid, lang in others.items() if lang != main})


def language_name(code: str) -> str:
    """``de`` → ``German``; an unknown code is shown as it is, none as ``unknown``."""
    return LANGUAGE_NAMES.get(code, code) if code else "unknown"
