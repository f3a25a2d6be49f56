"""The support check on hand-written answer/passage pairs: figures in other notations and
computed, dates, names, negations, garbled replies, citations that point elsewhere; and
the renumbering of citations in the order an answer uses them."""

from __future__ import annotations

import pytest

from treerag_core.answer.garbled import garbled
from treerag_core.answer.offline.extractive import extractive_answer
from treerag_core.answer.support import check_support
from treerag_core.navigate import ranking
from treerag_core.text.figures import figures_in

INCOME = {
    "ref": "S1",
    "label": "S1 · Item 8 > Consolidated Statements of Income, p. 59",
    "page_start": 59,
    "page_marks": [[120, 60]],
    "lead": "Year Ended May 31, 2022 2021 2020\n(in millions)",
    "file_name": "NIKE_2022_10K.pdf",
    "text": (
        "Revenues 51,217 49,072 46,710\n"
        "Net income 5,727 4,029 4,240\n"
        "Revenues increased 4% compared to the prior year, driven by higher sales in North "
        "America.\n"
        "The Company did not repurchase any shares in the fourth quarter of fiscal 2022.\n"
        "On June 30, 2022, John Donahoe remained President and CEO."
    ),
}
EMPLOYEES = {
    "ref": "S2",
    "label": "S2 · Item 1 > Employees, p. 12",
    "page_start": 12,
    "text": "As of May 31, 2022, we had approximately 79,100 employees worldwide. Ten percent "
    "of them work in retail stores.",
}
SECTIONS = [INCOME, EMPLOYEES]
QUESTION = "What was Nike's revenue in fiscal 2022?"


def verdicts(answer: str, question: str = QUESTION, model: bool = True) -> list[str]:
    return [
        s["verdict"] for s in check_support(answer, SECTIONS, question, model=model)["sentences"]
    ]


@pytest.mark.parametrize(
    "answer",
    [
        "Nike's revenue in fiscal 2022 was $51.2 billion [S1].",  # billions vs a millions table
        "Revenues were $51,217 million in 2022 [S1].",
        "Revenue came to 51.217 billion dollars in 2022 [S1].",
        "Revenues rose 4% [S1].",
        "Revenues rose four percent [S1].",
        "Revenues increased by $2,145 million from 2021 [S1].",  # computed: 51,217 - 49,072
        "Revenues grew 4.4% over 2021 [S1].",  # computed: the change between two cells
        "About 10% of employees work in retail stores [S2].",  # "Ten percent" in the passage
    ],
)
def test_figures_in_other_notations_and_computed_are_supported(answer: str) -> None:
    assert verdicts(answer) == ["supported"]


@pytest.mark.parametrize(
    "answer",
    [
        "Nike's revenue in fiscal 2022 was $56.3 billion [S1].",
        "Revenues were $51,271 million in 2022 [S1].",
        "Revenues rose 14% [S1].",
    ],
)
def test_a_changed_figure_is_unsupported(answer: str) -> None:
    support = check_support(answer, SECTIONS, QUESTION, model=True)
    assert [s["verdict"] for s in support["sentences"]] == ["unsupported"]
    assert support["flagged"] and support["set_aside"]


def test_the_supporting_passage_and_its_page_are_given() -> None:
    support = check_support("Nike had about 79,100 employees [S2].", SECTIONS, "How many?")
    (sentence,) = support["sentences"]
    assert sentence["support"]["ref"] == "S2" and sentence["support"]["page"] == 12
    assert "79,100" in sentence["support"]["quote"]
    later = check_support("John Donahoe was CEO on June 30, 2022 [S1].", SECTIONS, "Who?")
    assert later["sentences"][0]["support"]["page"] == 60  # the line is past the page mark


def test_dates_and_names_must_be_in_the_sources() -> None:
    assert verdicts("John Donahoe was President and CEO on June 30, 2022 [S1].") == ["supported"]
    assert verdicts("Mark Parker was President and CEO on June 30, 2022 [S1].") == ["partly"]
    assert verdicts("Revenues were $51,217 million in 2019 [S1].") == ["partly"]  # wrong year
    assert verdicts("Adidas reported revenues of $51.2 billion in 2022 [S1].") == ["partly"]


def test_a_negation_turned_around_is_unsupported() -> None:
    assert verdicts("The Company did not repurchase shares in the fourth quarter [S1].") == [
        "supported"
    ]
    assert verdicts("The Company repurchased shares in the fourth quarter [S1].") == ["unsupported"]
    assert verdicts("Revenues did not increase compared to the prior year [S1].") == ["unsupported"]


