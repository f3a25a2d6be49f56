"""The support check's two-step figures (:mod:`treerag_core.answer.support_steps`): a
margin's change in points, its mean over the years a question names, its complement, a
ratio times the question's figure; each only when the question asks for it, and a figure
changed as ``bench.support`` changes it (times 1.1) still flagged. Also a rounded figure
("$510 billion") found in the part of a cited section its excerpt left out, and a change
printed in basis points found as the answer states it. Hand-written statements and
answers, no engine."""

from __future__ import annotations

import pytest

from treerag_core.answer.claims import Line
from treerag_core.answer.support import check_support
from treerag_core.answer.support_steps import Steps, steps_asked, two_step_figures

INCOME = (
    "Consolidated Statements of Earnings\n($ in millions)\n"
    "Fiscal Years Ended January 28, 2023 January 29, 2022 January 30, 2021\n"
    "Revenue $ 46,298 $ 51,761 $ 47,262\nCost of sales 36,386 40,121 36,689\n"
    "Gross profit 9,912 11,640 10,573\nSelling, general and administrative expenses 7,970 "
    "8,635 7,928\nOperating income 1,795 3,039 2,391\nNet earnings $ 1,419 $ 2,454 $ 1,798\n"
)
CASH = (
    "Consolidated Statements of Cash Flows\n($ in millions)\n2023 2022 2021\n"
    "Net cash provided by operating activities 1,824 3,252 4,927\n"
    "Capital expenditures (930) (737) (713)\nDividends paid (789) (688) (568)\n"
)
SECTIONS = [
    {"ref": "S1", "label": "S1 · Statements of Earnings, p. 40", "page_start": 40, "text": INCOME},
    {"ref": "S2", "label": "S2 · Statements of Cash Flows, p. 44", "page_start": 44, "text": CASH},
]
CONSISTENT = "Are the company's gross margins consistent between FY2022 and FY2023?"
AVERAGE = "What was the average operating margin from FY2021 to FY2023, as a percentage?"
CAPEX = "What was the average of capital expenditures as a % of revenue over FY2022 and FY2023?"
LOOKUP = "What was the company's gross profit in FY2023?"
# (question, right answer's figure, that figure times 1.1 as bench.support prints it, ref)
STEPPED = [
    (CONSISTENT, "1.1%", "1.2%", "S1"),  # 11,640/51,761 - 9,912/46,298 = 1.08 points
    (AVERAGE, "4.9%", "5.4%", "S1"),  # (3.88% + 5.87% + 5.06%) / 3 = 4.94%
    (CAPEX, "1.7%", "1.9%", "S2"),  # (930 / 46,298 + 737 / 51,761) / 2: revenue in S1
]


def check(answer: str, question: str) -> dict:
    return check_support(answer, SECTIONS, question, model=True)


def test_the_steps_are_read_from_the_question() -> None:
    assert steps_asked(CONSISTENT) == Steps(margin=True, change=True, span=1)
    assert steps_asked(AVERAGE) == Steps(margin=True, average=True, span=2)
    assert steps_asked(LOOKUP) == Steps()
    # a span wider than a statement's three periods is not a window
    assert steps_asked("the average margin from FY2015 to FY2020").span == 0


@pytest.mark.parametrize(("question", "right", "changed", "ref"), STEPPED)
def test_a_figure_two_steps_from_the_cells_is_supported_and_a_changed_one_is_not(
    question: str, right: str, changed: str, ref: str
) -> None:
    answer = f"The figure was {right} [{ref}]."
    support = check(answer, question)
    assert not support["flagged"], support["sentences"]
    assert check(answer.replace(right, changed), question)["flagged"]


def test_a_step_the_question_does_not_ask_for_is_not_taken() -> None:
    # the margin's change in points, asked about the gross profit's amount
    assert check("Gross margin fell 1.1% [S1].", LOOKUP)["flagged"]


def test_a_margin_needs_a_revenue_row_of_the_same_periods() -> None:
    row = Line("Gross profit 9,912 11,640 10,573", 0)
    revenue = Line("Revenue $ 46,298 $ 51,761 $ 47,262", 40)
    stepped = two_step_figures([row, revenue], revenue, Steps(margin=True, change=True), True)
    assert any(abs(f.value - 1.08) < 0.01 for f in stepped)  # points between two years
    assert any(abs(f.value - 78.59) < 0.01 for f in stepped)  # cost share: the complement


def test_a_ratio_times_the_figure_the_question_states() -> None:
    question = (
        "What is the FY2023 days of capital expenditure, defined as 365 * capital "
        "expenditures / net cash provided by operating activities? Round to one decimal."
    )
    # 365 * 930 / 1,824 = 186.1
    assert not check("It was 186 days [S2].", question)["flagged"]
    assert check("It was 205 days [S2].", question)["flagged"]


def test_a_rounded_figure_is_found_in_the_whole_section_its_excerpt_left_out() -> None:
    excerpt = {"ref": "S1", "label": "S1 · Net sales", "page_start": 35,
               "text": "Net sales grew in fiscal 2020, led by Walmart U.S."}  # fmt: skip
    whole = "Net sales $ 519,926 $ 510,329 $ 495,761\nMembership and other income 4,038 4,076\n"

    def sections_of(ref: str) -> list[dict]:
        return [{"ref": ref, "text": whole, "page_start": 35}] if ref == "S1" else []

    def flagged(answer: str) -> bool:
        return check_support(answer, [excerpt], "What were Walmart's net sales in fiscal 2019?",
                             model=True, whole=sections_of)["flagged"]  # fmt: skip

    assert not flagged("Net sales were $510 billion in fiscal 2019 [S1].")
    assert not flagged("Net sales were $510,329 million in fiscal 2019 [S1].")
    assert flagged("Net sales were $561 billion in fiscal 2019 [S1].")
    # a round figure is not read so: it may meet any "4,000" a long section prints
    assert flagged("Membership income was $4 billion in fiscal 2019 [S1].")


MD_AND_A = {"ref": "S3", "label": "S3 · Fiscal 2022 vs. Fiscal 2021, p. 19", "page_start": 19,
            "text": "Gross margin as a percent of net sales decreased 190 basis points to 33.7 "
                    "percent compared to fiscal 2021.\nSG&A expenses as a percent of net sales "
                    "in fiscal 2022 decreased 30 basis points compared to\nfiscal 2021.\n"
                    "The company operated 40 distribution centers at year end.\n"}  # fmt: skip
POINTS = "How did SG&A expenses and gross margin as a percent of net sales change in fiscal 2022?"


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("SG&A expenses as a percent of net sales decreased 30 basis points [S3].", False),
        ("SG&A expenses as a percent of net sales decreased 33 basis points [S3].", True),
        ("SG&A expenses as a percent of net sales decreased 30 bps [S3].", False),
        # the filing's 190 basis points, in points
        ("Gross margin as a percent of net sales fell 1.9 percentage points [S3].", False),
        ("Gross margin as a percent of net sales fell 2.1 percentage points [S3].", True),
        # a bare 40 (a count of centers) is not 0.4%
        ("The company operated distribution centers at 0.4% [S3].", True),
    ],
)
def test_a_change_printed_in_basis_points_is_found(answer: str, flagged: bool) -> None:
    assert check_support(answer, [MD_AND_A], POINTS, model=True)["flagged"] is flagged
