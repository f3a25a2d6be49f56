"""The home page in Debian Chromium: an empty library's welcome and sample (one click to an
indexed handbook and a chat offering its question), then the library listing with its
search. Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest
from browser_helpers import shot, wait_idle
from playwright.sync_api import Page, expect

from treerag_core.library.sample import SAMPLE_NAME, SAMPLE_QUESTION

pytestmark = pytest.mark.browser


def test_welcome_sample_question_then_the_listing(page: Page, fresh_server: dict) -> None:
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(fresh_server["url"])
    expect(page.get_by_role("heading", name="Library")).to_be_visible()
    expect(page.get_by_text("Check the answer")).to_be_visible()
    shot(page, "home-welcome.png")
    page.get_by_role("button", name="Try it with a sample").click()
    expect(page.get_by_role("heading", name="Chat")).to_be_visible()
    page.get_by_role("button", name=SAMPLE_QUESTION).click()
    expect(page.get_by_text("28 days of paid annual leave").first).to_be_visible()
    wait_idle(page)

    page.get_by_test_id("stSidebar").get_by_role("link", name="Library").click()
    expect(page.get_by_role("heading", name="Recent conversations")).to_be_visible()
    grid = page.get_by_test_id("stDataFrame")
    expect(grid.get_by_text(SAMPLE_NAME)).to_have_count(1)
    expect(page.get_by_role("button", name="Add documents")).to_be_visible()
    expect(page.get_by_role("link", name=SAMPLE_QUESTION[:40], exact=False)).to_be_visible()
    shot(page, "home-library.png")
    page.get_by_role("textbox", name="Search the library").fill("quarterly earnings")
    page.get_by_role("textbox", name="Search the library").press("Enter")
    expect(page.get_by_text("No document matches")).to_be_visible()
    page.get_by_role("textbox", name="Search the library").fill("handbook")
    page.get_by_role("textbox", name="Search the library").press("Enter")
    expect(page.get_by_test_id("stDataFrame").get_by_text(SAMPLE_NAME)).to_have_count(1)
