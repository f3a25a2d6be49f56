"""The answer metric: which gold figures can grade an answer, and whether the answer says them."""

from __future__ import annotations

from decimal import Decimal

from treerag_core.evaluation.answers import (
    answer_hit,
    evidence_texts,
    figures,
    first_line,
    gold_figures,
    node_page_text,
    printed_figures,
)


def test_figures_ignore_separators_parentheses_and_currency():
    values = [v for v, _ in figures("Capex was $1,577 (1,577) or 1577.00; FY2018 and x2019y")]
    assert values == [Decimal(1577)] * 3  # "FY2018" is glued to letters: not a figure


def test_gold_figures_need_three_digits_and_are_not_years():
    assert gold_figures("$1577.00") == [Decimal("1577.00")]
    assert gold_figures("982 stores, down from 969") == [Decimal(982), Decimal(969)]
    assert gold_figures("rate fell from 24.6% to 21.6%") == [Decimal("24.6"), Decimal("21.6")]
    assert gold_figures("$0.40 per share, 55 stores, in 2022") == []  # too short, or a year
    assert gold_figures("$2,022 million") == [Decimal(2022)]  # written as an amount


def test_printed_figures_and_the_hit():
    page = "Purchases of property, plant and equipment (1,577) (1,373)"
    printed = printed_figures("$1577.00", [page])
    assert printed == [Decimal("1577.00")]
    assert printed_figures("$1832.00", [page]) == []  # computed, not printed: not graded
    assert answer_hit("Purchases …, 2018: -$1,577 million [S8, p. 60]", printed) is True
    assert answer_hit("It should not be inferred that …", printed) is False
    assert answer_hit("anything", []) is None
    both = [Decimal(982), Decimal(969)]
    assert answer_hit("Total: 969 | 982", both) and not answer_hit("Total: 969", both)
    assert first_line("\n  first  \nsecond") == "first"


def test_evidence_pages_from_the_index_when_the_source_is_gone():
    node = {
        "text": "page one text\npage two has 1,577\npage three",
        "page_start": 1,
        "page_end": 3,
        "page_marks": [[14, 2], [33, 3]],
    }
    flat = {"0000": node}
    assert node_page_text(flat, 2).strip() == "page two has 1,577"
    assert evidence_texts(flat, [2], None) == [node_page_text(flat, 2)]
    assert evidence_texts(flat, [1], ["from the PDF"]) == ["from the PDF"]
