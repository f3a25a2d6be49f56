"""A computed figure reproduced from the line items its question names, wherever they were
read: "days sales outstanding, 365 × accounts receivable / revenues" takes the receivables
from the balance sheet and the revenues from the income statement, two passages a sentence
rarely cites both of; "net debt, short-term debt plus current portion of long-term debt plus
long-term debt minus cash" sums four rows of one statement.

The support check (:mod:`.support`) asks this last, for a figure neither printed nor
computed from the lines nearest the sentence, and only when the question asks for a figure
to be computed. The search is bounded so a changed figure is rarely met by chance:

- only rows whose label is named by the question (every term of the label is one of the
  question's terms, "Accounts receivable, net", "Revenues"; of a label printing amounts of
  its own, "Accounts receivable, net of allowance for doubtful accounts of $650 and $633",
  the words before its first comma or dash), NAMED_ROWS at most, the passages cited first;
- only their cells of the year the question asks (the latest it names; with the year
  before's, as a mean, when it asks for an average), read from the column years printed
  above the row (or above it in the whole section an excerpt was cut from, or in the text
  printed just before the section: a statement continued under a sub-heading,
  "Investing", prints its column years once, at its top); a row whose columns cannot be
  told is left out;
- one step on them (a ratio, a share); for a figure printed to PRECISE_DIGITS digits or
  more also on a mean, times a figure the question states such as 365, a signed sum of
  two to four rows in that year, or a plain sum or a difference over another row (a
  ratio of a sum).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import chain, combinations, islice, product

from ..text.figures import NUMBER_WORDS, Figure
from ..text.numbers import years_in
from .claims import Line, Passage, fiscal_years, terms_of
from .offline.asks import AVERAGE_WORDS
from .support_figures import has_unit, in_unit
from .support_given import Given
from .support_steps import cells as row_cells

NAMED_ROWS = 5  # rows named by the question combined (sums grow as 3 ** rows)
MAX_SUMMED = 4  # rows in one sum ("short-term debt + current debt + long-term debt − cash")
# A figure of fewer digits is too wide a band for the many sums and the ratios on a mean
# or times a factor: it is checked against the one-step ratios of the asked year's cells.
PRECISE_DIGITS = 3
HEADER_LOOKBACK = 60  # lines read back from a row for its column years
# A question naming its arithmetic in words the check's COMPUTE_WORDS lack (English).
ARITHMETIC_WORDS = re.compile(r"\b(?:difference|minus|plus|sum of|combined)\b", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
# Where a label's name ends and its qualifier begins ("Accounts receivable, net of allowance
# … of $650 and $633", "Accounts receivable — net of allowances of $174 and $189").
_QUALIFIER = re.compile(r"\s*[,;:(—–]|\s+-\s")
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")
_FIRST_WORD = re.compile(r"[\W\d_]*([^\W\d_][\w'-]*)")
# Where a figure written in words may begin (:data:`..text.figures.NUMBER_WORDS`).
_NUMBER_WORD = re.compile(r"\b(?:" + "|".join(NUMBER_WORDS) + ")", re.I)


def asked_rows(given: Given, passages: Sequence[Passage]) -> list[list[Figure]]:
    """The cells, in the asked year, of the rows the question names (see the module's
    docstring); none when the question asks for no arithmetic or names no year. Read once
    for a sentence's figures."""
    year = _asked_year(given)
    if year is None or not (given.computes or ARITHMETIC_WORDS.search(given.question)):
        return []
    return named_rows(given, passages, year)


def named_reproduces(figure: Figure, given: Given, rows: list[list[Figure]]) -> bool:
    """Whether ``figure`` is one step (or one sum) from the ``rows``' cells
    (:func:`asked_rows`)."""
    if len(rows) < 2:
        return False
    stated = [figure]
    if given.unit != 1.0 and not has_unit(figure):
        stated.append(in_unit(figure, given.unit))  # "$8.70" asked in USD billions
    return any(f.computes_to(c) for f in stated for c in _candidates(figure, rows, given))


def _asked_year(given: Given) -> int | None:
    question = given.question
    years = years_in(question) + fiscal_years(question)
    return max(years) if years else None


def named_rows(given: Given, passages: Sequence[Passage], year: int) -> list[list[Figure]]:
    """Each row the question names, as its cells for the asked year (and the mean of it and
    the year before when the question asks for an average, then the year before): the
    first row of each label, NAMED_ROWS at most."""
    average = bool(AVERAGE_WORDS.search(given.question))
    named = given.asked | given.terms  # "other", "total": words a label may add
    seen: set[frozenset[str]] = set()
    out: list[list[Figure]] = []
    for passage in passages:
        lines = passage.lines
        for at, line in enumerate(lines):
            if not _may_name(line.text, named, given.language):
                continue
            label, head = _label_terms(line, given.language)
            by_head = not label <= named  # named by its head alone: see below
            key = head if by_head else label
            if not key or key in seen or not key <= named:
                continue
            # the text printed before the section, when the passage is the whole section
            cut = bool(given.whole_passages(passage.ref))
            lead = "" if cut else str(passage.section.get("lead") or "")
            cells = _year_cells(lines, at, line, lead) or _in_whole(line, passage.ref, given)
            if cells is None or year not in cells:
                continue
            if by_head and len(cells) == len(row_cells(line)):
                continue  # the head names a row only when its label prints amounts of its own
            seen.add(key)
            row = [cells[year]]
            if average and year - 1 in cells:
                row.append(_mean(cells[year], cells[year - 1]))
            out.append(row)
            if len(out) >= NAMED_ROWS:
                return out
    return out


