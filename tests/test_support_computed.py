"""The support check against what the offline engine computes: a figure computed in more
steps than the check reproduces itself (a three-year average margin, a CAGR, a ratio whose
operands are in a section nobody read) is supported when it equals the engine's result to
the digits it prints, by the cells it was computed from; a changed figure is not.

Hand-written filings (statements as text, kept as tables the way indexing keeps them) and
answers; the last tests ask a generated PDF filing through the real ChatOpenAI client
against the fake server.
"""

from __future__ import annotations

import json
from functools import partial

import pytest

from testkit.builders import statements_pdf
from testkit.fake_llm_servers import FakeLLMServer, kind_of, openai_chat
from treerag_core import ask, index_document, make_retriever, make_summarizer
from treerag_core.answer.offline.computed import engine_figures
from treerag_core.answer.support import check_support
from treerag_core.navigate.base import NavigationConfig

INCOME = (
    "Consolidated Statements of Income\n(in millions)\nYear Ended December 31, 2023 2022 2021\n"
    "Net sales $ 1,200 $ 1,000 $ 800\nCost of sales 700 600 500\nOperating income 240 180 120\n"
    "Net income 150 110 90\n"
)
BALANCE = (
    "Consolidated Balance Sheets\n(in millions)\nDecember 31, 2023 2022\n"
    "Total current assets 437 350\nTotal current liabilities 250 200\n"
)
DOCUMENT = {
    "doc_id": "acme",
    "file_name": "acme_10k.pdf",
    "flat_nodes": {
        "n1": {"node_id": "n1", "title": "Income", "text": INCOME, "page_start": 40},
        "n2": {"node_id": "n2", "title": "Balance", "text": BALANCE, "page_start": 42},
    },
}
# What navigation read: the income statement only (the balance sheet was not chosen).
SECTIONS = [{"ref": "S1", "label": "S1 · Item 8 > Income, p. 40", "page_start": 40, "text": INCOME}]
REFERENCES = [{"ref": "S1", "doc_id": "acme", "node_id": "n1", "page_unit": "page"}]
AVERAGE = "What was Acme's three-year average operating margin from 2021 to 2023?"
CAGR = "What was the 2-year CAGR of Acme's net sales from 2021 to 2023?"
CURRENT = "What was Acme's current ratio at the end of 2023?"
# (question, the right figure, that figure changed as bench.support changes it: times 1.1,
# whether the check computes it without the engine)
COMPUTED = [
    # (20% + 18% + 15%) / 3 = 17.67%: the check's own two steps (support_steps) reach it
    (AVERAGE, "17.7%", "19.4%", True),
    (AVERAGE, "0.177", "0.195", True),  # the same, printed as a ratio
    (CAGR, "22.5%", "24.7%", True),  # (1,200 / 800)^(1/2) - 1 = 22.47%: one table row's
    (CURRENT, "1.75", "1.92", False),  # 437 / 250 = 1.748, from a section nobody read
]


