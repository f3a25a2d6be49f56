"""Figures in prose, in any of the notations people and documents print them.

An answer says "$51.2 billion" where the filing's table prints ``51,217`` under "(in
millions)", "ten percent" where the text says "10%", "1,577" where the row says
``(1,577)``. To check one against the other, each figure is read as a value with its
precision: half a unit of its last printed digit, times its multiplier word ("51.2
billion" is 51.2e9 ± 0.05e9). Two figures agree when their values are within both
precisions, at one of the scales a table may be printed in (units, thousands, millions,
billions), and the document's figure is printed at least about as precisely as the
answer's: a lone ``51`` elsewhere on the page does not confirm "$51.2 billion".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from .numbers import MONTHS, YEAR_RANGE, number_value

# Multiplier words after a figure (English; extend for other languages).
MULTIPLIERS = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "millions": 1e6, "mn": 1e6, "m": 1e6,
    "mio": 1e6, "billion": 1e9, "billions": 1e9, "bn": 1e9, "b": 1e9, "mrd": 1e9,
    "trillion": 1e12, "thousands": 1e3,
}  # fmt: skip
PERCENT_WORDS = (
    "%",
    "percent",
    "per cent",
    "pct",
    "percentage points",
    "basis points",
    "pp",
    "bps",
)
# The scales a document's table may print a figure in ("(in millions)").
SCALES = (1.0, 1e3, 1e6, 1e9)
# A document's figure confirms an answer's only if it is printed with at least this many
# significant digits, or as many as the answer's (whichever is fewer).
MIN_CONFIRMING_DIGITS = 3
# Bare whole numbers up to this, with no unit or sign, are list markers, items and notes
# ("Item 7", "two segments" is a word) more often than claims: not checked.
SMALL_NUMBER = 12
# Computed figures that are pure numbers: never read at a table's scale.
UNSCALED = ("ratio",)
# A computed figure confirms an answer's when its own uncertainty (from its inputs' last
# digits) is at most this many times the answer's precision.
COMPUTED_SLACK = 2.0
# A whole figure of this many digits or more ending in zeros ("$1,680 million", "212,000")
# may round the document's figure to its last nonzero digit, to within this share of it
# (a sentence's "$8,300 million" for a table's 8,296; never "1,000" for 1,400).
ROUNDED_MIN_DIGITS = 4
ROUNDED_SHARE = 0.005
_BARE_DECIMAL = re.compile(r"-?\d*\.\d+")  # a figure with no unit, sign or currency
_UNIT_WORDS = sorted(MULTIPLIERS, key=len, reverse=True)
_FIGURE = re.compile(
    r"(?<![\w.,])(?P<neg>[-−(])?(?P<cur>[$€£¥₹]|US\$|USD ?|EUR ?|GBP ?)?\s?"
    r"(?P<num>\d{1,3}(?:,\d{3}(?!\d))+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"  # not "31,2022"
    r"(?P<close>\))?"
    r"(?:\s?(?P<pct>%|percent\b|per cent\b|pct\b|percentage points?\b|basis points?\b"
    r"|pp\b|ppts?\b|bps\b))?"
    r"(?:\s?(?P<mult>" + "|".join(_UNIT_WORDS) + r")\b)?"
    r"(?P<times>[x×](?!\w))?"  # a multiple: "1.75x" (a ratio), "3×"
    r"(?![\w-]*[A-Za-z])",
    re.I,
)
# "May 26", "Sept. 3": the number after a month's name is a day of a date.
_AFTER_MONTH = re.compile(r"\b(?:" + "|".join(MONTHS) + r")\.?\s$", re.I)
# "Note 13", "Exhibit 12.1", "see Section 3.2", "page 86": a number of at most three
# digits that names a part of the document is a reference, not a figure (a filing's line
# cited as "NOTE 13 — UNEARNED REVENUE · …" claims no 13). The keyword must open a line,
# a sentence or a bracket, or follow "see"/"in"/"under"/"to": a row's label ending in one
# ("Accrued compensation and related items 1,972") is followed by its amount.
_REFERENCE = re.compile(
    r"(?:^|[\n(\[·:;•—–-]\s*|[.!?]\s+|\b(?:see|in|under|to)\s+)"
    r"(?:notes?|items?|parts?|sections?|exhibits?|schedules?|articles?|chapters?|appendix"
    r"|annex|figures?|fig\.|tables?|pages?|pp?\.|rules?|§)\s?$",
    re.I,
)
REFERENCE_LOOKBACK = 24  # the longest opener and keyword above
_REFERENCE_NUMBER = re.compile(r"\d{1,3}(?:\.\d{1,2})?")  # "13", "12.1": no amount
# Money printed with cents ("$8.70", "$0.40") pads a last zero: it says no more than "$8.7".
_CENTS_PADDED = re.compile(r"\d\.\d0$")
_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
NUMBER_WORDS = {w: i for i, w in enumerate(_ONES)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}
_WORD_FIGURE = re.compile(
    r"\b(?P<words>(?:" + "|".join(NUMBER_WORDS) + r")(?:[- ](?:" + "|".join(NUMBER_WORDS)
    + r"))?(?: hundred)?)\s?(?P<pct>percent\b|per cent\b)?(?:\s?(?P<mult>thousand|million|"
    r"billion|trillion)\b)?",
    re.I,
)  # fmt: skip


@dataclass(frozen=True)
class Figure:
    """A figure as printed: its value (multiplier applied), precision and where it is."""

    text: str
    value: float
    precision: float  # half a unit of the last printed digit, times the multiplier
    digits: int  # significant digits printed
    percent: bool = False
    year: bool = False  # a bare year (2019): a date, not an amount
    start: int = 0
    end: int = 0
    day: bool = False  # the day of a date ("May 26"): checked as printed, never computed with

    def agrees(self, other: Figure) -> bool:
        """Whether ``other`` (a document's figure) confirms this one (an answer's)."""
        if self.year or other.year:
            return self.year and other.year and self.value == other.value
        if other.digits < min(self.digits, MIN_CONFIRMING_DIGITS):
            return False
        a, b = abs(self.value), abs(other.value)
        scales: tuple[float, ...]
        if self.percent:  # 10% is 10%, a ratio printed 0.10, or a table's 10.0 under "%"
            scales = (1.0,) if other.percent or "." in other.text else ()
            scales += (100.0,) if b < 1 and not other.percent else ()
        elif other.percent:  # a ratio printed bare (0.25) is the document's 25%
            scales = (1.0, 0.01) if _BARE_DECIMAL.fullmatch(self.text) else (1.0,)
        else:
            scales = (1.0,) if other.text in UNSCALED else SCALES
        return any(abs(a - b * s) <= self.precision + other.precision * s for s in scales)

    def computes_to(self, other: Figure) -> bool:
        """Whether ``other``, a figure computed from the document's (:func:`computed`),
        confirms this one: of the same kind (a percentage is computed as one, an amount or
        a ratio is not a percentage, but a bare decimal below one may state a percentage as
        a ratio: "grew 0.044" for 4.4%, as :meth:`agrees` reads it), and known about as
        precisely as this one is printed (two figures of two digits compute a wide band,
        which confirms nothing)."""
        a, b = abs(self.value), abs(other.value)
        as_ratio = other.percent and a < 1 and bool(_BARE_DECIMAL.fullmatch(self.text))
        if self.percent != other.percent and not as_ratio:
            return False
        if as_ratio:
            scales: tuple[float, ...] = (0.01,)
        else:
            scales = (1.0,) if self.percent or other.text in UNSCALED else SCALES
        return any(
            abs(a - b * s) <= self.precision + other.precision * s
            and other.precision * s <= COMPUTED_SLACK * self.precision
            for s in scales
        )

    def may_be(self, printed: float) -> bool:
        """A quick test before reading a printed number in full: could it agree (at any
        scale, whatever its own precision, at most half a unit)?"""
        a, b = abs(self.value), abs(printed)
        return any(abs(a - b * s) <= self.precision + 0.5 * s for s in self._scales())

    def printed_ranges(self) -> list[tuple[float, float]]:
        """The ranges of printed numbers (unsigned) that :meth:`may_be` may accept, a hair
        wider (each is tested with it after): a passage's numbers are looked up in them."""
        a = abs(self.value)
        return [((a - self.precision - 0.5 * s) / s * (1 - 1e-9) - 1e-12,
                 (a + self.precision + 0.5 * s) / s * (1 + 1e-9) + 1e-12)
                for s in self._scales()]  # fmt: skip

    def _scales(self) -> tuple[float, ...]:
        # A percentage may be printed in basis points ("40 basis points" prints 40 for 0.4%,
        # "190 basis points" for an answer's 1.9 percentage points): the print read there
        # must still say basis points to agree (:meth:`agrees` on what is printed).
        scales: tuple[float, ...] = (1.0, 100.0, 0.01) if self.percent else SCALES
        return scales + ((0.01,) if _BARE_DECIMAL.fullmatch(self.text) else ())