def _may_name(text: str, named: set[str], language: str) -> bool:
    """A quick test before a line's figures are read: it prints a digit, its first word is
    a named term (or no term: "Total", "Net"), and so is every whole word before its first
    figure (a digit or a number word: "five million") and its first qualifier: words of
    its label and of its head, whose terms must all be named."""
    first = _FIRST_WORD.match(text)
    digit = _DIGIT.search(text)
    if first is None or digit is None:
        return False
    terms = terms_of(first.group(1), language)
    if terms and not terms <= named:
        return False
    number = _NUMBER_WORD.search(text, 0, digit.start())
    words = text[: text.rfind(" ", 0, number.start() if number else digit.start()) + 1]
    cut = _QUALIFIER.search(words)
    words = words[: cut.start()] if cut else words
    return not words.isascii() or terms_of(words, language) <= named  # no spaces: first word


def _label_terms(line: Line, language: str) -> tuple[frozenset[str], frozenset[str]]:
    """The terms of a table row's label (the words before its first cell), and of its head
    (the words before its first comma or dash: what a label printing amounts of its own
    names, the rest qualifying it)."""
    cells = row_cells(line)
    if not cells:
        return frozenset(), frozenset()
    label = _YEAR.sub(" ", line.text[: cells[0].start])
    cut = _QUALIFIER.search(label)
    head = label[: cut.start()] if cut else label
    return frozenset(terms_of(label, language)), frozenset(terms_of(head, language))


def _year_cells(
    lines: Sequence[Line], at: int, line: Line, lead: str = ""
) -> dict[int, Figure] | None:
    """The row's cells by year: the nearest line at or above it printing two or more
    distinct years, as many as the row has columns, gives their order (a statement's column
    heads), read on into ``lead``, the text printed just before the section (a statement
    continued under a sub-heading prints them once, at its top). A label printing amounts
    of its own ("… of $650 and $633 48,688 44,261": words or a year between its first
    figure and the columns) has its columns last."""
    cells = row_cells(line)
    own = line.text[: cells[0].start] if cells else ""
    above = chain((lines[i].text for i in range(at - 1, -1, -1)), reversed(lead.splitlines()))
    for text in islice(chain([own], above), HEADER_LOOKBACK):
        years = list(dict.fromkeys(int(y) for y in _YEAR.findall(text)))
        if len(years) < 2:
            continue
        if len(years) < len(cells) and _label_amounts(line, cells, len(years)):
            cells = cells[-len(years) :]
        return dict(zip(years, cells, strict=True)) if len(years) == len(cells) else None
    return None


def _label_amounts(line: Line, cells: list[Figure], columns: int) -> bool:
    """Whether the figures before the row's last ``columns`` are its label's own: words or
    a year printed between the first of them and the columns."""
    between = line.text[cells[0].end : cells[-columns].start]
    return bool(_LETTER.search(between) or _YEAR.search(between))


def _in_whole(line: Line, ref: str, given: Given) -> dict[int, Figure] | None:
    """The row's cells by year read in the whole section its excerpt was cut from (the
    excerpt may start below the column heads; the citation opens the whole section)."""
    for whole in given.whole_passages(ref):
        lines = whole.lines
        at = next((i for i, other in enumerate(lines) if other.text == line.text), None)
        if at is not None:
            return _year_cells(lines, at, lines[at])
    return None


def _mean(a: Figure, b: Figure) -> Figure:
    return Figure("mean", (a.value + b.value) / 2, (a.precision + b.precision) / 2,
                  min(a.digits, b.digits))  # fmt: skip


def _candidates(figure: Figure, rows: list[list[Figure]], given: Given) -> Iterator[Figure]:
    """One step between two rows' cells (a ratio, a share, times each figure the question
    states) and, for a figure printed precisely, the sums."""
    precise = figure.digits >= PRECISE_DIGITS
    factors = [q for q in given.figures if q.value] if precise else []
    for (i, top), (j, bottom) in product(enumerate(rows), repeat=2):
        if i != j:
            for a, b in product(top, bottom) if precise else [(top[0], bottom[0])]:
                yield from _over(a.value, a.precision, b, min(a.digits, b.digits), factors)
    if not precise:
        return
    firsts = [row[0] for row in rows]
    for size in range(2, min(MAX_SUMMED, len(firsts)) + 1):
        for chosen in combinations(range(len(firsts)), size):
            for signs in product((1, -1), repeat=size - 1):
                value = firsts[chosen[0]].value + sum(
                    s * firsts[k].value for s, k in zip(signs, chosen[1:], strict=True)
                )
                # the sum of printed cells, as exact as they are (an answer adds them)
                err = max(firsts[k].precision for k in chosen)
                digits = min(firsts[k].digits for k in chosen)
                yield Figure("sum", abs(value), err, digits)
                if size == 2 or all(s > 0 for s in signs):  # a difference or a plain sum
                    for other in (k for k in range(len(firsts)) if k not in chosen):
                        yield from _over(abs(value), err, firsts[other], digits, ())


def _over(top: float, top_err: float, bottom: Figure, digits: int,
          factors: Sequence[Figure]) -> Iterator[Figure]:  # fmt: skip
    """``top`` over ``bottom`` as a ratio and a share, and times each factor."""
    under = abs(bottom.value)
    if not under or not top:
        return
    ratio = abs(top) / under
    rel = top_err / abs(top) + bottom.precision / under
    yield Figure("ratio", ratio, ratio * rel, digits)
    yield Figure("share", 100 * ratio, 100 * ratio * rel, digits, True)
    for factor in factors:  # a constant the question defines ("365 * …"): exact
        yield Figure("ratio", ratio * abs(factor.value), ratio * abs(factor.value) * rel, digits)
