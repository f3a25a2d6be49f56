"""The extractive answer on questions about a part of the company: a segment's row labelled by
its name (or its initials) in a table whose caption names the metric, the company's own name
never read as a segment, and "how many" never answered by a sentence that gives no figure."""

from __future__ import annotations

from treerag_core.answer.offline.extractive import extractive_answer
from treerag_core.answer.offline.question import read_question, with_owner

SEGMENT_REVENUE = """Segment Results of Operations
(In millions, except percentages) 2023 2022 Percentage Change
Revenue
Productivity and Business Processes $ 69,274 $ 63,364 9%
Intelligent Cloud 87,907 74,965 17%
More Personal Computing 54,734 59,655 (8)%
Total $ 211,915 $ 198,270 7%"""

INCOME_STATEMENT = """INCOME STATEMENTS
(In millions) Year Ended June 30, 2023 2022
Total revenue $ 211,915 $ 198,270
Operating income 88,523 83,383"""

NET_SALES_BY_SEGMENT = """Net sales information is as follows (in millions):
Year Ended December 31, 2018 2019
Net Sales:
North America $ 141,366 $ 170,773
International 65,866 74,723
AWS 25,655 35,026
Consolidated $ 232,887 $ 280,522"""

STOCK_GRAPH = """Comparison of five-year cumulative total return
December 31, 2021 2022
The Coca-Cola Company $ 129 $ 141
S&P 500 $ 117 $ 123"""

DIVIDENDS = """CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions) Year Ended December 31, 2022 2021
Dividends (6,320) (6,043)"""

EMPLOYEES = (
    "We have works councils and union agreements in certain countries outside the United "
    "States and at certain of our studio operations. We employed approximately 798,000 "
    "full-time and part-time employees as of December 31, 2019."
)


def section(text: str, ref: str = "S1", page: int = 45, file_name: str = "") -> dict:
    return {
        "label": f"{ref} · Item 7, p. {page}",
        "text": text,
        "ref": ref,
        "page_start": page,
        "file_name": file_name,
    }


def first_line(answer: str) -> str:
    return answer.splitlines()[0]


def test_a_segment_row_named_in_the_question_beats_the_company_total():
    answer, _ = extractive_answer(
        "What revenue did Microsoft's Intelligent Cloud segment report in fiscal 2023?",
        [section(INCOME_STATEMENT, "S1", 58), section(SEGMENT_REVENUE, "S2", 45)],
    )
    assert "87,907" in first_line(answer) and "[S2, p. 45]" in first_line(answer)


def test_a_company_question_still_reads_the_total():
    answer, _ = extractive_answer(
        "What was Microsoft's total revenue in fiscal 2023?",
        [section(SEGMENT_REVENUE, "S2", 45), section(INCOME_STATEMENT, "S1", 58)],
    )
    assert "211,915" in first_line(answer)


def test_a_row_printed_by_the_initials_of_the_asked_name():
    answer, _ = extractive_answer(
        "How much revenue did Amazon Web Services bring in during 2019?",
        [section(NET_SALES_BY_SEGMENT, page=24, file_name="AMAZON_2019_10K.pdf")],
    )
    assert first_line(answer).startswith("AWS") and "35,026" in first_line(answer)


def test_initials_and_the_kind_of_part_are_read_from_the_question():
    question = read_question("What were the net sales of Frito-Lay North America's segment?")
    assert question.acronyms["FLNA"] == "Frito-Lay North America"
    assert "NA" not in question.acronyms  # two letters are as often "not applicable"
    question = read_question("What revenue did the Intelligent Cloud segment report?")
    assert "segment" not in question.metric  # the kind of part, not the figure asked


def test_the_documents_own_name_is_not_a_segment():
    question = with_owner(
        read_question("How did Coca-Cola's dividends compare between 2021 and 2022?"),
        ["COCACOLA_2022_10K.pdf"],
    )
    assert question.subjects == []
    answer, _ = extractive_answer(
        "How did Coca-Cola's dividends compare between 2021 and 2022?",
        [
            section(STOCK_GRAPH, "S1", 29, "COCACOLA_2022_10K.pdf"),
            section(DIVIDENDS, "S2", 77, "COCACOLA_2022_10K.pdf"),
        ],
    )
    assert "6,320" in first_line(answer) and "Coca-Cola Company" not in first_line(answer)


def test_files_named_otherwise_keep_the_subjects():
    question = read_question("What were Converse's revenues in fiscal 2018?")
    assert with_owner(question, ["NIKE_2018_10K.pdf"]).subjects == ["convers"]
    assert with_owner(question, [""]).subjects == ["convers"]


def test_how_many_is_not_answered_by_a_sentence_without_a_figure():
    answer, _ = extractive_answer(
        "How many people worked for Amazon at the end of 2019?", [section(EMPLOYEES, page=4)]
    )
    assert "798,000" in first_line(answer)
