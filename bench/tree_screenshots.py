"""``python -m bench.tree_screenshots``: screenshots of the tree browser on documents of the
structure set (bookmarks removed), indexed with the offline engine; ``--set tree``: a 10-K as
filed (its bookmarks kept), a manual and a generated document, each with a section found
by the tree search and selected (``docs/screenshots/tree-<name>.png``).

They show what the structure strategies give a reader: the outline and graph with the
headings found on the pages. Indexes the PDFs into a throwaway registry, starts
``streamlit run app.py`` on a free 127.0.0.1 port, drives Debian's Chromium with Playwright
and writes ``docs/screenshots/structure-<name>.png``. The set is built like
``python -m bench.structure`` builds it.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from testkit.app_server import CHROMIUM_ARGS, streamlit_server

from .structure import SET_DIR, ensure_set, log

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screenshots"
# (PDF of the set, screenshot name, outline entry to open beside the graph, whether the
# graph is then focused on it: gnuplot's top level is six parts, its headings are below)
DOCUMENTS = (
    ("gnuplot.pdf", "structure-gnuplot.png", "II Plotting styles", True),
    ("VERIZON_2022_10K.pdf", "structure-verizon.png", "Item 1A. Risk Factors", False),
    ("NIKE_2023_10K.pdf", "structure-nike.png", "Human Capital Resources", False),
)
# (PDF, screenshot name, the tree search's query, the hit to select): the issue-37 set.
FILINGS = ROOT.parent / "shared" / "bench" / "financebench" / "pdfs"
TREE_DOCUMENTS = (
    (FILINGS / "NIKE_2023_10K.pdf", "tree-nike-10k.png", "statements of income",
     "CONSOLIDATED STATEMENTS OF INCOME"),
    (SET_DIR / "gnuplot.pdf", "tree-gnuplot-manual.png", "boxplot", "Boxplot"),
    (ROOT / "bench" / "out" / "tree_quality" / "generated_manual.pdf", "tree-generated-manual.png",
     "network development", "Network Development Statement"),
    # a manual nobody tuned on, without its bookmarks (bench.structure_fresh builds the set)
    (ROOT / "bench" / "out" / "structure_fresh" / "set" / "debian-faq.de.pdf",
     "tree-debian-faq-de.png", "virtuelles Paket", "Was ist ein virtuelles Paket?"),
)  # fmt: skip
VIEWPORT = {"width": 1500, "height": 1500}  # graph, outline and panel in one picture


def index_all(registry: Path, names: list[str], summaries: bool = False) -> None:
    """The PDFs (names in the structure set, or paths) indexed offline into ``registry``
    (with the offline engine's summaries and tags when ``summaries``)."""
    from treerag_core import index_document, make_summarizer

    for name in names:
        started = time.perf_counter()
        summarizer = make_summarizer() if summaries else None
        extra = {"summarizer": summarizer} if summarizer else {}
        doc = index_document(str(SET_DIR / name), registry_path=str(registry), verbose=False,
                             **extra)  # fmt: skip
        log(
            f"{name}: {len(doc['flat_nodes'])} sections from {doc.get('structure_source')} "
            f"in {time.perf_counter() - started:.1f}s"
        )


Steps = Callable[[Any], None]  # what is done on a document's page before it is shot


def shoot(url: str, documents: tuple[tuple[str, str, str, bool], ...], out: Path) -> None:
    """Each document's tree with an outline entry opened (and the graph focused on it)."""
    _shoot_each(url, out, [
        (name, shot, partial(_open_section, name=name, section=section, focus=focus))
        for name, shot, section, focus in documents
    ])  # fmt: skip


def shoot_found(url: str, documents: tuple, out: Path) -> None:
    """Each document's tree with the hit of a tree search selected: its path drawn."""
    _shoot_each(url, out, [
        (Path(path).name, shot, partial(_select_hit, query=query, hit=hit))
        for path, shot, query, hit in documents
    ])  # fmt: skip


def _shoot_each(url: str, out: Path, jobs: list[tuple[str, str, Steps]]) -> None:
    """For each (document, screenshot, steps): the document chosen in the tree browser, the
    steps done, the graph laid out, the page shot."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=VIEWPORT)
        for name, shot, steps in jobs:
            page.goto(url + "/tree")
            expect(page.get_by_role("heading", name="Tree browser")).to_be_visible(timeout=60_000)
            page.get_by_test_id("stSelectbox").first.click()
            page.get_by_role("option", name=name).first.click()
            wait_idle(page)
            steps(page)
            page.locator('iframe[title="streamlit_agraph.agraph"]').first.wait_for(timeout=30_000)
            page.wait_for_timeout(2500)  # vis-network lays the graph out after the iframe loads
            page.screenshot(path=str(out / shot), full_page=True)
            log(f"wrote {out / shot}")
        browser.close()


def _open_section(page: Any, name: str, section: str, focus: bool) -> None:
    from playwright.sync_api import expect

    expect(page.get_by_text(f"Select a section of {name}")).to_be_visible(timeout=30_000)
    opened = page.get_by_role("heading", name=section, exact=True)
    for _ in range(3):  # a click during a rerun is lost: click until the panel shows it
        page.get_by_test_id("stRadio").first.get_by_text(section).first.click()
        wait_idle(page)
        if opened.count():
            break
    expect(opened).to_be_visible(timeout=30_000)
    if focus:
        page.get_by_role("button", name="Focus on this section").click()
        wait_idle(page)


def _select_hit(page: Any, query: str, hit: str) -> None:
    search = page.get_by_label("Search sections (title, tag or text)")
    search.fill(query)
    search.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name=hit).first.click()
    wait_idle(page)
    search.fill("")  # the hits put away: the graph and the section in view
    search.press("Enter")
    wait_idle(page)


def wait_idle(page) -> None:  # noqa: ANN001 - a Playwright page
    """Streamlit shows a 'Running…' status widget while the script runs."""
    from playwright.sync_api import expect

    page.wait_for_timeout(400)
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=60_000)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=SHOTS)
    parser.add_argument("--set", choices=("structure", "tree"), default="structure")
    args = parser.parse_args(argv)
    ensure_set(SET_DIR)
    args.out.mkdir(parents=True, exist_ok=True)
    tree = args.set == "tree"
    if tree:
        from .tree_quality_docs import ensure_generated

        ensure_generated(ROOT / "bench" / "out" / "tree_quality")
    with tempfile.TemporaryDirectory(prefix="treerag-shots-") as tmp:
        workdir = Path(tmp)
        registry = workdir / "indexed_docs.json"
        found = [d for d in TREE_DOCUMENTS if Path(d[0]).exists()] if tree else DOCUMENTS
        for missing in {d[0] for d in TREE_DOCUMENTS} - {d[0] for d in found} if tree else ():
            log(f"skipped {missing}: not built here (bench.structure_fresh builds the Debian set)")
        index_all(registry, [str(d[0]) for d in found], summaries=tree)
        with streamlit_server(workdir) as server:  # its registry: workdir/indexed_docs.json
            if tree:
                shoot_found(server["url"], tuple(found), args.out)
            else:
                shoot(server["url"], DOCUMENTS, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
