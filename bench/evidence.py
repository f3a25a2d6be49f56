"""What checking an answer costs: locating and drawing one cited page's evidence.

``python -m bench.evidence`` indexes two shared filings (offline engine), asks one question
on each, and times for the first cited reference, median of 9 runs in this process:
locating the quoted passage on its PDF page(s) (PDFium word boxes aligned to the passage),
rendering the page with the highlight uncached (a fresh cache each run) and the same render
from the store's cache (what reopening an answer costs). CPU time is reported beside wall
time because the machine is shared. Prints a table and writes ``bench/results/evidence.*``.
"""

from __future__ import annotations

import os
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from treerag_core import index_document, make_retriever
from treerag_core.answer.ask import ask
from treerag_core.evidence.render import locate_evidence, render_evidence
from treerag_core.store import open_store

from .record import write_results

HERE = Path(__file__).resolve().parent
OUT = HERE / "out" / "evidence"
RESULTS = HERE / "results"
FILINGS = HERE.parent.parent / "shared" / "bench" / "financebench" / "pdfs"
CASES = [
    ("AMAZON_2019_10K.pdf", "What were Amazon's total net sales in 2019?"),
    ("3M_2018_10K.pdf", "What were 3M's capital expenditures in 2018?"),
]
RUNS = 9


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``fn`` over RUNS runs."""
    wall, cpu = [], []
    for _ in range(RUNS):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def measure(name: str, question: str) -> dict:
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    registry = str(OUT / "reg.json")
    doc = index_document(str(FILINGS / name), registry_path=registry, verbose=False)
    store = open_store(registry)
    result = ask(question, doc, make_retriever(None, sources=store.sources))
    ref = next(r for r in result.references if r["cited"])
    cache = OUT / "reg.cache" / "evidence"

    def uncached() -> None:
        shutil.rmtree(cache, ignore_errors=True)
        render_evidence(doc, ref, registry)

    locate = timed(lambda: locate_evidence(doc, dict(ref, highlights=None), registry))
    fresh = timed(uncached)
    render_evidence(doc, ref, registry)
    cached = timed(lambda: render_evidence(doc, ref, registry))
    pages = len(render_evidence(doc, ref, registry))
    return {
        "document": name,
        "question": question,
        "pages_drawn": pages,
        "locate_ms": locate,
        "render_uncached_ms": fresh,
        "render_cached_ms": cached,
    }


def main() -> None:
    rows = [measure(name, question) for name, question in CASES]
    load = os.getloadavg()[0]
    lines = [
        "# Evidence: locating and drawing a cited page",
        "",
        f"`python -m bench.evidence`, median of {RUNS} runs in one process, offline engine, "
        f"zoom 1.5 (the app's); load average {load:.2f} on {os.cpu_count()} cores.",
        "",
        "| document | pages drawn | locate, wall / CPU ms | render uncached, wall / CPU ms "
        "| render cached, wall / CPU ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        cells = [
            f"{r[k][0]:.1f} / {r[k][1]:.1f}"
            for k in ("locate_ms", "render_uncached_ms", "render_cached_ms")
        ]
        lines.append(f"| {r['document']} | {r['pages_drawn']} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    write_results("evidence", {"load": load, "rows": rows}, text)
    shutil.rmtree(OUT, ignore_errors=True)


if __name__ == "__main__":
    main()
