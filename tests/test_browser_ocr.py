"""In Chromium: a scanned PDF uploaded in the app shows OCR progress, then its tree, and an
answer about it shows the quoted passage highlighted on the scanned page."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from browser_helpers import shot, wait_idle
from PIL import Image
from playwright.sync_api import Page, expect
from test_browser_app import AGRAPH

from testkit.ocr_builders import scanned_pdf, text_pdf

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
    page.goto(live_server["url"] + "/upload")
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

    # Ask about the scan: the cited page is shown with the quoted words tinted, found among
    # the words OCR read (the scan has no text layer to search).
    page.get_by_role("link", name="Chat").click()
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_be_visible(timeout=30_000)
    box.fill("How long do Repairs take?")
    box.press("Enter")
    expect(page.get_by_text("42 minutes").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    expect(page.get_by_test_id("stImage").first).to_be_visible(timeout=30_000)  # by default
    page.get_by_role("button", name=re.compile(r"^View S\d")).first.click()
    dialog = page.locator(".st-key-evidence_pane")  # a wide window: the pane beside the chat
    image = dialog.get_by_test_id("stImage").locator("img").first
    expect(image).to_be_visible(timeout=30_000)
    src = image.get_attribute("src") or ""
    url = live_server["url"]
    shown = page.request.get(src if src.startswith("http") else url + src).body()
    picture = Image.open(io.BytesIO(shown)).convert("RGB")
    raw = picture.tobytes()  # r, g, b per pixel
    tinted = sum(1 for i in range(0, len(raw), 3) if raw[i] > 100 and raw[i] - raw[i + 2] > 60)
    assert tinted > 500, tinted  # the scan itself is grey: any orange is the highlight
    shot(page, "16-ocr-evidence.png")
