"""Conversations in Debian Chromium against a live `streamlit run app.py` (offline engine):
ask, ask a follow-up and see its source is the same statement; reload the page and the
conversation is there; restart the server on the same registry and port, reload, and it is
still there; regenerate an answer in place; a thumbs-down is offered as an evaluation
question. Screenshots go to
test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import shot, until, wait_idle
from conftest import server_env, start_streamlit, stop_streamlit
from playwright.sync_api import Page, expect

from treerag_core import index_document
from treerag_core.chat.threads import get_thread, list_threads
from treerag_core.summarize.summarizers import make_summarizer

STATEMENT = "Consolidated statements of operations"
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

pytestmark = pytest.mark.browser


def ask(page: Page, question: str, expected: str, answers_before: int) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    asked = page.get_by_test_id("stChatMessage").nth(2 * answers_before)
    expect(asked).to_contain_text(question, timeout=30_000)
    answer = page.get_by_test_id("stChatMessage").nth(2 * answers_before + 1)
    expect(answer).to_contain_text(expected, timeout=60_000)
    wait_idle(page)


def conversation_shown(page: Page) -> None:
    """Both answers, each with the statement as its source, and the sidebar entry."""
    messages = page.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(4, timeout=60_000)
    expect(messages.nth(1)).to_contain_text("280,522")
    expect(messages.nth(3)).to_contain_text("232,887")
    expect(messages.nth(3)).to_contain_text(f"Sources: S1 {STATEMENT}")
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_role("button", name="What were the total net sales")).to_be_visible()


@pytest.fixture
def report_server(tmp_path: Path):  # noqa: ANN201 - yields the server's details
    """A server whose registry already holds the report; ``restart()`` stops it and starts
    a new process on the same port and registry (a deploy or a crash, as a person sees it)."""
    registry = tmp_path / "indexed_docs.json"
    source = tmp_path / "report.md"
    source.write_text(REPORT_MD)
    index_document(
        str(source), summarizer=make_summarizer(None), registry_path=str(registry), verbose=False
    )
    env = server_env(registry)
    proc, url, log = start_streamlit(tmp_path, env)
    server = {"url": url, "registry": str(registry), "proc": proc, "log": log}

    def restart() -> None:
        stop_streamlit(server["proc"], server["log"])
        port = int(url.rsplit(":", 1)[1])
        server["proc"], _, server["log"] = start_streamlit(tmp_path, env, port=port)

    server["restart"] = restart
    yield server
    stop_streamlit(server["proc"], server["log"])


def test_conversation_survives_reload_and_restart(page: Page, report_server: dict) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(report_server["url"] + "/chat")
    expect(page.get_by_role("heading", name="Chat")).to_be_visible(timeout=30_000)
    ask(page, "What were the total net sales in 2019?", "280,522", 0)
    ask(page, "And in 2018?", "232,887", 1)
    conversation_shown(page)
    # The question box stays pinned to the bottom of the window, in view at the page's top.
    page.evaluate("window.scrollTo(0, 0)")
    expect(page.get_by_test_id("stBottom").get_by_test_id("stChatInput")).to_be_in_viewport()
    shot(page, "chat-01-follow-up.png")
    [row] = list_threads(report_server["registry"])
    assert row["turns"] == 2
    assert f"thread={row['thread_id']}" in page.url

    page.reload()
    conversation_shown(page)
    shot(page, "chat-02-after-reload.png")

    report_server["restart"]()
    page.reload()
    conversation_shown(page)
    shot(page, "chat-03-after-restart.png")

    # Regenerate the first answer: the conversation redraws it in place, and the store
    # keeps the new one.
    first = page.get_by_test_id("stChatMessage").nth(1)
    first.get_by_role("button", name="Regenerate").click()
    [row] = list_threads(report_server["registry"])
    until(  # the restarted server loads the document first
        lambda: get_thread(row["thread_id"], report_server["registry"])["turns"][0].get(
            "regenerated"
        ),
        "the regenerated answer to be stored",
    )
    wait_idle(page)
    assert get_thread(row["thread_id"], report_server["registry"])["turns"][0]["regenerated"] == 1
    expect(page.get_by_test_id("stChatMessage")).to_have_count(4)
    expect(first).to_contain_text("280,522")

    # The follow-up's sources, shown by default: the statement, openable in the tree.
    answer = page.get_by_test_id("stChatMessage").nth(3)
    expect(answer.get_by_role("button", name=STATEMENT).first).to_be_visible(timeout=30_000)
    # A thumbs-down is offered as an evaluation question.
    answer.get_by_role("radio", name="Thumbs down").click()
    wait_idle(page)
    expect(answer.get_by_text("Marked wrong: make it an evaluation question")).to_be_visible(
        timeout=30_000
    )
    shot(page, "chat-04-thumbs-down.png")
    answer.get_by_text("Marked wrong: make it an evaluation question").click()
    expect(page.get_by_role("heading", name="Evaluate")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("And in 2018?").first).to_be_visible(timeout=30_000)
    page.get_by_label("Pages that hold the right answer").fill("1")
    page.get_by_role("button", name="Save as evaluation question").click()
    expect(page.get_by_text("The team's questions from the chat (1)")).to_be_visible(timeout=30_000)
    shot(page, "chat-05-saved-question.png")
    assert not errors, errors
