"""Figures two steps from a table's cells: a ratio's mean over the periods a question
names (a three-year average margin), its change between them in points (a gross margin
down 1.1%), its complement (a gross margin from the cost of sales' share) and a ratio
times a figure the question states (365 × payables / cost of sales).

The support check (:mod:`.support_figures`) asks this only when the question asks for a
figure to be computed, with only the steps its words ask for, and only of the few table
rows the question and sentence name: a ratio divides two cells of one period (one column),
and a margin is over the revenue row. Each step taken enlarges the set of figures a
changed one may meet by chance, so none is taken unasked; a ratio of a sum (a free pair of
rows over a third) was tried and left out: it confirmed changed figures by chance and no
right one the engine did not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice, permutations

from ..text.figures import Figure
from ..text.numbers import years_in
from .claims import Line, fiscal_years
from .offline.asks import AVERAGE_WORDS

# The rows combined: those sharing most terms with the sentence and question (and the
# revenue row when a margin is asked: a margin is over revenue whether the question says
# so or not).
STEP_ROWS = 4
MIN_CELLS = 2  # a row with fewer cells has no periods to align
PAIR_ROWS = 2  # without a margin's revenue, only the two nearest rows are divided
MAX_SPAN = 2  # a mean over three periods at most: a statement's row has three
# The revenue row's label (English; extend for other languages).
REVENUE_LABEL = re.compile(
    r"^\s*(?:total\s+)?(?:net\s+)?(?:operating\s+)?(?:revenues?|sales)\b(?:\s+and\s+other)?",
    re.I,
)
MARGIN_WORDS = re.compile(r"\b(?:margins?|of (?:net )?(?:revenues?|sales))\b", re.I)
CHANGE_WORDS = re.compile(
    r"\b(?:chang\w*|increas\w*|decreas\w*|declin\w*|rais\w*|drop\w*|fell|rose|"
    r"consistent|fluctuat\w*|improv\w*|deteriorat\w*|expan\w*|contract\w*|points?)\b",
    re.I,
)


@dataclass(frozen=True)
class Steps:
    """The steps a question asks for, read from its words: only these are taken (each kind
    of step taken unasked would be one more chance for a changed figure to be met)."""

    margin: bool = False  # a share of revenue: revenue is the denominator
    average: bool = False  # a mean over periods
    change: bool = False  # a change between periods (of a margin: in points)
    # Years between the first and last the question names (FY2015 to FY2017: 2): a mean
    # over that many periods plus one, a change over that many; 0: not named (any).
    span: int = 0

    @property
    def any(self) -> bool:
        return self.margin or self.average or self.change


def steps_asked(question: str) -> Steps:
    """The steps ``question`` asks for (English; extend for other languages)."""
    years = years_in(question) + fiscal_years(question)
    span = max(years) - min(years) if years else 0
    return Steps(bool(MARGIN_WORDS.search(question)), bool(AVERAGE_WORDS.search(question)),
                 bool(CHANGE_WORDS.search(question)), span if 0 < span <= MAX_SPAN else 0)  # fmt: skip


def step_rows(ranked: Sequence[tuple[int, Line]], margin: bool,
              sources: Iterable[Sequence[Line]] = ()) -> tuple[list[Line], Line | None]:  # fmt: skip
    """The table rows to combine: the first STEP_ROWS of ``ranked`` (shared terms, line)
    sharing a term and holding MIN_CELLS cells, and (``margin``) the first revenue row of
    ``sources`` (the passages cited, then the others read: the revenue of a cash-flow
    margin is printed in another statement) with as many cells as the nearest row (the
    same periods: a segment table's "Total net sales" across segments is not it), else
    more (a five-year summary's row: its first columns are the same years), also returned
    alone (the denominator). No revenue row: no margin."""
    tables = (line for shared, line in ranked if shared and len(cells(line)) >= MIN_CELLS)
    rows = list(islice(tables, STEP_ROWS))  # lazily: a line's figures are read when asked
    if not margin:
        return rows, None
    periods = len(cells(rows[0])) if rows else 0
    revenue = _revenue_row(sources, periods)
    if revenue is None:
        return [], None
    return [*(row for row in rows if row is not revenue), revenue], revenue


def _revenue_row(sources: Iterable[Sequence[Line]], periods: int) -> Line | None:
    """The first revenue row with ``periods`` cells, read source by source (the next is cut
    into lines only when this one has none), else the first with more."""
    wider = None
    for lines in sources:
        for line in lines:
            if not REVENUE_LABEL.match(line.text):
                continue
            count = len(cells(line))
            if count == periods:
                return line
            if wider is None and periods and count > periods:
                wider = line
    return wider


def cells(line: Line) -> list[Figure]:
    """A row's cells: its figures but years and days, one per period, in column order."""
    return [f for f in line.figures if not f.year and not f.day and not f.percent]


def two_step_figures(
    rows: list[Line], denominator: Line | None, steps: Steps, percent: bool,
    asked: Sequence[Figure] = (),
) -> list[Figure]:  # fmt: skip
    """Every figure two steps from the rows' cells that ``steps`` asks for, each step
    within one column (a ratio's change between columns and mean over neighbouring ones
    aside): as percentages when ``percent``, else as ratios (and times the question's
    figures). A margin (``denominator``: the revenue row) is every other row over it;
    otherwise only the two rows nearest the sentence are divided, one by the other."""
    table = [cells(row) for row in rows]
    width = min((len(c) for c in table), default=0)
    if denominator is not None:
        over = next(i for i, row in enumerate(rows) if row is denominator)
        pairs = [(top, over) for top in range(len(table)) if top != over]
    else:
        over, pairs = None, list(permutations(range(min(len(table), PAIR_ROWS)), 2))
    out: list[Figure] = []
    for top, bottom in pairs:
        series = [_ratio(table[top][j], table[bottom][j]) for j in range(width)]
        known = [s for s in series if s is not None]
        if steps.average:
            out += [_as(v, e, d, percent) for v, e, d in _means(series, steps.span)]
        if percent and steps.change:
            apart = steps.span or 1  # a change between the periods asked, else neighbours
            out += [_as(abs(a[0] - b[0]), a[1] + b[1], min(a[2], b[2]), True)
                    for a, b in zip(series, series[apart:], strict=False) if a and b]  # fmt: skip
        if percent and over is not None:
            out += [_as(1 - v, e, d, True) for v, e, d in known if v < 1]
        if not percent:
            out += [Figure("ratio", q.value * v, abs(q.value) * e + q.precision * v, d)
                    for q in asked for v, e, d in known]  # fmt: skip
    return out


def _ratio(top: Figure, bottom: Figure) -> tuple[float, float, int] | None:
    if not bottom.value or not top.value:
        return None
    digits = min(top.digits, bottom.digits)
    return _ratio_of(abs(top.value), top.precision, abs(bottom.value), bottom.precision, digits)


def _ratio_of(top: float, top_err: float, bottom: float, bottom_err: float,
              digits: int) -> tuple[float, float, int]:  # fmt: skip
    ratio = top / bottom
    return ratio, ratio * (top_err / top + bottom_err / bottom) if top else 0.0, digits


def _means(
    series: list[tuple[float, float, int] | None], span: int
) -> Iterator[tuple[float, float, int]]:
    """The means of two or three neighbouring periods' ratios (a three-year average; as
    many as the question's years span when it names them)."""
    for n in (span + 1,) if span else (2, 3):
        for at in range(len(series) - n + 1):
            window = series[at : at + n]
            if all(w is not None for w in window):
                known = [w for w in window if w is not None]
                yield (sum(w[0] for w in known) / n, sum(w[1] for w in known) / n,
                       min(w[2] for w in known))  # fmt: skip


def _as(value: float, err: float, digits: int, percent: bool) -> Figure:
    if percent:
        return Figure("share", 100 * value, 100 * err, digits, True)
    return Figure("ratio", value, err, digits)
