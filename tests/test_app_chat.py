"""Chat page (AppTest): conversations kept in the store, follow-ups that read the same
statement, references into the tree, verdicts, and a thumbs-down turned into an evaluation
question on the Evaluate page."""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit_agraph
from conftest import ask, texts
from streamlit.testing.v1 import AppTest

from treerag_core import index_document
from treerag_core.chat.regression import regression_questions
from treerag_core.chat.threads import get_thread, list_threads
from treerag_core.summarize.summarizers import make_summarizer
from ui import state
from ui.chat_logic import batched, sources_line, trace_rows
from ui.chat_threads import THREAD_PARAM

CHAT = "pages/chat.py"
EVALUATE = "pages/evaluate.py"
ROOT = Path(__file__).resolve().parents[1]
# A small annual report: the follow-up "And in 2018?" alone would go to the History
# section (it names 2018 most); with the conversation it reads the income statement again.
REPORT_MD = """# Letter to shareholders
We thank our customers and our employees for a strong year.

# History
The company was founded long ago. In 2018 we opened offices; 2018 was a year of growth,
and in 2018 we moved our headquarters.

# Consolidated statements of operations
Total net sales were $280,522 million in 2019 and $232,887 million in 2018.
Operating income was $14,541 million in 2019.

# Employees
We employed 798,000 people at the end of 2019.
"""


@pytest.fixture(autouse=True)
def no_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streamlit_agraph, "agraph", lambda nodes, edges, config: None)


@pytest.fixture
def report(app_registry: Path, tmp_path: Path) -> dict:
    source = tmp_path / "report.md"
    source.write_text(REPORT_MD)
    return index_document(
        str(source), summarizer=make_summarizer(None), registry_path=str(app_registry),
        verbose=False,
    )  # fmt: skip


def _ask(at: AppTest, question: str) -> AppTest:
    ask(at, question)
    assert not at.exception
    return at


def shown(at: AppTest) -> str:
    """The page's texts without Markdown escapes."""
    return texts(at).replace("\\", "")


def _thread(at: AppTest) -> dict:
    return at.session_state[state.CHAT_THREAD]


