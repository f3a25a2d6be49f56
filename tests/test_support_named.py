"""Right computed answers the support check accepts in general (issue 38), and wrong ones it
still flags: a figure computed from the line items its question names wherever they were
read (:mod:`treerag_core.answer.support_named`), and a result shown beside its arithmetic
either side of the equals sign, flagged when the arithmetic does not give it
(:func:`treerag_core.text.working.contradicted`); a row whose label prints amounts of its
own, or whose column years are printed above the section's sub-heading. Hand-written
statements and answers; each wrong figure is the right one times 1.1, as ``bench.support``
changes it."""

from __future__ import annotations

import pytest

from treerag_core.answer.support import check_support
from treerag_core.text.working import contradicted, workings

INCOME = (
    "Consolidated Statements of Income\n(In millions)\n2021 2020 2019\n"
    "Revenues $ 44,538 $ 37,403 $ 39,117\nCost of sales 24,576 21,162 21,643\n"
    "Gross profit 19,962 16,241 17,474\nOperating income 3,070 2,160 6,057\n"
    "Interest expense 1,361 1,284 1,234\nIncome before income taxes 6,661 2,887 4,801\n"
    "Income tax expense 934 348 772\nNet income $ 5,727 $ 2,539 $ 4,029\n"
    "Diluted earnings per share $ 2.49 $ 1.60 $ 3.56\n"
)
BALANCE = (
    "Consolidated Balance Sheets\n(In millions)\n2021 2020\n"
    "Cash and cash equivalents $ 2,279 $ 1,130\nAccounts receivable, net 4,463 2,749\n"
    "Inventories 6,854 7,367\nTotal current assets 26,291 20,556\n"
    "Commercial paper and other short-term debt $ 6 $ 21\n"
    "Current portion of long-term debt 1,022 377\nTotal current liabilities 9,674 8,284\n"
    "Long-term debt 28,216 30,770\n"
)
SECTIONS = [
    {"ref": "S1", "label": "S1 · Statements of Income, p. 59", "page_start": 59, "text": INCOME},
    {"ref": "S2", "label": "S2 · Balance Sheets, p. 61", "page_start": 61, "text": BALANCE},
]
DSO = (
    "What is the company's FY2021 days sales outstanding, computed as 365 * (year-end "
    "accounts receivable, net) / revenues? Round to one decimal place."
)
DIO = (
    "What is the FY2021 days inventory outstanding? DIO is defined as 365 * (average "
    "inventories between FY2020 and FY2021) / (FY2021 cost of sales)."
)
NET_DEBT = (
    "What was the net debt at the end of FY2021, defined as commercial paper and other "
    "short-term debt plus current portion of long-term debt plus long-term debt, minus cash "
    "and cash equivalents? Answer in USD millions."
)
CURRENT = "What is the FY2021 current ratio, total current assets over total current liabilities?"
COVERAGE = "What was the FY2021 interest coverage ratio, operating income over interest expense?"
# (question, right answer, that answer with its figure times 1.1, ref cited)
NAMED = [
    (DSO, "36.6 days", "40.3 days", "S2"),  # 365 × 4,463 / 44,538: two statements
    (DIO, "105.6 days", "116.2 days", "S2"),  # 365 × (6,854 + 7,367) / 2 / 24,576
    (NET_DEBT, "$26,965 million", "$29,662 million", "S2"),  # 6 + 1,022 + 28,216 − 2,279
    (NET_DEBT, "$27.0 billion", "$29.7 billion", "S2"),  # the same, rounded to billions
]


def check(answer: str, question: str) -> dict:
    return check_support(answer, SECTIONS, question, model=True)


@pytest.mark.parametrize(("question", "right", "changed", "ref"), NAMED)
def test_a_figure_computed_from_the_line_items_the_question_names_is_supported(
    question: str, right: str, changed: str, ref: str
) -> None:
    answer = f"The company's figure for this was {right} [{ref}]."
    assert not check(answer, question)["flagged"], check(answer, question)["sentences"]
    assert check(answer.replace(right, changed), question)["flagged"]


def test_only_the_asked_years_cells_of_the_named_rows_are_combined() -> None:
    # 365 × 2,749 / 37,403 = 26.8: the right arithmetic on FY2020's cells, asked FY2021
    assert check("The figure was 26.8 days [S2].", DSO)["flagged"]


