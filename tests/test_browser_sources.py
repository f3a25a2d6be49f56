"""A folder followed from the Sources page, in Debian Chromium: add it, sync it (counts and
the failed file's message on the page), then ask the library about one of its files in
Chat. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import shot, wait_idle
from conftest import streamlit_server
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_add_a_folder_sync_it_and_ask_about_one_of_its_files(page: Page, tmp_path: Path) -> None:
    share = tmp_path / "share"
    (share / "policies").mkdir(parents=True)
    (share / "policies" / "expenses.md").write_text(
        "# Expense policy\n\n## Meals\nMeals on a trip are paid up to 38 euros a day.\n\n"
        "## Hotels\nHotels are paid up to 140 euros a night.\n"
    )
    (share / "office.md").write_text(
        "# Office guide\n\n## Wifi\nThe guest wifi password is tangerine-42.\n"
    )
    (share / "scan.pdf").write_bytes(b"this file is not really a PDF")
    workdir = tmp_path / "app"
    workdir.mkdir()
    with streamlit_server(workdir) as server:
        page.set_viewport_size({"width": 1300, "height": 1000})
        page.goto(server["url"] + "/sources")
        expect(page.get_by_role("heading", name="Sources")).to_be_visible()
        page.get_by_label("Folder path").fill(str(share))
        page.get_by_label("Collection").fill("policies")
        page.get_by_role("button", name="Add source").click()
        expect(page.get_by_text("Never synced")).to_be_visible()
        wait_idle(page)
        shot(page, "sources-01-added.png")
        page.get_by_role("button", name="Sync now").click()
        expect(page.get_by_text("2 added").first).to_be_visible(timeout=120_000)
        expect(page.get_by_text("1 failed").first).to_be_visible()
        expect(page.get_by_text("Failed files (1)")).to_be_visible()
        expect(page.get_by_text("scan.pdf is not a PDF file")).to_be_visible()
        wait_idle(page)
        shot(page, "sources-02-synced.png")

        page.goto(server["url"] + "/chat")
        expect(page.get_by_role("heading", name="Chat")).to_be_visible()
        box = page.get_by_test_id("stChatInputTextArea")
        box.fill("How much are meals on a trip paid?")
        box.press("Enter")
        expect(page.get_by_text("38 euros").first).to_be_visible(timeout=60_000)
        expect(page.get_by_text("expenses.md").first).to_be_visible()
        wait_idle(page)
        shot(page, "sources-03-asked.png")
