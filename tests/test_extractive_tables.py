"""Tables as data: generated statement text read back into rows, columns and units, and
answered from (multi-year columns, units lines, negatives in parentheses, wrapped labels)."""

from __future__ import annotations

from treerag_core.answer.offline.extractive import OFFLINE_NOTE, extractive_answer
from treerag_core.text.numbers import header_cells, parse_cell
from treerag_core.text.tables import split_row, table_rows

CASH_FLOWS = """Consolidated Statement of Cash Flows
Years ended December 31
(Millions) 2018 2017 2016
Net income including noncontrolling interest $ 5,363 $ 4,869 $ 5,058
Depreciation and amortization 1,488 1,544 1,474
Net cash provided by (used in)
operating activities 6,439 6,240 6,662
Purchases of property, plant and
equipment (PP&E) (1,577) (1,373) (1,420)
Acquisitions, net of cash acquired 13 (2,023) (16)
Restructuring charges — 12 (3)"""


def first_line(answer: str) -> str:
    return answer.splitlines()[0]


def section(text: str, ref: str = "S1", page: int = 60) -> dict:
    return {"label": f"{ref} · Statements, p. {page}", "text": text, "ref": ref, "page_start": page}


def test_cells_negatives_currency_dashes_and_percentages():
    assert parse_cell("(1,577)").value == -1577 and parse_cell("(1,577)").negative
    assert parse_cell("$5,363").currency == "$" and parse_cell("$5,363").value == 5363
    assert parse_cell("12.5%").percent and parse_cell("—").value is None
    assert parse_cell("(1") is None and parse_cell("3)") is None  # footnote marks, not cells
    label, cells = split_row("Net income $ 3,033 $ 10,073 $ 11,588")
    assert label == "Net income" and [c.text for c in cells] == ["$3,033", "$10,073", "$11,588"]
    label, cells = split_row("Revenues $ 39,117 $ 36,397 7 % $ 34,350 6 %")
    assert [c.percent for c in cells] == [False, False, True, False, True]
    # PDF text sometimes puts a space inside the parentheses
    assert [c.value for c in split_row("Additions (28,107 ) (23,886 )")[1]] == [-28107, -23886]


def test_a_row_label_keeps_its_words_and_dates():
    # a cell after "and" is part of the label's prose; a leading year is the label
    label, cells = split_row("Translation adjustments, net of tax of $5, $6, and $(5) 533 (538) 78")
    assert label.endswith("and $(5)") and len(cells) == 3
    assert split_row("2024 1,097 862")[0] == "2024"
    assert split_row("Balance as of December 31, 2018 491 5 (1,837)")[0].endswith("2018")
    assert split_row("Years ended December 31") is None  # a date, not a one-cell row
    assert split_row("Employment increased 1,980 positions in 2018 and fell in 2017.") is None


def test_header_lines_of_periods():
    assert [y for _, y in header_cells("(Millions) 2018 2017 2016")] == [2018, 2017, 2016]
    assert header_cells("February 2, 2019 February 3, 2018") == [
        ("February 2, 2019", 2019),
        ("February 3, 2018", 2018),
    ]
    change = header_cells("(Millions, except percentages) 2022 2021 2022 vs. 2021")
    assert change == [("2022", 2022), ("2021", 2021), ("2022 vs. 2021", None)]
    assert header_cells("Revenue grew 7% in 2019 after a weak 2018 for the whole group.") is None
    assert header_cells("2024 1,097 862") is None


def test_multi_year_columns_units_negatives_and_wrapped_labels():
    rows = {r.label: r for r in table_rows(CASH_FLOWS)}
    capex = rows["Purchases of property, plant and equipment (PP&E)"]  # wrapped over two lines
    assert [c.value for c in capex.cells] == [-1577, -1373, -1420]
    assert capex.years == [2018, 2017, 2016] and capex.unit == "million"
    assert capex.currency == "$"  # printed on the table's first row only
    assert "Net cash provided by (used in) operating activities" in rows  # lower-case wrap
    assert capex.caption.startswith("Consolidated Statement of Cash Flows")


def test_the_asked_period_column_labelled_with_unit_and_cited():
    answer, used = extractive_answer(
        "What were the capital expenditures in 2017?", [section(CASH_FLOWS)]
    )
    assert first_line(answer) == (
        "Purchases of property, plant and equipment (PP&E), 2017: -$1,373 million [S1, p. 60]"
    )
    assert OFFLINE_NOTE in answer and used == [0]


