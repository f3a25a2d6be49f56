"""With a model, sheet aggregates and comparisons are computed by code, through the real
ChatOpenAI and ChatOllama clients against the fake servers.

A sheet: the answer prompt names each sheet it quotes parts of, with its columns and each
category column's values; the model replies with an ``aggregate`` block (sum, average or
count, a column, the rows' values), and the app computes it over every row of the sheet and
shows it as the offline aggregate answer does (the rows used, cited). A sheet, column or
value the sheet lacks gives a sentence, never a number. A comparison across documents: the
app computes the offline engine's table before the call and sends it; the answer shows that
table, and the model's one-line conclusion beneath it."""

from __future__ import annotations

import json

import pytest

from testkit.builders import make_income_report, make_order_sheet
from testkit.fake_llm_servers import (
    either_server,
    kind_of,
    ollama_chat,
    openai_chat,
    openai_server,
    outline_ids,
    outside_data,
)
from treerag_core import ask, ask_multi, index_document, make_retriever, make_summarizer
from treerag_core.answer.calculations import MODEL_NOTE
from treerag_core.text.messages import message
from ui.answer_table_logic import comparison_table

server, openai = either_server, openai_server  # the fixtures: each client in turn; OpenAI's
TOTAL = "What was the total revenue of the North region in Q3?"
NORTH_Q3 = {"aggregate": "sum", "sheet": "orders.csv", "column": "Revenue",
            "where": {"Region": "North", "Quarter": "Q3"}}  # fmt: skip
COMPARE = "Compare the gross margin across Acme, Globex and Initech from 2022 to 2023."


def _indexed(path, registry) -> dict:
    return index_document(
        str(path), summarizer=make_summarizer(None), registry_path=str(registry), verbose=False
    )


@pytest.fixture(scope="module")
def orders(tmp_path_factory):
    """A sheet of 2,000 generated orders, cut into parts at indexing, and its rows."""
    folder = tmp_path_factory.mktemp("orders")
    rows = make_order_sheet(folder / "orders.csv", 2_000)
    return _indexed(folder / "orders.csv", folder / "indexed_docs.json"), rows


def scripted(prose: str, *blocks: dict, picks: int = 2) -> object:
    """A model that reads the outline's first ``picks`` sections, then writes ``prose`` and
    a fenced block for each of ``blocks``."""

    def reply(request):
        if kind_of(request) == "search":
            return json.dumps({"reasoning": "sheet", "node_list": outline_ids(request)[:picks]})
        fenced = "".join(f"\n\n```json\n{json.dumps(b)}\n```" for b in blocks)
        return f"{prose}{fenced}\n"

    return reply


def _chat(server):
    return openai_chat(server) if server.protocol == "openai" else ollama_chat(server)


def _answer_prompt(server) -> str:
    (answer_call,) = [r for r in server.chat_requests() if kind_of(r) == "answer"]
    return outside_data(answer_call)


def test_a_sheet_total_the_model_asks_for_is_computed_over_every_row(orders, server) -> None:
    doc, rows = orders
    north_q3 = [r for r in rows if r["Region"] == "North" and r["Quarter"] == "Q3"]
    total = sum(r["Revenue"] for r in north_q3)
    server.reply = scripted(f"North's revenue in Q3 was {total:,} [S1].", NORTH_Q3)
    result = ask(TOTAL, doc, make_retriever(_chat(server)), return_raw=False)
    told = _answer_prompt(server)  # told outside the quoted data: the columns and values
    assert '"aggregate": "sum"' in told and "- orders.csv (2,000 rows; quoted in S1" in told
    assert "Region: East | North | South | West; Quarter: Q1 | Q2 | Q3 | Q4" in told
    assert "Revenue (figures)" in told and "Order (text)" in told
    offline = ask(TOTAL, doc, make_retriever(None)).content.split("\n\n")[0]
    shown = result["answer"]
    assert shown.startswith(offline)  # as the offline aggregate answer shows it, rows and all
    assert shown.splitlines()[0].startswith(
        f"Total Revenue, Region North · Quarter Q3: {total:,} (sum of {len(north_q3)} rows in "
    )
    assert f"- … and {len(north_q3) - 5} more rows" in shown and "```" not in shown
    assert shown.endswith(MODEL_NOTE) and result["model_answer"] == ""
    said = [s for s in result["support"]["sentences"] if s["text"].startswith("North's")]
    assert said[0]["verdict"] == "supported"  # the total the app computed, restated


