"""In Debian Chromium against a live `streamlit run app.py` (offline engine): a slide deck
and a workbook uploaded together and indexed, then a question about each asked in the Chat,
answered from the right slide and the right sheet's row, cited as a slide and a sheet."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from browser_helpers import WAIT_MS, shot, wait_idle
from playwright.sync_api import Page, expect

from bench.format_cases import _book, _deck

pytestmark = pytest.mark.browser


def _ask(page: Page, question: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_be_visible(timeout=WAIT_MS)
    box.fill(question)
    box.press("Enter")


def test_a_deck_and_a_workbook_are_uploaded_and_answered(
    page: Page, fresh_server: dict, tmp_path: Path
) -> None:
    deck = _deck(tmp_path / "review.pptx")
    book = _book(tmp_path / "sales.xlsx")
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(fresh_server["url"] + "/upload")
    expect(page.get_by_role("heading", name="Upload & index")).to_be_visible(timeout=30_000)
    page.locator('input[type="file"]').first.set_input_files([str(deck), str(book)])
    expect(page.get_by_text("sales.xlsx").first).to_be_visible(timeout=WAIT_MS)
    page.get_by_role("button", name="Index", exact=True).click()
    expect(page.get_by_role("button", name="Open in tree")).to_have_count(2, timeout=120_000)
    expect(page.get_by_text("Hidden sheets were not read: 'Scratch'.").first).to_be_visible()
    shot(page, "office-01-indexed.png")

    page.get_by_role("link", name="Chat").click()
    expect(page.get_by_role("heading", name="Chat")).to_be_visible(timeout=30_000)
    _ask(page, "What was the revenue of North?")
    answer = page.get_by_text(
        re.compile(r"Region North: Units 412, Revenue 48,200\. \[S\d, sheet 2\]")
    )
    expect(answer.first).to_be_visible(timeout=WAIT_MS)
    wait_idle(page)
    shot(page, "office-02-sheet-answer.png")

    _ask(page, "What was the churn rate in the third quarter?")
    said = page.get_by_text(
        re.compile(r"churn rate in the third quarter was 2\.1 percent.*slide 4")
    )
    expect(said.first).to_be_visible(timeout=WAIT_MS)
    wait_idle(page)
    expect(page.get_by_text(re.compile(r"Customer health.{0,40}slide 4")).first).to_be_visible()
    shot(page, "office-03-slide-answer.png")
    if shutil.which("soffice"):  # the cited slide, drawn by LibreOffice, as evidence
        # the sources are shown by default, captioned "S1 · <path>, slide 4"
        expect(page.get_by_text(re.compile(r"S\d · .*slide 4")).first).to_be_visible(
            timeout=WAIT_MS
        )
        wait_idle(page)
        shot(page, "office-04-slide-evidence.png")
