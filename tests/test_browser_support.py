"""A sentence its sources do not hold, as a person sees it in Debian Chromium: the app asks a
model (the real ChatOpenAI client against the fake server on 127.0.0.1) that writes one
right sentence and one wrong; the wrong one is underlined, quietly, with a note on hover,
the right one is not. Screenshot to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import shot, wait_idle
from conftest import server_env, start_streamlit, stop_streamlit
from playwright.sync_api import Page, expect

from testkit.fake_llm_servers import FakeLLMServer, default_reply, kind_of
from treerag_core import index_document
from treerag_core.summarize.summarizers import make_summarizer

pytestmark = pytest.mark.browser

REPORT_MD = """# Consolidated statements of operations
Total net sales were $280,522 million in 2019 and $232,887 million in 2018.
Operating income was $14,541 million in 2019.
"""
ANSWER = (
    "Total net sales were $280,522 million in 2019 [S1]. "
    "Net sales grew in every one of the company's 31 markets [S1]."
)


@pytest.fixture
def model_app(tmp_path: Path):  # noqa: ANN201 - yields the app's URL
    model = FakeLLMServer("openai").start()
    model.reply = lambda r: ANSWER if kind_of(r) == "answer" else default_reply(r)
    registry = tmp_path / "indexed_docs.json"
    source = tmp_path / "report.md"
    source.write_text(REPORT_MD)
    index_document(str(source), summarizer=make_summarizer(None), registry_path=str(registry),
                   verbose=False)  # fmt: skip
    env = server_env(registry, OPENAI_BASE_URL=model.url, OPENAI_API_KEY="sk-test")
    proc, url, log = start_streamlit(tmp_path, env)
    yield url
    stop_streamlit(proc, log)
    model.stop()


def test_a_sentence_not_in_the_sources_is_underlined_with_a_note(page: Page, model_app) -> None:
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(model_app + "/chat")
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_be_visible(timeout=30_000)
    box.fill("What were the total net sales in 2019?")
    box.press("Enter")
    answer = page.get_by_test_id("stChatMessage").nth(1)
    marked = answer.locator("span.treerag-unsupported")
    expect(marked).to_have_count(1, timeout=60_000)
    expect(marked).to_contain_text("31 markets")
    assert "Not found in the sources it cites" in (marked.get_attribute("title") or "")
    assert "dotted" in (marked.get_attribute("style") or "")
    expect(answer).to_contain_text("Total net sales were $280,522 million in 2019")
    assert "280,522" not in marked.inner_text()  # the supported sentence is not marked
    marked.hover()
    wait_idle(page)
    shot(page, "support-marked-sentence.png", full_page=False)
