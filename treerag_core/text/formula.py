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
from collections.abc import Collection
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


# Inside a row label the document prints, operator signs and words are the label's own
# ("Less valuation allowance", "Other expense/(income)", "Average price paid per share"):
# they are masked with private-use characters while the text is cut, then given back.
_SIGNS_IN_LABELS = "/+*×÷()"
_MASKING = str.maketrans(_SIGNS_IN_LABELS, "\ue000\ue001\ue002\ue003\ue004\ue006\ue007")
_UNMASKING = {v: k for k, v in _MASKING.items()}
_KEPT = "\ue005"  # after an operator word or a spaced dash that belongs to a label
_PIECE = re.compile(r"[^\s()\[\]]+")
_LETTER = re.compile(r"[^\W\d_]")
_OPERATOR_PIECES = frozenset(w for w, _ in WORD_OPERATORS if " " not in w) | {"-", "−", "–", "x"}
LABEL_WORDS = 12  # the longest label looked for in a formula's text


def label_key(text: str) -> str:
    """How a row label is compared with a formula's text: its words, case, spacing and
    brackets aside ("Other expense/(income)" is "other expense/ income")."""
    return " ".join(_PIECE.findall(text.lower()))


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


def _masked(text: str, labels: Collection[str]) -> str:
    """``text`` with the operators inside each printed label it holds masked (the longest
    label first, at each place)."""
    pieces = list(_PIECE.finditer(text))
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(pieces):
        found = _label_at(text, pieces, i, labels)
        if found is not None:
            spans.append(found[:2])
            i = found[2]
        else:
            i += 1
    for start, end in reversed(spans):
        inside = [
            w + _KEPT if w.lower() in _OPERATOR_PIECES else w.translate(_MASKING)
            for w in text[start:end].split(" ")
        ]
        text = f"{text[:start]}{' '.join(inside)}{text[end:]}"
    return text


def _label_at(
    text: str, pieces: list[re.Match[str]], i: int, labels: Collection[str]
) -> tuple[int, int, int] | None:
    """The longest label of words holding an operator that starts at piece ``i``: its
    span and the piece after it (a row labelled "+" alone is no label here)."""
    for j in range(min(len(pieces), i + LABEL_WORDS), i, -1):
        words = [m.group() for m in pieces[i:j]]
        start, end = _bracketed(text, pieces[i].start(), pieces[j - 1].end())
        named = [w for w in words if not _operator(w) and _LETTER.search(w)]
        holds = len(named) < len(words) or any(c in text[start:end] for c in _SIGNS_IN_LABELS)
        if named and holds and label_key(" ".join(words)) in labels:
            if _alone(text, start, end, words):
                return start, end, j
    return None


def _operator(word: str) -> bool:
    return word.lower() in _OPERATOR_PIECES or word[0] in "+*/×÷"


def _alone(text: str, start: int, end: int, words: list[str]) -> bool:
    """A label opening with an operator ("Less valuation allowance", a reconciliation's
    "+ Depreciation and amortization") is the label only where no quantity stands before it
    ("operating income + depreciation and amortization" adds); one ending with an operator,
    where none stands after it."""
    before, after = text[:start].rstrip(), text[end:].lstrip()
    if _operator(words[0]) and before and not before.endswith(("(", "[")):
        return False
    return not (_operator(words[-1]) and after and not after.startswith((")", "]")))


def _bracketed(text: str, start: int, end: int) -> tuple[int, int]:
    """A label's span with the brackets it opens or closes at its ends ("(Increase)
    decrease", "Tax provision/(benefit)")."""

    def unclosed() -> int:
        return text.count("(", start, end) - text.count(")", start, end)

    while end < len(text) and text[end] == ")" and unclosed() > 0:
        end += 1
    while start and text[start - 1] == "(" and unclosed() < 0:
        start -= 1
    return start, end


def _unmasked(value: str) -> str:
    return value.replace(_KEPT, "").translate(_UNMASKING)


def tokens(text: str, labels: Collection[str] = ()) -> list[tuple[str, str]]:
    """``[(kind, text)]``: "num", "op", "(", ")" and "words" (runs of phrase text; a
    bracketed note is one "note" token). ``labels``: the row labels the document prints
    (:func:`label_key`), whose operator words and signs are words, not operators."""
    spaced = f" {_masked(text, labels) if labels else text} "
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
    if labels:
        out = [(kind, _unmasked(value)) for kind, value in out]
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


def parse(text: str, default_years: tuple[int, ...] = (), labels: Collection[str] = ()) -> Expr:
    """The expression ``text`` writes; leaves without a year are read in ``default_years``;
    ``labels``: the row labels the document prints, each read as one quantity."""
    parser = _Parser(tokens(text, labels), default_years, labels)
    expr = parser.expression()
    if parser.at < len(parser.items):
        raise raised(FormulaError, "error.formula_unreadable", text=text)
    return expr


@dataclass
class _Parser:
    items: list[tuple[str, str]]
    default_years: tuple[int, ...]
    labels: Collection[str] = ()
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
            return self._noted(operand(value, self.default_years, self.labels))
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


def operand(
    phrase: str, default_years: tuple[int, ...] = (), labels: Collection[str] = ()
) -> Operand:
    """One leaf's phrase read: "average inventory between FY2018 and FY2019" is inventory
    averaged over 2018 and 2019; "FY2019 COGS" is COGS in 2019; "revenue" is revenue in the
    default years. A row the document prints as "Average price paid per share" (one of
    ``labels``) is that row's value, not an average."""
    text = " ".join(phrase.split())
    mode = "value"
    if _AVERAGE.search(text) and label_key(_PERIOD_TAIL.sub(" ", text)) not in labels:
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