def test_a_figure_from_a_section_it_does_not_cite_is_partly_supported() -> None:
    support = check_support("Nike had about 79,100 employees [S1].", SECTIONS, "How many?")
    assert support["sentences"][0]["verdict"] == "partly"
    assert "does not cite" in support["sentences"][0]["why"]


def test_a_sentence_without_citation_is_checked_against_everything_read() -> None:
    assert verdicts("Nike had about 79,100 employees.") == ["supported"]


def test_fluent_but_unrelated_answers_are_flagged() -> None:
    support = check_support(
        "The penalty for lateness is a serious offense, and it can have severe consequences.",
        SECTIONS, QUESTION, model=True,
    )  # fmt: skip
    assert support["flagged"] and support["set_aside"] and support["missing_figure"]


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("SECTION\n\nThe company has implemented a new leave policy.", "markup"),
        ('<section_data ref="S1">\nRevenues 51,217 49,072', "markup"),
        ("Revenues were $51,217 million [S1]. " * 3, "repeats"),
        ("The figure is the figure is the figure is the figure is the figure is it.", "repeats"),
        (
            "Le chiffre d'affaires de Nike pour l'exercice 2022 était de 51 217 millions de "
            "dollars, selon le rapport de la société [S1].",
            "language",
        ),  # fmt: skip
    ],
)
def test_garbled_replies_count_as_unsupported(reply: str, why: str) -> None:
    assert why in garbled(reply, QUESTION)
    support = check_support(reply, SECTIONS, QUESTION, model=True)
    assert support["verdict"] == "unsupported" and support["set_aside"]


def test_the_offline_answer_and_its_notes_are_supported() -> None:
    offline = (
        "Revenues, 2022: $51,217 million [S1, p. 59]\n"
        "- Revenues increased 4% compared to the prior year, driven by higher sales in North "
        "America. [S1, p. 59]\n\n"
        "(Extractive answer from the offline engine: the lines above are copied from the "
        "document's own tables and sentences that best match the question, not a generated "
        "answer.)"
    )
    support = check_support(offline, SECTIONS, QUESTION)
    assert support["verdict"] == "supported" and support["score"] == 1.0
    assert len(support["sentences"]) == 2 and not support["flagged"]


def test_the_check_reads_the_sentences_the_offline_engine_cut(monkeypatch) -> None:
    """The app checks an offline answer with the retriever's memory: the sections' sentences
    the engine cut for the answer are not cut again, and the verdicts are the same."""
    memory = ranking.RankingMemory()
    answer, _used = extractive_answer(QUESTION, SECTIONS, memory=memory)
    cut: list[str] = []
    real = ranking.sentence_spans
    monkeypatch.setattr(ranking, "sentence_spans", lambda text: cut.append(text) or real(text))
    alone = check_support(answer, SECTIONS, QUESTION)
    assert INCOME["text"] in cut  # without the memory, the check cuts the section itself
    cut.clear()
    assert check_support(answer, SECTIONS, QUESTION, memory=memory) == alone
    assert cut == []


def test_sentences_keep_their_exact_place_in_the_answer() -> None:
    answer = "Revenues were $51,217 million [S1]. Mark Parker signed it [S1, p. 59]."
    for sentence in check_support(answer, SECTIONS, QUESTION)["sentences"]:
        assert answer[sentence["start"] : sentence["end"]] == sentence["text"]


def test_figures_read_in_prose() -> None:
    values = [(f.value, f.percent, f.year) for f in figures_in(
        "In 2019 3M spent $1.6 billion, ten percent more, on Item 7 of its 10-K (1,577)."
    )]  # fmt: skip
    assert values == [(2019, False, True), (1.6e9, False, False), (10, True, False),
                      (1577, False, False)]  # fmt: skip


def test_numbers_that_name_parts_of_the_document_are_no_figures() -> None:
    """ "NOTE 13 — …" names a note: an engine's line cited with its note's title claims no
    13; a label ending in such a word ("related items 1,972") keeps its amounts, and a
    date printed without its space ("December 31,2022") is no "31,202"."""
    texts = [
        "NOTE 13 — UNEARNED REVENUE · More Personal Computing: $4,678 million",
        "Exhibit 12.1 · Income before taxes 506 (see Note 4)",
        "Accrued compensation and related items 1,972 3,407",
        "Other items 150 200",
        "years ended December 31,2022, 2021 and 2020: $5,777 million",
    ]
    read = [[f.text for f in figures_in(t) if not f.year and not f.day] for t in texts]
    assert read == [["$4,678 million"], ["506"], ["1,972", "3,407"], ["150", "200"],
                    ["$5,777 million"]]  # fmt: skip


