"""The named metrics: what "operating margin" or "days payable outstanding" means, in one
table, like the format table.

A question naming a metric without defining it is computed from the formula here; a
question that defines it ("DPO is defined as: …") is computed from its own definition.
Formulas are written as :mod:`.formula` reads them: each leaf a quantity a statement
prints, "average X" over the period and the year before it, "change in X" from the year
before. ``kind`` says how the result is printed: a percentage, a ratio, days or an amount.
Extend the table for other domains; names are matched as whole words, longest first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from .formula import operands_in, parse


@dataclass(frozen=True)
class Metric:
    """A named metric: the names it goes by, its formula and how its result is printed."""

    names: tuple[str, ...]
    formula: str
    kind: str  # "percent", "ratio", "days" or "amount"


# One metric a line: (its names, its formula, how its result is printed).
# fmt: off
METRICS: tuple[Metric, ...] = tuple(Metric(names, formula, kind) for names, formula, kind in (
    (("gross margin", "gross profit margin"), "(revenue - cost of goods sold) / revenue", "percent"),
    (("operating margin", "operating profit margin"), "operating income / revenue", "percent"),
    (("net profit margin", "net margin", "net income margin", "profit margin"), "net income / revenue", "percent"),
    (("ebitda margin", "ebitda % margin"), "ebitda / revenue", "percent"),
    (("ebitda",), "operating income + depreciation and amortization", "amount"),
    (("fixed asset turnover", "fixed assets turnover", "pp&e turnover"), "revenue / average net property, plant and equipment", "ratio"),
    (("asset turnover", "total asset turnover"), "revenue / average total assets", "ratio"),
    (("inventory turnover",), "cost of goods sold / average inventory", "ratio"),
    (("current ratio", "working capital ratio"), "total current assets / total current liabilities", "ratio"),
    (("quick ratio", "acid test ratio"), "(cash and cash equivalents + short-term investments + accounts receivable) / total current liabilities", "ratio"),
    (("net working capital", "working capital"), "total current assets - total current liabilities", "amount"),
    (("days sales outstanding", "dso"), "365 * average accounts receivable / revenue", "days"),
    (("days payable outstanding", "dpo"), "365 * average accounts payable / (cost of goods sold + change in inventory)", "days"),
    (("days inventory outstanding", "dio", "days in inventory"), "365 * average inventory / cost of goods sold", "days"),
    (("cash conversion cycle", "ccc"), "dio + dso - dpo", "days"),
    (("free cash flow", "fcf"), "cash from operations - capital expenditures", "amount"),
    (("capex intensity", "capital intensity", "capex as a % of revenue"), "capital expenditures / revenue", "percent"),
    (("effective tax rate",), "provision for income taxes / income before income taxes", "percent"),
    (("dividend payout ratio", "payout ratio"), "dividends paid / net income", "ratio"),
    (("retention ratio",), "1 - dividends paid / net income", "ratio"),
    (("return on assets", "roa"), "net income / average total assets", "ratio"),
    (("return on equity", "roe"), "net income / average total shareholders equity", "ratio"),
    (("debt to equity", "debt-to-equity", "debt/equity"), "total debt / total shareholders equity", "ratio"),
    (("interest coverage",), "operating income / interest expense", "ratio"),
))
# fmt: on


def metric_key(metric: Metric) -> str:
    """The catalogue key of a metric's name as a headline says it: ``metric.gross_margin``
    (English: its first name; other languages: their own)."""
    return "metric." + re.sub(r"[^a-z0-9]+", "_", metric.names[0]).strip("_")


# Quantities a statement prints as outflows in parentheses, which formulas mean as amounts
# ("free cash flow = cash from operations - capex": capex is 1,577, not -1,577).
OUTFLOWS = re.compile(
    r"capex|capital expenditure|purchases? of property|dividends?|repurchases?|buybacks?|"
    r"provision for income taxes|"  # printed "(6,523)" where expenses are in parentheses
    # the expenses the margins and coverage subtract or divide by: "(700)" is a cost of 700
    # (kept negative, a gross margin on sales of 1,200 read 158.3%)
    r"cost of (?:goods sold|sales|revenues?|products sold)|interest expense",
    re.I,
)
# The statement a quantity is read from when the question does not say: balance-sheet items
# at a date, flows over a year from the income statement or the cash flow statement.
STATEMENT_OF = (
    (
        re.compile(
            r"inventor|payable|receivable|assets|liabilit|equity|property|pp&?e|ppne|cash and "
            r"cash equivalents|investments|debt|borrowings",
            re.I,
        ),
        "balance sheet",
    ),
    (
        re.compile(
            r"capex|capital expenditure|cash from operations|operating activities|dividends"
            r"|depreciation|amortization|d&a",
            re.I,
        ),
        "cash flow statement",
    ),
    (
        re.compile(r"revenue|sales|cost|income|earnings|expense|profit|taxes", re.I),
        "income statement",
    ),
)
# Words a question adds to a quantity's name that no statement prints ("unadjusted
# operating income", "reported revenue").
QUALIFIERS = re.compile(
    r"\b(?:unadjusted|reported|gaap|total amount of|amount of|the|year[- ]end|annual|"
    r"total cash)\b",
    re.I,
)
# Abbreviations a question uses for what statements print in full.
ABBREVIATIONS = {
    "cogs": "cost of goods sold",
    "ppne": "property, plant and equipment net",
    "pp&e": "property, plant and equipment",
    "net pp&e": "property, plant and equipment net",
    "d&a": "depreciation and amortization",
    "capex": "capital expenditures",
    "sg&a": "selling, general and administrative",
    "r&d": "research and development",
}


def _named(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w&]){re.escape(name)}(?![\w&])")


# Compiled once: every question, and every operand of a computation, tries them all.
_METRIC_NAMES = [(metric, name, _named(name)) for metric in METRICS for name in metric.names]
_ABBREVIATED = [(_named(short), full) for short, full in ABBREVIATIONS.items()]


def find_metric(text: str) -> tuple[Metric, str] | None:
    """The named metric ``text`` mentions (the longest name wins), and the name found."""
    lowered = f" {text.lower()} "
    best: tuple[Metric, str] | None = None
    for metric, name, rx in _METRIC_NAMES:
        if rx.search(lowered) and (best is None or len(name) > len(best[1])):
            best = (metric, name)
    return best


def plain_name(phrase: str) -> str:
    """A quantity's name as statements print it: qualifiers out, abbreviations spelled out."""
    text = QUALIFIERS.sub(" ", phrase)
    text = " ".join(text.split()).strip(" ,.:;")
    lowered = text.lower()
    for rx, full in _ABBREVIATED:
        lowered = rx.sub(full, lowered)
    return lowered


