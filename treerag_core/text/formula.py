"""Formulas as people write them, parsed into something code can compute.

"365 * (average accounts payable between FY2016 and FY2017) / (FY2017 COGS + change in
inventory between FY2016 and FY2017)" is an expression whose leaves are named quantities
("accounts payable", averaged over two years), constants (365) and names defined elsewhere
(DIO in "DIO + DSO - DPO"). This module cuts such text into tokens (operators written as
signs or words: "divided by", "less", "plus"), parses it with the usual precedence, and
reads each leaf's phrase into an :class:`Operand`: what it names, over which years, and
whether it is a value, an average or a change. Nothing here reads a document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from ..errors import TreeragError
from .messages import Phrase, raised
from .numbers import years_in

# Operators as written in words, longest first (" less " is subtraction: "EBITDA less capex").
WORD_OPERATORS = (
    ("divided by", "/"),
    ("multiplied by", "*"),
    ("times", "*"),
    ("over", "/"),
    ("less", "-"),
    ("minus", "-"),
    ("plus", "+"),
)
_SIGNS = {"+": "+", "-": "-", "−": "-", "–": "-", "*": "*", "×": "*", "x": "*", "/": "/", "÷": "/"}
_TOKEN = re.compile(
    r"(?P<num>(?<![\w$])(?!(?:19|20)\d\d(?![\d.]))\d+(?:\.\d+)?(?![\w,]))"
    r"|(?P<op>\s[-−–x]\s|[+*×/÷])"
    r"|(?P<paren>[()\[\]])"
    r"|(?P<word>[^\s()\[\]+*×/÷]+)"
)
_YEAR_WORD = re.compile(r"^(?:fy|fiscal)?'?(?:19|20)\d\d$", re.I)
_AVERAGE = re.compile(r"^(?:the\s+)?(?:average|avg\.?|mean)\s+(?:of\s+)?", re.I)
_CHANGE = re.compile(r"^(?:the\s+)?(?:change|increase|decrease)\s+(?:in|of)\s+", re.I)
_PERIOD_TAIL = re.compile(
    r"\s*\b(?:between|from|for|in|at|of|as of)?\s*(?:the\s+)?(?:end of\s+)?"
    r"(?:fy|fiscal(?:\s+year)?|year)?\s*'?((?:19|20)\d\d)"
    r"(?:\s*(?:and|to|-|–|through)\s*(?:fy|fiscal(?:\s+year)?)?\s*'?((?:19|20)\d\d))?\s*",
    re.I,
)


class FormulaError(TreeragError):
    """A formula that cannot be read ("revenue / / assets", unbalanced parentheses)."""


@dataclass(frozen=True)
class Operand:
    """A quantity a formula names: ``phrase`` read in ``years`` as a value (one year), an
    average (over the years) or a change (last year less first)."""

    phrase: str
    mode: str = "value"  # "value", "average" or "change"
    years: tuple[int, ...] = ()
    note: str = ""  # a bracketed hint: "from cash flow statement"


# An expression: a Decimal constant, an Operand, a name defined elsewhere (str), or
# (operator, left, right).
Expr = Decimal | Operand | str | tuple


def tokens(text: str) -> list[tuple[str, str]]:
    """``[(kind, text)]``: "num", "op", "(", ")" and "words" (runs of phrase text; a
    bracketed note is one "note" token)."""
    spaced = f" {text} "
    for words, sign in WORD_OPERATORS:
        spaced = re.sub(rf"(?<=\s){words}(?=\s)", f" {sign} ", spaced, flags=re.I)
    out: list[tuple[str, str]] = []
    note_depth = 0
    for m in _TOKEN.finditer(spaced):
        kind = m.lastgroup or ""
        value = m.group(0).strip()
        if kind == "paren" and value == "[":
            note_depth += 1
            out.append(("note", ""))
            continue
        if kind == "paren" and value == "]":
            note_depth = max(0, note_depth - 1)
            continue
        if note_depth:
            out[-1] = ("note", f"{out[-1][1]} {value}".strip())
        elif kind == "op":
            out.append(("op", _SIGNS[value]))
        elif kind == "paren":
            out.append((value, value))
        elif kind == "num":
            out.append(("num", value))
        elif out and out[-1][0] == "words":
            out[-1] = ("words", f"{out[-1][1]} {value}")
        else:
            out.append(("words", value))
    return _join_years(out)


def _join_years(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A year range written with a dash ("FY2015 - FY2017") is words, not a subtraction;
    a parenthesised aside after words ("revenue (net sales)") stays with them."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(items):
        kind, value = items[i]
        if (
            kind == "op"
            and value == "-"
            and out
            and out[-1][0] == "words"
            and _YEAR_WORD.match(out[-1][1].split()[-1])
            and i + 1 < len(items)
            and items[i + 1][0] == "words"
            and _YEAR_WORD.match(items[i + 1][1].split()[0])
        ):
            out[-1] = ("words", f"{out[-1][1]} to {items[i + 1][1]}")
            i += 2
            continue
        if kind == "words" and out and out[-1][0] == "words":
            out[-1] = ("words", f"{out[-1][1]} {value}")
        else:
            out.append((kind, value))
        i += 1
    return out


def parse(text: str, default_years: tuple[int, ...] = ()) -> Expr:
    """The expression ``text`` writes; leaves without a year are read in ``default_years``."""
    parser = _Parser(tokens(text), default_years)
    expr = parser.expression()
    if parser.at < len(parser.items):
        raise raised(FormulaError, "error.formula_unreadable", text=text)
    return expr


@dataclass
class _Parser:
    items: list[tuple[str, str]]
    default_years: tuple[int, ...]
    at: int = 0

    def peek(self) -> tuple[str, str]:
        return self.items[self.at] if self.at < len(self.items) else ("end", "")

    def expression(self) -> Expr:
        left = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.items[self.at][1]
            self.at += 1
            left = (op, left, self.term())
        return left

    def term(self) -> Expr:
        left = self.factor()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.items[self.at][1]
            self.at += 1
            left = (op, left, self.factor())
        return left

    def factor(self) -> Expr:
        kind, value = self.peek()
        self.at += 1
        if kind == "num":
            return Decimal(value)
        if kind == "(":
            inner = self.expression()
            if self.peek()[0] != ")":
                raise raised(FormulaError, "error.formula_parenthesis")
            self.at += 1
            return self._noted(inner)
        if kind == "words":
            return self._noted(operand(value, self.default_years))
        found = value or Phrase("error.formula_its_end")
        raise raised(FormulaError, "error.formula_expected", found=found)

    def _noted(self, expr: Expr) -> Expr:
        """A bracketed note after a quantity ("[from cash flow statement]") goes with it."""
        if self.peek()[0] == "note":
            note = self.items[self.at][1]
            self.at += 1
            if isinstance(expr, Operand):
                return Operand(expr.phrase, expr.mode, expr.years, note)
        return expr


def operand(phrase: str, default_years: tuple[int, ...] = ()) -> Operand:
    """One leaf's phrase read: "average inventory between FY2018 and FY2019" is inventory
    averaged over 2018 and 2019; "FY2019 COGS" is COGS in 2019; "revenue" is revenue in the
    default years."""
    text = " ".join(phrase.split())
    mode = "value"
    if _AVERAGE.search(text):
        mode, text = "average", _AVERAGE.sub("", text)
    elif _CHANGE.search(text):
        mode, text = "change", _CHANGE.sub("", text)
    years = tuple(years_in(text))
    name = _PERIOD_TAIL.sub(" ", text) if years else text
    name = re.sub(r"\b(?:fy|fiscal(?: year)?)\b", " ", name, flags=re.I)
    name = " ".join(name.replace("'s ", " ").split()).strip(" ,.:;")
    if len(years) == 2 and mode != "value":
        years = tuple(range(min(years), max(years) + 1)) if mode == "average" else years
    years = years or default_years
    if mode == "change" and len(years) == 1:
        years = (years[0] - 1, years[0])
    if mode == "average" and len(years) == 1:
        years = (years[0] - 1, years[0])
    return Operand(name, mode, tuple(years))


def operands_in(expr: Expr) -> list[Operand]:
    """The quantities an expression reads, in the order it writes them."""
    if isinstance(expr, tuple):
        return operands_in(expr[1]) + operands_in(expr[2])
    return [expr] if isinstance(expr, Operand) else []


def names_in(expr: Expr) -> list[str]:
    """The defined names an expression refers to (leaves that are bare names)."""
    if isinstance(expr, tuple):
        return names_in(expr[1]) + names_in(expr[2])
    return [expr] if isinstance(expr, str) else []
