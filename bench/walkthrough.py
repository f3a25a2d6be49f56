"""``python -m bench.walkthrough``: a newcomer's first minutes, played in Debian's Chromium.

Starts ``streamlit run app.py`` on a free 127.0.0.1 port with an empty registry and the
offline engine, then does what a person new to the app would: open it, press "Try it with a
sample", ask the suggested question, click a citation marker in the answer, open the cited
section in the tree. It reports the wall time from the first page to the first answer and
the clicks it took; checks that every citation marker in the answer is a link and that no
page scrolls sideways at 1280 px; and writes the README's screenshots (home, chat with
evidence, tree browser, registry; upload and evaluate) into ``docs/screenshots/``. Results:
``bench/results/walkthrough.json`` and ``.md``.

Targets (issue 39): first answer within 2 minutes, at most 5 clicks, no sideways scroll.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from testkit.app_server import CHROMIUM_ARGS, streamlit_server
from treerag_core.library.sample import SAMPLE_NAME, SAMPLE_QUESTION
from treerag_core.views.citations import find_citations

from .record import RESULTS as RESULTS_DIR
from .record import write_results

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screenshots"
VIEWPORT = {"width": 1280, "height": 1000}
PAGES = ("", "upload", "tree", "chat", "registry", "evaluate", "sources", "settings")
TARGET_ANSWER_S = 120.0
TARGET_CLICKS = 5
WAIT_MS = 120_000
APP_IDLE = (
    "[data-testid='stApp'][data-test-connection-state='CONNECTED']"
    "[data-test-script-state='notRunning']"
)
SIDEWAYS = """() => {
    const page = document.scrollingElement, over = [];
    if (page.scrollWidth > page.clientWidth + 1) over.push('page');
    document.querySelectorAll('.dvn-scroller').forEach((el) => {
        if (el.scrollWidth > el.clientWidth + 1) over.push('table');
    });
    return over;
}"""
SCREENSHOTS = {
    "home": "app-home.png",
    "chat": "app-chat-evidence.png",
    "tree": "app-tree.png",
    "registry": "app-registry.png",
    "upload": "app-upload.png",
    "evaluate": "app-evaluate.png",
}


def wait_idle(page: Any) -> None:
    from playwright.sync_api import expect

    page.wait_for_selector(APP_IDLE, state="attached", timeout=WAIT_MS)
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=WAIT_MS)


def first_steps(page: Any, url: str, shots: Path) -> dict[str, Any]:
    """Empty library → sample → suggested question → citation → tree; timed and counted."""
    from playwright.sync_api import expect

    clicks = 0
    started = time.perf_counter()
    page.goto(url)
    sample = page.get_by_role("button", name="Try it with a sample")
    expect(sample).to_be_visible(timeout=WAIT_MS)
    sample.click()
    clicks += 1
    suggested = page.get_by_role("button", name=SAMPLE_QUESTION)
    expect(suggested).to_be_visible(timeout=WAIT_MS)
    suggested.click()
    clicks += 1
    links = page.locator('a[href^="#cite-"]')
    expect(links.first).to_be_visible(timeout=WAIT_MS)
    answer_s = time.perf_counter() - started
    wait_idle(page)
    answer = page.get_by_test_id("stChatMessage").last.get_by_test_id("stMarkdownContainer").first
    markers = len(find_citations(answer.inner_text()))
    linked = answer.locator('a[href^="#cite-"]').count()
    links.first.click()
    clicks += 1
    pane = page.locator(".st-key-evidence_pane")
    expect(pane.get_by_test_id("stImage").first).to_be_visible(timeout=WAIT_MS)
    wait_idle(page)
    page.screenshot(path=str(shots / SCREENSHOTS["chat"]))
    pane.get_by_role("button", name="Open in tree").click()
    clicks += 1
    expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=WAIT_MS)
    page.wait_for_selector('iframe[title="streamlit_agraph.agraph"]', timeout=WAIT_MS)
    wait_idle(page)
    page.wait_for_timeout(2500)  # vis-network lays the graph out after its iframe loads
    tree_address = bool(re.search(r"/tree\?doc=[^&]+&node=", page.url))
    page.screenshot(path=str(shots / SCREENSHOTS["tree"]))
    return {
        "first_answer_s": round(answer_s, 1),
        "clicks_to_tree": clicks,
        "clicks_to_first_answer": 2,
        "citation_markers": markers,
        "citation_links": linked,
        "tree_address_names_node": tree_address,
        "total_s": round(time.perf_counter() - started, 1),
    }


def other_shots(page: Any, url: str, shots: Path) -> None:
    from playwright.sync_api import expect

    page.goto(url)
    expect(page.get_by_role("heading", name="Recent conversations")).to_be_visible(timeout=WAIT_MS)
    wait_idle(page)
    # the table draws its rows after the page settles: shot once the document's row is there
    rows = page.get_by_test_id("stDataFrame").get_by_text(SAMPLE_NAME)
    expect(rows.first).to_be_attached(timeout=WAIT_MS)
    page.screenshot(path=str(shots / SCREENSHOTS["home"]))
    page.goto(url + "/registry")
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible(timeout=WAIT_MS)
    wait_idle(page)
    expect(rows.first).to_be_attached(timeout=WAIT_MS)
    page.screenshot(path=str(shots / SCREENSHOTS["registry"]))
    for name in ("upload", "evaluate"):  # the forms a newcomer meets next
        page.goto(f"{url}/{name}")
        expect(page.get_by_test_id("stFileUploader").first).to_be_visible(timeout=WAIT_MS)
        wait_idle(page)
        page.screenshot(path=str(shots / SCREENSHOTS[name]))


def sideways(page: Any, url: str) -> dict[str, list[str]]:
    """What scrolls sideways on each page at 1280 px (nothing, it is hoped)."""
    found = {}
    for path in PAGES:
        page.goto(f"{url}/{path}")
        page.get_by_test_id("stMain").first.wait_for(timeout=WAIT_MS)
        wait_idle(page)
        found["/" + path] = page.evaluate(SIDEWAYS)
    return found


def play(shots: Path) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="treerag-walk-") as tmp:
        workdir = Path(tmp)
        with streamlit_server(workdir) as server, sync_playwright() as p:
            url = server["url"]
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport=VIEWPORT)
            result = first_steps(page, url, shots)
            other_shots(page, url, shots)
            result["sideways_at_1280"] = sideways(page, url)
            browser.close()
    return result


def verdicts(result: dict[str, Any]) -> dict[str, bool]:
    return {
        "first answer within 2 minutes": result["first_answer_s"] <= TARGET_ANSWER_S,
        "at most 5 clicks": result["clicks_to_tree"] <= TARGET_CLICKS,
        "every citation marker clickable": result["citation_markers"] == result["citation_links"]
        and result["citation_markers"] > 0,
        "no sideways scroll at 1280 px": not any(result["sideways_at_1280"].values()),
        "the tree's address names the node": result["tree_address_names_node"],
    }


def report(result: dict[str, Any]) -> str:
    rows = [
        ("time from the first page to the first answer", f"{result['first_answer_s']} s"),
        ("clicks to the first answer", result["clicks_to_first_answer"]),
        ("clicks to the cited section in the tree", result["clicks_to_tree"]),
        (
            "citation markers in the answer / links",
            f"{result['citation_markers']} / {result['citation_links']}",
        ),  # fmt: skip
        ("whole walk-through", f"{result['total_s']} s"),
    ]
    lines = ["# Walk-through: a newcomer's first minutes", "",
             "Empty registry, offline engine, Chromium at 1280×1000 "
             f"({result['machine']}).", "",
             "| measure | value |", "|---|---:|"]  # fmt: skip
    lines += [f"| {name} | {value} |" for name, value in rows]
    lines += ["", "| target | met |", "|---|---|"]
    lines += [f"| {name} | {'yes' if ok else '**no**'} |" for name, ok in result["met"].items()]
    over = {path: what for path, what in result["sideways_at_1280"].items() if what}
    lines += ["", "Sideways scroll at 1280 px: " + (json.dumps(over) if over else "none on "
              + ", ".join(result["sideways_at_1280"]))]  # fmt: skip
    lines += [
        "",
        "Screenshots: " + ", ".join(f"docs/screenshots/{n}" for n in SCREENSHOTS.values()),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shots", type=Path, default=SHOTS)
    parser.add_argument("--results", type=Path, default=RESULTS_DIR)
    args = parser.parse_args(argv)
    args.shots.mkdir(parents=True, exist_ok=True)
    result = play(args.shots)
    result["machine"] = f"{platform.machine()}, {len(os.sched_getaffinity(0))} cores"
    result["met"] = verdicts(result)
    text = report(result)
    write_results("walkthrough", result, text, folder=args.results)
    print(text)
    return 0 if all(result["met"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
