"""Computing what a question asks from cells of the document's tables, with the working.

An :class:`.asks.Ask` is evaluated with :class:`decimal.Decimal` (no binary rounding): each
leaf of its formula is found as a cell (:mod:`.operands`), averages and changes over years
are taken, names the question defines ("DIO") or the metrics table knows ("EBITDA") are
computed from their own formulas, and every step is written down as it was done, so the
answer can show ``24.26 = revenue 6,489 / average PP&E ((253 + 282) / 2)`` and cite each
cell. A cell no table prints is named, not guessed; a division by zero or a sum of an
amount and a percentage is reported as such, never turned into a number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext

from ...text.formula import Expr, FormulaError, Operand, parse
from ...text.formula import operand as read_operand
from ...text.messages import Phrase, message, raised
from ...text.metrics import find_metric, plain_name
from .asks import Ask
from .operands import UNIT_SIZE, Found, TableIndex

HUNDRED = Decimal(100)
# The formula :mod:`.asks` writes for a ratio or a share of two quantities the question names.
PAIR_FORMULA = re.compile(r"^\([^()]+\) / \([^()]+\)$")
# Default decimals when the question asks for none, by the kind of result.
DECIMALS = {"percent": 1, "growth": 1, "cagr": 1, "ratio": 2, "days": 2, "change": 0, "amount": 0}
MAX_DEPTH = 6  # names defined by names: "CCC = DIO + DSO - DPO", and no deeper loops


@dataclass
class Value:
    """A step's result: its amount (in units for money), whether it is money, its working."""

    amount: Decimal
    money: bool
    text: str
    # money printed with no unit ("$228,354" in a table whose units line was not read): its
    # scale is unknown, so it is never combined with amounts in millions
    unscaled: bool = False


@dataclass
class Computation:
    """What was computed, from which cells, and what went wrong."""

    ask: Ask
    result: Decimal | None = None
    money: bool = False
    working: str = ""
    lines: list[str] = field(default_factory=list)  # sub-results: "DIO = 31.23 = …"
    cells: list[Found] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    problem: str = ""
    unit: str = ""
    currency: str = ""

    @property
    def complete(self) -> bool:
        return self.result is not None and not self.missing and not self.problem


def compute(ask: Ask, index: TableIndex, language: str | None = None) -> Computation:
    """``ask`` evaluated over the tables of ``index``'s document; the working's words
    ("average X", "change in X") in ``language`` (the answer's; English by default)."""
    run = _Run(ask, index, Computation(ask), language)
    out = run.out
    with localcontext() as ctx:
        ctx.prec = 28
        try:
            values = [run.formula(ask.formula, (year,), asked=True) for year in _periods(ask)]
            out.result, out.money, out.working = _frame(ask, values)
        except FormulaError as exc:
            out.problem = said_later(exc)
        except _Stop as stop:  # the formula's own stop is kept already; the framing's here
            out.problem = out.problem or stop.reason
    found = [c for c in out.cells if c.unit or c.currency]
    out.unit = found[0].unit if found else ""
    out.currency = found[0].currency if found else ""
    return out


def _periods(ask: Ask) -> tuple[int, ...]:
    if ask.kind in ("growth", "change", "cagr") or ask.average:
        return ask.years
    return ask.years[-1:]


def _frame(ask: Ask, values: list[Value | None]) -> tuple[Decimal | None, bool, str]:
    """The asked result from the formula's value in each period: itself, their average,
    their change, growth or CAGR."""
    if any(v is None for v in values):
        return None, False, ""
    vals = [v for v in values if v is not None]
    money = vals[0].money
    if money and len({v.unscaled for v in vals}) > 1:
        raise _Stop.because("computed.problem_units", left=vals[-1].text, right=vals[0].text)
    if ask.average:
        total = sum((v.amount for v in vals), Decimal(0))
        parts = " + ".join(_bare(v, ask) for v in vals)
        return total / len(vals), money, f"({parts}) / {len(vals)}"
    if ask.kind in ("growth", "change", "cagr"):
        first, last = vals[0], vals[-1]
        if ask.kind == "change":
            return last.amount - first.amount, money, f"{last.text} − {_wrap(first.text, '-')}"
        if first.amount == 0:
            raise _Stop.because("computed.problem_zero_base", year=ask.years[0])
        if ask.kind == "growth":
            rate = (last.amount - first.amount) / abs(first.amount)
            below = _wrap(first.text, "/", right=True)
            return rate, False, f"({last.text} − {_wrap(first.text, '-')}) / {below}"
        span = ask.years[-1] - ask.years[0]
        if first.amount < 0 or last.amount < 0 or span <= 0:
            raise _Stop.because("computed.problem_cagr")
        rate = (last.amount / first.amount) ** (Decimal(1) / Decimal(span)) - 1
        return rate, False, f"({last.text} / {_wrap(first.text, '/', right=True)})^(1/{span}) − 1"
    return vals[0].amount, money, vals[0].text