def _precision(number: str) -> tuple[float, int]:
    """Half a unit of the last printed digit, and the significant digits printed."""
    digits = number.replace(",", "")
    whole, _, frac = digits.partition(".")
    significant = len((whole + frac).lstrip("0")) or 1
    if frac:
        return 0.5 * 10 ** -len(frac), significant
    trailing = len(whole) - len(whole.rstrip("0")) if whole.strip("0") else 0
    return 0.5, max(1, significant - trailing)


def figures_in(text: str) -> list[Figure]:
    """Every figure printed in ``text`` (numbers in digits or words), in order."""
    out: list[Figure] = []
    for m in _FIGURE.finditer(text):
        number = m.group("num")
        value = number_value(number) if not number.startswith(".") else float(number)
        half, digits = _precision(number)
        if m.group("cur") and _CENTS_PADDED.search(number):
            half, digits = 10 * half, max(1, digits - 1)
        mult_word = (m.group("mult") or "").lower()
        pct = bool(m.group("pct"))
        if pct and m.group("pct").lower().startswith(("basis", "bp")):
            value, half = value / 100, half / 100
        if len(mult_word) == 1 and not m.group("cur"):
            continue  # "3M", "5 m": a name or a length, unless money ("$5.3B")
        mult = MULTIPLIERS.get(mult_word, 1.0)
        bare = not (m.group("cur") or pct or mult_word or m.group("times"))
        year = bare and "," not in number and "." not in number and int(value) in YEAR_RANGE
        if bare and not year and "." not in number and value <= SMALL_NUMBER:
            continue
        if bare and _reference(text, m.start(), number):
            continue
        day = bare and value <= 31 and bool(_AFTER_MONTH.search(text, 0, m.start()))
        out.append(
            Figure(m.group(0).strip(" (").strip(), value * mult, half * mult, digits, pct, year,
                   m.start(), m.end(), day)
        )  # fmt: skip
    return sorted(out + word_figures(text), key=lambda f: f.start)


