"""``python -m bench.metric_pages``: does navigation read the page a computed answer needs,
this checkout against a base commit's code, in the same run?

The questions are those written for computed answers (``bench/questions/computed.jsonl``
and ``support_computed*.jsonl``: margins, ratios, turnover, DSO, CAGR, payout, over the
shared filings), each with the pages printing its cells. A hit: a section navigation reads
(offline, as ``bench.financebench`` scores it) covers one of those pages. Rows apart for the
questions that name a metric of ``treerag_core/text/metrics.py`` and those that do not, and
for each set's tuning and held-out halves (the split each set's own bench uses). The base
commit's ``treerag_core`` is exported as ``bench.index_time`` does, and each side navigates
in a process of its own on the same registry. Writes ``bench/results/metric_pages.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.computed import held_out
from bench.financebench import DEV_SET, OUT
from bench.index_time import ROOT, export_base
from bench.record import write_results
from bench.support import half as support_half

QUESTIONS = Path(__file__).resolve().parent / "questions"
SETS = {
    "computed": ("computed.jsonl", lambda qid: "held out" if held_out(qid) else "tuning"),
    **{f"support computed{n}": (f"support_computed{n}.jsonl", lambda qid: "held out"
                                if support_half(qid) == "held out" else "tuning")
       for n in ("", "2", "3")},
}  # fmt: skip
# Run with the package under test on PYTHONPATH: one hit per question, as JSON lines.
WORKER = """
import json, sys
from treerag_core.answer.library import lasting_ranking_memory
from treerag_core.answer.retriever import make_retriever
from treerag_core.evaluation.loader import registry_loader
from treerag_core.evaluation.metrics import page_hit
from treerag_core.evaluation.run import navigation_retrieve
from treerag_core.store import open_store
registry, questions, pdfs = sys.argv[1:4]
store = open_store(registry)
load = registry_loader(store, pdfs)
retriever = make_retriever(None, ranking_memory=lasting_ranking_memory(store))
for item in json.load(open(questions)):
    items, _, _ = navigation_retrieve(item["question"], load(item), retriever)
    print(json.dumps({"id": item["id"], "hit": bool(page_hit(items, item["evidence_pages"]))}))
"""


def questions() -> list[dict[str, Any]]:
    """Every question with pages to hit, with its set, its half and whether it names a
    metric (read with this checkout's table of metrics)."""
    from treerag_core.text.metrics import find_metric

    rows = []
    for name, (file, half) in SETS.items():
        for line in (QUESTIONS / file).read_text().splitlines():
            item = json.loads(line) if line.strip() else {}
            if item.get("evidence_pages"):
                rows.append({**item, "set": name, "half": half(item["id"]),
                             "metric": find_metric(item["question"]) is not None})  # fmt: skip
    return rows


def navigate(code: Path, registry: Path, items: list[dict[str, Any]]) -> dict[str, bool]:
    """Each question's hit, navigated by the ``treerag_core`` under ``code``."""
    pdfs = DEV_SET.parent  # the folder the questions' "pdfs/…" files are in
    with tempfile.TemporaryDirectory() as folder:
        asked = Path(folder) / "questions.json"
        asked.write_text(json.dumps(items))
        done = subprocess.run(
            [sys.executable, "-c", WORKER, str(registry), str(asked), str(pdfs)],
            capture_output=True, text=True, check=True, cwd=folder,
            env={**os.environ, "PYTHONPATH": str(code)},
        )  # fmt: skip
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {r["id"]: r["hit"] for r in rows}


def table(items: list[dict[str, Any]], base: dict[str, bool], ours: dict[str, bool]) -> list:
    """One row per set, half and kind of question; then the totals per half and kind."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for item in items:
        kind = "names a metric" if item["metric"] else "names none"
        for key in ((item["set"], item["half"], kind), ("all", item["half"], kind)):
            groups.setdefault(key, []).append(item["id"])
    return [{"set": s, "half": h, "questions": kind, "asked": len(ids),
             "base": sum(base[i] for i in ids), "ours": sum(ours[i] for i in ids)}
            for (s, h, kind), ids in sorted(groups.items(), key=_order)]  # fmt: skip


def _order(group: tuple[tuple[str, str, str], list[str]]) -> tuple[bool, str, bool, str]:
    """Sets in order, the totals last; in each, the tuning half first, metrics first."""
    (name, half, kind), _ = group
    return name == "all", name, half != "tuning", kind != "names a metric"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.metric_pages", description=__doc__)
    parser.add_argument("--registry", type=Path, default=OUT / "registry.json")
    parser.add_argument("--base", default="96d0076", help="commit to compare with (default: "
                        "main before navigation read a named metric's rows)")  # fmt: skip
    args = parser.parse_args(argv)
    git = ["git", "rev-parse", "--short"]
    base_commit = subprocess.run([*git, args.base], cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout.strip()  # fmt: skip
    ours_commit = subprocess.run([*git, "HEAD"], cwd=ROOT, capture_output=True,
                                 text=True).stdout.strip()  # fmt: skip
    items = questions()
    base = navigate(export_base(base_commit), args.registry.resolve(), items)
    ours = navigate(ROOT, args.registry.resolve(), items)
    rows = table(items, base, ours)
    lines = [
        "# Navigation on questions that ask for a computation",
        "",
        f"`python -m bench.metric_pages`: base {base_commit}, ours {ours_commit}, same "
        "registry, offline. A hit: a section read covers a page printing the answer's cells.",
        "",
        f"| set | half | questions | asked | page hit, base ({base_commit}) | page hit, ours |",
        "|---|---|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(f"| {r['set']} | {r['half']} | {r['questions']} | {r['asked']} | "
                     f"{r['base']} ({r['base'] / r['asked']:.0%}) | "
                     f"{r['ours']} ({r['ours'] / r['asked']:.0%}) |")  # fmt: skip
    print("\n".join(lines))
    write_results("metric_pages", {"base": base_commit, "ours": ours_commit, "rows": rows,
                                   "per_question": [{"id": i["id"], "set": i["set"],
                                                     "half": i["half"], "metric": i["metric"],
                                                     "base": base[i["id"]], "ours": ours[i["id"]]}
                                                    for i in items]}, lines)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
