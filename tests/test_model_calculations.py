"""With a model, arithmetic is done by code: through the real ChatOpenAI and ChatOllama
clients against the fake servers, the answer prompt carries the picked sections' tables as
compact tables with named cells, the model replies with a calculation over cells in a
fenced JSON block, and the answer shows the result computed by the app (Decimal) with its
working and each cell cited, as the offline computed answer does. A figure the model states
that is neither a cell nor the computed result is not shown as checked; a cell the prompt
never sent, or a division by zero, gives a sentence, never a number."""

from __future__ import annotations

import json
import re

import pytest

from testkit.builders import statements_pdf
from testkit.fake_llm_servers import (
    either_server,
    kind_of,
    messages_text,
    ollama_chat,
    openai_chat,
    openai_server,
)
from treerag_core import ask, index_document, make_retriever, make_summarizer
from treerag_core.answer.calculations import MODEL_NOTE, asked

server, openai = either_server, openai_server  # the fixtures: each client in turn; OpenAI's
RATIO_QUESTION = "What was the current ratio at the end of 2023?"
HEADLINE = "Current ratio, FY2023: 1.60 = current assets 400 / current liabilities 250 [S1, p. 2]"


@pytest.fixture(scope="module")
def filing(tmp_path_factory):
    folder = tmp_path_factory.mktemp("filing")
    path = statements_pdf(folder / "acme_10k.pdf")
    registry = str(folder / "indexed_docs.json")
    return index_document(
        str(path), summarizer=make_summarizer(None), registry_path=registry, verbose=False
    )


def cell(user: str, label: str, column: int) -> str:
    """The name the prompt gives the cell of the row labelled ``label`` in column ``column``."""
    for block in re.findall(r"\[(T\d+)\][^\n]*\n((?:\|[^\n]*\n?)+)", user):
        row = re.search(rf"^\| (r\d+) (?:[^|\n]* › )?{re.escape(label)} \|", block[1], re.M)
        if row:
            return f"{block[0]}.{row.group(1)}.c{column}"
    raise AssertionError(f"no row {label!r} in the prompt's tables")


def scripted(sections: list[str], prose: str, calculation) -> object:
    """A model that picks ``sections``, then writes ``prose`` and one calculation block
    (``calculation(user prompt)`` → the block's dict)."""

    def reply(request):
        if kind_of(request) == "search":
            return json.dumps({"reasoning": "statements", "node_list": sections})
        _, user = messages_text(request)
        block = json.dumps(calculation(user))
        return f"{prose}\n\n```json\n{block}\n```\n"

    return reply


def current_ratio(user: str) -> dict:
    return {
        "compute": "a / b", "label": "Current ratio", "period": "FY2023", "format": "ratio",
        "decimals": 2,
        "operands": {
            "a": {"cell": cell(user, "Total current assets", 1), "name": "current assets"},
            "b": {"cell": cell(user, "Total current liabilities", 1),
                  "name": "current liabilities"},
        },
    }  # fmt: skip


def _chat(server):
    return openai_chat(server) if server.protocol == "openai" else ollama_chat(server)


def test_the_prompt_carries_compact_tables_and_the_answer_shows_the_app_s_working(
    filing, server
) -> None:
    prose = "The current ratio at the end of 2023 was 1.6 [S1]. In 2022 it was 9.9 [S1]."
    server.reply = scripted(["0001"], prose, current_ratio)
    result = ask(RATIO_QUESTION, filing, make_retriever(_chat(server)), return_raw=False)
    (answer_call,) = [r for r in server.chat_requests() if kind_of(r) == "answer"]
    _, user = messages_text(answer_call)
    assert "| | c1 2023 | c2 2022 |" in user and "Total current assets 400 350" not in user
    assert "T1.r3.c2" in user  # how a cell is named is told, outside the quoted data
    lines = result["answer"].splitlines()
    assert lines[0] == HEADLINE
    assert lines[1:3] == [
        "- Current assets › Total current assets, 2023: $400 million [S1, p. 2]",
        "- Current liabilities › Total current liabilities, 2023: $250 million [S1, p. 2]",
    ]
    assert "```" not in result["answer"] and result["answer"].endswith(MODEL_NOTE)
    verdicts = {s["text"]: s["verdict"] for s in result["support"]["sentences"]}
    assert verdicts[HEADLINE] == "supported"
    assert verdicts["The current ratio at the end of 2023 was 1.6 [S1]."] == "supported"
    assert verdicts["In 2022 it was 9.9 [S1]."] != "supported"  # neither a cell nor computed
    assert result["model_answer"] == ""  # the model's answer is the one shown


def test_a_streamed_answer_ends_with_the_computed_one(filing, server) -> None:
    server.reply = scripted(["0001"], "Here is the ratio [S1].", current_ratio)
    chunks = list(ask(RATIO_QUESTION, filing, make_retriever(_chat(server)), stream=True))
    streamed, final = "".join(c for c in chunks if isinstance(c, str)), chunks[-1]
    assert '"compute": "a / b"' in streamed  # what the model wrote, as it wrote it
    assert final["answer"].splitlines()[0] == HEADLINE  # what is shown once it is complete