def test_a_result_the_app_computed_is_supported_though_printed_elsewhere_too() -> None:
    # 79,100 (employees, in S2) reads as $79.1 million at a thousands scale: a
    # coincidence, not the source of a result the app computed from the cells S1 cites.
    answer = "The change was $79.1 million [S1]."
    alone = check_support(answer, SECTIONS, QUESTION)["sentences"][0]
    assert alone["verdict"] == "partly" and "does not cite" in alone["why"]
    computed = check_support(answer, SECTIONS, QUESTION, results=["$79.1 million"])
    assert computed["sentences"][0]["verdict"] == "supported"


def test_the_computed_answers_own_refusal_is_a_note_not_a_claim() -> None:
    refusal = (
        "Net income, FY2020–FY2022: cannot be computed: the document's tables do not print "
        "net income, 2020. The cells found are below; no figure is guessed.\n"
        "- Net income, 2022: $5,727 million [S1, p. 59]\n\n"
        "(Computed by the offline engine from the table cells cited above; no model was used. "
        "Check the working against the cited pages.)"
    )
    support = check_support(refusal, SECTIONS, "What was the change in net income?")
    assert [s["verdict"] for s in support["sentences"]] == ["supported"]
    assert not support["flagged"]


def test_supporting_lines_belong_to_the_question() -> None:
    """A segment's row is named by its segment; a row of an unrelated table is dropped."""
    from treerag_core.answer.offline.extractive import extractive_answer

    sections = [
        {"ref": "S1", "label": "S1 · Item 8 > Consolidated Statements of Income, p. 40",
         "page_start": 40, "text": "(in millions) 2023 2022\nTotal revenues 13,418 12,105\n"},
        {"ref": "S2", "label": "S2 · Item 8 > Segments > Converse, p. 88", "page_start": 88,
         "text": "(in millions) 2023 2022\nRevenues 2,427 2,346\n"},
        {"ref": "S3", "label": "S3 · Item 8 > Debt, p. 90", "page_start": 90,
         "text": "(in millions) 2023 2022\nInterest expense 58 102\n"},
    ]  # fmt: skip
    text, _ = extractive_answer("What were total revenues in 2023?", sections)
    lines = text.split("\n\n")[0].splitlines()
    assert lines[0].startswith("Total revenues, 2023: $13,418 million") or "13,418" in lines[0]
    assert any(line.startswith("- Converse · Revenues") for line in lines[1:])
    assert "Interest" not in text
    assert check_support(text, sections, "What were total revenues in 2023?")["verdict"] == (
        "supported"
    )


def test_the_bench_changes_a_figure_the_way_it_was_printed() -> None:
    from bench.support import half
    from bench.support_answers import changed

    assert changed("It was $1,577 million [S1].", "$1,577") == "It was $1,735 million [S1]."
    assert changed("It was 24.6% [S1].", "24.6%") == "It was 27.1% [S1]."
    assert changed("It was 1 point [S1].", "1") == "It was 2 point [S1]."  # ×1.1 rounds back
    assert {half(f"q{n}") for n in range(20)} == {"tuned", "held out"}


