"""``python -m bench.index_time``: index time of 300-page PDFs, this checkout against a base
commit's code, in the same run.

The base commit's ``treerag_core`` is exported with ``git archive`` under ``bench/out/``;
each measurement is a fresh process (imports done before the clock starts) indexing one
PDF offline and not storing it, runs interleaved base/ours, median of ``--runs``. Inputs:
the generated 300-page PDFs of ``python -m bench`` (with and without bookmarks) and, when
present, real PDFs of about 300 pages from the shared bench; or the files given with
``--file`` (a scan: its OCR, nothing cached, as each run is a fresh process without a
registry) and ``--name`` for the results. ``--inserts``: instead, the 2 MB Markdown of
``python -m bench`` stored into an empty registry (the first insert) and into a registry of
49 copies of it (the 50th insert), each side's registry prefilled by its own code. Prints a
table and writes ``bench/results/index_time.{json,md}`` (or ``<name>.{json,md}``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from io import BytesIO
from pathlib import Path

from .inputs import ensure_inputs, registry_copies
from .record import write_results
from .runner import copy_registry

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out" / "index-time"
SHARED = ROOT.parent / "shared" / "bench"
REAL = [
    SHARED / "financebench" / "pdfs" / "AMERICANWATERWORKS_2022_10K.pdf",  # 306 pages
    BENCH / "out" / "structure" / "gnuplot.pdf",  # 311 pages, LaTeX, printed contents
]
WORKER = """
import sys, time, json
from treerag_core import index_document
from treerag_core.summarize.summarizers import make_summarizer
summarizer = make_summarizer(None)
started = time.perf_counter()
doc = index_document(sys.argv[1], summarizer=summarizer, persist=False, verbose=False)
ocr = f", OCR in {doc['ocr_language']}" if doc.get("ocr_language") else ""
print(json.dumps({"seconds": time.perf_counter() - started,
                  "sections": len(doc["flat_nodes"]), "source": doc["structure_source"] + ocr}))
"""

INSERT_WORKER = """
import sys, time, json
from treerag_core import index_document
started = time.perf_counter()
for path in sys.argv[2:]:
    doc = index_document(path, registry_path=sys.argv[1], verbose=False)
print(json.dumps({"seconds": time.perf_counter() - started,
                  "sections": len(doc["flat_nodes"]), "source": doc["structure_source"]}))
