"""A German browser, in Debian Chromium: the app's words come in German (the browser's
language), and a German answer's note is in German too."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import shot, wait_idle
from conftest import CHROMIUM_ARGS, streamlit_server
from playwright.sync_api import Browser, expect

from treerag_core import make_summarizer
from treerag_core.library.indexing import index_upload
from treerag_core.text.messages import message

pytestmark = pytest.mark.browser
HANDBUCH = """# Mitarbeiterhandbuch

## Urlaub
Jeder Mitarbeiter hat 30 Tage bezahlten Urlaub im Jahr. Nicht genommene Tage verfallen
am 31. März des Folgejahres.

## Arbeitszeit
Die Wochenarbeitszeit beträgt 38 Stunden. Die Kernzeit liegt zwischen 10 und 15 Uhr.
""".encode()


def test_a_german_answer_has_its_note_in_german(browser: Browser, tmp_path: Path) -> None:
    assert CHROMIUM_ARGS  # the browser fixture launches Debian's Chromium (conftest)
    registry = tmp_path / "indexed_docs.json"
    index_upload("handbuch.md", HANDBUCH, summarizer=make_summarizer(), registry_path=str(registry))
    context = browser.new_context(locale="de-DE", viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        with streamlit_server(tmp_path) as server:
            page.goto(server["url"])
            expect(page.get_by_role("heading", name="Bibliothek")).to_be_visible()
            expect(page.get_by_role("button", name="Dokumente hinzufügen")).to_be_visible()
            page.get_by_test_id("stSidebar").get_by_role("link", name="Chat").click()
            box = page.get_by_test_id("stChatInputTextArea")
            expect(box).to_have_attribute("placeholder", message("chat.prompt", "de"))
            box.fill("Wie viele Tage Urlaub hat ein Mitarbeiter?")
            box.press("Enter")
            expect(page.get_by_text("30 Tage bezahlten Urlaub").first).to_be_visible()
            expect(page.get_by_text("Extraktive Antwort der Offline-Engine")).to_be_visible()
            expect(page.get_by_text("Extractive answer from the offline engine")).to_have_count(0)
            wait_idle(page)
            # the answer's actions and sources line in German too, none cut short
            answer = page.get_by_test_id("stChatMessage").last
            for action in ("chat.copy", "chat.regenerate"):
                expect(answer.get_by_role("button", name=message(action, "de"))).to_be_visible()
            expect(answer.get_by_text(message("chat.sources", "de"), exact=True)).to_be_visible()
            expect(answer.get_by_text("Quellen: S1")).to_be_visible()
            regenerate = answer.get_by_role("button", name=message("chat.regenerate", "de"))
            cut = "b => [...b.querySelectorAll('p')].some(p => p.scrollWidth > p.clientWidth)"
            assert not regenerate.evaluate(cut)
            shot(page, "german-answer.png", full_page=False)
    finally:
        context.close()