def _first_answer_stopped(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The first answer streamed is stopped by a whole-page rerun (as another click, or in a
    browser the window's width reported late, stops it); returns the questions answered."""
    import streamlit as st

    from ui import chat_turns

    real, calls = chat_turns._stream_answer, []

    def stopped_once(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        calls.append(args[0])
        if len(calls) == 1:
            st.rerun()
        return real(*args, **kwargs)

    monkeypatch.setattr(chat_turns, "_stream_answer", stopped_once)
    return calls


def test_a_rerun_midway_through_an_answer_answers_the_question_again(
    make_app, sample_doc, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    """Another rerun arriving while an answer streams (a click elsewhere; in a browser, the
    window's width reported late) stops that run: the question stays pending and the next
    run answers it. It was taken when the answer began, so a browser lost it (a clean-clone
    CI run showed a thread with no question and no answer)."""
    calls = _first_answer_stopped(monkeypatch)
    at = _ask(make_app(CHAT), "Who wrote it?")
    assert calls == ["Who wrote it?", "Who wrote it?"]
    turns = _thread(at)["turns"]
    assert len(turns) == 1 and "Alice Smith" in turns[0]["answer"]
    assert "Alice Smith" in shown(at)


def test_an_answer_is_streamed_without_asking_whether_it_is_a_data_frame(
    make_app, sample_doc, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    """Streamlit's ``write_stream`` asks whether its stream is a data frame, which imports
    pandas, NumPy and PyArrow in the first answer of a fresh server (0.4 CPU-s); the answer
    is text, drawn without that question."""
    from streamlit import dataframe_util

    def asked(data: object) -> None:
        raise AssertionError(f"asked for the data format of {type(data).__name__}")

    monkeypatch.setattr(dataframe_util, "determine_data_format", asked)
    at = _ask(make_app(CHAT), "Who wrote it?")
    assert "Alice Smith" in _thread(at)["turns"][0]["answer"]
    assert "Alice Smith" in shown(at)


def test_answer_is_kept_and_its_sources_open_the_tree(make_app, sample_doc, app_registry) -> None:  # noqa: ANN001
    at = _ask(make_app(CHAT), "Who wrote it?")
    thread = _thread(at)
    assert thread["title"] == "Who wrote it?"
    assert at.query_params[THREAD_PARAM] == thread["thread_id"]
    turn = thread["turns"][0]
    assert "Alice Smith" in turn["answer"] and turn["references"][0]["node_id"] == "0000"
    assert turn["usage"]["llm_calls"] == 0 and turn["trace"]["documents"][0]["mode"] == "offline"
    stored = get_thread(thread["thread_id"], str(app_registry))
    assert stored["turns"][0]["answer"] == turn["answer"]  # in the store, not only the session
    rows = trace_rows(turn["trace"]["documents"][0], turn["references"])
    assert rows[0]["chosen"].startswith("0000 Introduction")
    assert "Sources: S1 Introduction" in shown(at)
    key = f"sources_{thread['thread_id'][:12]}_0"
    assert at.toggle(key=key).value is True  # evidence is shown by default
    assert len(at.dataframe) == 0  # the trace is drawn only once opened
    at.session_state[f"trace_{thread['thread_id'][:12]}_0"] = True  # the person opens it
    at.run()
    assert len(at.dataframe) == 2  # trace steps and token usage
    at.toggle(key=key).set_value(False).run()
    assert not [b for b in at.button if str(b.key).startswith("ref_")]  # put away
    assert len(at.dataframe) == 0
    at.toggle(key=key).set_value(True).run()
    ref_button = next(b for b in at.button if str(b.key).startswith("ref_"))
    assert "Introduction" in ref_button.label
    ref_button.click().run()
    assert [t.value for t in at.title] == ["Tree browser"]
    assert at.session_state[state.TREE_SELECTED] == "0000"


def test_follow_up_reads_the_same_statement(make_app, report, app_registry) -> None:  # noqa: ANN001
    at = _ask(make_app(CHAT), "What were the total net sales in 2019?")
    first = _thread(at)["turns"][0]
    assert "280,522" in first["answer"]
    assert first["references"][0]["title"] == "Consolidated statements of operations"
    _ask(at, "And in 2018?")
    thread = _thread(at)
    follow = thread["turns"][1]
    assert follow["trace"]["searched_as"] == "And in 2018? total net sales"
    assert follow["references"][0]["title"] == "Consolidated statements of operations"
    assert "232,887" in follow["answer"]
    assert "Sources: S1 Consolidated statements of operations" in shown(at)
    assert len(list_threads(str(app_registry))) == 1  # one conversation, two answers
    # Asked alone (a new conversation) the same words read the History section instead.
    at.button(key="thread_new").click().run()
    assert _thread(at) is None and THREAD_PARAM not in at.query_params
    _ask(at, "And in 2018?")
    alone = _thread(at)["turns"][0]
    assert alone["references"][0]["title"] == "History"
    assert len(list_threads(str(app_registry))) == 2


def test_a_question_reruns_only_the_place_of_its_answer(make_app, report) -> None:  # noqa: ANN001
    """Asking redraws neither the turns above nor the page: the question box's callback
    reruns only the keyed place of the next answer (AppTest then holds only what that run
    drew), which draws the place of the answer after it."""
    at = _ask(make_app(CHAT), "What were the total net sales in 2019?")
    at.chat_input[0].set_value("And in 2018?").run()  # the fragment run alone
    assert not at.exception
    drawn = [m.value for m in at.markdown]
    assert drawn[0] == "And in 2018?" and "232,887" in drawn[1]
    assert not any("2019?" in text for text in drawn)  # the first turn was not redrawn
    assert [t.value for t in at.title] == []  # nor the page
    assert any(c.value.replace("\\", "").startswith("Sources: S1") for c in at.caption)
    # ...and the question box's own fragment, which the interaction would rerun by default:
    # with only the answer's place rerun, the browser sometimes dropped the box once the
    # answer was drawn, and nobody could ask again (bench.load --cold, #42).
    assert len(at.chat_input) == 1
    at.run()  # the whole page: both turns, and the third question goes to its own place
    assert not at.exception
    at.chat_input[0].set_value("What about operating income?").run()
    assert "14,541" in " ".join(m.value for m in at.markdown)
    assert not any("2018?" in m.value for m in at.markdown)
    assert len(_thread(at)["turns"]) == 3


def test_a_question_whose_place_is_not_drawn_runs_the_whole_page(make_app, report) -> None:  # noqa: ANN001
    at = _ask(make_app(CHAT), "What were the total net sales in 2019?")
    thread = _thread(at)
    # Another tab answered in this thread meanwhile: this page drew the place of turn 1,
    # the next question is turn 2.
    at.session_state[state.CHAT_THREAD] = {**thread, "turns": thread["turns"] * 2}
    at.chat_input[0].set_value("What about operating income?").run()
    assert not at.exception
    assert [t.value for t in at.title] == ["Chat"]  # the whole page ran
    assert "14,541" in _thread(at)["turns"][-1]["answer"]
    assert "14,541" in shown(at)


def test_thread_reopens_from_its_link_in_a_new_session(make_app, report, app_registry) -> None:  # noqa: ANN001
    at = _ask(make_app(CHAT), "What were the total net sales in 2019?")
    _ask(at, "And in 2018?")
    thread_id = _thread(at)["thread_id"]
    # A refresh or a server restart: a new session with only the URL's query parameter.
    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    again.query_params[THREAD_PARAM] = thread_id
    again.run()
    again.switch_page(CHAT).run()
    assert not again.exception
    reopened = _thread(again)
    assert reopened["thread_id"] == thread_id and len(reopened["turns"]) == 2
    text = shown(again)
    assert "232,887" in text and "280,522" in text and "And in 2018?" in text
    assert again.session_state[state.CHAT_DOCS] == []  # it asked the whole library
    sidebar = [b.label for b in again.sidebar.button]
    assert "What were the total net sales in 2019?" in sidebar
    # A third question in the reopened conversation still follows it.
    _ask(again, "What about operating income?")
    assert "14,541" in _thread(again)["turns"][2]["answer"]
    # Rename, then delete: the store follows.
    again.text_input(key=f"rename_{thread_id}").set_value("Net sales").run()
    again.button(key=f"rename_save_{thread_id}").click().run()
    assert list_threads(str(app_registry))[0]["title"] == "Net sales"
    again.button(key=f"delete_{thread_id}").click().run()
    assert list_threads(str(app_registry)) == [] and _thread(again) is None


def test_a_stale_link_says_so(make_app, sample_doc) -> None:  # noqa: ANN001
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.query_params[THREAD_PARAM] = "0" * 32
    at.run()
    at.switch_page(CHAT).run()
    assert not at.exception
    assert any("There is no conversation" in w.value for w in at.warning)
    assert _thread(at) is None


def test_thumbs_down_becomes_an_evaluation_question(make_app, report, app_registry) -> None:  # noqa: ANN001
    at = _ask(make_app(CHAT), "What were the total net sales in 2019?")
    _ask(at, "And in 2018?")
    thread_id = _thread(at)["thread_id"]
    at.feedback(key=f"verdict_{thread_id[:12]}_1").set_value(0).run()  # thumbs down
    assert not at.exception
    assert _thread(at)["turns"][1]["feedback"]["verdict"] == "down"
    at.text_area(key=f"comment_{thread_id[:12]}_1").set_value("Wanted the 2018 figure only").run()
    at.button(key=f"comment_save_{thread_id[:12]}_1").click().run()
    stored = get_thread(thread_id, str(app_registry))["turns"][1]["feedback"]
    assert stored == {**stored, "verdict": "down", "comment": "Wanted the 2018 figure only"}
    assert "Marked wrong: make it an evaluation question" in [p.label for p in at.get("page_link")]

    at.switch_page(EVALUATE).run()
    assert not at.exception
    assert "And in 2018?" in texts(at) and "Wanted the 2018 figure only" in texts(at)
    key = f"{thread_id[:12]}_1"
    at.text_input(key=f"saved_pages_{key}").set_value("pp. 1-200").run()
    at.button(key=f"saved_add_{key}").click().run()
    assert any("not a page range" in e.value for e in at.error)  # typed error, nothing saved
    at.text_input(key=f"saved_pages_{key}").set_value("1").run()
    at.button(key=f"saved_add_{key}").click().run()
    assert not at.exception
    saved = regression_questions(str(app_registry))
    assert [(q["question"], q["history"], q["evidence_pages"]) for q in saved] == [
        ("And in 2018?", ["What were the total net sales in 2019?"], [1])
    ]
    assert "The team's questions from the chat (1)" in texts(at)
    assert "None waiting" in texts(at)  # the marked answer is handled
    at.button(key="saved_run").click().run()
    assert not at.exception
    result = at.session_state[state.EVAL_RESULT]
    assert result["file"] == "saved questions from the chat"
    assert result["summary"]["navigation"]["questions"] == 1


def test_regenerate_replaces_the_answer(make_app, sample_doc, app_registry) -> None:  # noqa: ANN001
    at = _ask(make_app(CHAT), "Who wrote it?")
    thread_id = _thread(at)["thread_id"]
    at.feedback(key=f"verdict_{thread_id[:12]}_0").set_value(1).run()  # thumbs up
    assert _thread(at)["turns"][0]["feedback"]["verdict"] == "up"
    at.button(key=f"regenerate_{thread_id[:12]}_0").click().run()
    assert not at.exception
    turn = get_thread(thread_id, str(app_registry))["turns"][0]
    assert turn["regenerated"] == 1 and "feedback" not in turn
    assert "Alice Smith" in turn["answer"]


def test_a_rerun_midway_through_a_regeneration_regenerates_again(
    make_app, sample_doc, app_registry, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    """As a pending question: Regenerate stopped by another rerun is not lost."""
    from ui import chat_turns

    at = _ask(make_app(CHAT), "Who wrote it?")
    thread_id = _thread(at)["thread_id"]
    calls = _first_answer_stopped(monkeypatch)
    at.button(key=f"regenerate_{thread_id[:12]}_0").click().run()
    assert not at.exception and len(calls) == 2
    assert get_thread(thread_id, str(app_registry))["turns"][0]["regenerated"] == 1
    assert chat_turns.REGENERATING not in at.session_state


def test_multi_document_question(make_app, sample_doc, app_registry: Path, tmp_path) -> None:  # noqa: ANN001
    other = tmp_path / "other.md"
    other.write_text("# Budget\nThe budget of Acme Corp was $5 million in 2023.\n")
    second = index_document(
        str(other), summarizer=make_summarizer(None), registry_path=str(app_registry), verbose=False
    )
    at = make_app(CHAT)
    at.multiselect(key="chat_doc_pick").set_value([sample_doc["doc_id"], second["doc_id"]]).run()
    _ask(at, "What was the budget of Acme and who wrote treerag?")
    thread = _thread(at)
    refs = thread["turns"][0]["references"]
    assert {r["file_name"] for r in refs} == {"sample.md", "other.md"}
    assert set(thread["doc_ids"]) == {sample_doc["doc_id"], second["doc_id"]}
    at.toggle(key=f"sources_{thread['thread_id'][:12]}_0").set_value(True).run()
    assert any(
        "other.md" in b.label.replace("\\", "") for b in at.button if str(b.key).startswith("ref_")
    )
    answer = thread["turns"][0]["answer"]
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
    refs = _thread(at)["turns"][0]["references"]
    assert refs and {r["node_id"] for r in refs} <= {"0002", "0003"}
    at.button(key="chat_clear_context").click().run()
    assert at.session_state[state.CHAT_CONTEXT] is None


def test_deleted_document_leaves_the_answer_readable(make_app, sample_doc, app_registry) -> None:  # noqa: ANN001
    from treerag_core import delete_document

    at = _ask(make_app(CHAT), "Who wrote it?")
    thread_id = _thread(at)["thread_id"]
    delete_document(sample_doc["doc_id"], str(app_registry))
    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    again.query_params[THREAD_PARAM] = thread_id
    again.run()
    again.switch_page(CHAT).run()
    assert not again.exception
    text = shown(again)
    assert "Alice Smith" in text and "(document deleted)" in text
    assert "Some documents of this conversation were deleted" in text


def test_answer_error_is_a_message_and_kept(make_app, sample_doc, monkeypatch) -> None:  # noqa: ANN001
    from treerag_core import LLMError

    def broken(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        yield "partial "
        raise LLMError("The answer model failed: connection refused.")

    monkeypatch.setattr("ui.chat_logic.ask_library", broken)
    at = _ask(make_app(CHAT), "Anything?")
    assert "The answer model failed: connection refused." in [e.value for e in at.error]
    turn = _thread(at)["turns"][0]
    assert turn["answer"] == "partial " and "connection refused" in turn["error"]


def test_no_documents_message(make_app) -> None:  # noqa: ANN001
    at = make_app(CHAT)
    assert "No documents yet" in texts(at)
    assert "Your questions and answers are kept here." in texts(at)


def test_a_streamed_answer_is_redrawn_in_batches() -> None:
    """A model's tokens are drawn in pieces at most a tenth of a second apart: the first at
    once, nothing lost, the rest joined (each redraw re-sends the whole answer so far)."""
    ticks = iter([0.0, 0.01, 0.02, 0.05, 0.12, 0.13, 0.3])
    tokens = ["The ", "net ", "sales ", "were ", "$280,522 ", "million ", "in 2019."]
    pieces = list(batched(iter(tokens), 0.1, clock=lambda: next(ticks)))
    assert pieces == ["The ", "net sales were $280,522 ", "million in 2019."]
    assert "".join(pieces) == "".join(tokens)
    assert list(batched(iter([]), 0.1)) == []
    # an offline answer arrives at once: one piece, not one per line
    assert len(list(batched(iter(["a\n", "b\n", "c\n"]), 0.1, clock=lambda: 1.0))) == 2


def test_sources_line() -> None:
    refs = [
        {"ref": "S1", "title": "Risk", "page_start": 3, "page_end": 4},
        {"ref": "S2", "title": "Debt", "page_start": 9, "page_end": 9, "gone": True},
        {"ref": "S3", "title": "Read only", "cited": False},
        # a title the document repeats: its parent in front; pages a title carried, once
        {"ref": "S4", "title": "Overview", "label": "Item 7 › Overview (pp. 36–37)",
         "page_start": 36, "page_end": 37},
    ]  # fmt: skip
    assert sources_line(refs) == (
        "S1 Risk, pp. 3–4 · S2 Debt, p. 9 (document deleted) · S4 Item 7 › Overview, pp. 36–37"
    )


def test_the_chat_asks_the_whole_library_by_default(make_app, report, sample_doc) -> None:  # noqa: ANN001
    """No document chosen: every question goes to the documents it is about, and the answer
    says which were searched and opened; choosing documents narrows it as before."""
    at = make_app(CHAT)
    picker = at.multiselect(key="chat_doc_pick")
    assert picker.value == [] and picker.placeholder == "All 2 documents you can read"
    _ask(at, "How many people were employed at the end of 2019?")
    turn = _thread(at)["turns"][0]
    assert "798,000" in turn["answer"]
    assert {r["doc_id"] for r in turn["references"]} == {report["doc_id"]}
    assert "Searched 2 documents; opened report.md" in shown(at)
    _ask(at, "And at the end of 2018?")  # a follow-up goes where the conversation was
    assert {r["doc_id"] for r in _thread(at)["turns"][1]["references"]} == {report["doc_id"]}
    at.sidebar.button(key="thread_new").click().run()  # a new conversation, another subject
    _ask(at, "Who wrote it in 2024?")
    assert {r["doc_id"] for r in _thread(at)["turns"][0]["references"]} == {sample_doc["doc_id"]}
    at.multiselect(key="chat_doc_pick").set_value([report["doc_id"]]).run()
    _ask(at, "Who wrote it?")
    third = _thread(at)["turns"][1]
    assert third["trace"].get("library") is None
    assert {r["doc_id"] for r in third["references"]} == {report["doc_id"]}