def _bare(value: Value, ask: Ask) -> str:
    return _wrap(value.text, "/")


def said_later(exc: FormulaError) -> str:
    """A formula's refusal as a problem: English text that a note says again in the
    answer's language (a refusal raised without a key stays as it is)."""
    return Phrase(exc.key, **exc.values) if exc.key else str(exc)


class _Stop(Exception):
    """The computation cannot go on (the reason is in the run's ``problem``)."""

    reason = ""

    @classmethod
    def because(cls, key: str, /, **values: object) -> _Stop:
        """A stop whose reason is the catalogue's ``key`` (English text, said again in
        the answer's language inside its note)."""
        reason = Phrase(key, **values)
        stop = cls(reason)
        stop.reason = reason
        return stop


@dataclass
class _Run:
    ask: Ask
    index: TableIndex
    out: Computation
    language: str | None = None  # the working's words
    depth: int = 0
    # The cell each quantity was first read from: its other periods are read along the same
    # row where it prints them (a change or growth is read within one row, as an average is).
    first: dict[str, Found] = field(default_factory=dict)

    @property
    def pair(self) -> bool:
        """The question names two quantities, one over the other ("the ratio of A to B", "A
        as a percentage of B"): the second is read from the first's table where it prints it."""
        return bool(PAIR_FORMULA.match(self.ask.formula))

    def formula(self, text: str, years: tuple[int, ...], asked: bool = False) -> Value | None:
        """``text`` evaluated in ``years``; ``asked``: the question's own words, which name
        one row when they read as no formula (a row labelled with an operator's word, "Less
        accumulated amortization"; "losses/(gains)" cut at its slash)."""
        try:
            expr = parse(text, years, self.index.labels)
        except FormulaError:
            if not asked:
                raise
            expr = read_operand(text.strip(" +-−–*/×÷"), years, self.index.labels)
        try:
            return self.expr(expr)
        except _Stop as stop:
            self.out.problem = self.out.problem or stop.reason
            raise

    def expr(self, expr: Expr) -> Value | None:
        if isinstance(expr, Decimal):
            return Value(expr, False, number(expr))
        if isinstance(expr, Operand):
            return self.operand(expr)
        if isinstance(expr, str):
            raise raised(FormulaError, "error.formula_undefined", name=expr)
        op, left_expr, right_expr = expr
        left, right = self.expr(left_expr), self.expr(right_expr)
        if left is None or right is None:
            return None
        return combine(op, left, right)

    def operand(self, operand: Operand) -> Value | None:
        named = self.named(operand)
        if named is not None:
            return named
        cells: list[Found] = []
        every = tuple(sorted({*operand.years, *_periods(self.ask)}))
        tables = tuple(dict.fromkeys(c.table for c in self.out.cells)) if self.pair else ()
        for year in operand.years:
            prefer = self.first.get(operand.phrase)
            cell = self.index.cell(operand.phrase, year, operand.note, prefer, every, tables)
            if cell is None:
                self.out.missing.append(f"{plain_name(operand.phrase)}, {year}")
                continue
            self.first.setdefault(operand.phrase, cell)
            cells.append(cell)
        self.out.cells.extend(c for c in cells if c not in self.out.cells)
        if len(cells) < len(operand.years) or not cells:
            return None
        if len({c.percent for c in cells}) > 1:
            raise _Stop.because("computed.problem_mixed", phrase=operand.phrase)
        money = not cells[0].percent
        vals = [c.base if money else c.value for c in cells]
        shown = [number(c.value) for c in cells]
        name = plain_name(operand.phrase)
        unscaled = money and not cells[0].unit
        if money and any(bool(c.unit) == unscaled for c in cells):
            raise _Stop.because("computed.problem_units", left=f"{name} {shown[0]}",
                                right=f"{name} {shown[-1]}")  # fmt: skip
        if operand.mode == "average":
            working = f"({' + '.join(shown)}) / {len(vals)}"
            return Value(sum(vals, Decimal(0)) / len(vals), money,
                         self.said("average", name=name, working=working), unscaled)  # fmt: skip
        if operand.mode == "change":
            working = f"{shown[-1]} − {shown[0]}"
            working = self.said("change", name=name, working=working)
            return Value(vals[-1] - vals[0], money, working, unscaled)
        return Value(vals[0], money, f"{name} {shown[0]}", unscaled)

    def said(self, kind: str, **values: object) -> str:
        """The working's words for an averaged or changed quantity, in the run's language."""
        return message(f"computed.working_{kind}", self.language, **values)

    def named(self, operand: Operand) -> Value | None:
        """A name the question defines, or the metrics table knows, computed from its formula."""
        key = " ".join(operand.phrase.lower().split())
        formula = self.ask.definitions.get(key) or self.ask.definitions.get(plain_name(key))
        label = operand.phrase
        if formula is None:
            known = find_metric(plain_name(key))
            if known is None or known[1] != plain_name(key) or known[0].kind == "percent":
                return None
            formula, label = known[0].formula, known[1]
        if self.depth >= MAX_DEPTH:
            raise _Stop.because("computed.problem_circular", phrase=operand.phrase)
        self.depth += 1
        try:
            inner = self.formula(formula, operand.years)
        finally:
            self.depth -= 1
        if inner is None:
            return None
        shown = number(
            _rounded(inner.amount / UNIT_SIZE["million"] if inner.money else inner.amount)
        )
        line = f"{label.upper() if len(label) <= 5 else label} = {inner.text}"
        if line not in self.out.lines:
            self.out.lines.append(line)
        name = label.upper() if len(label) <= 5 else label
        return Value(inner.amount, inner.money, f"{name} {shown}", inner.unscaled)


