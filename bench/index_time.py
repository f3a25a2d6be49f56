"""``python -m bench.index_time``: index time of 300-page PDFs, this checkout against a base
commit's code, in the same run.

The base commit's ``treerag_core`` is exported with ``git archive`` under ``bench/out/``;
each measurement is a fresh process (imports done before the clock starts) indexing one
PDF offline and not storing it, runs interleaved base/ours, median of ``--runs``. Inputs:
the generated 300-page PDFs of ``python -m bench`` (with and without bookmarks) and, when
present, real PDFs of about 300 pages from the shared bench; or the files given with
``--file`` (a scan: its OCR, nothing cached, as each run is a fresh process without a
registry) and ``--name`` for the results. Prints a table and writes
``bench/results/index_time.{json,md}`` (or ``<name>.{json,md}``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import time
from io import BytesIO
from pathlib import Path

from .inputs import ensure_inputs
from .record import write_results

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
    rows = []
    for label, pdf in pdfs.items():
        runs: dict[str, list[dict]] = {"base": [], "ours": []}
        for _ in range(args.runs):
            runs["base"].append(measure(base, pdf))
            runs["ours"].append(measure(ROOT, pdf))
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
    lines = [
        "# Index time" + ("" if args.file else ", 300-page PDFs"),
        "",
        f"Generated {time.strftime('%Y-%m-%d %H:%M:%S %Z')} by `python -m bench.index_time`: "
        f"base {base_commit} vs ours {ours_commit}, offline engine, not stored, fresh process "
        f"per run, median of {args.runs} interleaved runs.",
        "",
        "| PDF | base | ours | ours / base | base: sections, source | ours: sections, source |",
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


if __name__ == "__main__":
    sys.exit(main())
