"""Numbers as documents print them: table cells, years, periods and units.

Tables come out of PDFs as a label followed by cells such as ``$ 5,363``, ``(370)``, ``—``
or ``24.6 %``; these helpers read such cells and the lines around a table that say what its
columns and units are (a header of years or dates, "(in millions)"). Digits, currency signs
and parentheses are the same in most languages; the few words (months, "millions") are
named constants that a caller may extend.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CURRENCY_SIGNS = "$€£¥₽₹₩"
DASHES = frozenset({"—", "–", "-", "−", "n/a", "N/A", "nm", "NM", "*"})  # an empty cell
# A number as printed in any locale: 1,234.56 (English), 1.234,56 (German, Spanish…),
# 1 234,56 with a no-break or thin space (French, Russian), 1'234.56 (Swiss), 12,5 (a
# decimal comma). A lone "1.234" stays English (one and a bit), as does "12,500".
_NUMBER = (
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"
    r"|\d{1,3}(?:\.\d{3})+,\d+|\d{1,3}(?:\.\d{3}){2,}"
    r"|\d{1,3}(?:[\u00a0\u202f\u2009]\d{3})+(?:,\d+)?"
    r"|\d{1,3}(?:['’]\d{3})+(?:\.\d+)?"
    r"|\d+,\d{1,2}(?!\d)|\d+(?:\.\d+)?"
)
# Chinese and Japanese count in ten-thousands and hundred-millions: 5万 = 50,000.
CJK_MULTIPLIERS = {"万": 1e4, "萬": 1e4, "億": 1e8, "亿": 1e8, "兆": 1e12}
_CELL = re.compile(
    r"^(?P<open>\()?(?P<minus>[-−])?(?P<cur>[$€£¥₽₹₩])?(?P<open2>\()?"
    rf"(?P<num>{_NUMBER})(?P<mult>[万萬億亿兆])?"
    r"(?P<close>\))?(?P<pct>\s?%)?(?P<cur2>\s?[€$£¥₽₹₩円元])?(?P<close2>\))?$"
)


def number_value(printed: str) -> float:
    """The value of a number printed in any of :data:`_NUMBER`'s notations."""
    digits = printed.replace("\u00a0", "").replace("\u202f", "").replace("\u2009", "")
    digits = digits.replace("'", "").replace("’", "")
    if "," in digits and ("." in digits or not re.search(r",\d{3}(?!\d)", digits)):
        if digits.rfind(",") > digits.rfind("."):  # the comma is the decimal point
            digits = digits.replace(".", "").replace(",", ".")
    if digits.count(".") > 1:  # 1.234.567: dots group thousands
        digits = digits.replace(".", "")
    return float(digits.replace(",", ""))


