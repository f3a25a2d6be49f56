"""Pages that fit, in Debian Chromium at 1280 px: the Registry (its table) and Evaluate (its
results) scroll sideways neither as a page nor inside a table. The sample handbook is the
registry's document; the evaluation asks two questions of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_helpers import shot, wait_idle
from conftest import streamlit_server
from playwright.sync_api import Page, expect

from treerag_core.library.sample import SAMPLE_NAME, index_sample

pytestmark = pytest.mark.browser
QUESTIONS = [
    {"id": "leave", "question": "How many days of annual leave?", "doc_name": SAMPLE_NAME,
     "evidence_pages": [2]},
    {"id": "hotel", "question": "What is the hotel limit in Munich?", "doc_name": SAMPLE_NAME,
     "evidence_pages": [3]},
]  # fmt: skip
# Whether the page, or any table's own scroller, is wider than what it shows.
SIDEWAYS = """() => {
    const page = document.scrollingElement;
    const over = [];
    if (page.scrollWidth > page.clientWidth + 1) over.push('page ' + page.scrollWidth);
    document.querySelectorAll('.dvn-scroller').forEach((el) => {
        if (el.scrollWidth > el.clientWidth + 1) over.push('table ' + el.scrollWidth + '>' + el.clientWidth);
    });
    return over;
}"""


def sideways(page: Page) -> list[str]:
    wait_idle(page)
    return page.evaluate(SIDEWAYS)


def test_registry_and_evaluate_fit_1280(page: Page, tmp_path: Path) -> None:
    index_sample(str(tmp_path / "indexed_docs.json"))
    questions = tmp_path / "questions.jsonl"
    questions.write_text("\n".join(json.dumps(q) for q in QUESTIONS))
    page.set_viewport_size({"width": 1280, "height": 900})
    with streamlit_server(tmp_path) as server:
        page.goto(server["url"] + "/registry")
        expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
        assert sideways(page) == []
        shot(page, "registry-1280.png")
        page.goto(server["url"] + "/evaluate")
        page.locator('input[type="file"]').first.set_input_files(str(questions))
        page.get_by_role("button", name="Evaluate", exact=True).click()
        expect(page.get_by_text("Results for questions.jsonl")).to_be_visible()
        expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
        assert sideways(page) == []
        shot(page, "evaluate-1280.png")
