"""Where a sentence's figures are found: printed in the passages it cites (in any notation
or at the question's unit), computed from their figures in one step or two, or shown with
a working whose every figure is found. The support check (``support.py``) asks this for
each sentence; what it cannot find here it asks the whole sections and the engine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text.figures import (
    MIN_CONFIRMING_DIGITS,
    Figure,
    compound_growth,
    computed,
    means,
    over_means,
)
from ..text.working import Worked
from .claims import Line, Passage
from .support_given import Given
from .support_steps import step_rows, two_step_figures

# Lines whose figures may be combined into a computed one: those sharing most terms with the
# sentence (a growth rate is two cells of one row, or the same row of two tables).
COMPUTE_LINES = 3
# Passages whose lines are read for a sentence that cites none (those holding most of its
# terms), and for the figures a sentence computes.
NEAREST_PASSAGES = 2
# A line with this many figures is a table row over periods (a rate over several years
# needs three periods at least).
ROW_MIN_CELLS = 3
# A figure of fewer significant digits is not confirmed two steps from the cells (its band
# is wide enough to meet one of their many combinations by chance).
STEP_MIN_DIGITS = 2
COMPUTE_FIGURES = 16  # and at most this many of their figures (pairs grow as its square)


def figures_found(
    figures: list[Figure], terms: set[str], scope: list[Passage], everything: list[Passage],
    worked: Sequence[Worked] = (), given: Given | None = None,
) -> tuple[list[Figure], list[Figure], tuple[Line, Passage] | None]:  # fmt: skip
    """The figures found in ``scope`` (printed or computed) or stated by the question (the
    365 of "DPO is defined as 365 * …"), those found only in another passage, and the line
    holding the first one found. A result shown with its working (``0.68 = 7,101 /
    10,420``) is found when every figure its working uses is."""
    found, elsewhere, best = [], [], None
    others = [p for p in everything if p not in scope]
    results = {w.result.start: w for w in worked}
    asked = given.figures if given else []
    for figure in figures:
        shown = results.get(figure.start)
        if shown is not None and shown.operands:
            hits = [_find(f, terms, scope, compute=False) for f in shown.operands]
            if all(
                h or any(f.agrees(q) for q in asked)
                for h, f in zip(hits, shown.operands, strict=True)
            ):
                found.append(figure)
                best = best or next((h for h in hits if h), None)
                continue
        hit = _find(figure, terms, scope, given=given, others=others)
        if hit is None and given and given.unit != 1.0 and not has_unit(figure):
            hit = _find(in_unit(figure, given.unit), terms, scope, given=given, others=others)
        if hit is not None or any(figure.agrees(q) for q in asked):
            found.append(figure)
            best = best or hit
        elif any(p.find(figure) is not None for p in others):
            elsewhere.append(figure)
    return found, elsewhere, best


def _find(
    figure: Figure, terms: set[str], scope: list[Passage], compute: bool = True,
    given: Given | None = None, others: Sequence[Passage] = (),
) -> tuple[Line, Passage] | None:  # fmt: skip
    """The line printing ``figure``; else (``compute``) one of the lines nearest the
    sentence's terms whose figures compute it (in two steps within a period when the
    question asks for a computed figure, ``given.computes``)."""
    for passage in scope:
        at = passage.find(figure)
        if at is not None:
            line = passage.line_at(at)
            if line is not None:
                return line, passage
    if not compute:
        return None
    # The lines sharing most of the sentence's terms; among as close ones, those naming
    # least besides ("Total current assets" before "Prepaid expenses and other current
    # assets"): a row whose label is what is asked is the one computed from.
    order = sorted(
        ((len(terms & line.terms), -len(line.terms - terms), -i, line, p)
         for p in scope[:NEAREST_PASSAGES] for i, line in enumerate(p.lines)
         if _has_digit(line.text)),
        key=lambda t: t[:3], reverse=True,
    )  # fmt: skip
    ranked = order[:COMPUTE_LINES]
    if not ranked:
        return None
    near = [f for *_, line, _p in ranked for f in line.figures][:COMPUTE_FIGURES]
    rows = [m for *_, line, _p in ranked for m in means(line.figures)]
    table_rows = [line for shared, *_, line, _p in ranked
                  if shared and len(line.figures) >= ROW_MIN_CELLS]  # fmt: skip
    candidates = [*computed(near), *rows, *_two_steps(figure, near, rows, table_rows[:1])]
    if any(figure.computes_to(other) for other in candidates):
        return ranked[0][3], ranked[0][4]
    if given is not None and _stepped(figure, order, scope, others, given):
        return ranked[0][3], ranked[0][4]
    return None


def _stepped(
    figure: Figure, order: list[tuple], scope: list[Passage], others: Sequence[Passage],
    given: Given,
) -> bool:  # fmt: skip
    """Whether ``figure`` is two steps within a period from the rows nearest the sentence
    (:mod:`.support_steps`): only for a question asking for a computed figure, with the
    steps its words ask for, and a figure of STEP_MIN_DIGITS digits or more."""
    steps = given.steps
    if not given.computes or figure.digits < STEP_MIN_DIGITS:
        return False
    if not (steps.any or given.figures):
        return False
    sources = (p.lines for p in [*scope[:NEAREST_PASSAGES], *others])  # cut when read
    rows, over = step_rows([(t[0], t[3]) for t in order], steps.margin, sources)
    stepped = two_step_figures(rows, over, steps, figure.percent, given.figures)
    return any(figure.computes_to(other) for other in stepped)


def _two_steps(
    figure: Figure, near: list[Figure], rows: list[Figure], row: list[Line]
) -> list[Figure]:
    """Figures two steps from the printed ones, only where they cannot confirm a figure by
    chance: a rate over several years from the cells of the one table row the sentence is
    about (the one sharing most of its words; none when no row shares one), and a ratio on an average balance (a figure over
    a row's mean) for a ratio printed to three digits or more (more candidates than the
    one-step ones, each a chance of meeting a changed figure's wide band)."""
    if figure.percent:
        return compound_growth(row[0].figures) if row else []
    if figure.digits >= MIN_CONFIRMING_DIGITS:
        return over_means(near, rows)
    return []


def has_unit(figure: Figure) -> bool:
    """Whether the figure prints its own unit word or is a percentage."""
    return figure.percent or bool(re.search(r"[A-Za-z]$", figure.text))


def in_unit(figure: Figure, unit: float) -> Figure:
    return Figure(figure.text, figure.value * unit, figure.precision * unit, figure.digits,
                  start=figure.start, end=figure.end)  # fmt: skip


def _has_digit(text: str) -> bool:
    return any(ch.isdigit() for ch in text)