BALANCE = {
    "ref": "S3",
    "label": "S3 · Item 8 > Consolidated Balance Sheets, p. 61",
    "page_start": 61,
    "lead": "May 31, 2022 2021 (in millions)",
    "text": (
        "Total current assets 28,213 26,291\n"
        "Total current liabilities 9,674 9,661\n"
        "Property, plant and equipment, net 4,791 4,904\n"
    ),
}
WORKING_QUESTION = (
    "What were Nike's FY2022 fixed asset turnover (revenue / average PP&E), working capital "
    "ratio and revenue growth?"
)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        # the computed answer's headline: the result is printed nowhere, its working is
        ("Fixed asset turnover, FY2022: 10.57 = revenue 51,217 / average PP&E "
         "((4,791 + 4,904) / 2) [S1, p. 59; S3, p. 61]", "supported"),
        ("Working capital ratio, FY2022: 2.92 = total current assets 28,213 / total current "
         "liabilities 9,674 [S3]", "supported"),
        ("Revenue growth, FY2021–FY2022: 4.4% = (51,217 − 49,072) / 49,072 [S1]", "supported"),
        # a result its working does not give: a computation stated wrongly (issue 38)
        ("Fixed asset turnover, FY2022: 11.63 = revenue 51,217 / average PP&E "
         "((4,791 + 4,904) / 2) [S1, p. 59; S3, p. 61]", "unsupported"),
        # a working right on a figure the passages do not print (one figure changed)
        ("Fixed asset turnover, FY2022: 9.58 = revenue 51,217 / average PP&E "
         "((5,791 + 4,904) / 2) [S1, p. 59; S3, p. 61]", "partly"),
    ],
)  # fmt: skip
def test_a_result_shown_with_its_working_is_supported_when_the_working_is(
    answer: str, verdict: str
) -> None:
    support = check_support(answer, [INCOME, BALANCE], WORKING_QUESTION)
    assert [s["verdict"] for s in support["sentences"]] == [verdict]


def test_a_working_is_read_as_arithmetic_on_the_figures_it_names() -> None:
    from treerag_core.text.working import evaluate, workings

    (shown,) = workings("Turnover: 10.57 = revenue 51,217 / average PP&E ((4,791 + 4,904) / 2)")
    assert shown.result.text == "10.57" and [f.value for f in shown.operands] == [51217, 4791, 4904]
    assert workings("CAGR: 7.3% = (5,000 / 4,050)^(1/3) − 1")  # a percentage of a ratio
    assert workings("Ratio: 0.6 = 1,577 / 3,154") == []  # the working gives 0.5
    assert workings("DIO = 365 × inventory 1,100 / COGS 9,000") == []  # a definition
    low, high = evaluate("DIO 30.12 + DSO 28.2 − DPO 62.02") or (0, 0)
    assert low < -3.7 < high  # figures printed with decimals may be rounded
    assert evaluate("total 350 (2022) 200") is None  # two numbers side by side: not arithmetic


CURRENT = {
    "ref": "S4",
    "label": "S4 · Item 8 > Consolidated Balance Sheets, p. 50",
    "page_start": 50,
    "lead": "May 31, 2020 2019 (in millions)",
    "text": (
        "Prepaid expenses and other current assets 402.1 497.5\n"
        "Total current assets 5,121.3 4,186.5\n"
        "Other current liabilities 1,633.3 1,367.8\n"
        "Total current liabilities 7,491.5 7,087.1\n"
    ),
}
CREDIT = {
    "ref": "S5",
    "label": "S5 · Item 1.01 Entry into a Material Definitive Agreement, p. 2",
    "page_start": 2,
    "text": (
        "On May 26, 2023, PepsiCo entered into a new $4,200,000,000 five year unsecured "
        "revolving credit agreement.\n"
        "On May 26, 2023, PepsiCo entered into a new $4,200,000,000 364 day unsecured "
        "revolving credit agreement.\n"
        "Research and development expenses 9 224 265\n"
    ),
}
RATIO_QUESTION = (
    "What is the FY2020 working capital ratio? Define it as total current assets divided by "
    "total current liabilities."
)


@pytest.mark.parametrize(
    ("answer", "question", "verdict"),
    [
        # a ratio of two rows: right, and wrong by one figure (10% more)
        ("The working capital ratio was 0.68 [S4].", RATIO_QUESTION, "supported"),
        ("The working capital ratio was 0.75 [S4].", RATIO_QUESTION, "flagged"),
        # a sum of two figures of one passage (equal ones too); one off is not supported
        ("PepsiCo may borrow $8,400,000,000 under its revolving credit agreements [S5].",
         "How much may PepsiCo borrow?", "supported"),
        ("PepsiCo may borrow $9,240,000,000 under its revolving credit agreements [S5].",
         "How much may PepsiCo borrow?", "flagged"),
        # the unit the question asks in: "$8.74" is $8.74 billion; padded cents say no more
        ("Net property, plant and equipment was $8.74 [S3].",
         "What is net PP&E? Answer in USD billions.", "flagged"),  # 4,791 million
        ("Net property, plant and equipment was $4.79 [S3].",
         "What is net PP&E? Answer in USD billions.", "supported"),
        ("Net property, plant and equipment was $4.80 [S3].",
         "What is net PP&E? Answer in USD billions.", "supported"),
        ("Net property, plant and equipment was $5.27 [S3].",
         "What is net PP&E? Answer in USD billions.", "flagged"),
        # a small amount in a table row's cells, as the offline answer copies it
        ("Research and development expenses were $9 million [S5].", "R&D expenses?",
         "supported"),
        ("Research and development expenses were $10 million [S5].", "R&D expenses?",
         "flagged"),
    ],
)  # fmt: skip
def test_figures_computed_converted_or_rounded_from_the_passages(
    answer: str, question: str, verdict: str
) -> None:
    support = check_support(answer, [INCOME, BALANCE, CURRENT, CREDIT], question)
    (sentence,) = support["sentences"]
    assert sentence["verdict"] == "supported" if verdict == "supported" else support["flagged"]


