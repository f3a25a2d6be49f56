"""A Japanese document in Debian Chromium against a live `streamlit run app.py` (offline
engine): a Shift-JIS Markdown file uploaded, indexed, its tree drawn with its Japanese
headings, a question in Japanese answered from the right section."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_helpers import WAIT_MS, drawn_nodes, shot, wait_idle
from playwright.sync_api import Page, expect

LEVEL2 = (0x2F, 0x8F, 0x6E)  # ui.graph.LEVEL_COLORS[1]
AGRAPH = 'iframe[title="streamlit_agraph.agraph"]'
HANDBOOK = """# 社員ハンドブック

本書は会社の規則と手続きを説明します。

## 休暇

年次有給休暇は年間20日です。申請は二週間前までに上長に提出してください。

## 勤務時間

勤務時間は午前9時から午後6時までです。昼休みは1時間です。

## 経費精算

経費は月末までに精算システムで申請します。領収書の原本を添付してください。
"""

pytestmark = pytest.mark.browser


def test_a_japanese_document_tree_and_answer(page: Page, live_server: dict, tmp_path: Path) -> None:
    source = tmp_path / "handbook-ja.md"
    source.write_bytes(HANDBOOK.encode("shift_jis"))  # not UTF-8: read as its text
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(live_server["url"])
    expect(page.get_by_role("heading", name="Upload & index")).to_be_visible(timeout=30_000)
    page.locator('input[type="file"]').first.set_input_files(str(source))
    page.get_by_role("button", name="Index", exact=True).click()
    expect(page.get_by_role("button", name="Open in tree")).to_be_visible(timeout=120_000)

    page.get_by_role("button", name="Open in tree").click()
    expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=30_000)
    canvas = page.locator(AGRAPH).first
    centres = drawn_nodes(canvas, LEVEL2, at_least=3)
    box = canvas.bounding_box()
    assert box
    page.mouse.click(box["x"] + centres[0][0], box["y"] + centres[0][1])
    expect(page.get_by_text("Full text")).to_be_visible(timeout=20_000)
    headings = page.get_by_role("heading").filter(has_text=re.compile("休暇|勤務時間|経費精算"))
    expect(headings.first).to_be_visible(timeout=20_000)
    wait_idle(page)
    shot(page, "ja-01-tree.png")

    page.get_by_role("link", name="Chat").click()
    expect(page.get_by_role("heading", name="Chat")).to_be_visible(timeout=30_000)
    box_input = page.get_by_test_id("stChatInputTextArea")
    box_input.fill("年次有給休暇は何日ですか？")
    box_input.press("Enter")
    expect(page.get_by_text("年次有給休暇は年間20日です。").first).to_be_visible(timeout=WAIT_MS)
    wait_idle(page)
    shot(page, "ja-02-answer.png")