"""
REGISTRY_OF = 49  # the 50th insert: into a registry of this many copies


def export_base(commit: str) -> Path:
    """The base commit's ``treerag_core`` under bench/out/index-time/<commit>/."""
    target = OUT / commit
    if (target / "treerag_core").is_dir():
        return target
    data = subprocess.run(
        ["git", "archive", "--format=tar", commit, "treerag_core"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout  # fmt: skip
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(target, filter="data")
    return target


def measure(code: Path, pdf: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(pdf)],
        capture_output=True, text=True, check=True, cwd=OUT,
        env={**os.environ, "PYTHONPATH": str(code)},  # the package under ``code`` is the one run
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_insert(code: Path, registry: Path, *paths: Path) -> dict:
    """``paths`` stored into ``registry`` in one fresh process (the last one timed alone
    when ``paths`` is one file)."""
    done = subprocess.run(
        [sys.executable, "-c", INSERT_WORKER, str(registry), *map(str, paths)],
        capture_output=True, text=True, check=True, cwd=OUT,
        env={**os.environ, "PYTHONPATH": str(code)},
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def insert_runs(sides: dict[str, Path], runs: int) -> dict[str, dict[str, list[dict]]]:
    """The first and the 50th insert of the 2 MB Markdown, interleaved base/ours."""
    copies = registry_copies(ensure_inputs().markdown, REGISTRY_OF + 1, OUT / "sources")
    for name, code in sides.items():  # each side's registry of 49, made by its own code
        shutil.rmtree(OUT / name / "pristine", ignore_errors=True)
        measure_insert(code, OUT / name / "pristine" / "reg.json", *copies[:REGISTRY_OF])
    found: dict[str, dict[str, list[dict]]] = {
        "2 MB Markdown: first insert (empty registry)": {"base": [], "ours": []},
        "2 MB Markdown: 50th insert (registry of 49)": {"base": [], "ours": []},
    }
    first, fiftieth = found.values()
    for _ in range(runs):
        for name, code in sides.items():
            work = OUT / name / "run"
            shutil.rmtree(work, ignore_errors=True)
            first[name].append(measure_insert(code, work / "reg.json", copies[-1]))
            copy_registry(OUT / name / "pristine", work)
            fiftieth[name].append(measure_insert(code, work / "reg.json", copies[-1]))
    return found


def _default_inputs() -> dict[str, Path]:
    inputs = ensure_inputs()
    return {
        "generated, 300 pages, no bookmarks": inputs.pdf_plain,
        "generated, 300 pages, bookmarks": inputs.pdf_outline,
        **{f"{p.stem} (real)": p for p in REAL if p.exists()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.index_time", description=__doc__)
    parser.add_argument(
        "--base", default="", help="commit to compare with (default: where HEAD left main)"
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--file", action="append", default=[], help="index these instead")
    parser.add_argument("--name", default="index_time", help="results file stem")
    parser.add_argument("--inserts", action="store_true", help="the 2 MB Markdown stored")
    args = parser.parse_args(argv)
    base_ref = (
        args.base
        or subprocess.run(
            ["git", "merge-base", "main", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        or "main"
    )
    base_commit = subprocess.run(
        ["git", "rev-parse", "--short", base_ref], cwd=ROOT, capture_output=True, text=True,
        check=True,
    ).stdout.strip()  # fmt: skip
    ours_commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    base = export_base(base_commit)
    pdfs = {Path(f).name: Path(f).resolve() for f in args.file} or _default_inputs()
    measured = insert_runs({"base": base, "ours": ROOT}, args.runs) if args.inserts else {
        label: _interleaved(base, pdf, args.runs) for label, pdf in pdfs.items()
    }  # fmt: skip
    rows = []
    for label, runs in measured.items():
        med = {k: statistics.median(r["seconds"] for r in v) for k, v in runs.items()}
        rows.append(
            {
                "pdf": label,
                "base_s": med["base"],
                "ours_s": med["ours"],
                "ratio": med["ours"] / med["base"],
                "base_source": runs["base"][0]["source"],
                "ours_source": runs["ours"][0]["source"],
                "base_sections": runs["base"][0]["sections"],
                "ours_sections": runs["ours"][0]["sections"],
            }
        )
        print(f"[index_time] {label}: {med['base']:.2f} s → {med['ours']:.2f} s", file=sys.stderr)
    stored = "stored in a registry" if args.inserts else "not stored"
    lines = [
        "# Index time" + ("" if args.file or args.inserts else ", 300-page PDFs"),
        "",
        f"Generated {time.strftime('%Y-%m-%d %H:%M:%S %Z')} by `python -m bench.index_time`: "
        f"base {base_commit} vs ours {ours_commit}, offline engine, {stored}, fresh process "
        f"per run, median of {args.runs} interleaved runs.",
        "",
        f"| {'document' if args.inserts else 'PDF'} | base | ours | ours / base | base: sections, source | ours: sections, source |",
        "|---|---:|---:|---:|---|---|",
        *[
            f"| {r['pdf']} | {r['base_s']:.2f} s | {r['ours_s']:.2f} s | **{r['ratio']:.2f}** | "
            f"{r['base_sections']}, {r['base_source']} | {r['ours_sections']}, {r['ours_source']} |"
            for r in rows
        ],
        "",
    ]
    report = {"base": base_commit, "ours": ours_commit, "runs": args.runs, "rows": rows}
    write_results(args.name, report, lines)
    print("\n".join(lines))
    return 0


def _interleaved(base: Path, pdf: Path, runs: int) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {"base": [], "ours": []}
    for _ in range(runs):
        found["base"].append(measure(base, pdf))
        found["ours"].append(measure(ROOT, pdf))
    return found


if __name__ == "__main__":
    sys.exit(main())
