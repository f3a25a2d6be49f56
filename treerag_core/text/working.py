"""A figure shown with its working: ``0.68 = total current assets 7,101 / total current
liabilities 10,420``.

An answer that computes a figure (the offline engine's computed answer, or a model showing
its arithmetic) prints the result, an equals sign and the arithmetic on the figures it
used. The result itself is printed nowhere in the document, but it is supported when the
arithmetic gives it and every figure the arithmetic uses is in the document. This module
reads such a working: the words naming each figure are skipped, the numbers, operators and
parentheses kept, and the expression evaluated as an interval (a figure printed with
decimals may be rounded: it stands for half a unit of its last decimal either way; a whole
number is a table's cell or a constant, taken as printed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .figures import Figure, figures_in

# The shown result's scale against the arithmetic's: as computed, as a percentage of a
# ratio (30.8% = 0.308), or a table's amount read in thousands, millions or billions.
RESULT_SCALES = (1.0, 1e3, 1e6, 1e9)
PERCENT_SCALES = (1.0, 100.0)
_TOKEN = re.compile(
    r"(?P<word>[^\W\d_][\w&'’.-]*)"
    r"|(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?P<pct>\s?%)?"
    r"|(?P<op>[-+−–×*/÷^()])|(?P<skip>[\s$€£¥,:]+)|(?P<other>.)"
)
_OPS = {"−": "-", "–": "-", "×": "*", "÷": "/"}
_EQUALS = re.compile(r"\s[=≈]\s")


@dataclass(frozen=True)
class Worked:
    """A result shown with its working, and the figures the working uses."""

    result: Figure
    operands: list[Figure]


def workings(text: str) -> list[Worked]:
    """Each ``figure = arithmetic`` (or ``arithmetic = figure``) in ``text`` whose
    arithmetic gives the figure (within the rounding of both). A working that does not
    parse or does not give it is not one."""
    return [w for w, holds in shown_workings(text) if holds]


def contradicted(text: str) -> list[Figure]:
    """The results ``text`` shows with an arithmetic that parses but does not give them
    ("2.49x = 3,070 / 1,361"): a computation stated wrongly, whatever else prints 2.49."""
    shown = shown_workings(text)
    right = {w.result.start for w, holds in shown if holds}
    return [w.result for w, holds in shown if not holds and w.result.start not in right]


@lru_cache(maxsize=256)
def shown_workings(text: str) -> tuple[tuple[Worked, bool], ...]:
    """Each result shown beside an arithmetic that parses, either side of an equals sign,
    and whether the arithmetic gives it. Remembered: the support check asks for a
    sentence's right workings and its wrong ones in two places."""
    out = []
    signs = list(_EQUALS.finditer(text))
    for at, eq in enumerate(signs):
        before = [f for f in figures_in(text[: eq.start()]) if not f.year]
        end = signs[at + 1].start() if at + 1 < len(signs) else len(text)
        if before and before[-1].end >= eq.start() - 12:  # "DIO = 365 × …": no result
            shown = _shown(before[-1], text, eq.end(), end)
            out += [shown] if shown else []
        right = text[eq.end() : end]
        after = [f for f in figures_in(right) if not f.year]
        # "… 96,334 / 87,812 = 1.10": a figure after the sign, arithmetic before it
        if after and evaluate(right.split("[", 1)[0].rstrip(" .;")) is None:
            start = signs[at - 1].end() if at else 0
            shown = _shown(_shifted(after[0], eq.end()), text, start, eq.start())
            out += [shown] if shown else []
    return tuple(out)


def _shown(result: Figure, text: str, start: int, end: int) -> tuple[Worked, bool] | None:
    """The working in ``text[start:end]`` beside ``result``, if it is arithmetic."""
    working = text[start:end]
    if result.start >= end and "]" in working:  # after a citation marker: from it on
        cut = working.rindex("]") + 1
        working, start = working[cut:], start + cut
    working = working.split("[", 1)[0]  # a citation marker ends the working
    value = evaluate(working.rstrip(" .;"))
    if value is None:
        return None
    operands = [_shifted(f, start) for f in figures_in(working) if not f.year]
    return Worked(result, operands), _agrees(result, value)


