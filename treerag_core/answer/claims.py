"""What an answer's sentence claims, and what the passages it cites hold, taken apart the
same way so the two can be compared: figures, years, names, key terms and negation.

Both sides are cut once per answer (the passages into lines with their figures and terms,
each line keeping its offset for its page); :mod:`.support` compares them.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..navigate.ranking import RankingMemory, remembered_sentences
from ..text.figures import (
    MULTIPLIERS,
    NUMBER_WORDS,
    SCALES,
    SMALL_NUMBER,
    Figure,
    as_stated,
    figures_in,
    word_figures,
)
from ..text.tokens import tokenize

# A citation as answers print it: [S2], [S2, p. 38], [S1, S3], [S2, slide 4].
CITATION = re.compile(r"\[(S\d+)[^\]]*\]")
_REF = re.compile(r"\bS\d+\b")
# Words of answering, not of what is answered: never a claim about the document.
ANSWER_WORDS = frozenset(
    """according accordingly answer answers based cited cite cites document documents filing
    filings report reported reports reporting section sections show shows shown state states
    stated provided provide figure figures approximately around roughly about total amount
    information data given source sources note notes say says mention mentions""".split()
)
# Words of a period ("in fiscal year 2021", "for the year ended"): the period a sentence is
# about is checked as its dates (years, days), not as words its passage must repeat.
PERIOD_WORDS = frozenset(
    """fiscal year years yearly ended ending period periods quarter quarters quarterly annual
    annually calendar month months""".split()
)
# A possessive's ending: "Works's" is the word "Works" (as its name is read), "Buy's" "Buy".
_POSSESSIVE = re.compile(r"(?<=\w)['’](?:s(?!\w)|(?!\w))")
# A period written as one token ("FY24", "FY2024", "Q2"): a date, not a term.
_PERIOD_TOKEN = re.compile(r"(?:fy|cy)'?\d{2,4}|q[1-4]")
NOT_TERMS = (
    ANSWER_WORDS
    | PERIOD_WORDS
    | frozenset(NUMBER_WORDS)
    | frozenset(MULTIPLIERS)
    | frozenset("percent pct cent hundred dollar dollars point points basis".split())
)
# Words that turn a statement around ("did not increase", "no longer", "never").
NEGATIONS = frozenset(
    "not no never none neither nor without cannot nothing nobody n't isn't wasn't didn't "
    "doesn't don't weren't aren't hasn't haven't hadn't won't".split()
)
_NEGATION = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in NEGATIONS) + r")\b|n't\b", re.I)
# A sentence that says the sources do not answer: no claim about the document's content.
REFUSAL = re.compile(
    r"\b(?:do(?:es)?|did) not (?:contain|say|mention|provide|specify|state|include|give)\b"
    r"|\bnot (?:found|available|provided|mentioned|specified|stated)\b|\bno information\b"
    r"|\bcannot (?:find|determine|answer|tell)\b|\bunable to (?:find|determine|answer)\b",
    re.I,
)
# Capitalised words that start sentences or name no one.
COMMON_CAPITALS = frozenset(
    """i a an the in on at for of to and or but as by from with this that these those it its
    their there here what which who when where how yes no total net fiscal fy q1 q2 q3 q4
    january february march april may june july august september october november december
    usd eur gbp gaap non""".split()
)
# A company's legal form: part of a name already checked by its other words ("Microsoft
# Corporation", "Best Buy Co., Inc."), which its passage need not print.
LEGAL_FORMS = frozenset(
    "inc corp corporation company co ltd llc plc lp llp limited holdings group sa ag nv se".split()
)
# A web address's ending is no part of a name ("Amazon.com" is Amazon).
_DOMAIN = re.compile(r"\.(?:com|net|org|io)$", re.I)
_NOT_NAMES = COMMON_CAPITALS | LEGAL_FORMS
# A run of capitalised words, with the commas and ampersands of a company's name.
_NAME_RUN = re.compile(r"[A-Z][\w&'’.-]*(?:,?\s+(?:&\s+)?[A-Z][\w&'’.-]*)*")
MIN_KEY_CHARS = 4
# Words a sentence opens with that are not names (a capitalised first word otherwise may be
# one: "Adidas reported…"; a common word there is found in the passages anyway).
OPENERS = frozenset(
    """however overall additionally also therefore thus hence yes based according during
    as after before since while although because if so then both each all most some many
    our we you they he she one two three first second finally moreover furthermore
    meanwhile instead still about approximately around roughly nearly almost over under
    just only less more""".split()
)
_NAME = re.compile(r"\b(?:[A-Z][\w&'’.-]*[A-Za-z0-9]|[A-Z]{2,}|\d+[A-Z][A-Za-z]*)\b")
_COMPACT = re.compile(r"[\W_]+")
# A fiscal year as filings and computed answers write it ("FY2022", "FY2021–FY2022"): a
# date, checked as its year, not a name.
_FISCAL_YEAR = re.compile(r"(?:FY|CY)'?(?:19|20)?\d\d", re.I)
# ...and its short form ("FY21", "Q2 FY'24"): the year 2021, 2024.
_SHORT_FISCAL_YEAR = re.compile(r"\b(?:FY|CY)'?(\d\d)\b", re.I)
# Sentences of an answer end at a stop and a space before a capital, a quote or a bracket.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“(\[A-Z0-9$€£])")
_ABBREVIATED = re.compile(
    r"\b(?:Inc|Co|Corp|Ltd|No|Nos|Mr|Mrs|Ms|Dr|St|vs|approx|U\.S|e\.g|i\.e|Fig|Figs|Ex|Exh|Vol"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.$"
)  # "as of Jan. 31, 2020", "(Fig. 3)": no sentence ends there
# Citations opening a sentence, in the masked line: they follow the stop of the one before
# ("… rose 4% in Q2. [S1] Costs fell …"), whose source they are.
_LEADING_CITATIONS = re.compile(r"(?:\[x+\][ \t]*)+")
# Words longer than this are compared by their first letters ("increased", "increase").
STEM_CHARS = 6


def stem(word: str) -> str:
    return word[:STEM_CHARS] if len(word) > STEM_CHARS else word


def terms_of(text: str, language: str = "") -> set[str]:
    """Key terms: words without stopwords, numbers (in digits or words, with their units),
    words of answering and of periods, stemmed; a possessive's word without its apostrophe."""
    words = (w.rstrip("'’") for w in tokenize(_POSSESSIVE.sub("", text), language))
    return {
        stem(w)
        for w in words
        if w and not w[:1].isdigit() and w not in NOT_TERMS and not _REF.fullmatch(w.upper())
        and not _PERIOD_TOKEN.fullmatch(w)
    }  # fmt: skip


