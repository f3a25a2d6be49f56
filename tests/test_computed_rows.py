"""Which cells a computed answer reads: one row across the periods it compares, and a row
whose label reads like an operator ("Less accumulated amortization").

Found by asking the offline engine templated questions about the filings' own table rows
and checking its answers with the support check: a change read from two rows that share a
label, and a question naming such a row answered with the formula parser's error.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from treerag_core.answer.offline.asks import read_ask
from treerag_core.answer.offline.compute import compute
from treerag_core.answer.offline.operands import TableIndex

pytestmark = pytest.mark.quick


def _row(label: str, cells: dict[int, float], parents: list[str], unit: str = "million") -> dict:
    years = list(cells)
    return {
        "label": label, "parents": parents, "years": years, "columns": [str(y) for y in years],
        "cells": [{"text": f"{abs(v):,g}" if v >= 0 else f"({abs(v):,g})", "value": v}
                  for v in cells.values()],
        "unit": unit, "currency": "$", "page": 7, "offset": 0,
    }  # fmt: skip


def _document(*rows: dict) -> dict:
    table = {"id": "t1", "node_id": "0007", "section": "Note 9", "page": 7, "caption": "",
             "header": "2018 2017", "unit": "million", "currency": "$",
             "columns": [{"label": "2018", "year": 2018}, {"label": "2017", "year": 2017}],
             "rows": list(rows)}  # fmt: skip
    return {"doc_id": "d1", "indexed_at": "now", "tables": [table], "flat_nodes": {}}


def test_a_change_is_read_along_one_row_not_from_two_rows_sharing_its_label() -> None:
    # The largest figure wins among rows naming the quantity alike: 2017's is the second
    # row's, 2018's the first row's. The change must not subtract one row from the other.
    doc = _document(
        _row("Settlement losses", {2018: 153, 2017: -175}, ["Pension benefits"]),
        _row("Settlement losses", {2018: 20, 2017: -177}, ["Postretirement benefits"]),
    )
    ask = read_ask("By how much did settlement losses change from fiscal 2017 to fiscal 2018?")
    result = compute(ask, TableIndex.of(doc))
    assert result.complete
    assert len({c.label for c in result.cells}) == 1
    assert result.result in (Decimal((153 + 175) * 10**6), Decimal((20 + 177) * 10**6))


def test_a_row_labelled_with_an_operator_word_is_read_as_one_row() -> None:
    doc = _document(
        _row("Gross carrying amount", {2018: 900, 2017: 800}, ["Intangible assets"]),
        _row("Less accumulated amortization", {2018: -126.2, 2017: -101}, ["Intangible assets"]),
    )
    ask = read_ask("What was the company's Less accumulated amortization in fiscal 2018?")
    result = compute(ask, TableIndex.of(doc))
    assert result.complete and not result.problem
    assert [c.value for c in result.cells] == [Decimal("-126.2")]


def test_a_growth_rate_of_a_ratio_shows_its_base_in_parentheses() -> None:
    doc = _document(
        _row("Selling, general and administrative", {2018: 7970, 2017: 8635}, []),
        _row("Revenue", {2018: 46298, 2017: 51761}, []),
    )
    ask = read_ask(
        "What was the growth in selling, general and administrative / revenue from fiscal "
        "2017 to fiscal 2018?"
    )
    result = compute(ask, TableIndex.of(doc))
    assert result.complete
    # (a/b − c/d) / (c/d): the base in parentheses, as the rate was computed
    assert result.working.endswith("/ (selling, general and administrative 8,635 / revenue 51,761)")


def test_amounts_of_unknown_scale_are_not_combined_with_amounts_in_millions() -> None:
    # A row printed without a unit (its table's units line not read) is $2.5 or $2.5
    # million: the engine says so rather than subtract 299 million from 2.5 dollars.
    doc = _document(
        _row("Tax reform impacts", {2018: 2.5, 2017: 1.5}, [], unit=""),
        _row("Employee benefits", {2018: 299, 2017: 319}, []),
    )
    ask = read_ask("What was tax reform impacts - employee benefits in fiscal 2018?")
    result = compute(ask, TableIndex.of(doc))
    assert not result.complete and "not in the same unit" in str(result.problem)
    both = compute(read_ask("What was tax reform impacts + tax reform impacts in fiscal 2018?"),
                   TableIndex.of(doc))  # fmt: skip
    assert both.complete  # two figures of one unknown scale are still added


@pytest.mark.parametrize(
    "question",
    [
        "What was the ratio of inventories to total assets in fiscal 2018?",
        "What was Acme's ratio of inventories to total assets in fiscal 2018?",
        "What was the ratio of Acme's inventories to total assets in fiscal 2018?",
        "What was the inventories to total assets ratio in fiscal 2018?",
    ],
)
def test_the_ratio_of_one_quantity_to_another_is_computed(question: str) -> None:
    doc = _document(
        _row("Inventories", {2018: 90, 2017: 70}, ["Current assets"]),
        _row("Total assets", {2018: 900, 2017: 800}, []),
    )
    result = compute(read_ask(question), TableIndex.of(doc))
    assert result.complete and result.result == Decimal("0.1")
    assert result.working == "inventories 90 / total assets 900"


def test_a_ratio_the_metrics_know_keeps_its_formula_and_a_sentence_is_no_ratio() -> None:
    assert read_ask("What is Nike's ratio of debt to equity in 2022?").formula == (
        "total debt / total shareholders equity"
    )
    assert read_ask("What ratio of revenue went to research in 2022?") is None


def test_a_printed_label_holding_operators_is_one_row_even_inside_a_ratio() -> None:
    # "Less valuation allowance" and "Other expense/(income)" are rows the document prints:
    # their "less" and "/" are the labels' own words, not a subtraction and a division.
    doc = _document(
        _row("Net deferred income tax assets", {2018: 400, 2017: 300}, []),
        _row("Less valuation allowance", {2018: -100, 2017: -90}, []),
        _row("Other expense/(income)", {2018: 12, 2017: -8}, []),
    )
    index = TableIndex.of(doc)
    ratio = compute(read_ask("What was the ratio of Acme's Net deferred income tax assets to "
                             "Less valuation allowance in fiscal 2018?"), index)  # fmt: skip
    assert ratio.complete and ratio.result == Decimal(-4)
    change = compute(read_ask("By how much did Acme's Other expense/(income) change from "
                              "fiscal 2017 to fiscal 2018?"), index)  # fmt: skip
    assert change.complete and change.result == Decimal(20 * 10**6)


def test_a_weighted_average_is_a_row_not_an_average_of_periods() -> None:
    # Under a parent that says "per share", as a statement's share counts are printed.
    doc = _document(
        _row(
            "Weighted-average shares, assuming dilution",
            {2018: 250, 2017: 270},
            ["Earnings per common share"],
            unit="",
        ),
    )
    ask = read_ask("By how much did Acme's Weighted-average shares, assuming dilution change "
                   "from fiscal 2017 to fiscal 2018?")  # fmt: skip
    assert ask is not None and not ask.average and ask.kind == "change"
    result = compute(ask, TableIndex.of(doc))
    assert result.complete and result.result == Decimal(-20)
    assert read_ask("What was the average inventory between FY2017 and FY2018?").average


def test_one_quantity_as_a_percentage_of_another_is_computed() -> None:
    doc = _document(
        _row("Cost of sales", {2018: 450, 2017: 420}, []),
        _row("Net sales", {2018: 900, 2017: 800}, []),
    )
    ask = read_ask("What was Acme's cost of sales as a percentage of net sales in fiscal 2018?")
    assert ask is not None and ask.kind == "percent"
    result = compute(ask, TableIndex.of(doc))
    assert result.complete and result.result == Decimal("0.5")  # shown as 50.0%


def test_a_ratio_reads_its_second_quantity_from_the_first_ones_table() -> None:
    # Two tables print "United States": a segment table in millions and a note's larger
    # figure; the ratio of two segments is read from the one table that prints both.
    segments = _document(
        _row("Rest of World", {2018: 2839, 2017: 2700}, ["Net sales"]),
        _row("United States", {2018: 17000, 2017: 16000}, ["Net sales"]),
    )
    note = _document(_row("United States", {2018: 17844, 2017: 17000}, ["Sales by country"]))
    note["tables"][0]["id"] = "t2"
    segments["tables"] += note["tables"]
    result = compute(read_ask("What was the ratio of Acme's Rest of World to United States "
                              "in fiscal 2018?"), TableIndex.of(segments))  # fmt: skip
    assert result.complete and {c.table for c in result.cells} == {"t1"}


def test_a_share_of_a_row_labelled_with_an_operator_word_is_computed() -> None:
    doc = _document(
        _row("Less current portion of long-term debt", {2018: -90, 2017: -80}, []),
        _row("Long-term debt", {2018: 900, 2017: 800}, []),
    )
    ask = read_ask("What was Acme's Less current portion of long-term debt as a percentage of "
                   "Long-term debt in fiscal 2018?")  # fmt: skip
    result = compute(ask, TableIndex.of(doc))
    assert result.complete and result.result == Decimal("-0.1")


def test_a_label_printed_word_for_word_is_read_before_rows_sharing_its_words() -> None:
    # "Other, net" reads as "net" once "other" is dropped as a common word: every row saying
    # "net" named it, and the largest figure won.
    doc = _document(
        _row("Net", {2018: 16865, 2017: 15740}, ["Revenues"]),
        _row("Other, net", {2018: 12, 2017: 30}, ["Other income"]),
    )
    result = compute(read_ask("By how much did Acme's Other, net change from fiscal 2017 to "
                              "fiscal 2018?"), TableIndex.of(doc))  # fmt: skip
    assert result.complete and result.result == Decimal(-18 * 10**6)