def evaluate(expr: Expr, leaf: Callable[[Operand], Value]) -> tuple[Value | None, str]:
    """``expr`` computed with each quantity's value given by ``leaf`` (a model's named
    cells): the value with its working, or None and why it cannot be computed (a name
    ``leaf`` does not know raises :class:`FormulaError`, reported the same way)."""

    def walk(node: Expr) -> Value:
        if isinstance(node, Decimal):
            return Value(node, False, number(node))
        if isinstance(node, Operand):
            return leaf(node)
        if isinstance(node, str):
            raise raised(FormulaError, "error.formula_undefined", name=node)
        op, left, right = node
        return combine(op, walk(left), walk(right))

    with localcontext() as ctx:
        ctx.prec = 28
        try:
            return walk(expr), ""
        except FormulaError as exc:
            return None, said_later(exc)
        except _Stop as stop:
            return None, stop.reason


def combine(op: str, left: Value, right: Value) -> Value:
    """``left op right``, with what kind of value the result is, or why it cannot be."""
    left_text = _wrap(left.text, op) if op in "*/" else left.text
    text = f"{left_text} {_SIGN[op]} {_wrap(right.text, op, right=True)}"
    if left.money and right.money and left.unscaled != right.unscaled:
        raise _Stop.because("computed.problem_units", left=left.text, right=right.text)
    unscaled = left.unscaled if left.money else right.unscaled
    if op in "+-":
        if left.money != right.money and not _constant(left) and not _constant(right):
            raise _Stop.because("computed.problem_units", left=left.text, right=right.text)
        amount = left.amount + right.amount if op == "+" else left.amount - right.amount
        return Value(amount, left.money or right.money, text, unscaled)
    if op == "*":
        return Value(left.amount * right.amount, left.money != right.money, text, unscaled)
    try:
        if right.amount == 0:
            raise DivisionByZero
        amount = left.amount / right.amount
    except (DivisionByZero, InvalidOperation):
        raise _Stop.because("computed.problem_zero_division", right=right.text) from None
    return Value(amount, left.money and not right.money, text, left.unscaled)


_SIGN = {"+": "+", "-": "−", "*": "×", "/": "/"}


def _wrap(text: str, op: str, right: bool = False) -> str:
    """A sum or difference inside a product, quotient or difference keeps its parentheses,
    and so does a product or quotient divided by (``a / ((b + c) / 2)``)."""
    depth, top, product = 0, False, False
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in "+−" and text[i - 1 : i] == " ":
            top = True
        if depth == 0 and ch in "/×" and text[i - 1 : i] == " ":
            product = True
    return f"({text})" if (op in "-/*" and top) or (right and op == "/" and product) else text


def _constant(value: Value) -> bool:
    return " " not in value.text and not value.money


def _rounded(value: Decimal, places: int = 2) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-places))


def number(value: Decimal, places: int | None = None) -> str:
    """``6489`` → ``6,489``; ``0.0427`` → ``0.0427``; with ``places``, rounded half up."""
    if places is not None:
        value = value.quantize(Decimal(1).scaleb(-places), rounding="ROUND_HALF_UP")
    text = f"{value:,f}"
    if places is None and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text