def compact(text: str) -> str:
    """Lower case, letters and digits only: "Coca-Cola" and "COCACOLA" meet."""
    return _COMPACT.sub("", text.lower())


def names_in(text: str) -> list[str]:
    """Names a sentence states: capitalised words past its first word, acronyms, "3M"."""
    out = []
    for m in _NAME.finditer(text):
        word = _DOMAIN.sub("", re.sub(r"['’]s?$", "", m.group(0).rstrip(".")))
        if word.lower() in _NOT_NAMES or _REF.fullmatch(word) or _FISCAL_YEAR.fullmatch(word):
            continue
        first = m.start() == len(text) - len(text.lstrip())
        if text[m.end() : m.end() + 1] == ":":
            continue  # "Highest: …", "Note: …": a label
        if first and (word.lower() in OPENERS or word.lower().endswith("ly")):
            continue
        out.append(word)
    return list(dict.fromkeys(out))


def named_as(text: str, keys: Sequence[str]) -> set[str]:
    """The name words of ``text`` that are one of ``keys`` under a longer name: a run of
    capitalised words whose letters begin with a key ("Verizon Communications Inc." for
    the file VERIZON_2022_10K, "Amazon.com, Inc." for AMAZON_2017_10K): a company's full
    name, whose other words its passages need not print."""
    out: set[str] = set()
    for m in _NAME_RUN.finditer(text):
        run = compact(m.group(0))
        if any(run.startswith(key) for key in keys):
            out.update(names_in(m.group(0)))
    return out


def company_keys(file_names: str) -> list[str]:
    """What each file's name calls its company: the letters before its first digit
    ("VERIZON_2022_10K.pdf": verizon), when there are at least MIN_KEY_CHARS of them."""
    keys = (compact(re.split(r"\d", name, maxsplit=1)[0]) for name in file_names.split())
    return [key for key in dict.fromkeys(keys) if len(key) >= MIN_KEY_CHARS]


