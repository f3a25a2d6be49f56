"""Whole sentences, chosen for the question's kind: line-broken and hyphenated sentences
re-joined, a count with its noun for "how many", a date for "when", a name for "who", and
never a fragment, a repeat or boilerplate."""

from __future__ import annotations

import pytest

from treerag_core.answer.offline.extractive import NO_MATCH_NOTE, extractive_answer
from treerag_core.answer.offline.question import read_question
from treerag_core.text.sentences import sentence_spans, split_sentences

WRAPPED = (
    "Human capital\n"
    "As of June 30, 2023, we employed approximately 221,000 people on a full-time basis, 120,000 in the\n"
    "United States and 101,000 internationally. Our manu-\n"
    "facturing sites sit in the U.S. and Ireland and work under long-\n"
    "term contracts with our suppliers and partners across many regions.\n"
    "Net sales 10 20\n"
)


def first_line(answer: str) -> str:
    return answer.splitlines()[0]


def section(text: str, ref: str = "S1") -> dict:
    return {"label": f"{ref} · Report", "text": text, "ref": ref}


def test_line_broken_and_hyphenated_sentences_are_rejoined():
    sentences = split_sentences(WRAPPED)
    assert sentences[1] == (
        "As of June 30, 2023, we employed approximately 221,000 people on a full-time basis, "
        "120,000 in the United States and 101,000 internationally."
    )  # the next line starts with a capital, but this one ran to the page width
    assert sentences[2].startswith("Our manufacturing sites sit in the U.S. and Ireland")
    assert "long-term contracts" in sentences[2]  # a compound keeps its hyphen
    assert sentences[0] == "Human capital" and sentences[-1] == "Net sales 10 20"


def test_sentence_offsets_point_into_the_text():
    for sentence, offset in sentence_spans(WRAPPED):
        assert WRAPPED[offset:].startswith(sentence.split()[0])


def test_how_many_wants_a_count_with_its_noun():
    text = (
        "About 3,700 of our employees in North America are covered by collective agreements.\n"
        "Employees complete 30 hours of training every year on average.\n"
        "As of December 31, 2017, our Company had approximately 61,800 employees.\n"
    )
    answer, _ = extractive_answer(
        "How many employees did the company have in 2017?", [section(text)]
    )
    assert first_line(answer).startswith(
        "As of December 31, 2017, our Company had approximately 61,800"
    )


def test_when_wants_a_date_and_who_wants_a_name():
    text = (
        "The merger agreement was a major step for the combined group.\n"
        "The merger closed on March 4, 2021, after regulatory approval.\n"
        "The audit of the merger accounts was performed by Deloitte & Touche LLP this year.\n"
    )
    when, _ = extractive_answer("When did the merger close?", [section(text)])
    assert first_line(when).startswith("The merger closed on March 4, 2021")
    who, _ = extractive_answer("Who audited the merger accounts?", [section(text)])
    assert "Deloitte & Touche LLP" in first_line(who)


def test_never_fragments_repeats_or_boilerplate():
    fragment = "[… 2,000 characters before]\nrevenue grew because prices rose in every market.\n"
    boiler = (
        "This report contains forward-looking statements about revenue and growth.\n"
        "Revenue grew 12% to $4.2 billion in 2023, driven by higher prices.\n"
    )
    answer, used = extractive_answer(
        "How did revenue grow in 2023?", [section(fragment + boiler), section(boiler, "S2")]
    )
    lines = [line for line in answer.splitlines() if line.strip()][:-1]
    assert lines[0] == "Revenue grew 12% to $4.2 billion in 2023, driven by higher prices. [S1]"
    assert not any("forward-looking" in line or "revenue grew because" in line for line in lines)
    assert len(lines) == 1 and used == [0]  # the same sentence in S2 is not repeated


