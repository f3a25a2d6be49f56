"""The tree browser draws a tree (Debian Chromium against a live ``streamlit run app.py``):
a filing's sections joined by parent→child edges, its income statement a node of its own,
and the path down to a selected section highlighted."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from browser_helpers import AGRAPH, WAIT_MS, drawn_nodes, shot, snapshot, until, wait_idle
from PIL import Image
from playwright.sync_api import Page, expect

from bench.tree_quality_docs import ensure_generated

pytestmark = pytest.mark.browser

LEVEL1 = (0x1F, 0x5F, 0x8B)  # ui.graph.LEVEL_COLORS[0]
EDGE = (0x9A, 0xA5, 0xB1)  # ui.graph.EDGE_COLOR
SELECTED = (0xD6, 0x27, 0x28)  # ui.graph.SELECTED_COLOR
PATH = (0x2B, 0x2B, 0x2B)  # ui.graph.PATH_COLOR
MIN_EDGE_PIXELS = 60  # a few edges' worth of line: a column of boxes has none


def pixels_of(png: bytes | None, rgb: tuple[int, int, int], tol: int = 18) -> int:
    if not png:
        return 0  # the graph was being redrawn: none yet
    data = Image.open(io.BytesIO(png)).convert("RGB").tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for pixel in pixels if all(abs(pixel[i] - rgb[i]) <= tol for i in range(3)))


def test_a_filing_is_drawn_as_a_tree_with_its_income_statement(
    page: Page, live_server: dict, tmp_path: Path
) -> None:
    filing = next(p for p, kind in ensure_generated(tmp_path / "docs") if kind == "10-K")
    page.set_viewport_size({"width": 1400, "height": 1100})
    page.goto(live_server["url"] + "/upload")
    expect(page.get_by_role("heading", name="Upload & index")).to_be_visible(timeout=30_000)
    page.locator('input[type="file"]').first.set_input_files(str(filing))
    expect(page.get_by_text(filing.name).first).to_be_visible(timeout=WAIT_MS)
    page.get_by_role("button", name="Index", exact=True).click()
    expect(page.get_by_role("button", name="Open in tree")).to_be_visible(timeout=120_000)
    page.get_by_role("button", name="Open in tree").click()
    expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=30_000)
    canvas = page.locator(AGRAPH).first
    drawn_nodes(canvas, LEVEL1, at_least=3)  # the cover and the Parts
    # parent→child edges are drawn: lines of the edge colour between the boxes
    until(lambda: pixels_of(snapshot(canvas), EDGE) >= MIN_EDGE_PIXELS, "edges drawn")

    search = page.get_by_label("Search sections (title, tag or text)")
    search.fill("statements of income")
    search.press("Enter")
    wait_idle(page)
    hit = page.get_by_role("button", name="Consolidated Statements of Income").first
    expect(hit).to_be_visible(timeout=WAIT_MS)
    hit.click()
    wait_idle(page)
    # the statement is a node of the graph (drawn selected), with its path to the top
    drawn_nodes(canvas, SELECTED, at_least=1)
    drawn_nodes(canvas, PATH, at_least=1)  # Item 8 (and Part II) on the way down to it
    expect(page.get_by_text("Consolidated statements of income").first).to_be_visible(
        timeout=WAIT_MS
    )
    shot(page, "tree-browser-filing.png")