def test_a_row_whose_columns_cannot_be_told_is_not_combined() -> None:
    # no column years above the rows: which cell is FY2021 cannot be told
    bare = [{**s, "text": s["text"].replace("2021 2020 2019\n", "").replace("2021 2020\n", "")}
            for s in SECTIONS]  # fmt: skip
    assert check_support("The figure was 36.6 days [S2].", bare, DSO, model=True)["flagged"]


def test_a_question_asking_for_no_arithmetic_gets_none() -> None:
    lookup = "What were the accounts receivable, net and the revenues in FY2021?"
    assert check("The figure was 36.6 [S2].", lookup)["flagged"]


def test_a_figure_printed_elsewhere_is_supported_when_its_cited_source_computes_it() -> None:
    other = {"ref": "S3", "label": "S3 · Liquidity, p. 30", "page_start": 30,
             "text": "Working capital was $16,617 million at the end of fiscal 2021.\n"}  # fmt: skip
    question = "What was FY2021 working capital, the difference between total current " \
        "assets and total current liabilities?"  # fmt: skip
    sections = [*SECTIONS, other]
    right = check_support("Working capital was $16,617 million [S2].", sections, question,
                          model=True)  # fmt: skip
    assert not right["flagged"], right["sentences"]
    # cited where it is not computed from: still the other passage's figure
    wrong_cite = check_support("Working capital was $16,617 million [S1].", sections, question,
                               model=True)  # fmt: skip
    assert wrong_cite["flagged"]


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("The current ratio was $26,291 / $9,674 = 2.72 [S2].", False),  # arithmetic first
        ("Current ratio = 26,291 / 9,674 = 2.72 [S2].", False),
        ("The current ratio was 2.72 = 26,291 / 9,674 [S2].", False),
        ("The current ratio was $28,920 / $9,674 = 2.72 [S2].", True),  # an operand changed
        ("The current ratio was $26,291 / $9,674 = 2.99 [S2].", True),  # the result changed
    ],
)
def test_a_result_after_its_arithmetic_is_read_as_one_before_it(answer: str, flagged: bool) -> None:
    assert check(answer, CURRENT)["flagged"] is flagged


def test_a_result_its_shown_arithmetic_does_not_give_is_flagged_though_printed() -> None:
    # 2.49 is printed (earnings per share), but 3,070 / 1,361 is 2.26
    support = check("The coverage was 2.49x = 3,070 / 1,361 [S1].", COVERAGE)
    assert support["flagged"] and support["sentences"][0]["verdict"] == "unsupported"
    assert not check("The coverage was 2.26x = 3,070 / 1,361 [S1].", COVERAGE)["flagged"]


def test_contradicted_reads_the_equals_sign_both_ways() -> None:
    assert [f.text for f in contradicted("It was 2.49x = 3,070 / 1,361 [S1].")] == ["2.49x"]
    assert [f.text for f in contradicted("It was 934 / 6,661 = 15.4% [S1].")] == ["15.4%"]
    assert contradicted("It was 934 / 6,661 = 14.0% [S1].") == []
    # a definition, a chain through words, a result with its working after: none wrong
    assert contradicted("DIO = 365 × inventory 1,100 / COGS 9,000") == []
    assert contradicted("Margin = income / revenue = 14,541 / 280,522 = 5.2%") == []
    (shown,) = workings("Growth: 4.4% = (51,217 − 49,072) / 49,072 [S1]")
    assert shown.result.text == "4.4%"


# A balance sheet whose row label prints amounts of its own (the allowance), and a cash-flow
# statement continued under a sub-heading that prints no column years of its own.
# fmt: off
REVENUE = {"ref": "S1", "label": "S1 · Income Statements, p. 58", "page_start": 58,
           "text": "INCOME STATEMENTS\n(In millions)\nYear Ended June 30, 2023 2022 2021\n"
                   "Total revenue 40,150 37,200 33,900\nOperating income 12,050 11,400 9,800\n"}