def test_a_two_part_question_gets_a_line_for_each_part():
    text = "The widget costs 49 EUR in every shop.\nThe warranty lasts 24 months from purchase.\n"
    answer, _ = extractive_answer(
        "How much does the widget cost and how long is the warranty?", [section(text)]
    )
    assert "49 EUR" in answer and "24 months" in answer


def test_nothing_relevant_says_so():
    answer, used = extractive_answer("zebra quantum flux?", [section(WRAPPED)])
    assert answer.startswith(NO_MATCH_NOTE) and used == []


def test_reading_a_question():
    q = read_question(
        "What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a "
        "response by relying on the details shown in the cash flow statement."
    )
    assert q.kind == "amount" and q.years == [2018] and q.statements
    assert ["capital", "expenditur"] == q.metric[:2] and q.phrases  # synonyms detected
    q = read_question("How did Walmart's net sales change between fiscal 2019 and fiscal 2020?")
    assert q.compare and q.years == [2019, 2020] and "walmart" in q.names
    assert "chang" not in q.metric
    assert read_question("Which segment had the highest revenue in 2022?").superlative == "max"
    assert read_question("How many Sam's Club units were in the U.S. in 2020?").kind == "count"


def test_a_dates_month_is_no_name_and_a_terms_adjective_no_superlative():
    """ "March" in "12 weeks ended March 25, 2023" is capitalised as a month: counted as a name
    asked about, it diluted the bonus of the segment's row the question names ("PepsiCo
    Beverages North America") and gave one to any row dated "December 31". "Minimum" in
    "future minimum lease payments" names the term, not the least of a table's rows."""
    q = read_question(
        "What net revenue did PepsiCo Beverages North America report for the first quarter "
        "of 2023 (12 weeks ended March 25, 2023)?"
    )
    assert q.subjects == ["america", "beverag", "north", "pepsico"] and q.years == [2023]
    assert "march" not in q.metric
    q = read_question(
        "What was the total of 3M's future minimum lease payments under non-cancelable "
        "operating leases as of December 31, 2018?"
    )
    assert not q.superlative and not q.names and q.years == [2018]
    assert read_question("How do I fit a curve by nonlinear least squares?").superlative == ""
    assert (
        read_question("What was the largest liability in Amex's 2022 balance sheet?").superlative
        == "max"
    )
    assert read_question("Which of them brought in the most cash in FY2023?").superlative == "max"
    assert read_question("Which region had its lowest margin in 2021?").superlative == "min"


def test_typographic_punctuation_does_not_change_a_sentence_s_stems() -> None:
    """A filing sets "Company’s" with a curly quote; the question is typed in ASCII. Both
    stem "liabilities" alike (it was "liabiliti" in any sentence holding a curly quote)."""
    from treerag_core.answer.offline.question import stems

    typed = stems("The Company's total liabilities - current - increased")
    printed = stems("The Company’s total liabilities – current – increased")
    assert printed == typed
    assert "liability" in printed


GOODWILL_ASKED = (
    "How much goodwill did General Mills record on its fiscal 2022 acquisition of Tyson Foods'"
    " pet treats business?"
)
GOODWILL_STATED = (
    "We consolidated Tyson Foods' pet treats business into our Consolidated Balance Sheets and"
    " recorded goodwill of $762.3 million, indefinite-lived intangible assets for the Nudges,"
    " Top Chews, and True Chews brands totaling $330.0 million in aggregate, and a finite-lived"
    " customer relationship asset of $40.0 million.\n"
)


@pytest.mark.parametrize(
    "rival",
    [
        # names the deal and the year but gives no amount: "(b)" is a footnote's marker
        "(b) Acquisition of Tyson Foods' pet treats business in fiscal 2022.\n",
        # the price paid, right after the business's name: the goodwill's figure comes right
        # after the metric's head ("goodwill"), though the sentence names the business first
        "During the first quarter of fiscal 2022, we acquired Tyson Foods' pet treats business"
        " for $1.2 billion in cash.\n",
    ],
    ids=["footnote", "price paid"],
)
def test_the_sentence_stating_the_asked_goodwill_leads(rival: str) -> None:
    answer, _ = extractive_answer(GOODWILL_ASKED, [section(rival + GOODWILL_STATED)])
    assert "$762.3 million" in first_line(answer)


