"""Each operand of a computation found in the document's tables: its row and its column.

A quantity ("accounts payable", 2017) is looked for in every table the document keeps
(:mod:`treerag_core.text.table_data`), not only in the sections navigation chose: a ratio's
numerator and denominator are often in two statements pages apart. Rows are scored as the
extractive answer scores them (:func:`.rows.score_row`: the label naming the quantity or a
synonym, the primary statement, the one the question names or the one the quantity belongs
to), and only a row printing a figure in the asked year's column can answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

from ...text.formula import label_key
from ...text.metrics import OUTFLOWS, plain_name, statement_for
from ...text.numbers import Cell
from ...text.table_data import row_path, tables_of
from ...text.tables import Row
from .candidates import Vocabulary
from .question import Question, read_question
from .rows import score_row

UNIT_SIZE = {"": Decimal(1), "thousand": Decimal(10**3), "million": Decimal(10**6),
             "billion": Decimal(10**9)}  # fmt: skip
# A row from the table an earlier operand came from is preferred by this much (the two
# years of an average from one balance sheet, not one from a five-year summary).
SAME_TABLE_BONUS = 0.05
# An aside in a label ("Net cash provided by (used in) operating activities").
_ASIDE = re.compile(r"\([^)]*\)")
_PER_SHARE = re.compile(r"\bper (?:common |diluted |basic )?share\b", re.I)
_CHANGE_ROW = re.compile(r"^\W*(?:\(?increase\)?|\(?decrease\)?|change)\b", re.I)
# What a label says after one of these words is not what it names ("Income before income
# taxes" is income, "Earnings before interest and taxes" earnings), unless a question says so.
_BEFORE = re.compile(r"\s+(?:before|excluding)\s+", re.I)
# Rows scoring within this much of the best name the quantity equally well.
NEAR_SCORE = 0.1
# Cells kept per document's index (see TableIndex.looked_up).
MAX_LOOKED_UP = 4096


@dataclass(frozen=True)
class Found:
    """One cell an answer uses: its value, where it is printed and what it is."""

    value: Decimal  # as printed, in ``unit``; an outflow's sign dropped
    printed: str
    unit: str
    currency: str
    percent: bool
    label: str  # the row's label under its headings ("Current assets › Inventories")
    column: str
    year: int
    page: int | None
    node_id: str
    offset: int
    table: str
    doc_id: str
    cell: int = 0  # its place in the row (the evidence finds its box on ``page`` by it)

    @property
    def base(self) -> Decimal:
        """The value in units (a figure in millions times a million)."""
        return self.value * UNIT_SIZE.get(self.unit, Decimal(1))

    def shown(self) -> str:
        """``Inventories, 2019: $5,409 million``."""
        amount = f"{self.currency}{self.printed.strip('()$€£¥%-− ')}"
        sign = "-" if self.value < 0 else ""
        tail = "%" if self.percent else (f" {self.unit}" if self.unit else "")
        return f"{self.label}, {self.column}: {sign}{amount}{tail}"


@dataclass
class TableIndex:
    """One document's table rows, ready to be scored for any operand."""

    document: Mapping[str, Any]
    entries: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    vocab: Vocabulary | None = None
    # stem → the rows whose label (with its headings') has it: a row lacking a word of the
    # quantity cannot name it, so only rows having them all are read (kept per document:
    # finding a cell reads a few rows, not a thousand); None: every row is read
    rows_with: dict[str, frozenset[int]] | None = None
    # cells found so far, by find_cell's arguments: kept with the index, so
    # the same cell asked again (a formula naming COGS twice, the support check asking for
    # the computation an answer states, the offline answer it may be set aside for, a
    # follow-up question) is read from the tables once per document
    looked_up: dict[tuple[Any, ...], Found | None] = field(default_factory=dict)
    # rows read as scored rows so far: a lookup reads a few dozen of a document's thousand,
    # so each is read when first a candidate (building all of them was a third of the
    # index's cost on a filing's first computed question)
    parsed: dict[int, Row] = field(default_factory=dict)
    # every row's label as a formula compares it (:func:`..text.formula.label_key`), with
    # and without its asides: a question naming one names that row, whatever words it holds
    labels: frozenset[str] = frozenset()

    def cell(
        self, phrase: str, year: int, note: str = "", prefer: Found | None = None,
        every: tuple[int, ...] = (), tables: tuple[str, ...] = (),
    ) -> Found | None:  # fmt: skip
        """:func:`find_cell` for this index, each lookup done once (at most MAX_LOOKED_UP
        kept: a long-running app asking thousands of questions of one document)."""
        mark = (prefer.table, prefer.label) if prefer is not None else ("", "")
        key = (phrase, year, note, mark, every, tables)
        if key in self.looked_up:  # (a memo of pure lookups: the index is shared, its rows
            return self.looked_up[key]  # never change; threads may fill it side by side)
        found = find_cell(self, *key)
        if len(self.looked_up) >= MAX_LOOKED_UP:
            self.looked_up.clear()
        self.looked_up[key] = found
        return found

    def candidates(self, phrases: list[list[str]]) -> list[int]:
        """The rows (in table order) whose label has every stem of one of ``phrases``."""
        if self.rows_with is None:
            return list(range(len(self.entries)))
        found: set[int] = set()
        for phrase in phrases:
            sets = sorted((self.rows_with.get(w, frozenset()) for w in set(phrase)), key=len)
            found |= frozenset.intersection(*sets) if sets else frozenset()
        return sorted(found)

    def row(self, at: int) -> Row:
        """Entry ``at`` as a scored row (:func:`.rows.score_row` reads it), read once."""
        parsed = self.parsed.get(at)
        if parsed is None:
            parsed = self.parsed[at] = _scored_row(*self.entries[at])
        return parsed

    @classmethod
    def of(cls, document: Mapping[str, Any]) -> TableIndex:
        entries = [(t, row) for t in tables_of(document) for row in t.get("rows") or []]
        vocab = Vocabulary([row["label"] for _, row in entries])
        rows_with: dict[str, set[int]] = {}
        for at, (_, row) in enumerate(entries):
            for word in _label_words(vocab, row):
                rows_with.setdefault(word, set()).add(at)
        labels = frozenset(
            label_key(text) for _, row in entries
            for text in (row["label"], _ASIDE.sub(" ", row["label"]))
        )  # fmt: skip
        rows = {w: frozenset(r) for w, r in rows_with.items()}
        return cls(document, entries, vocab, rows, labels=labels)