def _reference(text: str, start: int, number: str) -> bool:
    """The number at ``start`` names a part of the document ("Note 13"): see _REFERENCE."""
    if not _REFERENCE_NUMBER.fullmatch(number):
        return False
    return _REFERENCE.search(text[max(0, start - REFERENCE_LOOKBACK) : start]) is not None


@lru_cache(maxsize=4096)
def as_stated(figure: Figure) -> Figure:
    """An answer's figure as a sentence states it: a whole number of ROUNDED_MIN_DIGITS
    digits or more ending in zeros may be a rounded one (its zeros are padding, as in
    "$212,000 million" for 211,915), so it is read to its last nonzero digit, within
    ROUNDED_SHARE of its value; any other figure as printed. Only the answer's side is
    read so: a document's round figure is what it prints."""
    number = _NUMBER.search(figure.text)
    if number is None or figure.percent or "." in number.group(0):
        return figure
    whole = number.group(0).replace(",", "")
    zeros = len(whole) - len(whole.rstrip("0"))
    if len(whole) < ROUNDED_MIN_DIGITS or not zeros or not whole.strip("0"):
        return figure
    wider = min(figure.precision * 10**zeros, ROUNDED_SHARE * abs(figure.value))
    return replace(figure, precision=max(figure.precision, wider))


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def word_figures(text: str) -> list[Figure]:
    """Figures written in words with their unit: "ten percent", "twenty-five million"
    ("two segments", a count in words without one, is not read)."""
    out = []
    for unit in _UNIT_WORD.finditer(text):  # only where a unit word is (a quick scan)
        at = max(0, unit.start() - 30)
        m = next((w for w in _WORD_FIGURE.finditer(text, at, unit.end())
                  if w.end() == unit.end()), None)  # fmt: skip
        if m is None or not (m.group("pct") or m.group("mult")):
            continue
        value = _words_value(m.group("words"))
        mult = MULTIPLIERS.get((m.group("mult") or "").lower(), 1.0)
        digits = len(str(int(value)).rstrip("0")) or 1
        out.append(Figure(m.group(0), value * mult, 0.5 * mult, digits, bool(m.group("pct")),
                          False, m.start(), m.end()))  # fmt: skip
    return out


