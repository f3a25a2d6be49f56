"""``python -m bench`` (or ``python -m bench speed``): the speed and scale benchmark, ours vs
treerag 0.1.5, in one run.

Writes ``bench/results/speed.json`` and ``bench/results/speed.md`` (latest run only) and
prints the table. Heavy files (inputs, registries, treerag's venv) go to ``bench/out/``.
The ``pg`` group runs ``bench.pg`` (the PostgreSQL store beside the TinyDB file, and the
indexing workers) into ``bench/results/pg.{json,md}``; ``--only pg`` runs it alone.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from . import runner, suite
from .inputs import SEED, ensure_inputs
from .record import machine, write_results
from .report import Figure, table

RESULTS = runner.BENCH / "results"
OUT = runner.BENCH / "out"


def versions(peer: runner.Side) -> dict[str, str]:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], capture_output=True, text=True, cwd=runner.ROOT)
        return done.stdout.strip()

    probe = (
        "import importlib.metadata as m, json; "
        "print(json.dumps({k: m.version(k) for k in ('treerag', 'pymupdf', 'langchain-core')}))"
    )
    done = subprocess.run([peer.python, "-c", probe], capture_output=True, text=True)
    theirs = json.loads(done.stdout) if done.returncode == 0 else {}
    from importlib.metadata import version

    return {
        "ours_commit": git("rev-parse", "--short", "HEAD"),
        "ours_dirty": bool(git("status", "--porcelain", "treerag_core")),
        "pypdf": version("pypdf"),
        "python-docx": version("python-docx"),
        "tinydb": version("tinydb"),
        **{f"treerag_venv_{k}": v for k, v in theirs.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench speed", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="fresh-process runs per figure")
    parser.add_argument("--summary-sections", type=int, default=40, help="sections summarised")
    parser.add_argument(
        "--only",
        default="index,registry,tokens,summarizer,ask,pg",
        help="comma-separated groups to run",
    )
    parser.add_argument("--venv", type=Path, default=OUT / "treerag-venv")
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    groups = set(args.only.split(","))

    def log(message: str) -> None:
        print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    started = time.time()
    if "pg" in groups:
        from . import pg

        log("PostgreSQL store vs TinyDB file, indexing workers (bench.pg)")
        pg.main(["--runs", str(max(args.runs, 5))])
        groups.discard("pg")
        if not groups:
            return 0
    peer = runner.peer(runner.ensure_peer_venv(args.venv, log))
    ours = runner.ours()
    log("generating inputs (fixed seed)")
    inputs = ensure_inputs()
    figures: list[Figure] = []
    if "index" in groups:
        figures += suite.index_figures(ours, peer, inputs, args.runs, log)
    if "registry" in groups:
        figures += suite.registry_figures(ours, peer, inputs, args.runs, OUT / "registry", log)
    if "tokens" in groups:
        figures += suite.token_figures(ours, peer, inputs, log)
    if "summarizer" in groups:
        figures += suite.summarizer_figures(
            ours, peer, inputs, args.runs, args.summary_sections, log
        )
    if "ask" in groups:
        figures += suite.ask_figures(ours, inputs, args.runs, log)

    report = {
        "generated_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "duration_s": round(time.time() - started, 1),
        "runs_per_figure": args.runs,
        "seed": SEED,
        "machine": machine(),
        "versions": versions(peer),
        "inputs": {
            name: {"file": Path(path).name, "bytes": Path(path).stat().st_size}
            for name, path in vars(inputs).items()
        },
        "notes": [
            "Each figure is the median of fresh-process runs; ratios are ours / treerag "
            "measured in the same run on the same generated inputs.",
            "Times are measured inside the process around the library call (no interpreter "
            "start-up); peak RSS is the whole process's ru_maxrss.",
            "treerag's 49-document registry is written in one save_registry call (inserting "
            "them one by one costs it ~10 minutes); only the 50th insert is timed, for both.",
            "Tokens are characters / 4.",
        ],
        "figures": [f.as_dict() for f in figures],
    }
    md = [
        "# Speed and scale: treerag (this project) vs treerag 0.1.5",
        "",
        f"Generated {report['generated_at']} by `python -m bench` in {report['duration_s']} s; "
        f"median of {args.runs} fresh-process runs per figure; "
        f"machine: {report['machine']['cores']} cores, {report['machine']['cpu']}.",
        "",
        table(figures),
        "",
        *[f"- {n}" for n in report["notes"]],
        "",
    ]
    write_results("speed", report, md, args.results)
    print(table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