def test_a_metric_named_twice_is_named_by_either_wording():
    """Asked for "demand creation (advertising and promotion)": the statement's row printing
    the first wording answers, though it does not say the second; sentences saying both,
    about another year or about what the expense is, do not."""
    statement = (
        "NIKE, Inc. Consolidated Statements of Income\n(In millions) 2018 2017 2016\n"
        "Revenues $ 36,397 $ 34,350 $ 32,376\n"
        "Cost of sales 20,441 19,038 17,405\n"
        "Demand creation expense 3,577 3,341 3,278\n"
        "Operating overhead expense 7,934 7,222 7,191\n"
    )
    discussion = (
        "Demand creation expense increased 2% for fiscal 2017 compared to fiscal 2016, driven "
        "by higher sports marketing costs, as well as higher marketing and advertising costs.\n"
        "Demand creation expense consists of advertising and promotion costs, including costs "
        "of endorsement contracts, complimentary product, television, digital and print "
        "advertising.\n"
    )
    question = "How much did Nike spend on demand creation (advertising and promotion) in 2018?"
    phrases = read_question(question).phrases
    assert ["advertis", "promot"] in phrases and ["spend", "demand", "creat"] in phrases
    sections = [
        {"label": "S1 · Consolidated Statements of Income", "text": statement, "ref": "S1"},
        {"label": "S2 · Selling and administrative expense", "text": discussion, "ref": "S2"},
    ]
    answer, _ = extractive_answer(question, sections)
    assert first_line(answer).startswith("Demand creation expense, 2018: $3,577 million")


def test_a_sentence_naming_the_asked_part_beats_the_companys_total():
    """A segment the question names ("Converse") counts in a sentence as in a row's label:
    the sentence giving Converse's revenues, not the company's total row."""
    table = (
        "(Dollars in millions) Fiscal 2018 Fiscal 2017\n"
        "Revenues $ 36,397 $ 34,350\n"
        "Cost of sales 20,441 19,038\n"
    )
    text = "On a currency-neutral basis, revenues for Converse declined 11% for fiscal 2018, to $1,886 million.\n"
    sections = [
        {"label": "S1 · Results", "text": table, "ref": "S1"},
        {"label": "S2 · Converse", "text": text, "ref": "S2"},
    ]
    answer, _ = extractive_answer("What were Converse's revenues in fiscal 2018?", sections)
    assert "$1,886 million" in first_line(answer)


@pytest.mark.parametrize(
    "question",
    [
        "Why did gross margin fall in fiscal 2023?",
        "What drove the decline in gross margin in fiscal 2023?",
        "Warum ist die Bruttomarge (gross margin) im Geschäftsjahr 2023 gesunken?",
    ],
)
def test_a_why_question_is_answered_by_the_sentence_giving_the_cause(question):
    """A reason is said in a sentence: the table row printing the margin is no answer to
    why it fell, and no change is computed from it."""
    text = (
        "Results of operations\n"
        "(Dollars in millions) 2023 2022\n"
        "Gross margin 43.5 % 46.0 %\n"
        "Gross profit $ 22,292 $ 21,479\n"
        "Fiscal 2023 gross margin decreased 250 basis points to 43.5%, primarily due to higher "
        "product costs and unfavorable changes in foreign currency exchange rates.\n"
        "We expect gross margin to be a focus of our investors in fiscal 2024.\n"
    )
    assert read_question(question).kind == "reason"
    answer, _ = extractive_answer(question, [section(text)])
    assert first_line(answer).startswith("Fiscal 2023 gross margin decreased 250 basis points")