def fiscal_years(text: str) -> list[int]:
    """The years a sentence names in short fiscal form ("FY21" is 2021): checked as years."""
    return [(2000 if int(y) < 70 else 1900) + int(y) for y in _SHORT_FISCAL_YEAR.findall(text)]


def negated(text: str) -> bool:
    return bool(_NEGATION.search(text))


@dataclass(frozen=True)
class Sentence:
    """One sentence of an answer: where it is, what it cites, what it claims."""

    text: str
    start: int
    end: int
    refs: tuple[str, ...]
    body: str  # without its citations


def answer_sentences(text: str) -> list[Sentence]:
    """The answer's sentences with their exact spans; citations after a stop ("… $5
    million. [S1]", "… $5 million. [S1] Costs fell …") belong to the sentence before."""
    out: list[Sentence] = []
    offset = 0
    for line in text.split("\n"):
        start = offset
        offset += len(line) + 1
        pieces: list[tuple[str, int]] = []
        at = 0
        masked = CITATION.sub(lambda m: "[" + "x" * (len(m.group(0)) - 2) + "]", line)
        for m in [*_SENTENCE_END.finditer(masked), None]:
            end, after = (m.start(), m.end()) if m else (len(line), len(line))
            cited = _LEADING_CITATIONS.match(masked, after) if m else None
            if cited and masked[cited.end() :].strip():
                end, after = len(masked[: cited.end()].rstrip()), cited.end()
            piece = line[at:end]
            if pieces and (
                _ABBREVIATED.search(pieces[-1][0]) or not CITATION.sub("", piece).strip()
            ):
                pieces[-1] = (line[pieces[-1][1] : end], pieces[-1][1])
            elif piece.strip():
                pieces.append((piece, at))
            at = after
        for piece, at in pieces:
            lead = len(piece) - len(piece.lstrip(" -*•>#\t"))
            body = piece[lead:].rstrip()
            if not body:
                continue
            refs = tuple(dict.fromkeys(r for c in re.findall(r"\[[^\]]*\]", body)
                                       for r in _REF.findall(c) if c.startswith("[S")))  # fmt: skip
            clean = " ".join(re.sub(r"\[S\d+[^\]]*\]", " ", body).split())
            out.append(
                Sentence(body, start + at + lead, start + at + lead + len(body), refs, clean)
            )
    return out


@dataclass
class Line:
    """One line (a table row or a sentence) of a passage, its figures and terms read once
    asked for."""

    text: str
    offset: int
    language: str = ""
    _figures: list[Figure] | None = None
    _terms: set[str] | None = None

    @property
    def figures(self) -> list[Figure]:
        if self._figures is None:
            self._figures = figures_in(self.text)
        return self._figures

    @property
    def terms(self) -> set[str]:
        if self._terms is None:
            self._terms = terms_of(self.text, self.language)
        return self._terms

    @property
    def negated(self) -> bool:
        return negated(self.text)


