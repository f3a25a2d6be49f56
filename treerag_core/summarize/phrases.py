"""A section's tags: the key phrases that set it apart from the rest of its document.

A tag is a topic a person would search for (``share repurchase program``, ``currency-neutral
revenues``), so the candidates are noun phrases: runs of content words between stopwords,
verbs, adverbs, figures and punctuation, two to four words long (a lone word only when it
is a name written mid-sentence with a capital, ``Vietnam``). Lines in capitals (headings,
table headers) are left out: the title is shown anyway. Each candidate is weighted by how
often the section says it and how few of the document's sections do (tf·idf within the
document), so the company's own name, said everywhere, weighs nothing. Never a lone
all-caps word, a roman numeral, a figure or a year.

Measured against YAKE (``yake`` on PyPI) on bench.tree_quality: see docs/benchmarks.md.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import repeat
from typing import Any

from ..text.language import detect_language
from ..text.tokens import STOPWORDS, stopwords

MAX_TAGS = 6
TAG_CHARS = 10_000
MIN_WORDS, MAX_WORDS = 2, 4  # a phrase; longer runs are headings or lists of names
MIN_NAME_CHARS = 5  # a lone capitalised word kept as a name: long enough not to be chance
COMMON_SHARE = 0.5  # said in more than half of the sections: the document's, not theirs
MIN_SECTIONS_FOR_COMMON = 6
NAME_WEIGHT = 0.5  # a lone name counts half a phrase
# A phrase printed more than once in the document is a term of it, not a chance run of
# words ("graph demonstrates"): it weighs this much more.
REPEATED_BONUS = 1.5
# Words that end a noun phrase: verbs, auxiliaries, adverbs and vague qualifiers common in
# reports and manuals. A named constant: callers may extend it.
BOUNDARY_WORDS = (
    frozenset(
        """also although among approximately based because became become becomes began being
    believe believes certain compared continue continued continues could currently did
    does due during each either else ensure especially every example following follows
    furthermore generally given however including include included includes increase
    increased increases decrease decreased decreases like likely made make makes many may
    might much must new not primarily provide provided provides rather reflect reflected
    reflects related relating remain remained remains result resulted results see seen
    several shall significant significantly since so such thus therefore total various
    whether which while will would yes no none us we our ours company company's companies
    inc corp llc ltd one two three four five six seven eight nine ten first second third
    fourth year years month months quarter quarters period periods fiscal ended ending
    respectively approximately percent per million billion thousand amount amounts other
    others well able use used uses using within upon along across around via herein
    thereof hereof whereas consist consists represent represents operate operates utilize
    utilizes demonstrate demonstrates assume assumes constitute constitutes receive
    receives identify identifies enhance enhances accelerate accelerates gives give
    allow allows require requires remain expect expects seek seeks help helps""".split()
    )
    | STOPWORDS
)
_TOKEN = re.compile(r"[^\W\d_][\w'’&-]*|\d[\d,.]*%?|[^\w\s]")
_WORD = re.compile(r"^[^\W\d_][^\W\d_'’&-]*(?:['’-][^\W\d_]+)*$")
_ROMAN = re.compile(r"^[ivxlcdm]+$", re.I)


def _is_caps_line(line: str) -> bool:
    """A heading or a table header in capitals (string methods: this runs on every line)."""
    return line == line.upper() and line != line.lower() and len(line) >= 4


def _boundary(word: str, language: str = "") -> bool:
    """Whether ``word`` ends a phrase: English's boundary words, and the stopwords of the
    document's own language ("ein Paket, das von einem …" holds no German phrase)."""
    low = word.lower().strip("'’")
    if low in BOUNDARY_WORDS or low.endswith("ly") or _ROMAN.match(low):
        return True
    if language not in ("", "en") and low.casefold() in stopwords(language):
        return True
    return not _WORD.match(word) or len(low) < 2


@functools.lru_cache(maxsize=16384)  # a pure function of one word, asked of every word
def _mark(token: str, language: str = "") -> str:
    """A token as one letter: ``w`` a content word, ``b`` a boundary (what ends a run)."""
    return "b" if _boundary(token, language) else "w"