YEAR = re.compile(r"(?<![\d,.$])(?:FY|fiscal\s*(?:year\s*)?)?'?((?:19|20)\d\d)(?!\d|,\d)", re.I)
_ANY_YEAR = re.compile(r"(?:19|20)\d\d")
_FOOTNOTE = re.compile(r"\(\d\)|\(\w\)")
_PARENTHESES = re.compile(r"\([^)]*\)")
_NUMBER_LEFT = re.compile(r"\d[\d,.]*")
# "2022 vs. 2021", "2021 to 2020", "2019-2018": a column of changes between two periods.
_CHANGE_COLUMN = re.compile(
    r"(?:19|20)\d\d\s*(?:vs\.?|versus|compared (?:to|with)|to|-|–)\s*(?:19|20)\d\d", re.I
)
_LETTERS = re.compile(r"[^\W\d_]+")
# Years a header or a question may name: a document rarely speaks of years before 1900.
YEAR_RANGE = range(1900, 2100)
MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
).split()
_MONTH_DAY = re.compile(r"\b(?:" + "|".join(MONTHS) + r")\.?\s+\d{1,2},?\s*$", re.I)
# A month before a day or a year ("March 25, 2023", "Dec. 2022"): part of a date, so a
# question's capitalised month is neither a name of what it asks nor a word of its metric
# (the year is read apart).
DATED_MONTH = re.compile(r"\b(?:" + "|".join(MONTHS) + r")\b(?=\.?\s+\d)", re.I)
# Words that say a table's unit, and the multiplier word an answer prints after the figure.
UNIT_WORDS = {
    "thousands": "thousand",
    "thousand": "thousand",
    "millions": "million",
    "million": "million",
    "billions": "billion",
    "billion": "billion",
}
_UNIT_LINE = re.compile(
    r"(?:\(|\b)(?:in\s+|amounts\s+in\s+|dollars\s+in\s+|[$€£¥]\s*in\s+)?"
    r"(thousands|millions|billions)\b",
    re.I,
)
# The same words in the other languages tables are printed in (German, French, Spanish,
# Italian, Dutch, Portuguese, Russian): an answer prints the document's own word after the
# figure ("1.577 Mio. €"), as it prints "million" for an English table.
FOREIGN_UNIT_WORDS = (
    "tausend", "tsd.", "tsd", "mio.", "mio", "millionen", "mrd.", "mrd", "milliarden",
    "milliers", "milliards", "miles de millones", "miles de", "millones", "migliaia", "milioni",
    "miliardi", "duizenden", "miljoen", "miljard", "milhares", "milhões", "milhares de reais",
    "тыс.", "тыс", "тысяч", "тысячах", "млн", "млн.", "миллионах", "млрд", "млрд.",
    "миллиардах",
)  # fmt: skip
_FOREIGN_UNIT = re.compile(
    r"(?<![^\W\d_])("
    + "|".join(re.escape(w) for w in sorted(FOREIGN_UNIT_WORDS, key=len, reverse=True))
    + r")(?![^\W\d_])",
    re.I,
)
# Chinese and Japanese tables say their unit after 単位 / 单位: 百万円, 千元, 億円, 万元.
_CJK_UNIT = re.compile(r"[単单]\s*位\s*[:：]?\s*([千万萬百億亿]+\s*[円元]?)")
# Currency names a units line may give instead of a sign, in the languages above (whole
# words: "eur" in "(in Tsd. EUR)", not in "Europe").
CURRENCY_WORDS = {
    "$": ("usd", "dólares", "dollari", "долларов", "долл"),
    "€": ("eur", "евро"),
    "£": ("gbp", "pfund", "livres", "libras", "sterline"),
    "¥": ("yen", "jpy", "cny", "rmb"),
    "₽": ("rub", "руб", "рублей", "рублях"),
}
_CURRENCY_WORD = re.compile(
    r"(?<![^\W\d_])(" + "|".join(w for ws in CURRENCY_WORDS.values() for w in ws) + r")(?![^\W\d_])"
)
_SIGN_OF_WORD = {w: sign for sign, ws in CURRENCY_WORDS.items() for w in ws}
# A units line is short ("(in millions, except per share data)"); a sentence mentioning
# millions is not one.
MAX_UNIT_LINE_CHARS = 90


@dataclass(frozen=True)
class Cell:
    """One printed table cell: its text as printed and its value (None for a dash)."""

    text: str
    value: float | None
    negative: bool = False
    currency: str = ""
    percent: bool = False

    def shown(self, unit: str = "", currency: str = "") -> str:
        """The cell as an answer prints it: ``$1,577 million``, ``-$370 million``, ``24.6%``."""
        if self.value is None:
            return self.text
        number = self.text.strip("()$€£¥₽₹₩円元%-− ")
        sign = "-" if self.negative else ""
        if self.percent:
            return f"{sign}{number}%"
        money = self.currency or currency
        if unit and unit not in UNIT_WORDS.values():  # "1.234,5 Mio. €", "1,234 百万円"
            return f"{sign}{number} {unit}" + (f" {money}" if money else "")
        tail = f" {unit}" if unit else ""
        return f"{sign}{money}{number}{tail}"


def parse_cell(token: str) -> Cell | None:
    """A table cell from one token (``(1,577)``, ``$5,363``, ``12.5%``, ``—``), else None."""
    if token in DASHES:
        return Cell(token, None)
    m = _CELL.match(token)
    if not m:
        return None
    if bool(m.group("open") or m.group("open2")) != bool(m.group("close") or m.group("close2")):
        return None  # "(1" or "3)" is a footnote or a list marker, not a cell
    value = number_value(m.group("num")) * CJK_MULTIPLIERS.get(m.group("mult") or "", 1)
    negative = bool(m.group("open") or m.group("open2") or m.group("minus"))
    currency = m.group("cur") or (m.group("cur2") or "").strip()
    return Cell(token, -value if negative else value, negative, currency, bool(m.group("pct")))