def test_a_computed_figure_confirms_only_one_of_its_kind_and_precision() -> None:
    from treerag_core.text.figures import computed

    (money,) = [f for f in figures_in("$9.57") if not f.year]
    table = figures_in("Property, plant and equipment — net 8,738 9,574")  # +9.57%
    changes = [c for c in computed(table) if c.text == "change" and money.agrees(c)]
    assert changes and not any(money.computes_to(c) for c in changes)  # money is not a % change
    (rate,) = figures_in("10%")
    wide = computed(figures_in("close 20 to 30 stores"))  # two-digit inputs: a wide band
    assert not any(rate.computes_to(c) for c in wide)
    (growth,) = figures_in("4.4%")
    assert any(growth.computes_to(c) for c in computed(figures_in("51,217 49,072")))


def test_dates_days_zeros_and_fiscal_years_are_read_as_such() -> None:
    from treerag_core.answer.claims import names_in

    days = [f.day for f in figures_in("On May 26, 2023, it borrowed $4,200,000,000")]
    assert days == [True, False, False]
    assert names_in("Revenue growth, FY2021–FY2022: 4.4% at Nike") == ["Revenue", "Nike"]
    fee = {"ref": "S1", "text": "The ABR Margin ranges from 0.00% to 0.225%."}
    assert check_support("The ABR Margin ranges from 0.00% to 0.225% [S1].", [fee],
                         "What is the ABR margin?")["verdict"] == "supported"  # fmt: skip
    assert check_support("The ABR Margin ranges from 0% to 0.5% [S1].", [fee],
                         "What is the ABR margin?")["verdict"] != "supported"  # fmt: skip


def test_the_computed_answer_with_its_working_and_note_is_supported() -> None:
    """As ``answer/computed.py`` renders it: the result, its working, each cell cited, the
    note; a constant the question defines (365) is the question's, not the document's."""
    from treerag_core.answer.offline.computed import COMPUTED_NOTE

    question = (
        "What is the FY2022 days sales in payables? Defined as 365 * total current "
        "liabilities / revenue."
    )
    answer = (
        "Days in payables, FY2022: 68.94 days = 365 × total current liabilities 9,674 / "
        "revenue 51,217 [S3, p. 61; S1, p. 59]\n"
        "- total current liabilities, 2022: 9,674 [S3, p. 61]\n"
        "- revenue, 2022: 51,217 [S1, p. 59]\n\n" + COMPUTED_NOTE
    )
    support = check_support(answer, [INCOME, BALANCE], question)
    assert support["verdict"] == "supported", support["sentences"]
    wrong = answer.replace("68.94 days", "75.83 days")
    assert check_support(wrong, [INCOME, BALANCE], question)["flagged"]
    # a right working on a constant in neither the question nor the passages
    no_constant = answer.replace("68.94 days = 365 ×", "68.00 days = 360 ×")
    assert check_support(no_constant, [INCOME, BALANCE], question)["flagged"]


MARGINS = {
    "ref": "S1",
    "label": "S1 · Item 7 > Results of Operations, p. 40",
    "page_start": 40,
    "lead": "Fiscal Year 2017 2016 2015",
    "text": (
        "Net profit margin 2.5% 3.1% 3.4%\n"
        "Total assets 87,896 86,970 90,093\n"
        "Our effective tax rate was 25% in 2017."
    ),
}