def _scored_row(table: Mapping[str, Any], row: Mapping[str, Any]) -> Row:
    cells = [
        Cell(c["text"], c["value"], (c["value"] or 0) < 0, "", bool(c.get("percent")))
        for c in row["cells"]
    ]
    return Row(
        label=row["label"], cells=cells, start=row.get("offset", 0), end=0, table=0,
        columns=list(row.get("columns") or []), years=list(row.get("years") or []),
        header=table.get("header", ""), unit=row.get("unit", ""),
        currency=row.get("currency", ""), caption=table.get("caption", ""),
    )  # fmt: skip


def _label_words(vocab: Vocabulary, row: Mapping[str, Any]) -> frozenset[str]:
    """Every stem :func:`names_all` may read in the row's label (with and without asides)."""
    parts = [*row.get("parents", []), row["label"]]
    words = vocab.stem_set(parts)
    if any("(" in part for part in parts):
        words |= set(vocab.stems(_ASIDE.sub(" ", " ".join(parts))))
    return frozenset(words)


def find_cell(
    index: TableIndex, phrase: str, year: int, note: str = "",
    prefer: tuple[str, str] = ("", ""), every: tuple[int, ...] = (),
    tables: tuple[str, ...] = (),
) -> Found | None:  # fmt: skip
    """The cell printing ``phrase`` in ``year``'s column, from the best-scoring row that has
    one; None when no table prints it for that year. ``prefer``: the (table, row label) an
    earlier period of the quantity was read from; ``every``: the periods it is read in, so
    that a row printing all of them is taken before rows printing some (a change or an
    average read along one row, not from two tables that label it alike); ``tables``: the
    tables the other quantity of a ratio or share came from (two rows one table prints
    side by side, in its one scale and on its one basis)."""
    name = plain_name(phrase)
    statement = statement_for(name, note)
    where = f" in the {statement}" if statement else ""
    question = read_question(f"What was the {name} in {year}{where}?")
    scored: list[_Scored] = []
    assert index.vocab is not None
    per_share = bool(_PER_SHARE.search(name))
    change = bool(_CHANGE_ROW.search(name))
    printed = label_key(phrase)
    printed = printed if printed in index.labels else ""
    for at in index.candidates([p for p in [question.metric, *question.phrases] if p]):
        table, row = index.entries[at]
        exact = _labelled(row, printed)
        if not (exact or _names(index.vocab, row, question, per_share, change)):
            continue
        parsed = index.row(at)
        column = next(
            (i for i, y in enumerate(parsed.years) if y == year and i < len(parsed.cells)), None
        )
        if column is None or parsed.cells[column].value is None:
            continue
        score = score_row(parsed, question, index.vocab, str(table.get("section", "")))
        if score is None:
            continue
        if prefer[0] and table.get("id") == prefer[0]:
            score += SAME_TABLE_BONUS
        size = abs(parsed.cells[column].value or 0.0)
        doc_id = str(index.document.get("doc_id", ""))
        found = found_cell(doc_id, table, row, column, year, name)
        scored.append(_Scored(score, size, found, _prints_all(parsed, every), exact))
    return _chosen(scored, prefer, tables)