def _shifted(figure: Figure, offset: int) -> Figure:
    return Figure(figure.text, figure.value, figure.precision, figure.digits, figure.percent,
                  figure.year, figure.start + offset, figure.end + offset)  # fmt: skip


def _agrees(result: Figure, value: tuple[float, float]) -> bool:
    low, high = value
    scales = PERCENT_SCALES if result.percent else RESULT_SCALES
    target = abs(result.value)
    for scale in scales:
        lo, hi = sorted((abs(low * scale), abs(high * scale)))
        if low * high < 0:
            lo = 0.0
        if lo - result.precision <= target <= hi + result.precision:
            return True
    return False


def evaluate(working: str) -> tuple[float, float] | None:
    """The interval the arithmetic in ``working`` gives (words skipped), or None when it
    is not arithmetic: no operator, two numbers side by side, an unmatched parenthesis."""
    tokens: list[tuple[str, tuple[float, float] | None]] = []
    for m in _TOKEN.finditer(working):
        if m.group("other"):
            return None
        if m.group("num"):
            tokens.append(("n", _interval(m.group("num"), bool(m.group("pct")))))
        elif m.group("op"):
            tokens.append((_OPS.get(m.group("op"), m.group("op")), None))
    if not any(kind in "+-*/^" for kind, _ in tokens):
        return None
    parser = _Parser(tokens)
    try:
        value = parser.sum()
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return value if parser.at == len(tokens) else None


def _interval(number: str, percent: bool) -> tuple[float, float]:
    value = float(number.replace(",", ""))
    half = 0.5 * 10 ** -len(number.split(".")[1]) if "." in number else 0.0
    scale = 0.01 if percent else 1.0
    return ((value - half) * scale, (value + half) * scale)


class _Parser:
    """Sums of products of powers of numbers or parenthesised sums, on intervals."""

    def __init__(self, tokens: list[tuple[str, tuple[float, float] | None]]) -> None:
        self.tokens, self.at = tokens, 0

    def _peek(self) -> str:
        return self.tokens[self.at][0] if self.at < len(self.tokens) else ""

    def sum(self) -> tuple[float, float]:
        value = self.product()
        while self._peek() in ("+", "-"):
            op = self._take()
            right = self.product()
            value = _add(value, right) if op == "+" else _add(value, (-right[1], -right[0]))
        return value

    def product(self) -> tuple[float, float]:
        value = self.power()
        while self._peek() in ("*", "/"):
            op = self._take()
            right = self.power()
            value = _mul(value, right) if op == "*" else _div(value, right)
        return value

    def power(self) -> tuple[float, float]:
        base = self.atom()
        if self._peek() != "^":
            return base
        self._take()
        exponent = self.atom()
        if base[0] <= 0 or exponent[0] != exponent[1]:
            raise ValueError("only a positive base to a constant power")
        low, high = base[0] ** exponent[0], base[1] ** exponent[0]
        return (min(low, high), max(low, high))

    def atom(self) -> tuple[float, float]:
        kind = self._peek()
        if kind == "-":
            self._take()
            low, high = self.atom()
            return (-high, -low)
        if kind == "(":
            self._take()
            value = self.sum()
            if self._take() != ")":
                raise ValueError("unmatched parenthesis")
            return value
        if kind == "n":
            number = self.tokens[self.at][1]
            self.at += 1
            assert number is not None
            return number
        raise ValueError(f"unexpected {kind or 'end'}")

    def _take(self) -> str:
        if self.at >= len(self.tokens):
            raise ValueError("unexpected end")
        kind = self.tokens[self.at][0]
        self.at += 1
        return kind


def _add(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    return (a[0] + b[0], a[1] + b[1])


def _mul(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    corners = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    return (min(corners), max(corners))


def _div(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    if b[0] <= 0 <= b[1]:
        raise ZeroDivisionError("the divisor may be zero")
    return _mul(a, (1 / b[1], 1 / b[0]))