class Passage:
    """A section the answer read. Cut lazily: most sentences cite one or two sections, and
    a 10-K's five sections hold thousands of numbers, so a figure is looked for among the
    printed numbers by value first (one C-speed scan) and read in full only where it may be.
    """

    def __init__(
        self, ref: str, section: Mapping[str, Any], language: str = "",
        memory: RankingMemory | None = None,
    ) -> None:  # fmt: skip
        self.ref, self.section, self.language = ref, section, language
        self._memory = memory
        self.text = str(section.get("text") or "")
        around = f"{section.get('lead') or ''}\n{section.get('label') or ''}\n"
        self.lower = (around + self.text).lower()
        self._around = len(around)
        self._lines: list[Line] | None = None
        self._numbers: list[tuple[int, float]] | None = None
        self._compact = ""
        self._words: list[Figure] | None = None
        self._by_value: list[tuple[float, int]] | None = None  # numbers sorted by value
        self._values: list[float] = []

    @property
    def lines(self) -> list[Line]:
        if self._lines is None:  # the sentences the offline engine cut, when it did
            spans = remembered_sentences(self._memory, self.text)
            self._lines = [Line(t, at, self.language) for t, at in spans]
        return self._lines

    @property
    def compact(self) -> str:
        if not self._compact:
            self._compact = compact(self.lower)
        return self._compact

    @property
    def numbers(self) -> list[tuple[int, float]]:
        """Every number printed in the text: (offset, value)."""
        if self._numbers is None:
            self._numbers = []
            for m in _NUMBER.finditer(self.text):
                try:
                    self._numbers.append((m.start(), float(m.group(0).replace(",", ""))))
                except ValueError:
                    continue
        return self._numbers

    def has_term(self, term: str) -> bool:
        """Whether a word starting with ``term`` is in the passage (or its lead or label)."""
        if not term.isascii():
            return term in self.lower
        at = self.lower.find(term)
        while at >= 0:
            if at == 0 or not self.lower[at - 1].isalnum():
                return True
            at = self.lower.find(term, at + 1)
        return False

    def has_year(self, year: int) -> bool:
        return re.search(rf"(?<!\d){year}(?!\d)", self.lower) is not None

    def find(self, figure: Figure) -> int | None:
        """Where a printed figure agreeing with ``figure`` is (its offset), or None: a round
        figure of the answer's may round the printed one (:func:`as_stated`), a figure it
        computes may not (what it computes from is what it prints)."""
        figure = as_stated(figure)
        if figure.value == 0:  # a zero has no scale: it is found as printed ("0.00%")
            m = re.search(rf"(?<![\d.,]){re.escape(figure.text)}(?![\d.,]\d)", self.text)
            return m.start() if m else None
        at = next(self.finds(figure), None)
        if at is not None:
            return at
        if self._words is None:
            self._words = word_figures(self.text)
        return next((w.start for w in self._words if figure.agrees(w)), None)

    def finds(self, figure: Figure) -> Iterator[int]:
        """Every offset where a number printed in digits agrees with ``figure`` (as the
        answer states it: :func:`as_stated`), in text order."""
        for at, value in self._candidates(figure):
            if figure.may_be(value):
                window = self.text[max(0, at - 6) : at + 40]
                if any(figure.agrees(other) for other in figures_in(window)):
                    yield at
                elif self._small_cell(figure, at, value):
                    yield at

    def _candidates(self, figure: Figure) -> list[tuple[int, float]]:
        """The printed numbers that may be ``figure`` at some scale, in text order: looked
        up by value (a whole 10-K section prints thousands; one figure is a few of them)."""
        if self._by_value is None:
            self._by_value = sorted((value, at) for at, value in self.numbers)
            self._values = [value for value, _ in self._by_value]
        hits = set()
        for low, high in figure.printed_ranges():
            start, end = bisect_left(self._values, low), bisect_right(self._values, high)
            hits.update(self._by_value[start:end])
        return sorted((at, value) for value, at in hits)

    def _small_cell(self, figure: Figure, at: int, value: float) -> bool:
        """A small whole number (prose's item and note numbers, never read as a figure) in a
        table row's cells, after its label ("Research and development expenses 9 224 265"):
        an amount, which an answer's amount with its unit ("$9 million") may state."""
        if value > SMALL_NUMBER or figure.text[:1] not in "$€£¥" and not figure.text[-1:].isalpha():
            return False
        start = self.text.rfind("\n", 0, at) + 1
        end = self.text.find("\n", at)
        label, cells = self.text[start:at], self.text[at : end if end >= 0 else len(self.text)]
        if not re.search(r"[^\W\d_]{3}", label) or not _CELLS.fullmatch(cells.rstrip()):
            return False
        # a small number is ambiguous: only the very value, at a table's scale, is it
        return any(abs(figure.value) == value * scale for scale in SCALES)

    def line_at(self, offset: int) -> Line | None:
        """The line holding ``offset``."""
        best = None
        for line in self.lines:
            if line.offset > offset:
                break
            best = line
        return best

    def page(self, offset: int) -> Any:
        page = self.section.get("page_start")
        for mark_offset, mark_page in self.section.get("page_marks") or []:
            if mark_offset <= offset:
                page = mark_page
        return page


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
# The rest of a table row from a cell on: cells only (numbers, signs, dashes, parentheses).
_CELLS = re.compile(r"\d+(?:[ \t]+[$€£¥(]*(?:\d[\d,.]*|[—–-])\)?%?)*")


def passages_of(
    sections: Sequence[Mapping[str, Any]], language: str = "", memory: RankingMemory | None = None
) -> list[Passage]:
    """The sections as passages (nothing is cut until a sentence asks; ``memory``: where the
    offline engine kept the sentences it cut, :func:`.offline.extractive.extractive_answer`)."""
    return [
        Passage(str(section.get("ref") or f"S{number}"), section, language, memory)
        for number, section in enumerate(sections, 1)
    ]
