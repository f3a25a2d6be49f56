"""The computed column: questions whose gold answer is a single figure, scored on the figure.

``python -m bench.computed``: every FinanceBench dev question whose gold answer is one
figure ("$1577.00", "30.8%", "-3.7"), and our own questions needing arithmetic on the
shared filings (``bench/questions/computed.jsonl``, split by a hash of the id into a tuning
half and a held-out half before any tuning), answered by the offline engine as a user gets
the answer (navigation, then
:func:`treerag_core.answer.offline.answerer.offline_reply`). An answer is right when its first line (without the working after " = " and without citations) states
the gold figure within 1%, in the same unit or in thousands, millions or billions of it.
Dev questions are reported apart: the figure printed on an evidence page as asked, or
needing arithmetic (a ratio, a change, a conversion). ``--code DIR`` answers with the
``treerag_core`` of another checkout (a worktree of main: the figure before).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from decimal import Decimal, InvalidOperation
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEV_SET = HERE.parents[1] / "shared" / "bench" / "financebench" / "questions.jsonl"
OWN_SET = HERE / "questions" / "computed.jsonl"
REGISTRY = HERE / "out" / "financebench" / "registry.json"
RESULTS = HERE / "results"
TOLERANCE = Decimal("0.01")
_FIGURE = re.compile(r"^\s*(?P<neg>-)?\$?\s?(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<pct>%)?\s*$")
_NUMBER = re.compile(r"(?<![\w.])-?\$?\d[\d,]*(?:\.\d+)?%?")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
SCALES = [Decimal(1), Decimal(1000), Decimal("0.001"), Decimal(10**6), Decimal("0.000001")]


def single_figure(answer: str) -> Decimal | None:
    """The gold answer's figure when the answer is just one figure, else None."""
    m = _FIGURE.match(str(answer))
    if not m:
        return None
    value = Decimal(m.group("num").replace(",", ""))
    return -value if m.group("neg") else value


def held_out(qid: str) -> bool:
    """The split, fixed before tuning: half the ids by a hash, never looked at while tuning."""
    return int(hashlib.sha256(qid.encode()).hexdigest(), 16) % 2 == 1


def headline(answer: str) -> str:
    """The part of the answer a reader takes as the answer: the first line, without the
    working after " = " and without citations."""
    first = next((ln for ln in answer.splitlines() if ln.strip()), "")
    first = first.split(" = ", 1)[0]
    return re.sub(r"\[[^\]]*\]", " ", first)


def states(answer: str, gold: Decimal) -> bool:
    """The headline states ``gold`` within 1%, in its unit or a thousandfold other (sign
    aside: statements print capex as "(1,577)", a question asks for 1,577)."""
    for token in _NUMBER.findall(headline(answer)):
        bare = token.replace("$", "").replace(",", "").rstrip("%")
        if _YEAR.match(bare.lstrip("-")):
            continue
        try:
            value = Decimal(bare)
        except InvalidOperation:
            continue
        for scale in SCALES:
            scaled = value * scale
            if gold == 0:
                if scaled == 0:
                    return True
            elif abs(abs(scaled) - abs(gold)) <= abs(gold) * TOLERANCE:
                return True
    return False


def printed(item: dict, gold: Decimal) -> bool:
    """The gold figure is printed on an evidence page (as is, or a thousandfold)."""
    text = " ".join(item.get("evidence_text") or [])
    for token in _NUMBER.findall(text):
        try:
            value = Decimal(token.replace("$", "").replace(",", "").rstrip("%"))
        except InvalidOperation:
            continue
        if any(abs(abs(value * s) - abs(gold)) <= abs(gold) * Decimal("0.0005") for s in SCALES):
            return True
    return False


def answer_all(items: list[dict], registry: Path, root: Path) -> list[dict]:
    """Each question answered as the app answers it offline."""
    from treerag_core.answer.offline.answerer import offline_reply
    from treerag_core.answer.retriever import make_retriever
    from treerag_core.evaluation.loader import registry_loader
    from treerag_core.evaluation.run import navigation_retrieve

    loader = registry_loader(str(registry), str(root))
    retriever = make_retriever()
    rows = []
    for item in items:
        document = loader(item)
        started = time.perf_counter()
        _items, _tokens, prepared = navigation_retrieve(item["question"], document, retriever)
        answer = offline_reply(item["question"], prepared).text
        rows.append({"id": item["id"], "answer": answer, "seconds": time.perf_counter() - started})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.computed", description=__doc__)
    parser.add_argument("--registry", type=Path, default=REGISTRY)
    parser.add_argument("--code", type=Path, help="answer with this checkout's treerag_core")
    parser.add_argument("--answers-out", type=Path, help="(internal) write answers here")
    parser.add_argument("--only", choices=["dev", "tuning", "held-out", "all"], default="all")
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    items = question_sets(args.only)
    if args.answers_out:  # the child run: answer and write, nothing else
        rows = answer_all(items, args.registry, DEV_SET.parent)
        args.answers_out.write_text(json.dumps(rows))
        return 0
    runs = {
        "after": _answers(None, items, args),
        **({"before": _answers(args.code, items, args)} if args.code else {}),
    }
    report = score(items, runs)
    write(report, args.results)
    print(table(report))
    return 0


