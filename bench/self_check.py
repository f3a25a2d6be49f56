"""``python -m bench self_check``: the offline engine's answers, right or not, and checked by
the support check.

The engine copies and computes its answers from the document's own cells, so the check
should find every one of them supported; each one flagged is a disagreement, a fault of
the engine (a wrong row, a wrong working) or of the check (a number misread, a note taken
for a claim). The questions are written from the filings' own stored table rows, the way
people ask about a statement they are reading: a value in a year, its change and its
growth between two years, and the ratio of two rows of one table, four of each kind per
filing, drawn with a fixed seed. Nobody wrote them for a rule, so they reach rows and
labels no hand-written set does. Each question's right answer is known from the rows it
was written from, so each answer is also scored right or not
(:mod:`bench.self_check_right`): an answer the check finds supported can still be another
row's figure. Halves by a hash of the question: the rules were mended looking at the
tuning half's answers only; the held-out half's are counted, never listed.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from .financebench import DEV_SET, OUT, index_all
from .record import RESULTS, write_results
from .self_check_right import Asked, asked_of, is_right

KINDS = ("value", "change", "growth", "ratio")
# Kinds added later, drawn with a seed of their own so the first kinds' questions stay the
# same: "A as a percentage of B" (a share, two rows of one table).
LATER_KINDS = ("share",)
PER_KIND = 4  # questions of each kind per filing
SEED = 20261206
HALVES = ("tuning", "held out")


def half_of(question: str) -> str:
    return HALVES[hashlib.sha256(question.encode()).digest()[0] % 2]


def candidate_rows(document: dict[str, Any]) -> list[tuple[dict, dict, list[int]]]:
    """Rows a person would ask about: a short label without figures, printed in two years."""
    out = []
    for table in document.get("tables") or []:
        for row in table["rows"]:
            label = row.get("label") or ""
            if not 2 <= len(label.split()) <= 6 or any(ch.isdigit() for ch in label):
                continue
            years = [y for y, c in zip(row.get("years") or [], row["cells"], strict=False)
                     if y and c.get("value") not in (None, 0)]  # fmt: skip
            years = list(dict.fromkeys(years))
            if len(years) >= 2:
                out.append((table, row, years))
    return out


def questions_for(
    company: str, rows: list, rng: random.Random, kinds: tuple[str, ...] = KINDS
) -> list[tuple[str, str, Asked]]:
    """``PER_KIND`` questions of each kind about ``rows`` (kind, question, what it asks)."""
    out = []
    for kind in kinds:
        for _ in range(PER_KIND):
            table, row, years = rng.choice(rows)
            label, (last, first) = row["label"], years[:2]
            asked = asked_of(kind, row, years)
            if kind == "value":
                out.append((kind, f"What was {company}'s {label} in fiscal {last}?", asked))
            elif kind == "change":
                out.append((kind, f"By how much did {company}'s {label} change from fiscal "
                                  f"{first} to fiscal {last}?", asked))  # fmt: skip
            elif kind == "growth":
                out.append((kind, f"What was the percentage growth in {company}'s {label} "
                                  f"from fiscal {first} to fiscal {last}?", asked))  # fmt: skip
            else:
                others = [r for t, r, _ in rows if t is table and r is not row]
                if others:
                    other = rng.choice(others)["label"]
                    out.append((kind, _two_rows(kind, company, label, other, last),
                                asked_of(kind, row, years, other)))  # fmt: skip
    return out


def _two_rows(kind: str, company: str, label: str, other: str, year: int) -> str:
    if kind == "share":
        return f"What was {company}'s {label} as a percentage of {other} in fiscal {year}?"
    return f"What was the ratio of {company}'s {label} to {other} in fiscal {year}?"


def run(registry: Path) -> list[dict[str, Any]]:
    """Every question asked of its filing (the document given), its answer's support."""
    from treerag_core import get_document_by_id, list_documents
    from treerag_core.client import Library

    rng, later = random.Random(SEED), random.Random(SEED + 1)
    library = Library.open(str(registry))
    out = []
    for meta in sorted(list_documents(str(registry)), key=lambda m: m["file_name"]):
        document = get_document_by_id(meta["doc_id"], str(registry))
        rows = candidate_rows(document)
        company = meta["file_name"].split("_")[0].title()
        asked_here = [*questions_for(company, rows, rng), *questions_for(company, rows, later,
                      LATER_KINDS)] if rows else []  # fmt: skip
        for kind, question, asked in asked_here:
            started = time.perf_counter()
            answer = library.ask(question, [meta["doc_id"]])
            support = answer.support or {}
            out.append({
                "file": meta["file_name"], "kind": kind, "question": question,
                "half": half_of(question), "flagged": bool(support.get("flagged")),
                "right": is_right(answer.text, asked, rows),
                "verdict": support.get("verdict"), "seconds": time.perf_counter() - started,
                "answer": answer.text if half_of(question) == HALVES[0] else "",
                "why": [s.get("why") for s in support.get("sentences") or []
                        if s.get("verdict") not in ("supported", "none")],
            })  # fmt: skip
    return out


