"""A Japanese document in Debian Chromium against a live `streamlit run app.py` (offline
engine): a Shift-JIS Markdown file uploaded, indexed, its tree drawn with its Japanese
headings, a question in Japanese answered from the right section."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_helpers import ask_in_chat, shot, upload_and_open_first_section, wait_idle
from playwright.sync_api import Page, expect

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
    upload_and_open_first_section(page, live_server["url"], source)
    headings = page.get_by_role("heading").filter(has_text=re.compile("休暇|勤務時間|経費精算"))
    expect(headings.first).to_be_visible(timeout=20_000)
    wait_idle(page)
    shot(page, "ja-01-tree.png")

    ask_in_chat(page, "年次有給休暇は何日ですか？", "年次有給休暇は年間20日です。")
    shot(page, "ja-02-answer.png")