def test_a_comparison_shows_the_neighbouring_columns():
    answer, _ = extractive_answer(
        "How did depreciation and amortization change between 2017 and 2018?",
        [section(CASH_FLOWS)],
    )
    assert first_line(answer).startswith(
        "Depreciation and amortization: 2018 $1,488 million; 2017 $1,544 million"
    )


def test_units_lines_and_thousands():
    text = "Selected data\n(in thousands)\n2023 2022\nMembers 12,400 11,900\nRevenue $ 950 $ 870"
    answer, _ = extractive_answer("What was revenue in 2023?", [section(text)])
    assert first_line(answer).startswith("Revenue, 2023: $950 thousand")


def test_an_empty_asked_cell_is_not_an_answer():
    answer, _ = extractive_answer("What were restructuring charges in 2018?", [section(CASH_FLOWS)])
    assert not first_line(answer).startswith("Restructuring charges, 2018")


def test_a_header_cut_off_by_the_excerpt_comes_from_the_lead():
    head, rows = CASH_FLOWS.split("Depreciation and amortization", 1)
    cut = {**section("Depreciation and amortization" + rows), "lead": head}
    answer, _ = extractive_answer("What was depreciation and amortization in 2016?", [cut])
    assert first_line(answer).startswith("Depreciation and amortization, 2016: $1,474 million")


def test_percent_change_columns_and_change_headers_are_skipped():
    text = (
        "(Dollars in millions) FISCAL 2019 FISCAL 2018 % CHANGE FISCAL 2017 % CHANGE\n"
        "Revenues $ 39,117 $ 36,397 7 % $ 34,350 6 %\n"
        "(Millions) 2022 2021 2022 vs. 2021\n"
        "Card Member loans 107,964 88,562 19,402 22 %"
    )
    rows = {r.label: r for r in table_rows(text)}
    assert rows["Revenues"].years == [2019, 2018, None, 2017, None]
    assert rows["Card Member loans"].years[:2] == [2022, 2021]
    answer, _ = extractive_answer("What were revenues in fiscal 2017?", [section(text)])
    assert first_line(answer).startswith("Revenues, 2017: $34,350 million")


def test_a_row_per_year_and_the_highest_row():
    payments = (
        "The benefit payments to retirees are expected to be paid as follows:\n"
        "(dollars in millions)\nYear Pension Benefits Health Care and Life\n"
        "2022 $ 2,049 $ 906\n2023 1,648 883\n2024 1,097 862\n"
    )
    answer, _ = extractive_answer(
        "How much are benefit payments to retirees expected to be in 2024?", [section(payments)]
    )
    assert first_line(answer).startswith("2024: $1,097 million | $862 million")
    notional = (
        "The notional amounts of our derivative instruments:\n(dollars in millions)\n"
        "At December 31, 2021 2020\nInterest rate swaps $ 19,779 $ 17,768\n"
        "Cross currency swaps 32,502 26,288\nForeign exchange forwards 932 1,405\n"
    )
    answer, _ = extractive_answer(
        "Which derivative instrument had the highest notional amount in 2021?", [section(notional)]
    )
    assert first_line(answer).startswith(
        "Highest: Cross currency swaps, December 31, 2021: $32,502"
    )


def test_a_row_cites_its_own_page():
    text = "Intro line one.\n" + CASH_FLOWS
    page_two = text.index("Purchases of property")
    long_section = {**section(text, page=59), "page_marks": [[page_two, 60]]}
    answer, _ = extractive_answer("What were capital expenditures in 2018?", [long_section])
    assert first_line(answer).endswith("[S1, p. 60]")


def test_prose_has_no_rows_and_a_row_followed_by_spaces_is_still_one():
    # table_rows skips texts none of whose lines can end in a cell, without reading them;
    # a lead's rows are never returned, so the skip looks at the text alone.
    lead = "(in millions)\n2018 2017\nNet sales 1,200 1,100"
    assert table_rows("Revenue grew in the year.\nMargins held.", lead) == []
    rows = table_rows("Revenue grew in the year.\nNet sales 1,234 1,100 \t\r\nMargins held.", lead)
    assert [(r.label, [c.value for c in r.cells]) for r in rows] == [
        ("Net sales", [1234.0, 1100.0])
    ]
