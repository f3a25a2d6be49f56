"""Whether a self-check answer states the figure its table rows give (``bench.self_check``).

A question written from a stored row has a known answer: the row's cell (a value), the
difference of two of its cells (a change), that difference over the earlier cell (a
growth), or the quotient of two rows' cells (a ratio, a share). A label can be printed by
more than one row (a statement and its note), so every row of the filing printing the
same label gives a right answer.
The answer's headline (its first line, without the working and the citations) is right
when one of its numbers is one of them, as rounded to the decimals it prints, or within
half a percent, or, for an amount, scaled by a thousand (a headline in billions of a row in
millions). A change or growth asked "from fiscal 2017 to fiscal 2016" (the generator's years
in a table's order) may be answered either way round: the engine reads periods in time
order and says so in its headline ("FY2016–FY2017"). A ratio may be given as a quotient or
as a percentage. Years are not what an answer states.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .computed import headline

_NUMBER = re.compile(r"-?\(?\$?\d[\d,]*(?:\.\d+)?")
_YEAR = re.compile(r"(?<![$\d.,])(?:FY|Q[1-4] )?(?:19|20)\d\d(?![\d.,]\d)")
# The same amount in the row's unit, in thousands of it, or a thousand times it.
SCALES = (1, 1e-3, 1e3)
RELATIVE = 0.005  # half a percent: a figure rounded to the unit the headline chose


@dataclass(frozen=True)
class Asked:
    """What one question asks of the rows: ``label`` (and ``other``, a ratio's second row)
    in ``last``, compared with ``first`` (a change or a growth)."""

    kind: str
    label: str
    last: int
    first: int = 0
    other: str = ""


def _key(label: str) -> str:
    return re.sub(r"\W+", " ", label.lower()).strip()


def _cells(rows: list[tuple[dict, dict, list[int]]], label: str, year: int) -> set[float]:
    """Every value printed for ``year`` by a row labelled ``label``."""
    out = set()
    for _, row, _ in rows:
        if _key(row["label"]) != _key(label):
            continue
        for y, cell in zip(row.get("years") or [], row["cells"], strict=False):
            if y == year and cell.get("value") is not None:
                out.add(float(cell["value"]))
    return out


def expected(asked: Asked, rows: list[tuple[dict, dict, list[int]]]) -> list[float]:
    """The right answers to ``asked`` from the filing's rows."""
    last = _cells(rows, asked.label, asked.last)
    if asked.kind == "value":
        return sorted(last)
    if asked.kind in ("ratio", "share"):
        other = _cells(rows, asked.other, asked.last)
        quotients = [a / b for a in last for b in other if b]
        return quotients + [q * 100 for q in quotients]
    first = _cells(rows, asked.label, asked.first)
    pairs = [(a, b) for a in last for b in first] + [(b, a) for a in last for b in first]
    if asked.kind == "change":
        return [a - b for a, b in pairs]
    return [(a - b) / abs(b) * 100 for a, b in pairs if b]


def _numbers(text: str) -> list[tuple[float, int]]:
    """The numbers a headline prints, each with its count of decimals: not its years
    ("FY2016–FY2017", "June 30, 2016")."""
    text = _YEAR.sub(" ", text)
    out = []
    for m in _NUMBER.finditer(text):
        printed = m.group().replace("$", "").replace(",", "").replace("(", "-")
        try:
            out.append((float(printed), len(printed.split(".")[1]) if "." in printed else 0))
        except ValueError:
            continue
    return out


def states(headline: str, right: list[float], amounts: bool = True) -> bool:
    """Whether the headline prints one of the right answers (``amounts``: in another
    scale too; a rate or a quotient is printed as it is)."""
    for value, decimals in _numbers(headline):
        for answer in right:
            for scale in SCALES if amounts else (1,):
                target = abs(answer * scale)
                if abs(abs(value) - target) <= max(RELATIVE * target, 0.5 * 10**-decimals):
                    return True
    return False


def is_right(answer: str, asked: Asked, rows: list[tuple[dict, dict, list[int]]]) -> bool:
    """Whether the answer's headline (:func:`bench.computed.headline`: its first line
    without the working and the citations, so an operand shown in the working is no
    answer) states the figure the rows give."""
    right = expected(asked, rows)
    amounts = asked.kind in ("value", "change")
    return bool(right) and states(headline(answer), right, amounts)


def asked_of(kind: str, row: dict[str, Any], years: list[int], other: str = "") -> Asked:
    """The :class:`Asked` of a question written from ``row`` (``years[:2]``: the asked year,
    then the year compared with, as ``bench.self_check`` writes them)."""
    last, first = years[:2]
    return Asked(kind, row["label"], last, first, other)