def statement_for(phrase: str, note: str = "") -> str:
    """The statement a quantity is read from: the one its note or phrase names, else the
    usual one for its kind."""
    for hint in ("cash flow", "balance sheet", "income statement"):
        if hint in f"{note} {phrase}".lower():
            return "cash flow statement" if hint == "cash flow" else hint
    return next((name for rx, name in STATEMENT_OF if rx.search(phrase)), "")


def formula_words(query: str) -> str:
    """The line items the formula of the metric ``query`` names draws on, as statements
    print them ("quick ratio" → "cash and cash equivalents short-term investments accounts
    receivable total current liabilities"); "" when it names none. Why: a question asks for
    a metric by its name, which no statement prints, while the rows it is computed from are
    what the document holds; read with the question, they bring the statements that print
    them among the sections read. A metric built of other metrics (the cash conversion
    cycle) gives their line items."""
    found = find_metric(query)
    if found is None or found[1].isalpha() and len(found[1]) <= 4 and found[1].upper() not in query:
        return ""  # "dio" in "¿Qué dio…?" is no DIO: initials count written in capitals
    words: list[str] = []
    for phrase in _operands(found[0].formula):
        inner = find_metric(phrase)
        nested = inner is not None and inner[1] == phrase.lower()  # "dio" in "dio + dso - dpo"
        words += _operands(inner[0].formula) if inner and nested else [phrase]
    return " ".join(dict.fromkeys(plain_name(w) for w in words))


@cache  # one of the table's two dozen formulas, read on every question naming its metric
def _operands(formula: str) -> tuple[str, ...]:
    return tuple(operand.phrase for operand in operands_in(parse(formula)))