def question_sets(only: str) -> list[dict]:
    """The dev questions with a single-figure gold, and our own (each with its set)."""
    items = []
    if only in ("dev", "all"):
        for line in DEV_SET.read_text().splitlines():
            item = json.loads(line)
            gold = single_figure(item.get("answer", ""))
            if gold is not None:
                kind = "printed" if printed(item, gold) else "arithmetic"
                items.append({**item, "set": f"dev, {kind}"})
    if only != "dev" and OWN_SET.exists():
        for line in OWN_SET.read_text().splitlines():
            item = json.loads(line)
            half = "held-out" if held_out(item["id"]) else "tuning"
            if only in (half, "all"):
                items.append({**item, "set": f"ours, {half}"})
    return items


def _answers(code: Path | None, items: list[dict], args: argparse.Namespace) -> dict[str, dict]:
    """Answers from this checkout, or from ``code``'s (run there in a child process)."""
    out = Path(f"/tmp/bench-computed-{'before' if code else 'after'}.json")
    cwd = code or HERE.parent
    only = args.only
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    subprocess.run(
        [sys.executable, str(HERE / "computed.py"), "--only", only, "--registry",
         str(args.registry.resolve()), "--answers-out", str(out)],
        cwd=cwd, check=True, env=env,
    )  # fmt: skip
    return {row["id"]: row for row in json.loads(out.read_text())}


def score(items: list[dict], runs: dict[str, dict[str, dict]]) -> dict:
    """Per set and run: questions, right, rate; per question: the answer's headline."""
    sets: dict[str, dict] = {}
    rows = []
    for item in items:
        gold = single_figure(item["answer"])
        assert gold is not None
        row = {"id": item["id"], "set": item["set"], "gold": item["answer"]}
        for run, answers in runs.items():
            answer = answers[item["id"]]["answer"]
            right = states(answer, gold)
            row[run] = {"right": right, "headline": headline(answer)[:160]}
            entry = sets.setdefault(item["set"], {}).setdefault(run, {"questions": 0, "right": 0})
            entry["questions"] += 1
            entry["right"] += int(right)
        rows.append(row)
    return {"generated_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "sets": sets, "rows": rows}


def table(report: dict) -> str:
    """The Markdown table: per set, right of questions, before and after."""
    runs = [r for r in ("before", "after") if any(r in v for v in report["sets"].values())]
    lines = [
        "| question set | questions | " + " | ".join(f"right, {r}" for r in runs) + " |",
        "|---|---:|" + "---:|" * len(runs),
    ]
    for name, by_run in sorted(report["sets"].items()):
        n = next(iter(by_run.values()))["questions"]
        cells = [f"{by_run[r]['right']} ({100 * by_run[r]['right'] / n:.0f}%)" for r in runs]
        lines.append(f"| {name} | {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write(report: dict, results: Path) -> None:
    """bench/results/computed.{json,md}."""
    results.mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE
    ).stdout.strip()
    report["commit"] = commit
    misses = [
        f"- {r['id']} ({r['set']}): gold {r['gold']}; answered “{r['after']['headline']}”"
        for r in report["rows"]
        if not r["after"]["right"] and "held-out" not in r["set"]
    ]
    md = [
        "# Computed figures (offline engine)",
        "",
        f"Generated {report['generated_at']} at commit {commit} by `python -m bench.computed`. "
        "Right = the answer's first line (without its working and citations) states the gold "
        "figure within 1% (or a thousandfold of it). Before = main's code on the same registry.",
        "",
        table(report),
        "",
        "Misses after (held-out misses are not listed, so they are not tuned on):",
        "",
        *misses,
        "",
    ]
    # imported here: the --code run executes this file against another checkout's bench/
    from bench.record import write_results

    write_results("computed", report, md, folder=results)


if __name__ == "__main__":
    sys.exit(main())