def test_an_average_over_two_statements_cites_each_cell(filing, openai) -> None:
    def turnover(user: str) -> dict:
        return {
            "compute": "a / ((b + c) / 2)", "label": "Inventory turnover", "period": "FY2023",
            "operands": {"a": {"cell": cell(user, "Cost of sales", 1), "name": "cost of sales"},
                         "b": {"cell": cell(user, "Inventories", 1), "name": "inventories"},
                         "c": {"cell": cell(user, "Inventories", 2), "name": "inventories"}},
        }  # fmt: skip

    openai.reply = scripted(["0000", "0001"], "Turnover is computed below.", turnover)
    question = "What was the inventory turnover in 2023, using average inventories?"
    result = ask(question, filing, make_retriever(openai_chat(openai)), return_raw=False)
    first = result["answer"].splitlines()[0]
    assert first == (
        "Inventory turnover, FY2023: 8.75 = cost of sales 700 / ((inventories 90 + "
        "inventories 70) / 2) [S1, p. 1; S2, p. 2]"
    )
    assert "- Current assets › Inventories, 2022: $70 million [S2, p. 2]" in result["answer"]


def test_a_growth_rate_in_percent(filing, openai) -> None:
    def growth(user: str) -> dict:
        return {
            "compute": "(a-b)/b", "label": "Net sales growth", "period": "FY2022–FY2023",
            "format": "percent", "decimals": 1,
            "operands": {"a": cell(user, "Net sales", 1), "b": cell(user, "Net sales", 2)},
        }  # fmt: skip

    openai.reply = scripted(["0000"], "Net sales grew 20% [S1].", growth)
    question = "By how much did net sales grow from 2022 to 2023, in percent?"
    result = ask(question, filing, make_retriever(openai_chat(openai)), return_raw=False)
    assert result["answer"].startswith(
        "Net sales growth, FY2022–FY2023: 20.0% = (net sales 1,200 − net sales 1,000) / "
        "net sales 1,000 [S1, p. 1]"
    )
    grew = [s for s in result["support"]["sentences"] if s["text"].startswith("Net sales grew")]
    assert grew[0]["verdict"] == "supported"


@pytest.mark.parametrize(
    ("calculation", "said"),
    [
        (
            lambda user: {
                "compute": "a / b",
                "label": "Current ratio",
                "operands": {"a": "T9.r1.c1", "b": cell(user, "Inventories", 1)},
            },
            "Current ratio: cannot be computed: the document's tables do not print cell T9.r1.c1",
        ),
        (
            lambda user: {
                "compute": "a / b",
                "label": "Interest coverage",
                "operands": {
                    "a": cell(user, "Operating income", 1),
                    "b": cell(user, "Interest expense", 1),
                },
            },
            "Interest coverage: cannot be computed: it would divide by zero",
        ),
        (
            lambda user: {
                "compute": "a / z",
                "label": "Margin",
                "operands": {"a": cell(user, "Net income", 1)},
            },
            "Margin: cannot be computed: “z” is not one of the cells the model named",
        ),
    ],  # fmt: skip
)
def test_a_calculation_that_cannot_be_done_says_why(filing, openai, calculation, said):
    openai.reply = scripted(["0000", "0001"], "See below.", calculation)
    question = "What was the ratio in 2023?"
    result = ask(question, filing, make_retriever(openai_chat(openai)), return_raw=False)
    assert result["answer"].startswith(said)


def test_blocks_are_read_only_when_they_ask_for_a_calculation() -> None:
    text = 'A.\n```json\n{"compute": "a + b", "operands": {}}\n```\nB.\n```json\n{"x": 1}\n```'
    found, rest = asked(text)
    assert found == [{"compute": "a + b", "operands": {}}]
    assert rest == 'A.\n\nB.\n```json\n{"x": 1}\n```'


def test_a_model_answer_set_aside_gives_the_computed_answer(filing, openai) -> None:
    said = "The balance sheet lists current assets and current liabilities [S1]."

    def reply(request):
        if kind_of(request) == "search":
            return json.dumps({"reasoning": "balance sheet", "node_list": ["0001"]})
        return said  # states no figure where one is asked: set aside

    openai.reply = reply
    result = ask(RATIO_QUESTION, filing, make_retriever(openai_chat(openai)), return_raw=False)
    assert result["model_answer"] == said
    computed = result["answer"].split("\n\n")[1].splitlines()[0]
    assert computed.startswith("Current ratio, FY2023: 1.60 = total current assets 400 / total")
    assert result["support"]["verdict"] == "supported"


def test_a_ratio_the_model_states_in_its_head_is_not_shown_as_checked(filing, openai) -> None:
    def reply(request):
        if kind_of(request) == "search":
            return json.dumps({"reasoning": "balance sheet", "node_list": ["0001"]})
        return "The current ratio at the end of 2023 was 2.4 [S1]."  # wrong, and no block

    openai.reply = reply
    result = ask(RATIO_QUESTION, filing, make_retriever(openai_chat(openai)), return_raw=False)
    (sentence,) = result["support"]["sentences"]
    assert sentence["verdict"] != "supported" and result["support"]["flagged"]
