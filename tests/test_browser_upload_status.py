"""The Upload page tells the truth, in Debian Chromium: a file that cannot be read reads
failed with its reason (not a step of the progress bar), a good one links to its tree and a
chat, and the page starts clean on the next visit."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import shot, wait_idle
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_a_failed_file_reads_failed_and_the_next_visit_starts_clean(
    page: Page, live_server: dict, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not really a PDF")
    good = tmp_path / "minutes.md"
    good.write_text("# Minutes\n\n## Decisions\nThe board approved the 2025 budget.\n")
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(live_server["url"] + "/upload")
    expect(page.get_by_role("heading", name="Upload & index")).to_be_visible()
    page.locator('input[type="file"]').first.set_input_files([str(broken), str(good)])
    page.get_by_role("button", name="Index", exact=True).click()
    status = page.get_by_test_id("stExpander").filter(has_text="broken.pdf: failed — broken.pdf is")
    expect(status.first).to_be_visible(timeout=120_000)
    expect(page.get_by_text("Reading the document")).to_have_count(0)
    expect(page.get_by_text("minutes.md: done")).to_be_visible()
    expect(page.get_by_role("button", name="Open in tree")).to_have_count(1)
    expect(page.get_by_role("button", name="Ask about it")).to_have_count(1)
    wait_idle(page)
    shot(page, "upload-failed-status.png")
    page.get_by_test_id("stSidebar").get_by_role("link", name="Library").click()
    expect(page.get_by_role("heading", name="Library")).to_be_visible()
    page.get_by_test_id("stSidebar").get_by_role("link", name="Upload & index").click()
    expect(page.get_by_role("heading", name="Upload & index")).to_be_visible()
    wait_idle(page)
    expect(page.get_by_text("broken.pdf")).to_have_count(0)  # a clean page
    expect(page.get_by_role("button", name="Open in tree")).to_have_count(0)
