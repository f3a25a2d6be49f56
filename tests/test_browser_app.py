"""End to end in Debian Chromium against a live `streamlit run app.py` (offline engine).

Upload a real PDF, index it, see the tree, click a node on the agraph canvas by position,
see its panel, ask a question, see the streamed answer and a reference, open the reference
in the tree, delete the document. Screenshots of each step go to test-artifacts/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser_helpers import WAIT_MS, download, drawn_nodes, shot, wait_idle
from playwright.sync_api import Page, expect

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


def upload_and_index(page: Page, pdf: Path) -> None:
    """Upload, click Index, wait for the result card."""
    page.locator('input[type="file"]').first.set_input_files(str(pdf))
    expect(page.get_by_text(pdf.name).first).to_be_visible(timeout=WAIT_MS)
    page.get_by_role("button", name="Index", exact=True).click()
    expect(page.get_by_role("button", name="Open in tree")).to_be_visible(timeout=120_000)


def test_full_flow(page: Page, live_server: dict, tmp_path: Path) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(live_server["url"] + "/upload")
    expect(page.get_by_role("heading", name="Upload & index")).to_be_visible(timeout=30_000)
    shot(page, "01-upload-page.png")

    upload_and_index(page, make_pdf(tmp_path / "segments.pdf", 8))
    expect(page.get_by_test_id("stMetric").first).to_be_visible()
    assert "12" in page.get_by_test_id("stMetric").first.inner_text()  # sections
    shot(page, "02-indexed-result-card.png")

    page.get_by_role("button", name="Open in tree").click()
    expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=30_000)
    canvas = page.locator(AGRAPH).first
    centres = drawn_nodes(canvas, LEVEL2, at_least=4)
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
    # the sources are shown by default
    # the reference's button (the evidence tile's fullscreen button carries the same words)
    reference = page.get_by_role("button", name=re.compile(r"^\[S\d\] Section 3\.2 Details")).first
    expect(reference).to_be_visible(timeout=30_000)
    wait_idle(page)
    shot(page, "05-chat-answer-references.png")

    reference.click()
    expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("heading", name="Section 3.2 Details")).to_be_visible(timeout=30_000)
    drawn_nodes(page.locator(AGRAPH).first, LEVEL2, at_least=1)
    shot(page, "06-reference-opened-in-tree.png")

    page.get_by_role("link", name="Registry").click()
    expect(page.get_by_role("heading", name="Registry")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("combobox", name="Document")).to_have_value(re.compile("segments.pdf"))
    shot(page, "07-registry.png")
    exported = json.loads(
        download(page, page.get_by_role("button", name="Export JSON")).read_text()
    )
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
    page.goto(live_server["url"] + "/upload")
    expect(page.get_by_role("heading", name="Upload & index")).to_be_visible(timeout=30_000)
    upload_and_index(page, make_pdf(tmp_path / "fifty.pdf", 50))
    page.get_by_role("button", name="Open in tree").click()
    drawn_nodes(page.locator(AGRAPH).first, LEVEL1, at_least=8)
    shot(page, "10-fifty-page-tree.png")