@pytest.mark.parametrize(
    ("answer", "question", "verdict"),
    [
        # a mean of two or three neighbouring cells of one row: a multi-year average
        ("The three-year average net profit margin was 3.0% [S1].",
         "What is the three-year average net profit margin?", "supported"),
        ("The three-year average net profit margin was 3.9% [S1].",
         "What is the three-year average net profit margin?", "flagged"),
        ("Average total assets were $87.4 billion [S1].",
         "What were average total assets in 2016 and 2017?", "supported"),
        ("Average total assets were $96.1 billion [S1].",
         "What were average total assets in 2016 and 2017?", "flagged"),
        # a ratio printed bare is the document's percentage
        ("The effective tax rate was 0.25 in 2017 [S1].", "What was the tax rate?",
         "supported"),
        ("The effective tax rate was 0.28 in 2017 [S1].", "What was the tax rate?",
         "flagged"),
    ],
)  # fmt: skip
def test_a_mean_of_a_rows_cells_and_a_bare_ratio_are_supported(
    answer: str, question: str, verdict: str
) -> None:
    support = check_support(answer, [MARGINS], question, model=True)
    (sentence,) = support["sentences"]
    assert sentence["verdict"] == "supported" if verdict == "supported" else support["flagged"]


def test_a_mean_is_of_neighbouring_cells_of_one_row_only() -> None:
    from treerag_core.text.figures import means

    row = figures_in("Net profit margin 2.5% 3.1% 3.4%")
    assert sorted(round(m.value, 2) for m in means(row)) == [2.8, 3.0, 3.25]
    (rate,) = figures_in("2.95%")  # the mean of the first and last cells: not neighbours
    assert not any(rate.computes_to(m) for m in means(row))
    assert not means(figures_in("Revenue 51,217 and margin 4.4%"))  # not of a kind


# Notations a right answer uses that the filing does not print (issue 38's false alarms):
# one test per rule, each with the wrong answer it must still catch.


def test_a_round_figure_may_round_the_printed_one_to_half_a_percent() -> None:
    assert verdicts("Revenues were $51,200 million in 2022 [S1].") == ["supported"]  # 51,217
    assert verdicts("Revenues were $52,000 million in 2022 [S1].") == ["unsupported"]  # 1.5% off
    assert verdicts("Revenues were $51,210 million in 2022 [S1].") == ["unsupported"]  # not round


def test_a_short_fiscal_year_is_a_year_not_a_name() -> None:
    assert verdicts("Nike's revenues were $51,217 million in FY22 [S1].") == ["supported"]
    assert verdicts("Nike's revenues were $51,217 million in FY19 [S1].") == ["partly"]


def test_words_of_a_period_are_not_terms_the_passage_must_repeat() -> None:
    assert verdicts("Employees numbered about 79,100 in fiscal year 2022 [S2].") == ["supported"]
    assert verdicts("Employees numbered about 79,100 in fiscal year 2019 [S2].") == ["partly"]


def test_a_companys_full_name_is_its_name() -> None:
    full = "NIKE, Inc. reported revenues of $51,217 million in fiscal 2022 [S1]."
    assert verdicts(full) == ["supported"]  # a legal form ("Inc.") is no name of its own
    longer = "Nike Worldwide Holdings reported revenues of $51,217 million in fiscal 2022 [S1]."
    assert verdicts(longer) == ["supported"]  # it begins with the file's company (NIKE_…)
    other = "Adidas Worldwide Holdings reported revenues of $51,217 million in fiscal 2022 [S1]."
    assert verdicts(other) == ["partly"]
    from treerag_core.answer.claims import names_in

    assert names_in("It said Amazon.com, Inc. sold more") == ["Amazon"]


def test_a_possessive_is_its_word() -> None:
    from treerag_core.answer.claims import terms_of

    assert terms_of("Best Buy's stores and the companies' don't") >= {"best", "buy", "store"}
    assert "buy'" not in terms_of("Best Buy's") and "dont" not in terms_of("don't")


def test_a_word_or_two_of_another_language_is_no_other_language() -> None:
    question = "What were Best Buy's additions to property and equipment in fiscal 2023?"
    assert garbled("According to the filing, Best Buy Co., Inc. reported $930 million [S1].",
                   question) == ""  # Slovak's "co", "to" and "the"  # fmt: skip
    assert garbled("Best Buy's figure was 1 percentage point [S1].", question) == ""  # "point"
    french = ("Selon le rapport annuel, le chiffre demandé pour Best Buy est de 930 millions, "
              "ce qui correspond aux données publiées par la société [S1].")  # fmt: skip
    assert "language" in garbled(french, question)


