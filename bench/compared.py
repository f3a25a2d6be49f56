"""Comparisons across documents: every cell of the comparison table scored.

``python -m bench.compared``: our comparison questions across the shared filings
(``bench/questions/compared.jsonl``, golds from hand-transcribed statement figures in
``compared_gold.py``): each names the filings it compares, and gives each filing's gold
figure per period. The questions are split by a hash of the id into a tuning half and a
held-out half (:func:`bench.computed.held_out`, fixed before any tuning; held-out misses are
not listed). Each is asked of its filings together, offline, as the chat asks several
documents (:func:`treerag_core.ask_multi`), and each gold cell is read from the answer's
table (the row named after the filing, the column ``FY<year>``): right when it states the
gold within 1% (:func:`bench.computed.states`, a thousandfold unit counts). A question
answered without a table scores none of its cells.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from bench.computed import DEV_SET, REGISTRY, RESULTS, held_out, single_figure, states

HERE = Path(__file__).resolve().parent
QUESTIONS = HERE / "questions" / "compared.jsonl"
_ROW = re.compile(r"^\|\s*(?P<name>[^|]*?)\s*\|(?P<cells>.*)\|\s*$")


def questions() -> list[dict]:
    items = [json.loads(line) for line in QUESTIONS.read_text().splitlines() if line.strip()]
    return [{**i, "set": "held-out" if held_out(i["id"]) else "tuning"} for i in items]


def index_files(items: list[dict], registry: Path, root: Path) -> None:
    """Index each filing the questions name that the registry does not hold yet."""
    from treerag_core import index_document, list_documents
    from treerag_core.summarize.summarizers import offline_summarizer

    have = {row["file_name"] for row in list_documents(str(registry))}
    for rel in sorted({f for item in items for f in item["files"]}):
        path = root / rel
        if path.name not in have:
            index_document(str(path), summarizer=offline_summarizer,
                           registry_path=str(registry), verbose=False)  # fmt: skip


def answer(item: dict, registry: Path, root: Path) -> tuple[str, float]:
    """The offline answer to the question over its filings, and its seconds."""
    from treerag_core import ask_multi, make_retriever
    from treerag_core.evaluation.loader import registry_loader

    loader = registry_loader(str(registry), str(root))
    documents = [loader({"file": f}) for f in item["files"]]
    started = time.perf_counter()
    result = ask_multi(item["question"], documents, make_retriever(), return_raw=False)
    return str(result["answer"]), time.perf_counter() - started


def table_cells(text: str) -> dict[str, dict[str, str]]:
    """The answer's Markdown table: ``{row name: {year: cell text}}``."""
    rows = [m for line in text.splitlines() if (m := _ROW.match(line.strip()))]
    if not rows:
        return {}
    header = [c.strip() for c in rows[0].group("cells").split("|")]
    years = [re.sub(r"^FY", "", h) for h in header]
    out: dict[str, dict[str, str]] = {}
    for m in rows[1:]:
        cells = [c.strip() for c in m.group("cells").split("|")]
        if cells and set(cells[0]) <= set("-:"):
            continue
        out[m.group("name")] = dict(zip(years, cells, strict=False))
    return out


def score(items: list[dict], answers: dict[str, tuple[str, float]]) -> dict:
    """Per half: questions, tables given, cells right; per question: its cells."""
    sets: dict[str, dict] = {}
    rows = []
    for item in items:
        text, seconds = answers[item["id"]]
        table = table_cells(text)
        entry = sets.setdefault(item["set"], {"questions": 0, "tables": 0, "cells": 0,
                                              "right": 0})  # fmt: skip
        entry["questions"] += 1
        entry["tables"] += int(bool(table))
        cells = []
        for rel, gold_by_year in item["cells"].items():
            name = Path(rel).stem
            for year, gold in gold_by_year.items():
                shown = table.get(name, {}).get(year, "")
                figure = single_figure(gold)
                right = bool(shown) and figure is not None and states(shown, figure)
                cells.append({"file": name, "year": year, "gold": gold, "shown": shown[:120],
                              "right": right})  # fmt: skip
                entry["cells"] += 1
                entry["right"] += int(right)
        first = next((ln for ln in text.splitlines() if ln.strip()), "")
        rows.append({"id": item["id"], "set": item["set"], "question": item["question"],
                     "headline": first[:200], "cells": cells, "seconds": round(seconds, 2)})  # fmt: skip
    return {"generated_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "sets": sets, "rows": rows}


def table(report: dict) -> str:
    """The Markdown table: per half, questions, tables given, cells right."""
    lines = ["| half | questions | answered with a table | cells | cells right |",
             "|---|---:|---:|---:|---:|"]  # fmt: skip
    for name in ("tuning", "held-out"):
        s = report["sets"].get(name)
        if s:
            rate = 100 * s["right"] / s["cells"] if s["cells"] else 0
            lines.append(f"| {name} | {s['questions']} | {s['tables']} | {s['cells']} | "
                         f"{s['right']} ({rate:.0f}%) |")  # fmt: skip
    return "\n".join(lines)


def write(report: dict, results: Path) -> None:
    """bench/results/compared.{json,md}."""
    from bench.record import write_results

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=HERE).stdout.strip()  # fmt: skip
    report["commit"] = commit
    misses = [
        f"- {r['id']} {c['file']} {c['year']}: gold {c['gold']}; cell “{c['shown'] or '(none)'}”"
        for r in report["rows"] if r["set"] == "tuning" for c in r["cells"] if not c["right"]
    ]  # fmt: skip
    example = next((r for r in report["rows"] if r["set"] == "tuning"), None)
    md = [
        "# Comparisons across filings (offline engine)",
        "",
        f"Generated {report['generated_at']} at commit {commit} by `python -m bench.compared`: "
        f"{sum(s['questions'] for s in report['sets'].values())} questions comparing one "
        "quantity across 2–3 shared filings in one or two periods, asked of the filings "
        "together; each gold cell (filing × period) is right when the answer's table states "
        "it within 1%. Held-out half: split by a hash of the id, never looked at while tuning.",
        "",
        table(report),
        "",
        *(
            [f"Example (tuning half): “{example['question']}” → “{example['headline']}”", ""]
            if example
            else []
        ),  # fmt: skip
        "Cells missed, tuning half (held-out misses are not listed, so they are not tuned on):",
        "",
        *(misses or ["- none"]),
        "",
    ]
    write_results("compared", report, md, folder=results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.compared", description=__doc__)
    parser.add_argument("--registry", type=Path, default=REGISTRY)
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    items = questions()
    root = DEV_SET.parent
    args.registry.parent.mkdir(parents=True, exist_ok=True)
    index_files(items, args.registry, root)
    answers = {item["id"]: answer(item, args.registry, root) for item in items}
    report = score(items, answers)
    write(report, args.results)
    print(table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