_RUN = re.compile("w+")  # a run of content words, in a line's marks
_SENTENCE_ENDS = frozenset(".!?:;")


def candidates(text: str, language: str = "") -> tuple[Counter[str], dict[str, Counter[str]]]:
    """Phrase counts of a text (lower-cased keys) and the surface forms each was printed in.

    A line's tokens are marked once (a cached letter a token, in C) and its runs of content
    words found by a pattern over the marks: no Python step a token, which made this the
    offline summarizer's largest cost (issue 42). A run starts a sentence when it opens the
    line or follows a sentence's end; a phrase does not end in a past participle
    ("revenues increased")."""
    counts: Counter[str] = Counter()
    forms: dict[str, Counter[str]] = {}
    for line in text.split("\n"):
        if _is_caps_line(line):
            continue
        tokens = _TOKEN.findall(line)
        for run in _RUN.finditer("".join(map(_mark, tokens, repeat(language)))):
            first, last = run.span()
            while last - first > 1 and tokens[last - 1].lower().endswith("ed"):
                last -= 1
            if MIN_WORDS <= last - first <= MAX_WORDS:
                phrase, weight = " ".join(tokens[first:last]), 1.0
            elif last - first == 1 and first and tokens[first - 1] not in _SENTENCE_ENDS:
                phrase, weight = tokens[first], NAME_WEIGHT
                if not _is_name(phrase):
                    continue
            else:
                continue
            key = phrase.lower()
            counts[key] += weight  # type: ignore[assignment]
            shown = forms.get(key)
            if shown is None:
                forms[key] = shown = Counter()
            shown[phrase] += 1
    return counts, forms


def _is_name(word: str) -> bool:
    return len(word) >= MIN_NAME_CHARS and word[:1].isupper() and not word.isupper()


def _shown(forms: Counter[str]) -> str:
    """The form a phrase is shown in: its most printed one, in lower case if in capitals."""
    form = forms.most_common(1)[0][0]
    return form.lower() if form.isupper() else form


def key_phrases(
    texts: Mapping[str, str], max_tags: int = MAX_TAGS, language: str = ""
) -> dict[str, list[str]]:
    """Each section's tags (``{node_id: [phrase, …]}``) from all of a document's texts,
    written in ``language`` (ISO 639-1; English when empty)."""
    language = "" if language == "en" else language  # one cache for English, whatever named
    per: dict[str, tuple[Counter[str], dict[str, Counter[str]]]] = {
        nid: candidates(text, language) for nid, text in texts.items()
    }
    df: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for counts, _forms in per.values():
        df.update(counts.keys())
        total.update(counts)
    n = len(texts)
    tags: dict[str, list[str]] = {}
    for nid, (counts, forms) in per.items():
        scored = []
        for key, tf in counts.items():
            if n >= MIN_SECTIONS_FOR_COMMON and df[key] > COMMON_SHARE * n:
                continue
            idf = math.log((n + 1) / (df[key] + 0.5)) + 0.1
            bonus = REPEATED_BONUS if total[key] > 1 else 1.0
            scored.append((tf * idf * bonus * (1 + 0.2 * key.count(" ")), key))
        scored.sort(key=lambda item: (-item[0], item[1]))
        chosen: list[str] = []
        for _score, key in scored:
            if any(key in c or c in key for c in chosen):
                continue
            chosen.append(key)
            if len(chosen) >= max_tags:
                break
        tags[nid] = [_shown(forms[key]) for key in chosen]
    return tags


def section_tags(text: str, max_tags: int = MAX_TAGS) -> list[str]:
    """One text's tags, without a document around it (every phrase equally specific)."""
    return key_phrases({"": text}, max_tags, detect_language(text))[""]


def texts_of(nodes: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Each section's text as its tags are read from: its first TAG_CHARS (a long
    section's topics are named early, and its tail would cost time, not tags)."""
    return {str(node["node_id"]): str(node.get("text") or "")[:TAG_CHARS] for node in nodes}
