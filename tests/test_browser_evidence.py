"""In Chromium: evidence highlighted on the cited page, deep links on a fresh server, and no
request to any host but the app's own."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from browser_helpers import shot, wait_idle
from PIL import Image
from playwright.sync_api import Page, expect
from test_browser_app import make_pdf, upload_and_index

from treerag_core import ask, get_document_by_id, list_documents, make_retriever
from treerag_core.evidence.render import render_evidence
from treerag_core.store import open_store

pytestmark = pytest.mark.browser
PAGES = ["", "upload", "tree", "chat", "registry", "evaluate", "settings"]
ZOOM = 1.4  # ui.evidence.LARGE_ZOOM
TITLES = ["Library", "Upload & index", "Tree browser", "Chat", "Registry", "Evaluate", "Settings"]


def outside_requests(page: Page, url: str) -> list[str]:
    """Every request the page makes to another origin (recorded as it happens)."""
    seen: list[str] = []
    # blob: URLs of the page's own origin are objects in its memory (a component's script),
    # not requests that leave the app.
    own = (url, f"blob:{url}")
    page.on("request", lambda r: seen.append(r.url) if not r.url.startswith(own) else None)
    return seen


def test_first_visit_to_a_page_url_shows_the_app(page: Page, fresh_server: dict) -> None:
    """Right after the server starts, /tree is the app's Tree browser with its own
    navigation and the configured registry — not the raw pages/ folder."""
    url = fresh_server["url"]
    outside = outside_requests(page, url)
    page.goto(url + "/tree")
    expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=30_000)
    wait_idle(page)
    sidebar = page.get_by_test_id("stSidebar")
    for title in TITLES:
        expect(sidebar.get_by_text(title, exact=True)).to_be_visible()
    for raw in ("app", "evaluate", "tree", "upload"):  # no raw file names
        expect(sidebar.get_by_text(raw, exact=True)).to_have_count(0)
    expect(sidebar.get_by_text("Engine: Offline engine (no model)")).to_be_visible()
    expect(sidebar.get_by_text("Registry:")).to_have_count(0)  # on Settings, not every page
    page.goto(url + "/settings")
    expect(page.get_by_text(f"Registry: {fresh_server['registry']}")).to_be_visible()
    expect(page.get_by_text("Page not found")).to_have_count(0)
    assert outside == []


def test_no_request_leaves_the_app_on_any_page(page: Page, live_server: dict) -> None:
    url = live_server["url"]
    outside = outside_requests(page, url)
    for path, title in zip(PAGES, TITLES, strict=True):
        page.goto(f"{url}/{path}")
        expect(page.get_by_role("heading", name=title)).to_be_visible(timeout=30_000)
        wait_idle(page)
    assert outside == [], outside


def test_answer_shows_the_cited_passage_highlighted_on_its_page(
    page: Page, live_server: dict, tmp_path: Path
) -> None:
    url = live_server["url"]
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(url + "/upload")
    expect(page.get_by_role("heading", name="Upload & index")).to_be_visible(timeout=30_000)
    upload_and_index(page, make_pdf(tmp_path / "evidence.pdf", 8))
    page.get_by_role("link", name="Chat").click()
    box = page.get_by_test_id("stChatInputTextArea")
    expect(box).to_be_visible(timeout=30_000)
    question = "Who was the independent auditor?"
    box.fill(question)
    box.press("Enter")
    expect(page.get_by_text("Deloitte").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    thumb = page.get_by_test_id("stImage").first  # the sources are shown by default
    expect(thumb).to_be_visible(timeout=30_000)
    shot(page, "11-answer-with-evidence-thumbnails.png")

    # What the core says the highlight is, for the same question and document.
    registry = live_server["registry"]
    row = next(r for r in list_documents(registry) if r["file_name"] == "evidence.pdf")
    document = get_document_by_id(row["doc_id"], registry)
    retriever = make_retriever(None, sources=open_store(registry).sources)
    cited = [r for r in ask(question, document, retriever).references if r["cited"]]
    auditor = next(r for r in cited if "Deloitte" in " ".join(r.get("sentences") or []))
    expected = render_evidence(document, auditor, registry, zoom=ZOOM)[0]

    page.get_by_role("button", name=f"View {auditor['ref']}").first.click()
    dialog = page.locator(".st-key-evidence_pane")  # a wide window: the pane beside the chat
    expect(dialog.get_by_text("The passage the answer quoted")).to_be_visible(timeout=30_000)
    dialog.get_by_text("Whole page").click()
    image = dialog.get_by_test_id("stExpander").get_by_test_id("stImage").locator("img").first
    expect(image).to_be_visible(timeout=30_000)
    src = image.get_attribute("src") or ""
    shown = page.request.get(src if src.startswith("http") else url + src).body()
    picture = Image.open(io.BytesIO(shown)).convert("RGB")
    assert picture.size == (expected.width, expected.height)
    # Where PDFium itself places "independent auditor" on page 6, the shown page is tinted.
    pdf = pdfium.PdfDocument((tmp_path / "evidence.pdf").read_bytes())
    textpage = pdf[expected.page - 1].get_textpage()
    at = textpage.get_text_range().index("independent auditor")
    left, bottom, right, top = textpage.get_charbox(at)
    page_height = pdf[expected.page - 1].get_size()[1]
    x0, x1 = round(left * ZOOM), round(right * ZOOM)
    y0, y1 = round((page_height - top) * ZOOM), round((page_height - bottom) * ZOOM)
    inside = [picture.getpixel((x, y)) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]
    tinted = [p for p in inside if p[0] > 100 and p[0] - p[2] > 60]  # orange over paper or ink
    assert len(tinted) > 0.9 * len(inside), inside[:8]
    corner = picture.getpixel((picture.width - 5, picture.height - 5))
    assert corner == (255, 255, 255)  # the rest of the page is not tinted
    dialog.get_by_text("The passage the answer quoted").click()
    expect(dialog.get_by_text("Deloitte").first).to_be_visible()
    shot(page, "12-evidence-pane.png")
    dialog.get_by_role("button", name="Open in tree").click()
    expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=30_000)
    expect(page.get_by_text(f"Evidence for answer reference {auditor['ref']}")).to_be_visible(
        timeout=30_000
    )
    shot(page, "13-evidence-in-tree-panel.png")
