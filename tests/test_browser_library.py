"""Asking the whole library from the Chat page, in Debian Chromium: no document chosen, the
answer says which documents it searched and opened, and a cited document opens in the tree.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_helpers import shot, wait_idle
from conftest import streamlit_server
from playwright.sync_api import Page, expect

from treerag_core import make_summarizer
from treerag_core.library.indexing import index_upload

pytestmark = pytest.mark.browser
HANDBOOK = b"""# Zephyr Labs office handbook

## Meeting rooms
The Aurora room seats twelve people and has a projector.

## Wifi
The guest wifi password is tangerine-42. It changes every quarter.
"""
POLICY = b"""# Travel policy 2024

## Approval
Every trip is approved by a manager within five days.

## Budget
Hotels are paid up to 140 euros a night.
"""


def test_the_chat_asks_the_library_and_opens_a_cited_document(page: Page, tmp_path: Path) -> None:
    registry = tmp_path / "indexed_docs.json"
    for name, data in (("handbook.md", HANDBOOK), ("travel.md", POLICY)):
        index_upload(name, data, summarizer=make_summarizer(), registry_path=str(registry))
    with streamlit_server(tmp_path) as server:
        page.set_viewport_size({"width": 1300, "height": 950})
        page.goto(server["url"] + "/chat")
        expect(page.get_by_role("heading", name="Chat")).to_be_visible()
        expect(page.get_by_placeholder("All 2 documents you can read")).to_be_visible()
        box = page.get_by_test_id("stChatInputTextArea")
        box.fill("What is the guest wifi password?")
        box.press("Enter")
        expect(page.get_by_text("tangerine-42").first).to_be_visible(timeout=60_000)
        expect(page.get_by_text("Searched 2 documents; opened handbook.md")).to_be_visible()
        wait_idle(page)
        shot(page, "library-01-chat-answer.png")
        wait_idle(page)  # the sources are shown by default
        shot(page, "library-01b-sources.png")
        reference = page.get_by_role("button", name=re.compile(r"Wifi.*handbook\.md")).first
        expect(reference).to_be_visible()
        reference.click()
        expect(page.get_by_role("heading", name="Tree browser")).to_be_visible()
        expect(page.get_by_role("heading", name="Wifi")).to_be_visible()
        shot(page, "library-02-cited-document-in-tree.png")
