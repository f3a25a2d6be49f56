"""What every browser test waits for, written once: the app idle, a screenshot, a canvas drawn.

Nothing here waits a fixed time. Each wait is for a state the page shows (Streamlit's own
run-state attributes on the app root, the pixels of a drawn graph), with a generous cap
so that a slow, loaded machine only makes a test slower, never failing.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
# Streamlit marks its root with the connection and the script's run state (its own end-to-end
# tests wait for the same attributes).
APP_IDLE = (
    "[data-testid='stApp'][data-test-connection-state='CONNECTED']"
    "[data-test-script-state='notRunning']"
)
WAIT_MS = 60_000  # the cap of every wait: only reached when something is wrong
POLL_S = 0.1  # how often a pixel check looks again


def wait_idle(page: Page) -> None:
    """Connected, no script or fragment running, and the 'Running…' widget gone."""
    page.wait_for_selector(APP_IDLE, state="attached", timeout=WAIT_MS)
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=WAIT_MS)


def shot(page: Page, name: str, full_page: bool = True) -> None:
    wait_idle(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=full_page)


def until(check: Callable[[], object], what: str, timeout_s: float = WAIT_MS / 1000) -> object:
    """Poll ``check`` until it returns something true; AssertionError naming ``what``."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(POLL_S)


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


def snapshot(element: Locator) -> bytes | None:
    """A screenshot of ``element``, or None while the page replaces it (a rerun redraws
    the graph's iframe: "Element is not attached to the DOM", or, caught mid-swap once in
    a clean-clone CI run, "Node is either not visible or not an HTMLElement"); the caller
    looks again."""
    try:
        return element.screenshot()
    except PlaywrightError as exc:
        if any(said in str(exc) for said in ("not attached", "detached", "not visible")):
            return None
        raise


def drawn_nodes(canvas: Locator, rgb: tuple[int, int, int], at_least: int) -> list:
    """The centres of ``rgb`` nodes once at least ``at_least`` are drawn and two looks in a
    row agree (vis-network draws after its iframe loads, then settles its layout)."""
    canvas.wait_for(state="visible", timeout=WAIT_MS)
    last: list[list[tuple[int, int]]] = [[]]

    def settled() -> list[tuple[int, int]]:
        png = snapshot(canvas)
        now = colour_centres(png, rgb) if png is not None else []
        stable = len(now) >= at_least and now == last[0]
        last[0] = now
        return now if stable else []

    try:
        return until(settled, f"{at_least} nodes drawn")  # type: ignore[return-value]
    except AssertionError as exc:
        raise AssertionError(f"{exc}: only {len(last[0])} drawn") from None


LEVEL2 = (0x2F, 0x8F, 0x6E)  # ui.graph.LEVEL_COLORS[1]: a top-level section's node
AGRAPH = 'iframe[title="streamlit_agraph.agraph"]'


def upload_and_open_first_section(page: Page, url: str, source: Path) -> None:
    """Upload ``source`` on the upload page, index it, open it in the tree browser and
    click its first top-level section's node, until the section's text is shown."""
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(url + "/upload")
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


def ask_in_chat(page: Page, question: str, expected: str) -> None:
    """Go to the chat page, ask ``question`` and wait for ``expected`` in the answer."""
    page.get_by_role("link", name="Chat").click()
    expect(page.get_by_role("heading", name="Chat")).to_be_visible(timeout=30_000)
    box_input = page.get_by_test_id("stChatInputTextArea")
    box_input.fill(question)
    box_input.press("Enter")
    expect(page.get_by_text(expected).first).to_be_visible(timeout=WAIT_MS)
    wait_idle(page)


# A download button whose file the server makes when it is clicked (Streamlit's deferred
# data) now and then started no download on its first click: about one run in fourteen of
# the full flow, never in 37 clicks made in a loop. Streamlit documents a race between a
# download and the rerun its click starts; the app's download buttons no longer rerun
# (on_click="ignore"). Should a first click still start none, the test clicks again, once,
# after this wait, as a person would.
FIRST_CLICK_MS = 20_000


def download(page: Page, button: Locator) -> Path:
    """Click ``button`` and return the path of the file it downloads (clicked again once if
    its first click starts none)."""
    expect(button).to_be_enabled(timeout=WAIT_MS)
    try:
        with page.expect_download(timeout=FIRST_CLICK_MS) as started:
            button.click()
    except PlaywrightError:
        with page.expect_download(timeout=WAIT_MS) as started:
            button.click()
    return Path(started.value.path())
