"""``python -m bench.financebench``: offline navigation vs the chunk baseline on the
FinanceBench development set (65 questions, 37 filings), written to ``bench/results/``.

Indexing the 37 PDFs (5,772 pages) costs ~10 minutes of pypdf extraction, so it happens
once: documents go to a registry under ``bench/out/financebench/`` and later runs load
them from there. Page texts for the chunk baseline come from the same per-page cache as
:mod:`bench.page_cache` (pypdf, the extraction the gold page numbers were checked with).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .page_cache import cached_pages

DEV_SET = Path("/work/shared/bench/financebench/questions.jsonl")
OUT = Path(__file__).resolve().parent / "out" / "financebench"
RESULTS = Path(__file__).resolve().parent / "results"


def index_all(questions_path: Path, registry: Path, log=print) -> None:
    """Index every filing the questions name that the registry does not hold yet."""
    from treerag_core import index_document, list_documents
    from treerag_core.summarize import offline_summarizer

    root = questions_path.parent
    files = sorted({json.loads(line)["file"] for line in questions_path.open() if line.strip()})
    have = {row["file_name"] for row in list_documents(str(registry))}
    for rel in files:
        path = root / rel
        if path.name in have:
            continue
        started = time.perf_counter()
        doc = index_document(
            str(path), summarizer=offline_summarizer, registry_path=str(registry), verbose=False
        )
        log(
            f"indexed {path.name}: {doc['total_sections']} sections, {doc.get('total_pages')} "
            f"pages in {time.perf_counter() - started:.1f} s"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.financebench", description=__doc__)
    parser.add_argument("--questions", type=Path, default=DEV_SET)
    parser.add_argument("--registry", type=Path, default=OUT / "registry.json")
    parser.add_argument("--index-only", action="store_true")
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    args.registry.parent.mkdir(parents=True, exist_ok=True)

    def log(message: str) -> None:
        print(f"[financebench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    index_all(args.questions, args.registry, log)
    if args.index_only:
        return 0
    return run_eval(args.questions, args.registry, args.results, log)


def loss_analysis(evaluation) -> dict:  # noqa: ANN001 - an Evaluation
    """Where navigation misses and the baseline hits (and the reverse), with a cause each.

    Cause labels: ``near`` (a retrieved range ends within 2 pages of the gold page: the
    right part of the filing, the wrong node), ``wide_node`` (a retrieved node spans more
    than 15 pages, so its text was truncated before the gold page), ``elsewhere``.
    """
    base = {r.id: r for r in evaluation.baseline or []}
    rows = []
    for nav in evaluation.navigation:
        chunk = base.get(nav.id)
        if nav.page_hit is None or chunk is None or nav.page_hit == chunk.page_hit:
            continue
        gold = set(nav.gold_pages)
        cause = "elsewhere"
        spans = [(r.page_start, r.page_end or r.page_start) for r in nav.retrieved if r.page_start]
        if any(e - s > 15 for s, e in spans):
            cause = "wide_node"
        if any(min(abs(g - s), abs(g - e)) <= 2 for s, e in spans for g in gold):
            cause = "near"
        rows.append(
            {
                "id": nav.id,
                "document": nav.document,
                "question": nav.question,
                "gold_pages": nav.gold_pages,
                "navigation_hit": nav.page_hit,
                "chunks_hit": chunk.page_hit,
                "navigation_got": [
                    {"node": r.label, "pages": [r.page_start, r.page_end], "title": r.titles[:1]}
                    for r in nav.retrieved
                ],
                "chunks_got_pages": sorted({p for r in chunk.retrieved for p in r.page_set()}),
                "cause": cause if not nav.page_hit else "",
            }
        )
    return {"rows": rows}


def run_eval(questions_path: Path, registry: Path, results: Path, log) -> int:  # noqa: ANN001
    """Offline navigation and the chunk baseline on the dev set; write eval.json/.md."""
    import subprocess
    from collections import defaultdict

    from treerag_core.evaluate import (
        describe_miss,
        evaluate,
        load_questions,
        registry_loader,
        summarize_results,
        summary_table,
    )

    questions = load_questions(str(questions_path))

    def page_texts(document: dict) -> list[str] | None:
        path = Path(str(document.get("file_path") or ""))
        return cached_pages(path) if path.suffix.lower() == ".pdf" and path.exists() else None

    started = time.perf_counter()
    evaluation = evaluate(
        questions,
        registry_loader(str(registry), str(questions_path.parent), index_missing=False),
        page_texts=page_texts,
    )
    seconds = time.perf_counter() - started
    summary = evaluation.summary()
    by_type: dict[str, dict] = {}
    kinds = {q["id"]: q.get("question_type", "?") for q in questions}
    groups: dict[str, dict[str, list]] = defaultdict(lambda: {"navigation": [], "chunks": []})
    for r in evaluation.navigation:
        groups[kinds[r.id]]["navigation"].append(r)
    for r in evaluation.baseline or []:
        groups[kinds[r.id]]["chunks"].append(r)
    for kind, g in sorted(groups.items()):
        by_type[kind] = {m: summarize_results(v) for m, v in g.items()}
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    losses = loss_analysis(evaluation)
    report = {
        "generated_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "commit": commit,
        "dataset": "FinanceBench dev set (65 questions, 37 filings; CC BY-NC 4.0, Patronus AI)",
        "engine": "offline (BM25 navigation over the tree, k=5 sections; no model)",
        "baseline": "500-token chunks, 50-token overlap, BM25, top-k to the same token budget",
        "index_summarizer": "offline_summarizer",
        "seconds": round(seconds, 1),
        "summary": summary,
        "by_question_type": by_type,
        "navigation_vs_chunks": losses,
        **evaluation.as_dict(),
    }
    results.mkdir(parents=True, exist_ok=True)
    (results / "eval.json").write_text(json.dumps(report, indent=1) + "\n")
    nav_only = sum(1 for r in losses["rows"] if r["navigation_hit"])
    chunk_only = len(losses["rows"]) - nav_only
    causes: dict[str, int] = defaultdict(int)
    for r in losses["rows"]:
        if r["cause"]:
            causes[r["cause"]] += 1
    md = [
        "# Retrieval on the FinanceBench development set",
        "",
        f"Generated {report['generated_at']} at commit {commit} by `python -m bench.financebench` "
        f"({report['seconds']} s for {len(questions)} questions, documents cached in a registry). "
        f"Engine: {report['engine']}. Baseline: {report['baseline']}. Tokens = characters / 4.",
        "",
        summary_table(summary),
        "",
        "## By question type",
        "",
        "| type | questions | navigation page hit | chunks page hit |",
        "|---|---:|---:|---:|",
        *[
            f"| {k} | {v['navigation']['questions']} | {v['navigation']['page_hit_rate']} | "
            f"{v.get('chunks', {}).get('page_hit_rate')} |"
            for k, v in by_type.items()
        ],
        "",
        f"## Navigation vs chunks: {nav_only} questions only navigation hit, "
        f"{chunk_only} only chunks hit",
        "",
        "Causes where navigation missed and chunks hit: "
        + (", ".join(f"{k} {v}" for k, v in sorted(causes.items())) or "none"),
        "",
        "## Misses, navigation",
        "",
        *[describe_miss(m) for m in evaluation.misses("navigation")],
        "",
        "## Misses, chunk baseline",
        "",
        *[describe_miss(m) for m in evaluation.misses("chunks")],
        "",
    ]
    (results / "eval.md").write_text("\n".join(md))
    print(summary_table(summary))
    log(f"wrote {results / 'eval.json'} and eval.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
