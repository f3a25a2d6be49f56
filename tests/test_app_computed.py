"""Chat page (AppTest): a comparison across three documents is answered with a cited table,
drawn as a chart and offered as CSV, offline and with a model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import streamlit_agraph
from conftest import ask

from testkit.builders import make_income_report
from testkit.fake_llm_servers import FakeLLMServer, kind_of, outline_ids
from treerag_core import index_document
from treerag_core.summarize.summarizers import make_summarizer
from ui import state

CHAT = "pages/chat.py"


@pytest.fixture(autouse=True)
def no_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streamlit_agraph, "agraph", lambda nodes, edges, config: None)


def _report(folder: Path, registry: Path, name: str, sales: list[int], cost: list[int]) -> dict:
    source = make_income_report(folder, name, sales, cost)
    return index_document(
        str(source), summarizer=make_summarizer(None), registry_path=str(registry), verbose=False
    )


def _compare(make_app, registry: Path, folder: Path):  # noqa: ANN001, ANN202
    """Three companies' reports picked in the chat, and their gross margins compared."""
    docs = [
        _report(folder, registry, "acme", [1200, 1000], [700, 600]),
        _report(folder, registry, "globex", [2000, 1800], [1500, 1300]),
        _report(folder, registry, "initech", [500, 450], [200, 190]),
    ]
    at = make_app(CHAT)
    at.multiselect(key="chat_doc_pick").set_value([d["doc_id"] for d in docs]).run()
    ask(at, "Compare the gross margin across Acme, Globex and Initech from 2022 to 2023.")
    return at


def test_a_comparison_is_a_table_a_chart_and_a_csv(make_app, app_registry: Path, tmp_path) -> None:  # noqa: ANN001
    at = _compare(make_app, app_registry, tmp_path)
    assert not at.exception
    answer = at.session_state[state.CHAT_THREAD]["turns"][0]["answer"]
    assert answer.startswith("Gross margin, FY2022–FY2023: highest in FY2023: initech (60.0%)")
    assert "| acme | 40.0% [S" in answer and "| globex | 27.8% [S" in answer
    charts = at.get("vega_lite_chart")
    assert len(charts) == 1  # the figures drawn
    labels = [str(b.proto.label) for b in at.get("download_button")]
    assert "Download table (CSV)" in labels


def test_with_a_model_the_table_is_the_app_s_and_the_model_adds_its_conclusion(
    make_app,
    app_registry: Path,
    tmp_path,
    monkeypatch: pytest.MonkeyPatch,  # noqa: ANN001
) -> None:
    """The same comparison with a model configured (the real ChatOpenAI client against the
    fake server): the app's table, chart and CSV, and the model's line beneath the table."""
    server = FakeLLMServer("openai").start()
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-key-123")
    monkeypatch.setenv("TREERAG_LLM_TIMEOUT", "5")

    def reply(request):  # noqa: ANN001, ANN202
        if kind_of(request) == "search":
            return json.dumps({"reasoning": "income", "node_list": outline_ids(request)[:1]})
        return "Initech's gross margin was the highest in both years [S3]."

    server.reply = reply
    try:
        at = _compare(make_app, app_registry, tmp_path)
    finally:
        server.stop()
    assert not at.exception and "answer" in server.kinds()
    answer = at.session_state[state.CHAT_THREAD]["turns"][0]["answer"]
    assert answer.startswith("Gross margin, FY2022–FY2023: highest in FY2023: initech (60.0%)")
    assert "| globex | 27.8% [S" in answer and "Initech's gross margin was the highest" in answer
    assert len(at.get("vega_lite_chart")) == 1
    assert "Download table (CSV)" in [str(b.proto.label) for b in at.get("download_button")]