def test_a_garbled_reply_is_not_checked_against_the_engine() -> None:
    asked = []

    def engine() -> list:
        asked.append(1)
        return []

    support = check_support("SECTION\n\nRevenues were $99,999 million [S1].", SECTIONS,
                            QUESTION, model=True, engine=engine)  # fmt: skip
    assert support["set_aside"] and support["verdict"] == "unsupported" and not asked
    # nothing is looked up for a garbled reply: each sentence is unsupported, none quoted
    assert [(r["verdict"], r["support"], r["missing"]) for r in support["sentences"]] == [
        ("unsupported", None, []),
        ("unsupported", None, ["$99,999 million"]),
    ]
    assert all(r["why"].startswith("the reply is garbled") for r in support["sentences"])
    check_support("Revenues were $99,999 million [S1].", SECTIONS, QUESTION, model=True,
                  engine=engine)  # fmt: skip
    assert asked == [1]


def test_a_figure_in_the_cited_sections_part_left_out_of_its_excerpt_is_supported() -> None:
    from treerag_core.answer.support_given import whole_sections

    top = "Fiscal 2020 2019\nNet sales $ 519,926 $ 510,329\n"  # the part its excerpt left out
    node = {"text": top + "The rest of the section." + " x" * 300, "page_start": 36,
            "page_marks": [[len(top) + 10, 37]]}  # fmt: skip
    excerpt = {"ref": "S1", "text": "[… 47 characters before]\nThe rest of the section.",
               "page_start": 36}  # fmt: skip
    printing = {"ref": "S2", "text": "Net sales 519,926 510,329", "page_start": 30}
    references = [{"ref": "S1", "doc_id": "d", "page_unit": "page",
                   "spans": [{"node_id": "n", "start": len(top), "end": 90}]}]  # fmt: skip
    whole = whole_sections(references, {"d": {"flat_nodes": {"n": node}}})
    answer = "Net sales were $510,329 million in fiscal 2019 [S1]."
    support = check_support(answer, [excerpt, printing], "Net sales?", whole=whole)
    (sentence,) = support["sentences"]
    assert sentence["verdict"] == "supported" and sentence["support"]["page"] == 36
    without = check_support(answer, [excerpt, printing], "Net sales?")
    assert without["sentences"][0]["verdict"] == "partly"  # in a section it does not cite
    changed = check_support("Net sales were $561,362 million [S1].", [excerpt, printing],
                            "Net sales?", whole=whole)  # fmt: skip
    assert changed["sentences"][0]["verdict"] == "unsupported"


def test_a_small_figure_left_out_of_the_excerpt_is_found_on_the_row_the_sentence_names():
    # Two digits are no evidence anywhere in a long section (a "78" is printed by chance),
    # but on the line "Other accrued expenses 76 78", every word of which the sentence
    # says, they are the row's cell (the offline engine cites such cells by their page).
    top = "(in millions) 2017 2016\nOther accrued expenses 76 78\n"
    rest = "Accrued interest was 61 in total, as in 2015. " * 4
    node = {"text": top + rest, "page_start": 85}
    excerpt = {"ref": "S1", "text": f"[… {len(top)} characters before]\n{rest}", "page_start": 85}
    whole = lambda ref: [node] if ref == "S1" else []  # noqa: E731
    answer = "Other accrued expenses, 2016: $78 million [S1, p. 85]"
    support = check_support(answer, [excerpt], "Other accrued expenses?", whole=whole)
    assert support["sentences"][0]["verdict"] == "supported"
    other = "Other operating charges, 2016: $78 million [S1, p. 85]"  # not the row's words
    support = check_support(other, [excerpt], "Other operating charges?", whole=whole)
    assert support["sentences"][0]["verdict"] != "supported"


def test_a_multiple_and_points_are_read_as_figures() -> None:
    ratio = {"ref": "S1", "text": "Total current assets 4,371\nTotal current liabilities 2,498"}
    question = "What was the current ratio?"
    assert check_support("The current ratio was 1.75x [S1].", [ratio], question,
                         model=True)["verdict"] == "supported"  # 4,371 / 2,498  # fmt: skip
    assert check_support("The current ratio was 1.93x [S1].", [ratio], question,
                         model=True)["flagged"]  # fmt: skip
    assert [(f.value, f.percent) for f in figures_in("up 1.1 pp, or 110 bps")] == [
        (1.1, True),
        (1.1, True),
    ]


