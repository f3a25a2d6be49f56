"""Tables kept as data and answers computed from their cells, offline, on a generated filing.

The PDF is drawn here with known statements (a wrapped label, parenthesised outflows, units
lines, a balance sheet without the earliest year, a zero row), indexed as a user indexes a
file, and asked the questions people ask of such filings: a ratio, a growth rate, a margin,
an average over three years, a CAGR, a metric defined in the question, one whose operand
the document lacks, and one that would divide by zero.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from fpdf import FPDF

from testkit.builders import statements_pdf
from treerag_core import ask, get_document_by_id, index_document, make_retriever, make_summarizer
from treerag_core.answer.offline.asks import definitions, read_ask
from treerag_core.text.formula import Operand, parse
from treerag_core.text.table_data import document_tables, row_path, tables_of


@pytest.fixture(scope="module")
def filing(tmp_path_factory):
    folder = tmp_path_factory.mktemp("filing")
    path = folder / "acme_10k.pdf"
    statements_pdf(path)
    registry = str(folder / "indexed_docs.json")
    doc = index_document(
        str(path), summarizer=make_summarizer(None), registry_path=registry, verbose=False
    )
    return doc, registry


def _answer(filing, question: str) -> str:
    doc, _registry = filing
    return ask(question, doc, make_retriever(None)).content


def _rows(doc) -> dict[str, dict]:
    return {row_path(r): {**r, "table": t} for t in doc["tables"] for r in t["rows"]}


def test_tables_are_kept_as_rows_and_columns_with_parents_units_and_pages(filing) -> None:
    doc, registry = filing
    rows = _rows(doc)
    inventories = rows["Current assets › Inventories"]
    assert [c["value"] for c in inventories["cells"]] == [90, 70]
    assert inventories["years"] == [2023, 2022]  # the balance sheet has no 2021
    assert inventories["unit"] == "million" and inventories["page"] == 2
    capex = rows["Purchases of property, plant and equipment"]  # the wrapped label re-joined
    assert [c["value"] for c in capex["cells"]] == [-90, -70, -60]  # parenthesised: negative
    assert capex["page"] == 3
    sales = rows["Net sales"]
    assert sales["currency"] == "$" and sales["table"]["columns"][0] == {
        "label": "2023",
        "year": 2023,
    }
    # kept with the document in its store, and the same when read back or rebuilt
    stored = get_document_by_id(doc["doc_id"], registry)
    assert stored["tables"] == doc["tables"]
    # rebuilt from the sections alone, the same
    assert document_tables(stored["flat_nodes"]) == doc["tables"]
    assert tables_of({"flat_nodes": stored["flat_nodes"]}) == doc["tables"]


@pytest.mark.parametrize(
    ("question", "headline"),
    [
        ("What was the current ratio at the end of 2023?", "Current ratio, FY2023: 1.60 ="),
        (
            "By how much did net sales grow from 2022 to 2023, in percent?",
            "Net sales, FY2022–FY2023: 20.0% =",
        ),
        ("What was the gross margin in 2023?", "Gross margin, FY2023: 41.7% ="),
        (
            "What was the three-year average net profit margin from 2021 to 2023?",
            "3-year average Net profit margin, FY2021–FY2023: 11.5% =",
        ),
        (
            "What was the 2-year CAGR of net sales from 2021 to 2023?",
            "Net sales CAGR, FY2021–FY2023: 22.5% =",
        ),
        (
            "What was free cash flow in 2023? Answer in USD millions.",
            # the units line names no currency, so none is printed
            "Free cash flow, FY2023: 170 million = cash from operations 260 − capital "
            "expenditures 90 [S1, p. 3]",
        ),
        ("What was the effective tax rate in 2023?", "Effective tax rate, FY2023: 25.0% ="),
        (
            "What was the dividend payout ratio in 2023? Round to two decimal places.",
            "Dividend payout ratio, FY2023: 0.30 =",
        ),
        (
            "What was the working capital in 2022?",
            "Net working capital, FY2022: $150 million = total current assets 350 − total "
            "current liabilities 200",
        ),
        (
            "What was the change in operating income from 2021 to 2023?",
            "Operating income, FY2021–FY2023: $120 million",
        ),
    ],
)
def test_each_metric_kind_leads_with_the_result_and_shows_its_working(
    filing, question: str, headline: str
) -> None:
    answer = _answer(filing, question)
    first = answer.splitlines()[0]
    assert first.startswith(headline), first
    assert "[S" in first and "p. " in first  # every operand cited with its page
    assert "Computed by the offline engine" in answer


def test_a_definition_in_the_question_wins_and_each_cell_is_cited(filing) -> None:
    answer = _answer(
        filing,
        "What is the FY2023 days sales outstanding (DSO)? DSO is defined as: 365 * (average "
        "accounts receivable between FY2022 and FY2023) / (FY2023 net sales). Round your "
        "answer to two decimal places.",
    )
    lines = answer.splitlines()
    assert lines[0] == (
        "DSO, FY2023: 36.50 days = 365 × average accounts receivable ((110 + 130) / 2) / net "
        "sales 1,200 [S1, p. 2; S2, p. 1]"
    )
    cited = [ln for ln in lines if ln.startswith("- ")]
    assert any("Accounts receivable, net, 2022: $110 million [S" in ln for ln in cited)
    assert any("Net sales, 2023: $1,200 million" in ln and "p. 1]" in ln for ln in cited)


def test_a_period_the_document_lacks_is_named_and_nothing_is_guessed(filing) -> None:
    answer = _answer(
        filing,
        "What is the FY2022 inventory turnover ratio? Inventory turnover ratio is defined as: "
        "(FY2022 cost of sales) / (average inventory between FY2021 and FY2022).",
    )
    first = answer.splitlines()[0]
    assert "cannot be computed" in first and "inventory, 2021" in first
    assert "Inventories, 2022: $70 million" in answer  # the cells found are shown
    assert not any(ch.isdigit() for ch in first.split(":", 1)[1].split("inventory, 2021")[0])


def test_a_division_by_zero_is_a_sentence_not_a_number(filing) -> None:
    answer = _answer(filing, "What was the interest coverage in 2023?")
    assert answer.splitlines()[0] == (
        "Interest coverage, FY2023: cannot be computed: it would divide by zero "
        "(interest expense 0 is 0)."
    )


def test_a_printed_figure_is_still_copied_from_its_row(filing) -> None:
    answer = _answer(filing, "What were net sales in 2023?")
    assert answer.splitlines()[0].startswith("Net sales, 2023: $1,200 million")
    assert "Extractive answer" in answer


def test_formulas_and_definitions_are_read_as_written() -> None:
    expr = parse(
        "365 * (average accounts payable between FY2016 and FY2017) / (FY2017 COGS + change in "
        "inventory between FY2016 and FY2017)"
    )
    assert expr == (
        "/",
        ("*", Decimal(365), Operand("accounts payable", "average", (2016, 2017))),
        ("+", Operand("COGS", "value", (2017,)), Operand("inventory", "change", (2016, 2017))),
    )
    assert parse("EBITDA less capex", (2022,)) == (
        "-",
        Operand("EBITDA", "value", (2022,)),
        Operand("capex", "value", (2022,)),
    )
    defs = definitions(
        "What is the CCC? CCC is defined as: DIO + DSO - DPO. Define net working capital as "
        "total current assets less total current liabilities."
    )
    assert defs == {
        "ccc": "DIO + DSO - DPO",
        "net working capital": "total current assets less total current liabilities",
    }
    assert read_ask("What were net sales in 2023?") is None  # printed: copied, not computed
    average = read_ask("What is the FY2015 - FY2017 3 year average net profit margin (as a %)?")
    assert average is not None and average.average and average.years == (2015, 2016, 2017)


SHEET_ROWS = [
    ["Metric", "2021", "2022", "2023"],
    ["Revenue", 1000, 1200, 1500],
    ["Cost of sales", 600, 700, 850],
    ["Net income", -20, 90, 150],
    ["Total current assets", 300, 350, 400],
    ["Total current liabilities", 200, 250, None],  # the 2023 figure is missing
]


def _sheet_document(tmp_path, kind: str):
    if kind == "csv":
        path = tmp_path / "company_results.csv"
        lines = [",".join("" if v is None else str(v) for v in row) for row in SHEET_ROWS]
        path.write_text("\n".join(lines) + "\n")
    else:
        from openpyxl import Workbook

        book = Workbook()
        sheet = book.active
        sheet.title = "Results"
        for row in SHEET_ROWS:
            sheet.append(row)
        path = tmp_path / "company_results.xlsx"
        book.save(path)
    registry = str(tmp_path / "indexed_docs.json")
    return index_document(
        str(path), summarizer=make_summarizer(None), registry_path=registry, verbose=False
    )


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_sheets_are_tables_and_answer_computed_questions(tmp_path, kind: str) -> None:
    doc = _sheet_document(tmp_path, kind)
    rows = _rows(doc)
    assert [c["value"] for c in rows["Net income"]["cells"]] == [-20, 90, 150]
    assert rows["Net income"]["years"] == [2021, 2022, 2023]
    assert rows["Total current liabilities"]["cells"][2]["value"] is None

    def first(question: str) -> str:
        return ask(question, doc, make_retriever(None)).content.splitlines()[0]

    assert first("What was the revenue growth from 2021 to 2023, in percent?").startswith(
        "Revenue, FY2021–FY2023: 50.0% = (revenue 1,500 − revenue 1,000) / revenue 1,000 [S1"
    )
    assert first("What was the current ratio in 2022?").startswith(
        "Current ratio, FY2022: 1.40 = total current assets 350 / total current liabilities 250"
    )
    assert "total current liabilities, 2023" in first("What was the current ratio in 2023?")


def test_the_computed_column_scores_the_stated_figure_within_one_percent() -> None:
    from bench.computed import headline, single_figure, states

    assert single_figure("$1577.00") == Decimal("1577.00")
    assert single_figure("-3.7") == Decimal("-3.7")
    assert single_figure("Yes, by 3%") is None  # prose: not a single figure
    answer = "Capex, FY2018: $1.58 billion = a − b [S1, p. 60]\n- row 1,577 [S1, p. 60]"
    assert headline(answer).strip() == "Capex, FY2018: $1.58 billion"
    assert states(answer, Decimal("1577"))  # billions for millions counts, within 1%
    assert not states(answer, Decimal("1600"))
    assert not states("Ratio, FY2018: 0.5 = 1,577 / 3,154", Decimal("1577"))  # not the working


def _orders(folder, count: int):
    """A generated sheet of orders, indexed, and its rows (the truths are computed from them)."""
    from testkit.builders import make_order_sheet

    path = folder / "orders.csv"
    rows = make_order_sheet(path, count)
    registry = str(folder / "indexed_docs.json")
    doc = index_document(
        str(path), summarizer=make_summarizer(None), registry_path=registry, verbose=False
    )
    return doc, rows


@pytest.fixture(scope="module")
def orders(tmp_path_factory):
    return _orders(tmp_path_factory.mktemp("orders"), 50_000)


def test_a_sheet_of_50000_rows_answers_sums_averages_and_counts(orders) -> None:
    from treerag_core.answer.offline.aggregate import aggregate

    doc, rows = orders
    north_q3 = sum(r["Revenue"] for r in rows if r["Region"] == "North" and r["Quarter"] == "Q3")
    kettles = [r["Revenue"] for r in rows if r["Product"] == "Kettle"]
    late = sum(1 for r in rows if r["Status"] == "Late")
    units = sum(r["Units"] for r in rows if r["Product"] == "Blender" and r["Region"] == "West")
    total = aggregate("What was the total revenue of the North region in Q3?", doc)
    assert total is not None and total.value == north_q3
    assert total.filters == [("Region", "North"), ("Quarter", "Q3")]
    average = aggregate("What is the average revenue of the kettles?", doc)
    assert average is not None and average.value == Decimal(sum(kettles)) / len(kettles)
    count = aggregate("How many orders were shipped late?", doc)
    assert count is not None and count.value == late
    summed = aggregate("How many units of blenders were sold in the West region?", doc)
    assert summed is not None and summed.kind == "sum" and summed.value == units


def test_an_aggregate_answer_shows_the_rows_it_used(tmp_path) -> None:
    doc, rows = _orders(tmp_path, 2_000)
    north_q3 = sum(r["Revenue"] for r in rows if r["Region"] == "North" and r["Quarter"] == "Q3")
    answer = ask(
        "What was the total revenue of the North region in Q3?", doc, make_retriever(None)
    ).content
    lines = answer.splitlines()
    n = sum(1 for r in rows if r["Region"] == "North" and r["Quarter"] == "Q3")
    assert lines[0].startswith(
        f"Total Revenue, Region North · Quarter Q3: {north_q3:,} (sum of {n} rows in "
    )
    assert "parts of the sheet) [S" in lines[0] and lines[0].count("; S") < 5  # shown rows' parts
    assert lines[1].startswith("- Order A") and "Region North · Quarter Q3" in lines[1]
    assert lines[6] == f"- … and {n - 5} more rows"


def _company_pdf(path, sales: list[int], cost: list[int], parenthesised: bool = False) -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 10, "Consolidated Statements of Income", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    lines = [
        "(In millions) 2023 2022 2021",
        "Net sales " + " ".join(f"{v:,}" for v in sales),
        "Cost of sales " + " ".join(f"({v:,})" if parenthesised else f"{v:,}" for v in cost),
    ]
    for line in lines:
        pdf.cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


def test_a_comparison_across_three_documents_is_a_cited_table(tmp_path) -> None:
    from treerag_core import ask_multi

    registry = str(tmp_path / "indexed_docs.json")
    docs = []
    for name, sales, cost in [
        ("acme", [1200, 1000, 800], [700, 600, 500]),
        ("globex", [2000, 1800, 1500], [1500, 1300, 1000]),
        ("initech", [500, 450, 400], [200, 190, 180]),
    ]:
        path = tmp_path / f"{name}_annual_report.pdf"
        _company_pdf(path, sales, cost)
        docs.append(
            index_document(
                str(path), summarizer=make_summarizer(None), registry_path=registry, verbose=False
            )
        )
    answer = ask_multi(
        "Compare the gross margin across Acme, Globex and Initech from 2022 to 2023.",
        docs,
        make_retriever(None),
    ).content
    lines = answer.splitlines()
    assert lines[0] == (
        "Gross margin, FY2022–FY2023: highest in FY2023: initech_annual_report (60.0%); "
        "lowest: globex_annual_report (25.0%)."
    )
    assert lines[2] == "| | FY2022 | FY2023 |"
    rows = {line.split(" | ")[0].strip("| "): line for line in lines[4:7]}
    assert "| 40.0% [S" in rows["acme_annual_report"] and "41.7% [S" in rows["acme_annual_report"]
    assert "27.8% [S" in rows["globex_annual_report"]
    assert all(line.count("[S") == 2 for line in rows.values())  # every cell cited


def test_a_cost_printed_in_parentheses_is_a_cost(tmp_path) -> None:
    """Statements that print expenses in parentheses: "(700)" is a cost of 700 (kept
    negative, the gross margin on sales of 1,200 read 158.3%)."""
    path = tmp_path / "acme_annual_report.pdf"
    _company_pdf(path, [1200, 1000, 800], [700, 600, 500], parenthesised=True)
    doc = index_document(
        str(path), summarizer=make_summarizer(None),
        registry_path=str(tmp_path / "indexed_docs.json"), verbose=False,
    )  # fmt: skip
    answer = ask("What was the gross margin in 2023?", doc, make_retriever(None)).content
    assert answer.splitlines()[0].startswith("Gross margin, FY2023: 41.7%"), answer
    assert "158.3" not in answer


def test_the_chat_reads_a_comparison_table_back_for_its_chart_and_csv() -> None:
    from ui.answer_table_logic import comparison_table, table_csv

    answer = (
        "Gross margin, FY2022–FY2023: highest in FY2023: b (60.0%); lowest: a (25.0%).\n\n"
        "| | FY2022 | FY2023 |\n|---:|---:|---:|\n"
        "| a | 27.8% [S1, p. 3] | 25.0% [S1, p. 3] |\n"
        "| b | — (not found: net sales, 2022) | 60.0% [S2] |\n"
    ).replace("|---:|---:|---:|", "|---|---:|---:|")
    table = comparison_table(answer)
    assert table == {
        "periods": ["FY2022", "FY2023"],
        "rows": [
            ("a", [27.8, 25.0], ["27.8% [S1, p. 3]", "25.0% [S1, p. 3]"]),
            ("b", [None, 60.0], ["— (not found: net sales, 2022)", "60.0% [S2]"]),
        ],
    }
    assert table_csv(table).splitlines()[1] == 'a,"27.8% [S1, p. 3]","25.0% [S1, p. 3]"'
    assert comparison_table("Net sales, 2023: $1,200 million [S1]") is None


def test_a_comparison_reads_names_that_open_with_digits() -> None:
    from treerag_core.answer.offline.compare import comparison

    found = comparison("Compare operating income across 3M and Microsoft in 2022.")
    assert found is not None and found[0].formula == "operating income" and found[1] == [2022]
    found = comparison("How did revenues compare between Lockheed Martin and 3M from 2021 to 2022?")
    assert found is not None and found[0].formula == "revenues" and found[1] == [2021, 2022]
