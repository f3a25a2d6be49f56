"""In Chromium: a scanned PDF uploaded in the app shows OCR progress, then its tree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ocr_builders import scanned_pdf, text_pdf
from playwright.sync_api import Page, expect
from test_browser_app import AGRAPH, shot, wait_idle

pytestmark = pytest.mark.browser


def test_scan_upload_shows_ocr_progress_then_the_tree(
    page: Page, live_server: dict, tmp_path: Path
) -> None:
    names = ["Introduction", "Installation", "Configuration", "Operation", "Maintenance", "Repairs"]
    chapters = [
        (f"{n} {name}", f"{name} takes {n * 7} minutes.") for n, name in enumerate(names, 1)
    ]
    source = text_pdf(tmp_path / "m.pdf", chapters)
    scan = scanned_pdf(source, tmp_path / "scanned-manual.pdf", chapters=chapters)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(live_server["url"])
    expect(page.get_by_role("heading", name="Upload & index")).to_be_visible(timeout=30_000)
    page.locator('input[type="file"]').first.set_input_files(str(scan))
    expect(page.get_by_text(scan.name).first).to_be_visible(timeout=20_000)
    page.get_by_role("button", name="Index", exact=True).click()
    progress = page.get_by_text(re.compile(r"OCR page \d of 6"))
    expect(progress.first).to_be_visible(timeout=60_000)
    shot(page, "14-ocr-progress.png")
    expect(page.get_by_role("button", name="Open in tree")).to_be_visible(timeout=120_000)
    expect(page.get_by_text("6 page(s) read by OCR")).to_be_visible()
    page.get_by_role("button", name="Open in tree").click()
    expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=30_000)
    page.locator(AGRAPH).first.wait_for(state="visible", timeout=30_000)
    wait_idle(page)
    outline = page.get_by_test_id("stRadio")
    for title, _ in chapters:
        expect(outline.get_by_text(title, exact=False)).to_be_visible()
    shot(page, "15-ocr-tree.png")