def test_an_average_and_a_count_as_the_sheet_writes_its_values(orders, openai) -> None:
    doc, rows = orders
    kettles = [r["Revenue"] for r in rows if r["Product"] == "Kettle"]
    late = sum(1 for r in rows if r["Status"] == "Late")
    average = {"aggregate": "average", "column": "revenue", "where": {"product": "kettle"}}
    count = {"aggregate": "count", "where": {"Status": "late"}}  # no sheet named: the only one
    openai.reply = scripted("Both are computed below.", average, count)
    question = "What is the average revenue of a kettle order, and how many orders were late?"
    answer = ask(question, doc, make_retriever(openai_chat(openai)), return_raw=False)["answer"]
    heads = [line for line in answer.splitlines() if line.startswith(("Average", "Number"))]
    assert heads[0].startswith(
        f"Average Revenue, Product Kettle: {sum(kettles) / len(kettles):,.2f} (average of "
        f"{len(kettles)} rows in "
    )
    assert heads[1].startswith(f"Number of rows, Status Late: {late:,} (rows counted in ")


@pytest.mark.parametrize(
    ("block", "said"),
    [
        (
            {**NORTH_Q3, "column": "Profit"},
            "Total Profit: cannot be computed: orders.csv has no column “Profit” (its columns: "
            "Order, Region, Quarter, Product, Status, Units, Revenue).",
        ),
        (
            {**NORTH_Q3, "where": {"Region": "Nord"}},
            "Total Revenue: cannot be computed: no row of orders.csv has Region “Nord” (its "
            "values: East, North, South, West).",
        ),
        (
            {**NORTH_Q3, "where": {"Order": "Z99999"}},
            "Total Revenue: cannot be computed: no row of orders.csv has Order “Z99999”.",
        ),
        (
            {**NORTH_Q3, "column": "Region"},
            "Total Region: cannot be computed: the column “Region” of orders.csv holds no figures.",
        ),
        (
            {**NORTH_Q3, "sheet": "sales.xlsx"},
            "Total Revenue: cannot be computed: no sheet “sales.xlsx” was among the sections "
            "sent (sheets: orders.csv).",
        ),
        (
            {**NORTH_Q3, "aggregate": "median"},
            "Total Revenue: cannot be computed: “median” is not a sum, an average or a count.",
        ),
    ],
)
def test_a_sheet_column_or_value_the_sheet_lacks_is_a_sentence(orders, openai, block, said):
    """The model's answer then states no figure where one is asked: it is set aside for the
    offline engine's, which reads the question itself (kept as ``model_answer``)."""
    doc, rows = orders
    openai.reply = scripted("See below.", block)
    result = ask(TOTAL, doc, make_retriever(openai_chat(openai)), return_raw=False)
    assert result["model_answer"].startswith(said + "\n")
    total = sum(r["Revenue"] for r in rows if r["Region"] == "North" and r["Quarter"] == "Q3")
    assert f"{total:,}" not in result["model_answer"]  # no number where it cannot be computed
    assert f"Region North · Quarter Q3: {total:,} (sum of " in result["answer"]


def test_a_streamed_answer_ends_with_the_aggregate(orders, server) -> None:
    doc, _rows = orders
    server.reply = scripted("The total is computed below [S1].", NORTH_Q3)
    chunks = list(ask(TOTAL, doc, make_retriever(_chat(server)), stream=True))
    streamed, final = "".join(c for c in chunks if isinstance(c, str)), chunks[-1]
    assert '"aggregate": "sum"' in streamed  # what the model wrote, as it wrote it
    assert final["answer"].startswith("Total Revenue, Region North · Quarter Q3: ")