_UNIT_WORD = re.compile(r"\b(?:percent|per cent|thousand|million|billion|trillion)\b", re.I)


def _words_value(words: str) -> float:
    """ "twenty-five" → 25, "three hundred" → 300."""
    parts = re.split(r"[- ]", words.lower())
    total = sum(NUMBER_WORDS.get(p, 0) for p in parts if p != "hundred")
    return float(total * 100 if "hundred" in parts else total)


def computed(figures: list[Figure]) -> list[Figure]:
    """What an answer may compute from two figures: sums, differences, ratios and changes,
    each with the precision its inputs give it (percentages too)."""
    out: list[Figure] = []
    plain = [f for f in figures if not f.year and not f.day and f.value]
    for i, a in enumerate(plain):
        for b in plain[i + 1 :]:
            x, y = abs(a.value), abs(b.value)
            err = a.precision + b.precision
            digits = min(a.digits, b.digits)
            out.append(Figure("sum", x + y, err, digits))
            out.append(Figure("difference", abs(x - y), err, digits))
            for top, bottom in ((x, y), (y, x)):
                if bottom:
                    rel = err / bottom * (1 + top / bottom)
                    out.append(Figure("ratio", top / bottom, rel, digits))
                    out.append(Figure("share", 100 * top / bottom, 100 * rel, digits, True))
                    change = 100 * (top - bottom) / bottom
                    out.append(Figure("change", abs(change), 100 * rel, digits, True))
    return out


def over_means(figures: list[Figure], row_means: list[Figure]) -> list[Figure]:
    """A figure over a row's two- or three-year mean, and the mean over the figure: the
    ratios defined on average balances (cost of sales over average inventory, income over
    average assets or equity), as a ratio and as a share."""
    out: list[Figure] = []
    plain = [f for f in figures if not f.year and not f.day and f.value and not f.percent]
    for mean in row_means:
        m = abs(mean.value)
        if not m or mean.percent:
            continue
        for f in plain:
            x, err = abs(f.value), f.precision + mean.precision
            digits = min(f.digits, mean.digits)
            for top, bottom in ((x, m), (m, x)):
                rel = err / bottom * (1 + top / bottom)
                out.append(Figure("ratio", top / bottom, rel, digits))
                out.append(Figure("share", 100 * top / bottom, 100 * rel, digits, True))
    return out


def compound_growth(row: list[Figure]) -> list[Figure]:
    """The yearly rate that takes one cell of a table row to another two or more periods
    apart (a multi-year growth rate: ``(last / first) ** (1 / years) - 1``), either way
    round, as a percentage. Only cells of one row: its periods are the columns."""
    plain = [f for f in row if not f.year and not f.day and f.value and not f.percent]
    out = []
    for i, a in enumerate(plain):
        for years, b in enumerate(plain[i + 2 :], start=2):
            x, y = abs(a.value), abs(b.value)
            if not x or not y:
                continue
            rel = (a.precision / x + b.precision / y) / years
            for top, bottom in ((x, y), (y, x)):
                rate = (top / bottom) ** (1 / years)
                out.append(Figure("change", abs(100 * (rate - 1)), 100 * rate * rel,
                                  min(a.digits, b.digits), True))  # fmt: skip
    return out


def means(row: list[Figure]) -> list[Figure]:
    """The means of two or three neighbouring figures of a kind in one table row (its
    cells, one per period): a two- or three-year average. Only neighbours of one row: a
    mean of any figures near a sentence would confirm almost any rounded figure."""
    plain = [f for f in row if not f.year and not f.day and f.value]
    out = []
    for n in (2, 3):
        for at in range(len(plain) - n + 1):
            cells = plain[at : at + n]
            if len({f.percent for f in cells}) == 1:
                out.append(Figure("mean", sum(abs(f.value) for f in cells) / n,
                                  sum(f.precision for f in cells) / n,
                                  min(f.digits for f in cells), cells[0].percent))  # fmt: skip
    return out