class _Scored(NamedTuple):
    """A row that may print the quantity, as :func:`find_cell` scored it."""

    score: float
    size: float  # the figure's size
    found: Found
    whole: bool  # prints every period asked
    exact: bool  # labelled as the phrase prints it


def _chosen(
    scored: list[_Scored], prefer: tuple[str, str], tables: tuple[str, ...]
) -> Found | None:
    """The cell read among the scored rows: a row the phrase prints word for word before
    rows that only share its words ("Other, net" is not any row saying "net"), and a row
    printing every period before others."""
    for kept in (lambda x: x.exact, lambda x: x.whole):
        if any(kept(x) for x in scored):
            scored = [x for x in scored if kept(x)]
    if not scored:
        return None
    top = max(x.score for x in scored)
    # Rows naming the quantity about equally well: the row an earlier period came from;
    # else one of the other quantity's table; else the largest figure is the company's
    # total (a segment's or a note's part is smaller), then the best-scoring, then the first.
    near = [x for x in scored if x.score >= top - NEAR_SCORE]
    same = [x for x in near if prefer[0] and (x.found.table, x.found.label) == prefer]
    along = [x for x in near if x.found.table in tables]
    return (same or [max(along or near, key=lambda x: (x.size, x.score))])[0].found


def _names(
    vocab: Vocabulary, row: Mapping[str, Any], question: Question, per_share: bool,
    change: bool,
) -> bool:  # fmt: skip
    """The row names the quantity: an amount asked is not a per-share figure ("Per Share
    Data › Net earnings") nor a change ("(Increase) decrease in inventories") unless the
    question asks for one, and the label says its words (:func:`names_all`)."""
    if not per_share and _PER_SHARE.search(row_path(row)):
        return False
    if not change and _CHANGE_ROW.search(row["label"]):
        return False
    return names_all(vocab, question, " ".join([*row.get("parents", []), row["label"]]))


def _labelled(row: Mapping[str, Any], printed: str) -> bool:
    """The row's label is the one the phrase prints, word for word: it names the row even
    where the question's reading drops a word of it ("assuming", "RSUs")."""
    label = row["label"]
    return bool(printed) and printed in (label_key(label), label_key(_ASIDE.sub(" ", label)))


def _prints_all(parsed: Row, years: tuple[int, ...]) -> bool:
    """The row prints a figure in each of ``years``' columns."""
    printed = {y for y, c in zip(parsed.years, parsed.cells, strict=False) if c.value is not None}
    return set(years) <= printed


def names_all(vocab: Vocabulary, question: Question, label: str) -> bool:
    """The label says the quantity's words together and in order ("net" too: neither
    "Operating income" nor "Other income — net" nor "Net actuarial income" is net income),
    or one of its synonyms so ("Cost of sales" for COGS)."""
    phrases = [p for p in [question.metric, *question.phrases] if p]
    texts = [label, _ASIDE.sub(" ", label)]
    if not _BEFORE.search(question.text):  # "Income before provision for income taxes"
        texts = [_BEFORE.split(t, maxsplit=1)[0] for t in texts]  # does not name the provision
    for text in dict.fromkeys(texts):
        words = vocab.stems(text)
        if any(_contiguous(p, words) for p in phrases):
            return True
    return False


def _contiguous(phrase: list[str], words: list[str]) -> bool:
    n = len(phrase)
    return any(words[i : i + n] == phrase for i in range(len(words) - n + 1))


def found_cell(
    doc_id: str,
    table: Mapping[str, Any],
    row: Mapping[str, Any],
    column: int,
    year: int,
    name: str = "",
) -> Found:
    """Row ``row``'s cell in ``column`` as an answer uses it (an outflow ``name`` asks for,
    printed in parentheses, as the amount it is)."""
    cell = row["cells"][column]
    value = Decimal(repr(float(cell["value"])))
    if value == value.to_integral_value():
        value = value.quantize(Decimal(1))
    if OUTFLOWS.search(name) and value < 0:
        value = -value  # capex printed "(1,577)" is an amount of 1,577
    columns = row.get("columns") or []
    return Found(
        value=value,
        printed=str(cell["text"]),
        unit=str(row.get("unit") or ""),
        currency=str(row.get("currency") or ""),
        percent=bool(cell.get("percent")),
        label=row_path(row),
        column=str(columns[column] if column < len(columns) and columns[column] else year),
        year=year,
        page=row.get("page"),
        node_id=str(table.get("node_id", "")),
        offset=int(row.get("offset") or 0),
        table=str(table.get("id", "")),
        doc_id=doc_id,
        cell=column,
    )
