"""Chat page (AppTest): streamed offline answers, references into the tree, history."""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit_agraph
from conftest import texts

from treerag_core import index_document
from treerag_core.ingest.summarize import make_summarizer
from ui import state
from ui.chat_logic import history_markdown, reference_label, trace_rows

CHAT = "pages/chat.py"


@pytest.fixture(autouse=True)
def no_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streamlit_agraph, "agraph", lambda nodes, edges, config: None)


def _ask(at, question: str):  # noqa: ANN001, ANN202
    at.chat_input[0].set_value(question).run()
    assert not at.exception
    return at


def test_answer_with_reference_opens_tree(make_app, sample_doc) -> None:  # noqa: ANN001
    at = _ask(make_app(CHAT), "Who wrote it?")
    history = at.session_state[state.CHAT_HISTORY]
    assert [t["role"] for t in history] == ["user", "assistant"]
    answer = history[1]
    assert "Alice Smith" in answer["content"]
    assert answer["references"][0]["node_id"] == "0000"
    assert answer["usage"]["llm_calls"] == 0
    assert answer["trace"]["documents"][0]["mode"] == "offline"
    rows = trace_rows(answer["trace"]["documents"][0], answer["references"])
    assert rows[0]["chosen"].startswith("0000 Introduction")
    assert rows[0]["reasons"] == "offline BM25 ranking"
    assert len(at.dataframe) == 2  # trace steps and token usage
    ref_button = next(b for b in at.button if b.key == "ref_1_0")
    assert "Introduction" in ref_button.label
    ref_button.click().run()
    assert [t.value for t in at.title] == ["Tree browser"]
    assert at.session_state[state.TREE_SELECTED] == "0000"
    assert [s.value for s in at.subheader] == ["Introduction"]


def test_multi_document_question(make_app, sample_doc, app_registry: Path, tmp_path) -> None:  # noqa: ANN001
    other = tmp_path / "other.md"
    other.write_text("# Budget\nThe budget of Acme Corp was $5 million in 2023.\n")
    second = index_document(
        str(other), summarizer=make_summarizer(None), registry_path=str(app_registry), verbose=False
    )
    at = make_app(CHAT)
    at.multiselect(key="chat_doc_pick").set_value([sample_doc["doc_id"], second["doc_id"]]).run()
    _ask(at, "What was the budget of Acme and who wrote treerag?")
    refs = at.session_state[state.CHAT_HISTORY][1]["references"]
    assert {r["file_name"] for r in refs} == {"sample.md", "other.md"}
    assert any("other\\.md" in b.label for b in at.button if str(b.key).startswith("ref_"))
    answer = at.session_state[state.CHAT_HISTORY][1]["content"]
    assert "$5 million" in answer  # the answer keeps its text; the page shows "$" literally
    assert any("\\$5 million" in m.value for m in at.markdown)


def test_section_context_narrows_the_question(make_app, sample_doc) -> None:  # noqa: ANN001
    at = make_app()
    at.session_state[state.CHAT_DOCS] = [sample_doc["doc_id"]]
    at.session_state[state.CHAT_CONTEXT] = {
        "doc_id": sample_doc["doc_id"],
        "node_id": "0002",
        "path": "Methods",
    }
    at.switch_page(CHAT).run()
    assert "Asking about the section: Methods" in texts(at)
    _ask(at, "Who wrote it and what data was used?")
    refs = at.session_state[state.CHAT_HISTORY][1]["references"]
    assert refs and {r["node_id"] for r in refs} <= {"0002", "0003"}
    at.button(key="chat_clear_context").click().run()
    assert at.session_state[state.CHAT_CONTEXT] is None


def test_clear_and_download_history(make_app, sample_doc) -> None:  # noqa: ANN001
    at = _ask(make_app(CHAT), "Which company filings?")
    markdown = history_markdown(at.session_state[state.CHAT_HISTORY])
    assert "**You:**" in markdown and "Which company filings?" in markdown
    assert "3M" in markdown and "- [S1] Data — Methods > Data · sample.md" in markdown
    at.button(key="chat_clear").click().run()
    assert at.session_state[state.CHAT_HISTORY] == []


def test_answer_error_is_a_message(make_app, sample_doc, monkeypatch) -> None:  # noqa: ANN001
    from treerag_core import LLMError

    def broken(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        yield "partial "
        raise LLMError("The answer model failed: connection refused.")

    monkeypatch.setattr("ui.chat_logic.ask", broken)
    at = _ask(make_app(CHAT), "Anything?")
    assert "The answer model failed: connection refused." in [e.value for e in at.error]
    assert at.session_state[state.CHAT_HISTORY][1]["content"] == "partial "


def test_no_documents_message(make_app) -> None:  # noqa: ANN001
    at = make_app(CHAT)
    assert "No documents yet" in texts(at)


def test_reference_label() -> None:
    ref = {
        "title": "Risk",
        "path": "Item 1A > Risk",
        "page_start": 3,
        "page_end": 4,
        "file_name": "a.pdf",
    }
    assert reference_label(ref) == "Risk — Item 1A > Risk (pp. 3–4) · a.pdf"
