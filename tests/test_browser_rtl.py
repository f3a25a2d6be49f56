"""Right-to-left documents in Debian Chromium against a live `streamlit run app.py`
(offline engine): an Arabic handbook uploaded, its tree drawn and a section opened, an
Arabic question answered from the right section; each paragraph of Arabic text takes its
own right-to-left direction and starts on the right, while English text stays as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import ask_in_chat, shot, upload_and_open_first_section, wait_idle
from playwright.sync_api import Page

HANDBOOK = """# دليل الموظفين

يشرح هذا الدليل قواعد الشركة وإجراءاتها لجميع الموظفين.

## الإجازات

يحصل كل موظف على ثلاثين يوما من الإجازة السنوية في كل عام.

## ساعات العمل

يبدأ العمل في الساعة التاسعة صباحا وينتهي في الساعة الخامسة مساء.

## المصاريف

تقدم المصاريف قبل نهاية الشهر مع الإيصالات الأصلية إلى قسم المحاسبة.
"""
ANSWER = "يحصل كل موظف على ثلاثين يوما من الإجازة السنوية في كل عام."

pytestmark = pytest.mark.browser


def _direction(page: Page, text: str) -> dict:
    """How the paragraph showing ``text`` is laid out: its bidi rule, and whether its
    first letter sits at its right edge."""
    return page.evaluate(
        """(text) => {
            const p = [...document.querySelectorAll('p')].find(e => e.innerText.includes(text));
            if (!p) return null;
            const style = getComputedStyle(p);
            const range = document.createRange();
            range.setStart(p.firstChild, 0);
            range.setEnd(p.firstChild, 1);
            const first = range.getBoundingClientRect(), box = p.getBoundingClientRect();
            return {bidi: style.unicodeBidi, rightGap: box.right - first.right,
                    leftGap: first.left - box.left};
        }""",
        text,
    )


def test_an_arabic_document_reads_right_to_left(page: Page, live_server: dict, tmp_path) -> None:
    source = Path(tmp_path) / "dalil.md"
    source.write_text(HANDBOOK, encoding="utf-8")
    upload_and_open_first_section(page, live_server["url"], source)
    wait_idle(page)
    shot(page, "rtl-01-tree.png")
    full_text = page.evaluate(
        """() => [...document.querySelectorAll("[data-testid='stText'] *")]
            .filter(e => e.innerText.includes('ثلاثين'))
            .map(e => getComputedStyle(e).unicodeBidi)"""
    )
    assert full_text and set(full_text) == {"plaintext"}  # the section's text box too

    ask_in_chat(page, "كم يوما من الإجازة السنوية يحصل الموظف؟", ANSWER)
    shot(page, "rtl-02-answer.png")
    arabic = _direction(page, ANSWER)
    assert arabic and arabic["bidi"] == "plaintext"
    assert arabic["rightGap"] < 4 < arabic["leftGap"]  # its first letter at the right edge
    english = _direction(page, "Extractive answer from the offline engine")
    assert english and english["leftGap"] < 4  # English still starts on the left
