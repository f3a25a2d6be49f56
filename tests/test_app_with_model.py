"""The app with a model configured by environment, end to end through the real ChatOpenAI
and ChatOllama clients against wire-protocol servers on 127.0.0.1: summaries while
indexing, two calls per question, a stream cut mid-answer, the connection test."""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit_agraph
from conftest import SAMPLE_MD, ask, texts

from testkit.fake_llm_servers import CutStream, FakeLLMServer, default_reply, kind_of
from treerag_core import get_document_by_id, list_documents
from ui import state

CHAT = "pages/chat.py"


@pytest.fixture(autouse=True)
def no_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streamlit_agraph, "agraph", lambda nodes, edges, config: None)


@pytest.fixture(params=["openai", "ollama"])
def model_server(request, app_registry: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN001, ANN201
    server = FakeLLMServer(request.param).start()
    if request.param == "openai":
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-key-123")
    else:
        monkeypatch.setenv("OLLAMA_HOST", server.url)
    monkeypatch.setenv("TREERAG_LLM_TIMEOUT", "5")
    yield server
    server.stop()


def _index_sample(at) -> None:  # noqa: ANN001
    at.file_uploader[0].set_value([("guide.md", SAMPLE_MD.encode(), "text/markdown")])
    at.run()
    next(b for b in at.button if b.label == "Index").click().run()
    assert not at.exception


def test_index_and_ask_with_a_configured_model(make_app, app_registry: Path, model_server) -> None:  # noqa: ANN001
    at = make_app("pages/upload.py")
    assert model_server.protocol in texts(at).lower()  # the sidebar names the provider
    _index_sample(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["LLM calls"] == "4"  # one summary call per section
    doc = get_document_by_id(list_documents(str(app_registry))[0]["doc_id"], str(app_registry))
    assert doc["flat_nodes"]["0000"]["summary"].startswith("About Introduction: ")
    assert doc["flat_nodes"]["0000"]["tags"] == ["Fake"]

    model_server.reset()
    at.switch_page(CHAT).run()
    ask(at, "What ranking does the offline navigation use?")
    assert not at.exception
    answer = at.session_state[state.CHAT_THREAD]["turns"][0]
    assert answer["answer"] == "Answer from the sections."
    assert answer["usage"]["llm_calls"] == 3  # routing over the library, search, answer
    assert model_server.kinds() == ["routing", "search", "answer"]
    assert answer["references"] and answer["references"][0]["file_name"] == "guide.md"
    assert "sk-test-secret-key-123" not in texts(at)


def test_stream_cut_mid_answer_is_answered_offline_and_chat_stays_usable(
    make_app,
    app_registry: Path,
    model_server,  # noqa: ANN001
) -> None:
    at = make_app("pages/upload.py")
    _index_sample(at)
    calls = {"answers": 0}

    def reply(request):  # noqa: ANN001, ANN202
        if kind_of(request) == "answer":
            calls["answers"] += 1
            if calls["answers"] == 1:
                return CutStream("The first answer is cut off here", after=3)
        return default_reply(request)

    model_server.reply = reply
    at.switch_page(CHAT).run()
    ask(at, "Who wrote it?")
    assert not at.exception
    first = at.session_state[state.CHAT_THREAD]["turns"][0]["answer"]
    assert first.startswith("The first")  # what streamed, then the note and the offline answer
    assert "cut off" in first and "offline engine answered from the same sections" in first
    ask(at, "What data was used?")
    assert not at.exception
    assert at.session_state[state.CHAT_THREAD]["turns"][-1]["answer"] == "Answer from the sections."


def test_connection_test_reaches_the_model(make_app, model_server) -> None:  # noqa: ANN001
    at = make_app("pages/settings.py")
    next(b for b in at.button if "connection" in b.label.lower()).click().run()
    assert not at.exception
    assert any("Connected to" in s.value for s in at.success)


def test_a_sentence_not_in_the_sources_is_marked_and_a_wrong_answer_set_aside(
    make_app,
    model_server,  # noqa: ANN001
) -> None:
    """The answer's text is drawn with its support: a sentence its sources do not hold gets
    a quiet underline with a note; a fluent wrong answer is set aside for the offline one,
    the model's kept behind "See the model's answer anyway"."""
    answers = iter([
        "Revenue was $32 billion [S1]. The data also covers 1,200 retail stores [S1].",
        "Revenue was $58 billion, driven by strong growth in every region [S1].",
    ])  # fmt: skip
    model_server.reply = lambda r: default_reply(r) if kind_of(r) != "answer" else next(answers)
    at = make_app("pages/upload.py")
    _index_sample(at)
    at.switch_page(CHAT).run()
    ask(at, "What was the revenue in the data?")
    marked = [m.value for m in at.markdown if "treerag-unsupported" in str(m.value)]
    assert len(marked) == 1 and "1,200 retail stores" in marked[0]
    assert "Revenue was \\$32 billion" in marked[0].split("<span")[0]  # supported: plain
    ask(at, "How much revenue was there?")
    turn = at.session_state[state.CHAT_THREAD]["turns"][-1]
    assert turn["model_answer"].startswith("Revenue was $58 billion")
    assert "could not be checked" in turn["answer"] and "$32 billion" in turn["answer"]
    assert any(e.label == "See the model's answer anyway" for e in at.expander)