def years_in(text: str) -> list[int]:
    """Four-digit years (1900–2099) named in ``text``, in order (``FY2019``, ``fiscal 2023``)."""
    return [int(y) for y in YEAR.findall(text) if int(y) in YEAR_RANGE]


def is_bare_year(cell: Cell) -> bool:
    """A cell that is a year (``2024``), not an amount (``2,024`` or ``$2024``)."""
    return (
        cell.value is not None
        and not cell.currency
        and not cell.negative
        and not cell.percent
        and len(cell.text) == 4
        and cell.text.isdigit()
        and int(cell.text) in YEAR_RANGE
    )


def unit_of(line: str) -> str | None:
    """``"million"`` for a units line such as "(in millions, except per share data)"; in
    another language the word as printed ("(in Mio. EUR)": ``Mio.``; "（単位：百万円）":
    ``百万円``)."""
    if len(line) > MAX_UNIT_LINE_CHARS:
        return None
    m = _UNIT_LINE.search(line)
    if m:
        return UNIT_WORDS[m.group(1).lower()]
    m = _FOREIGN_UNIT.search(line)
    if m:
        return m.group(1)
    m = _CJK_UNIT.search(line)
    return m.group(1).replace(" ", "") if m else None


def currency_of(line: str) -> str:
    """The currency sign a units line names ("$ in millions", "(dollars in millions)",
    "(en milliers d'euros)"); none when its unit carries it (百万円)."""
    if _CJK_UNIT.search(line):
        return ""
    for sign in CURRENCY_SIGNS:
        if sign in line:
            return sign
    lowered = line.lower()
    if "dollar" in lowered:
        return "$"
    if "euro" in lowered:
        return "€"
    m = _CURRENCY_WORD.search(lowered)
    return _SIGN_OF_WORD[m.group(1)] if m else ""


def header_cells(line: str) -> list[tuple[str, int | None]] | None:
    """The columns of a header line of periods: ``[(cell text, year), …]``, else None.

    "(Millions) 2018 2017 2016", "Year Ended June 30, 2016 2015 2014" and "February 2, 2019
    February 3, 2018" are headers; a line with amounts other than years, or a sentence, is
    not. A month and day before a year stay with it ("February 2, 2019"); a change column
    ("2022 vs. 2021") is one column whose year is None. Words in parentheses (the units:
    "(Millions, except per share amounts)") do not count against a header.
    """
    if not _ANY_YEAR.search(line):
        return None
    cleaned = _FOOTNOTE.sub(" ", line)  # footnote markers: "2017 (1)"
    spans: list[tuple[int, int, str, int | None]] = []
    taken = [False] * len(cleaned)
    for m in _CHANGE_COLUMN.finditer(cleaned):
        spans.append((m.start(), m.end(), " ".join(m.group(0).split()), None))
        taken[m.start() : m.end()] = [True] * (m.end() - m.start())
    for m in YEAR.finditer(cleaned):
        if not taken[m.start()] and int(m.group(1)) in YEAR_RANGE:
            spans.append((m.start(), m.end(), m.group(1), int(m.group(1))))
    if not any(year for *_, year in spans):
        return None
    spans.sort()
    rest = _PARENTHESES.sub(" ", _CHANGE_COLUMN.sub(" ", YEAR.sub(" ", cleaned)))
    # Anything numeric left must be a day of a month ("June 30,").
    for m in _NUMBER_LEFT.finditer(rest):
        before = rest[: m.start()].split()[-1:] or [""]
        if before[0].lower().strip(".,") not in MONTHS:
            return None
    words = _LETTERS.findall(rest)
    if len(words) > 8 or (len(spans) == 1 and len(words) > 4):
        return None  # a sentence that mentions years, not a header
    cells: list[tuple[str, int | None]] = []
    end = 0
    for start, stop, text, year in spans:
        # "February 2, 2019" keeps its month and day; "(Millions) 2018" is just 2018
        day = _MONTH_DAY.search(cleaned[end:start]) if year else None
        cells.append((f"{day.group(0).strip()} {text}" if day else text, year))
        end = stop
    return cells
