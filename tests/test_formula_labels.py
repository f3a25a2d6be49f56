"""The formula parser reads a row label the document prints as one quantity.

A label may hold an operator's word or sign ("Less valuation allowance", "Other
expense/(income)", "U.S. TCJA enactment - net impacts"); given the document's labels, the
parser keeps each one whole, and text that is no label is parsed as before.
"""

from __future__ import annotations

import pytest

from treerag_core.text.formula import FormulaError, Operand, label_key, parse

pytestmark = pytest.mark.quick

LABELS = frozenset(
    label_key(x)
    for x in ("Less valuation allowance", "Other expense/(income)", "Total debt",
              "TCJA enactment - net impacts", "Average price paid per share",
              "(Increase) decrease in inventories")
)  # fmt: skip


def test_labels_with_operators_are_one_operand() -> None:
    assert parse("Less valuation allowance", (2020,), LABELS) == Operand(
        "Less valuation allowance", "value", (2020,)
    )
    assert parse("(Total debt) / (Other expense/(income))", (2020,), LABELS) == (
        "/", Operand("Total debt", "value", (2020,)),
        Operand("Other expense/(income)", "value", (2020,)),
    )  # fmt: skip
    assert parse("(Increase) decrease in inventories", (2020,), LABELS) == Operand(
        "(Increase) decrease in inventories", "value", (2020,)
    )
    assert parse("TCJA enactment - net impacts", (2020,), LABELS) == Operand(
        "TCJA enactment - net impacts", "value", (2020,)
    )


def test_a_printed_average_row_is_its_value_and_other_text_parses_as_before() -> None:
    assert parse("Average price paid per share", (2020,), LABELS).mode == "value"
    assert parse("Average inventory", (2019, 2020), LABELS).mode == "average"
    assert parse("Total debt less cash", (2020,), LABELS)[0] == "-"
    with pytest.raises(FormulaError):  # without the document's labels: "less" is an operator
        parse("Less valuation allowance", (2020,))


def test_a_row_labelled_with_a_sign_alone_does_not_hide_the_operator() -> None:
    # A filing's table read with a lone "+" as a row label: the sum is still a sum.
    labels = LABELS | {"+"}
    assert parse("operating income + depreciation", (2020,), labels)[0] == "+"


def test_a_label_opening_with_a_sign_is_one_only_where_no_quantity_stands_before_it() -> None:
    # A reconciliation prints "+ Depreciation and amortization" as a row's label.
    labels = LABELS | {label_key("+ Depreciation and amortization")}
    assert parse("operating income + depreciation and amortization", (2020,), labels)[0] == "+"
    assert parse("(total debt) / (less valuation allowance)", (2020,), labels)[2] == Operand(
        "less valuation allowance", "value", (2020,)
    )