def test_a_figures_currency_and_unit_are_no_names() -> None:
    assert verdicts("Nike's revenues were US$51.2bn in fiscal 2022 [S1].") == ["supported"]
    assert verdicts("Nike's revenues were $51.2B in fiscal 2022 [S1].") == ["supported"]
    assert verdicts("Adidas's revenues were $51.2B in fiscal 2022 [S1].") == ["partly"]


def test_a_growth_rate_may_be_stated_as_a_bare_ratio() -> None:
    assert verdicts("Revenues grew 0.044 over 2021 [S1].") == ["supported"]  # 4.37%
    assert verdicts("Revenues grew 0.061 over 2021 [S1].") == ["unsupported"]


def test_sentences_end_at_a_stop_not_at_an_abbreviation() -> None:
    from treerag_core.answer.claims import answer_sentences

    said = "As of Jan. 31, 2020, it had 11,501 stores (Fig. 3) [S1]. It grew [S2]."
    assert [s.text for s in answer_sentences(said)] == [
        "As of Jan. 31, 2020, it had 11,501 stores (Fig. 3) [S1].", "It grew [S2]."
    ]  # fmt: skip


def test_citations_after_a_stop_are_the_sentence_befores() -> None:
    answer = "Nike had about 79,100 employees. [S2] Revenues were $51,217 million [S1]."
    assert verdicts(answer) == ["supported", "supported"]
    support = check_support(answer, SECTIONS, QUESTION)
    assert [s["refs"] for s in support["sentences"]] == [["S2"], ["S1"]]
    wrong = "Nike had about 79,100 employees. [S1] Revenues were $51,217 million [S1]."
    assert verdicts(wrong)[0] == "partly"  # its figure is in S2, which it does not cite


def test_the_bench_restates_a_right_answer_as_people_write_it() -> None:
    from bench.support_answers import restated

    item = {"company": "NIKE", "answer": "$51,217 million", "question": "Revenue in 2022?"}
    out = restated(item, "NIKE's figure for this was $51,217 million [S1].", "S1")
    texts = {kind: [t for k, t, _ in out if k == kind] for kind in ("notation", "name", "date")}
    assert texts["notation"][0] == "NIKE's figure for this was $51.2 billion [S1]."
    assert texts["name"][0] == "Nike, Inc.'s figure for this was $51,217 million [S1]."
    assert texts["date"][0] == "NIKE's figure for this was $51,217 million for FY22 [S1]."
    assert ("sentence", "In short: $51,217 million. [S1]",
            "In short: $56,339 million. [S1]") in out  # fmt: skip
    for _kind, text, wrong in out:
        assert wrong is None or wrong != text
    assert verdicts(texts["notation"][0]) == verdicts(texts["name"][0]) == ["supported"]


INVENTORY = {
    "ref": "S6",
    "label": "S6 · Item 8 > Balance sheets and income, p. 60",
    "page_start": 60,
    "lead": "May 31, 2022 2021 (in millions)",
    "text": "Cost of sales 28,925 27,004\nInventories 8,420 6,854",
}


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        # cost of sales over the mean of two years' inventories: 28,925 / 7,637
        ("Inventory turnover was 3.79 in fiscal 2022 [S6].", "supported"),
        ("Inventory turnover was 4.17 in fiscal 2022 [S6].", "flagged"),
        ("Inventory turnover was 3.8 in fiscal 2022 [S6].", "flagged"),  # two digits: chance
        # revenues 46,710 → 51,217 over two years: (51,217 / 46,710) ** (1 / 2) - 1
        ("Revenue CAGR from 2020 to 2022 was 4.7% [S1].", "supported"),
        ("Revenue CAGR from 2020 to 2022 was 5.5% [S1].", "flagged"),
        # net income's rate over the same years is not revenue's
        ("Revenue CAGR from 2020 to 2022 was 16.2% [S1].", "flagged"),
    ],
)  # fmt: skip
def test_ratios_on_average_balances_and_multi_year_growth_are_computed(
    answer: str, verdict: str
) -> None:
    question = "What are Nike's FY2022 inventory turnover and FY2020-FY2022 revenue CAGR?"
    support = check_support(answer, [INCOME, INVENTORY], question)
    (sentence,) = support["sentences"]
    assert sentence["verdict"] == "supported" if verdict == "supported" else support["flagged"]