def test_a_total_the_model_adds_up_itself_is_still_set_aside(orders, openai) -> None:
    doc, _rows = orders
    openai.reply = scripted("The total revenue of the North region in Q3 was $12,345 [S1].")
    result = ask(TOTAL, doc, make_retriever(openai_chat(openai)), return_raw=False)
    assert "$12,345" in result["model_answer"]
    assert result["answer"].split("\n\n")[1].startswith("Total Revenue, Region North · Quarter Q3")


def _report(folder, registry, name: str, sales: list[int], cost: list[int]) -> dict:
    return _indexed(make_income_report(folder, name, sales, cost), registry)


@pytest.fixture(scope="module")
def companies(tmp_path_factory):
    folder = tmp_path_factory.mktemp("companies")
    registry = folder / "indexed_docs.json"
    return [
        _report(folder, registry, "acme", [1200, 1000], [700, 600]),
        _report(folder, registry, "globex", [2000, 1800], [1500, 1300]),
        _report(folder, registry, "initech", [500, 450], [200, 190]),
    ]


def test_a_comparison_is_the_app_s_table_and_the_model_s_conclusion(companies, server) -> None:
    conclusion = "Initech's gross margin was the highest in both years [S3]."
    server.reply = scripted(conclusion, picks=1)
    result = ask_multi(COMPARE, companies, make_retriever(_chat(server)), return_raw=False)
    told = _answer_prompt(server)
    offline = ask_multi(COMPARE, companies, make_retriever(None)).content
    table = offline.split("\n\n")[1]  # the offline answer's table, each cell cited
    assert table in told and "write the conclusion it supports in one sentence" in told
    shown = result["answer"].split("\n\n")
    assert (
        shown[0]
        == offline.split("\n\n")[0]
        == (
            "Gross margin, FY2022–FY2023: highest in FY2023: initech (60.0%); lowest: globex (25.0%)."
        )
    )
    assert shown[1] == table and "| globex | 27.8% [S" in table
    assert shown[2].startswith("Initech's gross margin was the highest in both years [S")
    assert shown[3] == message("note.model_compared")
    drawn = comparison_table(result["answer"])  # what the chat draws and offers as CSV
    assert drawn is not None and [row[1] for row in drawn["rows"]] == [
        [40.0, 41.7], [27.8, 25.0], [57.8, 60.0]
    ]  # fmt: skip
    assert result["model_answer"] == ""


def test_a_figure_the_conclusion_makes_up_is_not_shown_as_checked(companies, openai) -> None:
    openai.reply = scripted("Globex's gross margin fell to 21.5% in 2023 [S2].", picks=1)
    result = ask_multi(COMPARE, companies, make_retriever(openai_chat(openai)), return_raw=False)
    said = [s for s in result["support"]["sentences"] if s["text"].startswith("Globex's")]
    assert said and said[0]["verdict"] != "supported"


def test_a_question_that_compares_nothing_leaves_the_prompt_and_answer_as_they_were(
    companies, openai
) -> None:
    openai.reply = scripted("Acme sells widgets [S1].", picks=1)
    question = "What do these companies sell?"
    result = ask_multi(question, companies, make_retriever(openai_chat(openai)), return_raw=False)
    assert "The app has computed" not in _answer_prompt(openai) and "Sheets:" not in _answer_prompt(
        openai
    )
    assert result["answer"] == "Acme sells widgets [S1]."


@pytest.mark.slow
def test_a_total_over_50000_rows_with_a_model(tmp_path, openai) -> None:
    rows = make_order_sheet(tmp_path / "orders.csv", 50_000)
    doc = _indexed(tmp_path / "orders.csv", tmp_path / "indexed_docs.json")
    total = sum(r["Revenue"] for r in rows if r["Region"] == "North" and r["Quarter"] == "Q3")
    openai.reply = scripted("The total is below.", NORTH_Q3)
    answer = ask(TOTAL, doc, make_retriever(openai_chat(openai)), return_raw=False)["answer"]
    assert answer.startswith(f"Total Revenue, Region North · Quarter Q3: {total:,} (sum of ")