def report(rows: list[dict[str, Any]], commit: str) -> tuple[dict[str, Any], list[str]]:
    """The table by half and kind, and the tuning half's flagged and wrong answers listed."""
    lines = [
        "# The offline engine's answers: right, and checked by the support check",
        "",
        f"Generated {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} at {commit} by "
        f"`python -m bench self_check`: {PER_KIND} questions of each kind per filing from its "
        f"stored table rows (seed {SEED}); each answered by the offline engine with its filing "
        "given and checked as the app checks it. Right: the answer's headline (first line, before its working) states the "
        "figure the rows give (`bench/self_check_right.py`). Flagged: the check did not find "
        "every sentence supported. Halves by SHA-256 of the question; only the tuning half's "
        "answers are listed.",
        "",
        "| half | kind | answers | right | share right | flagged | share flagged |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    summary: dict[str, Any] = {}
    for half in HALVES:
        for kind in (*KINDS, *LATER_KINDS, "all"):
            mine = [r for r in rows if r["half"] == half and kind in ("all", r["kind"])]
            flagged, right = sum(r["flagged"] for r in mine), sum(r["right"] for r in mine)
            n = len(mine) or 1
            summary[f"{half}/{kind}"] = {"answers": len(mine), "flagged": flagged,
                                         "share": flagged / n, "right": right,
                                         "share_right": right / n}  # fmt: skip
            b = "**" if kind == "all" else ""
            lines.append(f"| {half} | {kind} | {len(mine)} | {b}{right}{b} | {b}{right / n:.1%}{b} "
                         f"| {b}{flagged}{b} | {b}{flagged / n:.1%}{b} |")  # fmt: skip
    tuning = [r for r in rows if r["half"] == HALVES[0]]
    lines += ["", "Flagged in the tuning half, and why:", ""]
    lines += [f"- {r['file']} ({r['kind']}): {r['question']} — {'; '.join(r['why'])}"
              for r in tuning if r["flagged"]]  # fmt: skip
    lines += ["", "Not right in the tuning half (the answer's first line):", ""]
    lines += [f"- {r['file']} ({r['kind']}): {r['question']} — {r['answer'].splitlines()[0][:200]}"
              for r in tuning if not r["right"]]  # fmt: skip
    why = Counter(w for r in tuning for w in r["why"])
    return {
        "commit": commit,
        "seed": SEED,
        "summary": summary,
        "why_tuning": dict(why),
        "rows": [{k: v for k, v in r.items() if k != "answer"} for r in rows],
    }, lines


def main(argv: list[str] | None = None) -> int:
    import subprocess

    parser = argparse.ArgumentParser(prog="python -m bench.self_check", description=__doc__)
    parser.add_argument("--registry", type=Path, default=OUT / "registry.json")
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    args.registry.parent.mkdir(parents=True, exist_ok=True)
    index_all(DEV_SET, args.registry, lambda m: print(m, file=sys.stderr))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=False).stdout.strip()  # fmt: skip
    data, lines = report(run(args.registry), commit)
    write_results("self_check", data, lines, args.results)
    print("\n".join(lines[:20]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