ALLOWANCE = {"ref": "S2", "label": "S2 · Balance Sheets, p. 60", "page_start": 60,
             "text": "BALANCE SHEETS\n(In millions)\nJune 30, 2023 2022\nCash $ 3,400 $ 2,900\n"
                     "Accounts receivable, net of allowance for doubtful accounts of $150 and "
                     "$133 9,850 8,230\nTotal current assets 21,300 19,800\n"}
OPERATIONS = ("CASH FLOWS STATEMENTS\n(In millions)\nYear Ended June 30, 2023 2022 2021\n"
              "Net income $ 9,130 $ 8,720 $ 7,310\nNet cash from operations 15,264 14,417 "
              "13,046\nFinancing\nCommon stock cash dividends paid (2,818) (2,861) (2,534)\n"
              "Net cash used in financing (4,027) (3,655) (3,379)\nInvesting")
CASH_FLOWS = [
    {"ref": "S1", "label": "S1 · Cash Flows Statements, p. 61", "page_start": 61,
     "text": OPERATIONS},
    {"ref": "S2", "label": "S2 · Investing, p. 61", "page_start": 61, "lead": OPERATIONS,
     "text": "Additions to property and equipment (2,947) (2,653) (2,108)\n"
             "Purchases of investments (5,131) (4,862) (6,215)\n"},
]
# fmt: on
AVERAGE_DSO = (
    "What is the FY2023 days sales outstanding (DSO)? DSO is defined as 365 * (average "
    "accounts receivable, net between FY2022 and FY2023) / (FY2023 total revenue)."
)
FREE_CASH = (
    "What was the FY2023 free cash flow, i.e. net cash from operations minus additions to "
    "property and equipment? Answer in USD billions."
)


@pytest.mark.parametrize(
    ("sections", "question", "right", "changed"),
    [
        # 365 × (9,850 + 8,230) / 2 / 40,150: the receivables' label prints its allowance
        ([REVENUE, ALLOWANCE], AVERAGE_DSO, "82.2 days", "90.4 days"),
        # 15,264 − 2,947: the capital expenditures printed under "Investing", the statement's
        # column years above it, before the sub-heading
        (CASH_FLOWS, FREE_CASH, "$12.3 billion", "$13.5 billion"),
    ],
)
def test_a_named_row_is_read_where_its_label_or_its_column_years_are_printed_apart(
    sections: list[dict], question: str, right: str, changed: str
) -> None:
    answer = f"The company's figure for this was {right} [S1]."
    support = check_support(answer, sections, question, model=True)
    assert not support["flagged"], support["sentences"]
    assert check_support(answer.replace(right, changed), sections, question, model=True)["flagged"]


def test_a_label_is_named_by_its_head_only_when_it_prints_amounts_of_its_own() -> None:
    # "net of allowance …" without amounts is another row's label ("allowance" is not asked)
    plain = {**ALLOWANCE, "text": ALLOWANCE["text"].replace(" of $150 and $133", "")}
    support = check_support("The figure was 82.2 days [S1].", [REVENUE, plain], AVERAGE_DSO,
                            model=True)  # fmt: skip
    assert support["flagged"]


def test_column_years_are_not_read_before_the_section_when_it_prints_its_own() -> None:
    # the section prints two years above its three-cell rows: their columns cannot be told
    own = {**CASH_FLOWS[1], "text": "2023 2022\n" + CASH_FLOWS[1]["text"]}
    support = check_support("The figure was $12.3 billion [S1].", [CASH_FLOWS[0], own],
                            FREE_CASH, model=True)  # fmt: skip
    assert support["flagged"]


def test_a_line_is_skipped_before_its_figures_are_read_only_when_its_label_is_not_named() -> None:
    """The quick test reads the words before a line's first figure (a digit, or a number
    word: "five million" is a cell too) and before its first qualifier: all of them are
    words of the label, or of its head, which must be named whole."""
    from treerag_core.answer.claims import terms_of
    from treerag_core.answer.support_named import _may_name

    named = terms_of("revenue")
    assert _may_name("Revenue of five million dollars 1,000 2,000", named, "en")
    assert _may_name("Revenue, net of allowances of $5 and $6 1,000 2,000", named, "en")
    assert not _may_name("Cost of sales 1,000 2,000", named, "en")
    assert not _may_name("Revenue growth in Europe 1,000 2,000", named, "en")  # "growth"
