"""A comparison in Debian Chromium against a live `streamlit run app.py` (offline engine):
asked of a library of three reports, the answer is a table with every cell cited, drawn as
a chart, offered as CSV, and its sources open the cited statements. Screenshot in
test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import shot, wait_idle
from conftest import server_env, start_streamlit, stop_streamlit
from playwright.sync_api import Page, expect
from test_app_computed import _report

pytestmark = pytest.mark.browser


@pytest.fixture
def reports_server(tmp_path: Path):  # noqa: ANN201 - yields the server's url
    registry = tmp_path / "indexed_docs.json"
    _report(tmp_path, registry, "acme", [1200, 1000], [700, 600])
    _report(tmp_path, registry, "globex", [2000, 1800], [1500, 1300])
    _report(tmp_path, registry, "initech", [500, 450], [200, 190])
    proc, url, log = start_streamlit(tmp_path, server_env(registry))
    yield url
    stop_streamlit(proc, log)


def test_a_comparison_shows_its_table_chart_csv_and_sources(
    page: Page, reports_server: str
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_viewport_size({"width": 1400, "height": 1100})
    page.goto(reports_server + "/chat")
    expect(page.get_by_role("heading", name="Chat")).to_be_visible(timeout=30_000)
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill("Compare the gross margin across Acme, Globex and Initech from 2022 to 2023.")
    box.press("Enter")
    answer = page.get_by_test_id("stChatMessage").nth(1)
    expect(answer).to_contain_text("highest in FY2023: initech (60.0%)", timeout=60_000)
    wait_idle(page)
    table = answer.locator("table")
    expect(table).to_contain_text("globex")
    expect(table.locator("td").filter(has_text="27.8% [S")).to_have_count(1)
    expect(answer.locator('[data-testid="stVegaLiteChart"]')).to_have_count(1, timeout=30_000)
    expect(answer.get_by_role("button", name="Download table (CSV)")).to_be_visible()
    sources = answer.get_by_test_id("stCheckbox").filter(has_text="Sources")
    if not sources.locator("input").is_checked():  # the evidence is shown by default now
        sources.click()
    expect(
        answer.get_by_role("button", name="Consolidated statements of income").first
    ).to_be_visible(timeout=30_000)
    shot(page, "computed-01-comparison.png")
    assert not errors
