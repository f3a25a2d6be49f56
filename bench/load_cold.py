"""``python -m bench load --cold``: the chat page right after the server starts.

Issue 42's scenario, the way a new user meets the app: a fresh ``streamlit run app.py``
(nothing loaded, nothing cached in the process), eight people open the chat page at once and
ask three 10-Ks, while a ninth person uploads a fourth filing on the Upload page, which the
server indexes itself (a file registry is indexed by the process that receives the upload,
as the app does). Three rows, in one run:

- ``cold + indexing``: that fresh server; CPU-seconds per question over the whole run
  (opening, asking, and the indexing until its card shows), children included. The upload
  starts when everyone's page is open, as the first questions are asked, so the indexing
  overlaps the asking (this bench found that pages first opened at the same moment on a
  fresh server collided in their first import of ``treerag_core``; ``app.py`` now imports
  the app's modules once per server, one session at a time);
- ``warm, same server``: the same people again on that server once it is warm;
- ``cold, no indexing``: another fresh server over the same three documents, nobody
  uploading: the cold cost without the indexing counted (the difference from the first row
  is what the indexing cost the server).

``cpu_per_question_s`` is the asking phase alone (as in the warm rows of ``bench.load``),
``cpu_total_per_question_s`` the whole run. The registry of the three filings is indexed
once and copied for each server, so both cold servers start from the same files.
"""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

from bench.load import ANSWER_TIMEOUT_MS, OUT, level
from bench.load_server import FILINGS, Server, prepare_registry

# The fourth filing: one the three askers do not ask about, of a 10-K's common size
# (1.3 MB, about 100 pages; the three asked are 0.6-3 MB).
INDEXED = "3M_2018_10K.pdf"
INDEX_TIMEOUT_MS = 600_000  # a filing not indexed in ten minutes counts as an error


def indexer_for(path: Path):  # noqa: ANN201 - the coroutine function ``level`` runs
    """One person who uploads ``path`` on the Upload page and waits for its result card."""

    async def index(browser, url: str, gates: dict) -> dict:  # noqa: ANN001
        record: dict = {"errors": [], "seconds": None}
        context = await browser.new_context(viewport={"width": 1300, "height": 900})
        page = await context.new_page()
        try:
            # Once everyone's page is open, as the first questions are asked.
            await gates["ask"].wait()
            await page.goto(f"{url}/upload")
            heading = page.get_by_role("heading", name="Upload & index")
            await heading.wait_for(timeout=ANSWER_TIMEOUT_MS)
            started = time.perf_counter()
            await page.locator('input[type="file"]').first.set_input_files(str(path))
            await page.get_by_role("button", name="Index", exact=True).click()
            card = page.get_by_role("button", name="Open in tree")
            await card.wait_for(timeout=INDEX_TIMEOUT_MS)
            record["seconds"] = round(time.perf_counter() - started, 1)
            if await page.get_by_test_id("stAlertContentError").count():
                record["errors"].append("indexing: an error box is shown on the Upload page")
        except Exception as exc:  # noqa: BLE001 - a timeout: counted as an error
            record["errors"].append(f"indexing: {type(exc).__name__}: {str(exc)[:200]}")
            await page.screenshot(path=str(OUT / "error-indexing.png"), full_page=True)
        finally:
            await context.close()
        return record

    return index


def fresh_server(pristine: Path, workdir: Path) -> Server:
    """A server over a copy of the pristine registry folder (nothing of a last run kept)."""
    shutil.rmtree(workdir, ignore_errors=True)
    shutil.copytree(pristine, workdir)
    return Server(Path(__file__).resolve().parents[1], workdir)


def run_cold(people: int, indexed: str = INDEXED) -> list[dict]:
    """The three rows described above, printed as they come."""
    from bench.load import table

    pristine = OUT / "cold" / "pristine"
    shutil.rmtree(pristine, ignore_errors=True)
    pristine.mkdir(parents=True)
    docs = prepare_registry(Path(__file__).resolve().parents[1], pristine / "indexed_docs.json")
    rows = []

    def keep(row: dict, label: str) -> None:
        row["app"] = label
        rows.append(row)
        print(table([row], header=len(rows) == 1), flush=True)

    with fresh_server(pristine, OUT / "cold" / "with-indexing") as server:
        first = level(server, docs, people, indexer=indexer_for(FILINGS / indexed))
        keep(asyncio.run(first), f"cold + indexing {indexed}")
        keep(asyncio.run(level(server, docs, people)), "warm, same server")
    with fresh_server(pristine, OUT / "cold" / "no-indexing") as server:
        keep(asyncio.run(level(server, docs, people)), "cold, no indexing")
    return rows
