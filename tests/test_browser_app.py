"""End to end in Debian Chromium against a live `streamlit run app.py` (offline engine).

Upload a real PDF, index it, see the tree, click a node on the agraph canvas by position,
see its panel, ask a question, see the streamed answer and a reference, open the reference
in the tree, delete the document. Screenshots of each step go to test-artifacts/.
"""

from __future__ import annotations

import io
import json
import re
import time
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import FrameLocator, Page, expect

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
LEVEL1 = (0x1F, 0x5F, 0x8B)  # ui.graph.LEVEL_COLORS[0]
LEVEL2 = (0x2F, 0x8F, 0x6E)  # ui.graph.LEVEL_COLORS[1]
AGRAPH = 'iframe[title="streamlit_agraph.agraph"]'

pytestmark = pytest.mark.browser


def make_pdf(path: Path, pages: int) -> Path:
    """A real PDF with bookmarks and headings: a chapter every two pages, a section a page."""
    from fpdf import FPDF

    pdf = FPDF()
    for p in range(pages):
        pdf.add_page()
        chapter, section = p // 2 + 1, p % 2 + 1
        if section == 1:
            pdf.start_section(f"Chapter {chapter}: Segment {chapter}", level=0)
            pdf.set_font("Helvetica", "B", 18)
            pdf.cell(0, 12, f"Chapter {chapter}: Segment {chapter}", new_x="LMARGIN", new_y="NEXT")
        pdf.start_section(f"Section {chapter}.{section} Details", level=1)
        pdf.set_font("Helvetica", "B", 14)
        pdf.cell(0, 10, f"Section {chapter}.{section} Details", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        body = f"Page {p + 1} reports revenue of segment {chapter} in fiscal 2023. " * 8
        if p == 5:
            body += "The independent auditor was Deloitte and Touche LLP."
        pdf.multi_cell(0, 6, body)
    pdf.output(str(path))
    return path


def shot(page: Page, name: str) -> None:
    wait_idle(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def wait_idle(page: Page) -> None:
    """Streamlit shows a 'Running…' status widget while the script runs."""
    page.wait_for_timeout(300)
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=60_000)


def graph_frame(page: Page) -> FrameLocator:
    page.locator(AGRAPH).first.wait_for(state="visible", timeout=30_000)
    page.wait_for_timeout(1500)  # vis-network draws after the iframe loads
    return page.frame_locator(AGRAPH).first


def colour_centres(png: bytes, rgb: tuple[int, int, int], tol: int = 12) -> list[tuple[int, int]]:
    """Centres of the blobs of one colour in a screenshot (the nodes of one level)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = image.size
    pixels = image.load()
    hits = {
        (x, y)
        for y in range(0, height, 2)
        for x in range(0, width, 2)
        if all(abs(pixels[x, y][i] - rgb[i]) <= tol for i in range(3))
    }
    blobs = []
    while hits:
        todo = [hits.pop()]
        blob = []
        while todo:
            x, y = todo.pop()
            blob.append((x, y))
            for dx in (-2, 0, 2):
                for dy in (-2, 0, 2):
                    if (x + dx, y + dy) in hits:
                        hits.remove((x + dx, y + dy))
                        todo.append((x + dx, y + dy))
        if len(blob) >= 12:
            blobs.append(blob)
    # Top to bottom: the tree is drawn left to right, siblings stacked in document order.
    blobs.sort(key=lambda b: (sum(p[1] for p in b) / len(b), sum(p[0] for p in b) / len(b)))
    return [(sum(p[0] for p in b) // len(b), sum(p[1] for p in b) // len(b)) for b in blobs]


def upload_and_index(page: Page, pdf: Path) -> float:
    """Upload, click Index, return the seconds until the result card is shown."""
    page.locator('input[type="file"]').first.set_input_files(str(pdf))
    expect(page.get_by_text(pdf.name).first).to_be_visible(timeout=20_000)
    started = time.perf_counter()
    page.get_by_role("button", name="Index", exact=True).click()
    expect(page.get_by_role("button", name="Open in tree")).to_be_visible(timeout=120_000)
    return started


def test_full_flow(page: Page, live_server: dict, tmp_path: Path) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(live_server["url"])
    expect(page.get_by_role("heading", name="Upload & index")).to_be_visible(timeout=30_000)
    shot(page, "01-upload-page.png")

    upload_and_index(page, make_pdf(tmp_path / "segments.pdf", 8))
    expect(page.get_by_test_id("stMetric").first).to_be_visible()
    assert "12" in page.get_by_test_id("stMetric").first.inner_text()  # sections
    shot(page, "02-indexed-result-card.png")

    page.get_by_role("button", name="Open in tree").click()
    expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=30_000)
    graph_frame(page)
    canvas = page.locator(AGRAPH).first
    centres = colour_centres(canvas.screenshot(), LEVEL2)
    assert len(centres) >= 4, centres
    shot(page, "03-tree-graph.png")
    x, y = centres[0]
    box = canvas.bounding_box()
    assert box
    page.mouse.click(box["x"] + x, box["y"] + y)
    expect(page.get_by_text("Full text")).to_be_visible(timeout=20_000)
    expect(page.get_by_role("heading", name="Section 1.1 Details")).to_be_visible()
    expect(page.get_by_text("Chapter 1: Segment 1 > Section 1.1 Details")).to_be_visible()
    wait_idle(page)
    page.get_by_text("Full text").scroll_into_view_if_needed()
    shot(page, "04-tree-node-panel.png")
    expect(page.locator(AGRAPH).first).to_be_visible()  # the graph stayed mounted

    page.get_by_role("link", name="Chat").click()
    expect(page.get_by_role("heading", name="Chat")).to_be_visible(timeout=30_000)
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill("Who was the independent auditor?")
    box.press("Enter")
    expect(page.get_by_text("Deloitte").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    page.get_by_test_id("stCheckbox").filter(has_text="Sources").first.click()  # on demand
    reference = page.get_by_role("button", name="Section 3.2 Details").first
    expect(reference).to_be_visible(timeout=30_000)
    wait_idle(page)
    shot(page, "05-chat-answer-references.png")

    reference.click()
    expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("heading", name="Section 3.2 Details")).to_be_visible(timeout=30_000)
    graph_frame(page)
    shot(page, "06-reference-opened-in-tree.png")

    page.get_by_role("link", name="Registry").click()
    expect(page.get_by_role("heading", name="Registry")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("combobox", name="Document")).to_have_value(re.compile("segments.pdf"))
    shot(page, "07-registry.png")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export JSON").click()
    exported = json.loads(Path(download.value.path()).read_text())
    assert [d["file_name"] for d in exported["documents"]] == ["segments.pdf"]
    page.get_by_role("button", name="Delete…").click()
    page.get_by_role("button", name="Yes, delete").click()
    expect(page.get_by_text("The registry is empty")).to_be_visible(timeout=30_000)
    shot(page, "08-registry-after-delete.png")

    page.get_by_role("link", name="Settings").click()
    expect(page.get_by_role("heading", name="Settings")).to_be_visible(timeout=30_000)
    shot(page, "09-settings.png")
    assert not [e for e in errors if "Traceback" in e]


def test_fifty_page_pdf_becomes_a_drawn_tree(page: Page, live_server: dict, tmp_path: Path) -> None:
    """A 50-page PDF indexed offline opens as a drawn tree with its chapters (the time it
    takes is measured by the benchmark, not asserted here)."""
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(live_server["url"])
    expect(page.get_by_role("heading", name="Upload & index")).to_be_visible(timeout=30_000)
    upload_and_index(page, make_pdf(tmp_path / "fifty.pdf", 50))
    page.get_by_role("button", name="Open in tree").click()
    canvas = page.locator(AGRAPH).first
    canvas.wait_for(state="visible", timeout=30_000)
    deadline = time.time() + 30
    drawn = 0
    while time.time() < deadline and drawn < 8:
        drawn = len(colour_centres(canvas.screenshot(), LEVEL1))
        page.wait_for_timeout(100)
    shot(page, "10-fifty-page-tree.png")
    assert drawn >= 8, f"only {drawn} top-level nodes drawn"
