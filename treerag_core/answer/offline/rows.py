"""Table rows as answers: the row naming the asked metric, read in the asked period's column.

A row is scored by how fully its label names the question's metric (directly or by a
synonym), how little else its label says, whether its table has the asked period, and
whether it sits in the statement the question points at. It is printed as a careful reader
copies it: ``Total net sales, 2019: $280,522 million``, or every period when the question
compares periods.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...text.numbers import years_in
from ...text.tables import Row
from .candidates import AnswerLine, Vocabulary
from .question import WEAK_WORDS, Question

# A row answers only when its label names at least this share of the metric (weighted):
# "Net income" for "net income attributable to shareholders", not "Other income".
ROW_MIN_MATCH = 0.35
# The caption above a table ("The benefit payments to retirees …") counts this much.
CAPTION_WEIGHT = 0.2
# A row whose columns include the asked period is worth this much more; a row whose
# columns are other periods this much less (a 2017 column does not answer 2019).
PERIOD_BONUS = 0.25
WRONG_PERIOD = 0.3
# A row of a primary financial statement: a company-wide figure asked without naming a
# segment is read from the consolidated statements, not from a segment's table.
PRIMARY_STATEMENT = re.compile(
    r"statements? of (?:consolidated )?(?:income|operations|earnings|cash flows?|financial position"
    r"|comprehensive income)|balance sheets?|income statements?",
    re.I,
)
PRIMARY_BONUS = 0.2
# A row in the statement the question names ("in the cash flow statement").
STATEMENT_BONUS = 0.15
# A dated row when the question names no period (it can say which year it is); an undated
# row when it does (it cannot say whether it is the asked period's).
DATED_BONUS = 0.1
UNDATED = 0.15
# An amount with its unit or currency ("$411 million") over a bare figure ("0.24"); a lone
# bare figure after a title is more likely a page number in a list of contents.
AMOUNT_BONUS = 0.05
BARE_FIGURE = 0.3
# At most this many columns are printed for one row (selected data runs to five years).
MAX_SHOWN_COLUMNS = 5
# A company's legal form ("TOTAL NIKE, INC. REVENUES") says whose row it is, not what it
# holds: it does not count as a word of the label the question did not ask for, so the
# company's total row is not outweighed by a segment's "TOTAL REVENUES".
LEGAL_FORMS = frozenset({"inc", "corp", "co", "ltd", "plc", "llc", "lp", "ag", "sa", "nv"})
# A row labelled by a name the question says ("Intelligent Cloud 87,907 74,965" for "What
# revenue did Microsoft's Intelligent Cloud segment report?"): its table's caption or header
# names the metric ("Revenue"), counted at this share of a label that names it itself.
CAPTION_NAMED = 0.9
# A row whose label says the names the question asks about gains up to this much: a
# segment's row over the company's total when the question names the segment.
NAME_BONUS = 0.5
_ACRONYM = re.compile(r"\b[A-Z][A-Z&]{2,5}\b")
_YEAR_LABEL = re.compile(r"^(?:19|20)\d\d(?:\s*(?:-|–|to|and)\s*(?:19|20)\d\d)?$")


def score_row(row: Row, question: Question, vocab: Vocabulary, section_label: str) -> float | None:
    """How well ``row`` answers ``question``; None when its label does not name the metric."""
    if all(c.value is None for c in row.cells):
        return None
    asked = [i for i, y in enumerate(row.years) if y in question.years]
    if asked and all(row.cells[i].value is None for i in asked):
        return None  # "Restructuring charges — 113": nothing printed for the asked period
    words = vocab.stems(spelled_out(row.label, question))
    label = set(words)
    section_title = section_label.split(" · ")[-1]
    around = vocab.stems(f"{row.caption} {row.header} {section_title}")
    caption = vocab.coverage(set(around), question.metric)
    if all(w in WEAK_WORDS for w in words):
        # "Total 966 5 (2) 969" under "Stores Opened … Total Stores at End of Quarter":
        # a bare "Total" is the total of what its heading and the table's caption name, a
        # vote's "For" the count for the proposal above it
        words = vocab.stems(" ".join([*row.parents, row.caption])) + words
        label = set(words)
    if _YEAR_LABEL.match(row.label):
        # "2024 1,097 862" under "benefit payments … expected": the caption names the metric
        match = caption if set(years_in(row.label)) & set(question.years) else 0.0
    else:
        named = vocab.names_metric(words, question)
        if not named and label & set(question.subjects):
            named = CAPTION_NAMED * vocab.names_metric(words + around, question)
        if vocab.language and named:
            # Other languages tell no names by capitals ("Umsatz … Region Nord"): the label
            # names part of what is asked, its table's caption the rest ("Umsatz nach Regionen")
            named = max(named, vocab.names_metric(words + around, question))
        # how much of the label is asked
        extra = vocab.coverage(question.terms(), label - LEGAL_FORMS)
        match = named * (0.6 + 0.4 * extra)
    if match < ROW_MIN_MATCH:
        return None
    gain = CAPTION_WEIGHT * caption + NAME_BONUS * vocab.coverage(label, question.subjects) ** 2
    keep = 1.0
    if question.years:
        if set(row.years) & set(question.years) or set(years_in(row.label)) & set(question.years):
            gain += PERIOD_BONUS
        elif any(row.years):
            keep -= WRONG_PERIOD
        elif set(years_in(row.caption)) & set(question.years):
            gain += PERIOD_BONUS / 2  # a one-period table: "AS OF MAY 31, 2019" above it
        else:
            keep -= UNDATED
    elif any(row.years):
        gain += DATED_BONUS
    where = f"{section_label} {row.caption}"
    if question.statements and any(re.search(rx, where, re.I) for rx in question.statements):
        gain += STATEMENT_BONUS
    if PRIMARY_STATEMENT.search(where):
        gain += PRIMARY_BONUS
    if row.unit or row.currency:
        gain += AMOUNT_BONUS
    elif not any(row.years) and len(row.cells) == 1:
        keep -= BARE_FIGURE  # "Note 3 – Restructuring Charges 76": a contents line
    score = match * (1 + gain) * keep
    return score


def spelled_out(label: str, question: Question) -> str:
    """The label with the question's words where it prints them by their initials ("AWS"
    read as "Amazon Web Services" when the question says that)."""
    if not question.acronyms:
        return label
    return _ACRONYM.sub(
        lambda m: question.acronyms.get(m.group(0).replace("&", ""), m.group(0)), label
    )


def row_line(row: Row, question: Question, prefix: str = "") -> tuple[str, frozenset[str]]:
    """The row as an answer line, and the figures it prints.

    One asked period: ``label, column: value``. A comparison, no period asked, or a period the
    table does not have: every dated column (``label: 2019 $5; 2018 $4``), cells under one
    column heading grouped (``Fiscal 2024 966 | 5 | (2) | 969``). Columns the header does not
    name: the cells in order, with the table's column words when it has them.
    """
    label = f"{prefix}{row.label}"
    groups: list[tuple[str, list[int]]] = []  # column heading → its cells, in printed order
    for i, col in enumerate(row.columns):
        if col is None or row.years[i] is None:  # a change column ("2022 vs. 2021")
            continue
        if groups and groups[-1][0] == col and groups[-1][1][-1] == i - 1:
            groups[-1][1].append(i)
        else:
            groups.append((col, [i]))
    asked = [g for g in groups if row.years[g[1][0]] in question.years]
    if asked and not question.compare:
        groups = asked
    groups = groups[:MAX_SHOWN_COLUMNS]
    shown = [i for _, cells in groups for i in cells] or list(range(len(row.cells)))
    figures = frozenset(row.cells[i].text.strip("()$€£¥%-−") for i in shown)

    def cells(indexes: list[int]) -> str:
        return " | ".join(row.cells[i].shown(row.unit, row.currency) for i in indexes)

    if len(groups) == 1:
        return f"{label}, {groups[0][0]}: {cells(groups[0][1])}", figures
    if groups:
        return f"{label}: " + "; ".join(f"{col} {cells(idx)}" for col, idx in groups), figures
    columns = "" if any(row.years) or years_in(row.header) else row.header
    columns = columns or row.caption.rsplit(":", 1)[-1].strip()
    note = f" (columns: {columns})" if columns and len(columns.split()) <= 12 else ""
    return f"{label}: {cells(shown)}{note}", figures


def row_candidates(
    question: Question,
    rows: Sequence[Sequence[Row]],
    section_labels: Sequence[str],
    vocab: Vocabulary,
) -> list[AnswerLine]:
    """Every row that names the metric, scored (``rows[i]`` are section ``i``'s rows)."""
    out: list[AnswerLine] = []
    for si, section_rows in enumerate(rows):
        for row in section_rows:
            score = score_row(row, question, vocab, section_labels[si])
            if score is None:
                continue
            text, figures = row_line(row, question)
            key = " ".join(row.label.lower().split()) + "|" + "|".join(sorted(figures))
            said = frozenset(vocab.stems(row.label)) & question.terms()
            size = max(
                (abs(c.value or 0.0) for c in row.cells if c.text.strip("()$€£¥%-−") in figures),
                default=0.0,
            )
            out.append(AnswerLine("row", text, score, si, row.start, key, figures, said, size))
    if question.superlative:
        out.extend(superlative_candidates(question, rows, vocab))
    return out


_SUPERLATIVE_WORD = {"max": "Highest", "min": "Lowest"}


def superlative_candidates(
    question: Question, rows: Sequence[Sequence[Row]], vocab: Vocabulary
) -> list[AnswerLine]:
    """ "Which … had the highest …": the tables whose caption and labels name the question,
    each read down the asked column to its highest (lowest) row (totals left out)."""
    out = []
    for si, section_rows in enumerate(rows):
        tables: dict[int, list[Row]] = {}
        for row in section_rows:
            tables.setdefault(row.table, []).append(row)
        for table in tables.values():
            text = " ".join([table[0].caption, table[0].header, *(r.label for r in table)])
            match = vocab.names_metric(vocab.stems(text), question)
            if match < ROW_MIN_MATCH:
                continue
            first = table[0]
            column = next((i for i, y in enumerate(first.years) if y in question.years), 0)
            peers = [
                r
                for r in table
                if len(r.cells) > column
                and r.cells[column].value is not None
                and not r.label.lower().startswith("total")
            ]
            if len(peers) < 2:
                continue
            pick = max if question.superlative == "max" else min
            extreme = pick(peers, key=lambda r: r.cells[column].value or 0.0)
            prefix = f"{_SUPERLATIVE_WORD[question.superlative]}: "
            line, figures = row_line(extreme, question, prefix=prefix)
            key = " ".join(extreme.label.lower().split()) + "|" + "|".join(sorted(figures))
            score = match * (1 + (PERIOD_BONUS if set(first.years) & set(question.years) else 0.0))
            out.append(AnswerLine("row", line, score, si, extreme.start, key, figures))
    return out