@pytest.fixture
def no_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check without its own two steps: the average margin then is a figure only the
    engine computes (these tests are about the engine's path)."""
    from treerag_core.answer import support_figures

    monkeypatch.setattr(support_figures, "_stepped", lambda *_a, **_k: False)


def engine(question: str):
    return partial(engine_figures, question, {"acme": DOCUMENT}, REFERENCES)


def check(answer: str, question: str, with_engine: bool = True) -> dict:
    return check_support(answer, SECTIONS, question, model=True,
                         engine=engine(question) if with_engine else None)  # fmt: skip


@pytest.mark.parametrize(("question", "right", "changed", "alone"), COMPUTED)
def test_a_figure_the_engine_computes_is_supported_and_a_changed_one_is_not(
    question: str, right: str, changed: str, alone: bool
) -> None:
    answer = f"Acme's figure for this was {right} [S1]."
    assert check(answer, question, with_engine=False)["flagged"] is not alone
    assert check(answer.replace(right, changed), question, with_engine=False)["flagged"]
    support = check(answer, question)
    assert not support["flagged"] and support["verdict"] == "supported"
    assert check(answer.replace(right, changed), question)["flagged"]


def test_the_support_is_a_cell_it_was_computed_from_in_the_section_cited(no_steps: None) -> None:
    (sentence,) = check("The average was 17.7% [S1].", AVERAGE)["sentences"]
    assert sentence["support"]["ref"] == "S1" and sentence["support"]["page"] == 40
    assert sentence["support"]["quote"].startswith(("Operating income, 2021:", "Net sales, 2021:"))


def test_a_cell_from_a_section_not_read_gives_its_page_and_no_reference() -> None:
    (sentence,) = check("The current ratio was 1.75 [S1].", CURRENT)["sentences"]
    assert sentence["verdict"] == "supported"
    assert sentence["support"]["ref"] == "" and sentence["support"]["page"] == 42
    assert sentence["support"]["quote"].startswith("Total current")


def test_the_engine_confirms_a_figure_printed_by_chance_in_a_passage_not_cited(
    no_steps: None,
) -> None:
    market = {"ref": "S2", "label": "S2 · Item 1 > Markets, p. 5", "page_start": 5,
              "text": "Our share of the European market reached 17.7% in 2023."}  # fmt: skip
    answer = "The three-year average operating margin was 17.7% [S1]."
    alone = check_support(answer, [*SECTIONS, market], AVERAGE, model=True)
    assert alone["sentences"][0]["verdict"] == "partly"  # printed only where it does not cite
    support = check_support(answer, [*SECTIONS, market], AVERAGE, model=True,
                            engine=engine(AVERAGE))  # fmt: skip
    assert support["verdict"] == "supported"
    assert support["sentences"][0]["support"]["ref"] == "S1"


def test_the_rounding_the_answer_prints_is_the_only_tolerance(no_steps: None) -> None:
    assert not check("The average was 17.67% [S1].", AVERAGE)["flagged"]
    assert check("The average was 17.6% [S1].", AVERAGE)["flagged"]  # 17.67 rounds to 17.7
    assert check("The average was 17.60% [S1].", AVERAGE)["flagged"]


def test_the_engine_is_asked_only_when_a_figure_is_found_nowhere(no_steps: None) -> None:
    calls = []

    def counted():
        calls.append(1)
        return engine(AVERAGE)()

    check_support("Net sales were $1,200 million in 2023 [S1].", SECTIONS, AVERAGE,
                  model=True, engine=counted)  # fmt: skip
    assert calls == []  # printed: nothing to compute
    check_support("The average was 17.7% [S1]. It was 17.7% [S1].", SECTIONS, AVERAGE,
                  model=True, engine=counted)  # fmt: skip
    assert calls == [1]  # once per answer, however many sentences ask


def test_a_question_asking_for_no_computation_adds_nothing() -> None:
    question = "What were Acme's net sales in 2023?"
    assert engine_figures(question, {"acme": DOCUMENT}, REFERENCES) == []
    assert check("Acme's net sales were $1,450 million in 2023 [S1].", question)["flagged"]


def test_the_engine_result_is_for_the_question_not_any_figure() -> None:
    # 17.7% is the average margin, not the CAGR the question asks for
    assert check("Acme's figure for this was 17.7% [S1].", CAGR)["flagged"]


@pytest.fixture(scope="module")
def filing(tmp_path_factory):
    folder = tmp_path_factory.mktemp("filing")
    path = statements_pdf(folder / "acme_10k.pdf")
    return index_document(str(path), summarizer=make_summarizer(None),
                          registry_path=str(folder / "reg.json"), verbose=False)  # fmt: skip


@pytest.fixture
def server():
    fake = FakeLLMServer("openai").start()
    yield fake
    fake.stop()


def _asked(server, filing, question: str, answer: str) -> dict:
    server.reply = lambda request: json.dumps({"node_list": []}) if kind_of(
        request) == "search" else answer  # fmt: skip
    retriever = make_retriever(
        openai_chat(server), navigation=NavigationConfig(search_mode="offline")
    )
    return ask(question, filing, retriever, return_raw=False)


def test_a_model_answer_with_the_computed_figure_is_kept_and_supported(server, filing) -> None:
    question = "What was the three-year average operating margin from 2021 to 2023?"
    right = "The three-year average operating margin was 17.7% [S1]."
    result = _asked(server, filing, question, right)
    assert result["answer"] == right and not result["model_answer"]
    assert result["support"]["verdict"] == "supported"
    (sentence,) = result["support"]["sentences"]
    assert sentence["support"]["page"] in (1, 2, 3)


def test_a_model_answer_with_a_changed_figure_is_still_flagged(server, filing) -> None:
    question = "What was the three-year average operating margin from 2021 to 2023?"
    result = _asked(server, filing, question, "The average operating margin was 19.4% [S1].")
    assert result["support"]["flagged"]


def test_the_engine_reads_a_documents_cell_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check asking the engine, then the offline answer it may be set aside for, then a
    follow-up: each cell is looked up in the document's tables once (kept with its index)."""
    from treerag_core.answer.offline import operands
    from treerag_core.navigate.ranking import RankingMemory

    looked: list[tuple] = []
    real = operands.find_cell
    monkeypatch.setattr(operands, "find_cell", lambda *a: looked.append(a[1:]) or real(*a))
    memory = RankingMemory()
    first = engine_figures(AVERAGE, {"acme": DOCUMENT}, REFERENCES, memory)
    once = len(looked)
    again = engine_figures(AVERAGE, {"acme": DOCUMENT}, REFERENCES, memory)
    assert first == again and once and len(looked) == once
