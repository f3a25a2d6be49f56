"""The offline answer in the FinanceBench benchmark: how often it says the printed figure,
what it said when it did not, and what it costs per question.

The metric itself lives in ``treerag_core.evaluation.answers`` (the rule is stated there);
here are the benchmark's tables: the answer misses with their first lines, and the time the
extractive answer takes per question next to navigation's, measured in the same run.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

# Each answer is timed this many times and the fastest kept, in CPU time of this process
# (time.process_time): the machine is shared, and wall-clock time there measures the other
# work as much as ours.
TIMING_REPEATS = 3
# "A 300-page filing": the timing is also reported for the filings at least this long.
LARGE_FILING_PAGES = 300


def timings(questions: Sequence[dict[str, Any]], load: Callable[[dict], dict]) -> dict[str, Any]:
    """CPU milliseconds per question: navigation plus quoting (the reference) and the
    extractive answer (what this engine adds), median and 90th percentile, for all filings
    and for the filings of ``LARGE_FILING_PAGES`` pages or more."""
    from treerag_core import make_retriever
    from treerag_core.answer.context import prepare_answer
    from treerag_core.answer.offline.extractive import extractive_answer

    retriever = make_retriever()
    rows = []
    for item in questions:
        document = load(item)
        question = str(item["question"])
        started = time.process_time()
        nav = retriever.navigate(question, document)
        prepared = prepare_answer(question, [document], [nav], retriever, "")
        navigate_ms = (time.process_time() - started) * 1000
        answer_ms = float("inf")
        for _ in range(TIMING_REPEATS):
            started = time.process_time()
            extractive_answer(question, prepared.sections)
            answer_ms = min(answer_ms, (time.process_time() - started) * 1000)
        rows.append((document.get("total_pages") or 0, navigate_ms, answer_ms))

    def summary(selected: list[tuple[int, float, float]]) -> dict[str, Any]:
        if not selected:
            return {"questions": 0}
        answer = sorted(r[2] for r in selected)
        navigate = sorted(r[1] for r in selected)
        return {
            "questions": len(selected),
            "answer_ms_median": round(statistics.median(answer), 1),
            "answer_ms_p90": round(answer[int(0.9 * (len(answer) - 1))], 1),
            "navigate_ms_median": round(statistics.median(navigate), 1),
            "answer_over_navigate": round(
                statistics.median(answer) / statistics.median(navigate), 2
            ),
        }

    return {
        "all": summary(rows),
        "large": summary([r for r in rows if r[0] >= LARGE_FILING_PAGES]),
        "repeats": TIMING_REPEATS,
        "load_avg_at_end": [round(x, 2) for x in os.getloadavg()],  # the machine is shared
    }


def timing_lines(timed: dict[str, dict[str, Any]]) -> list[str]:
    """One row per question set and filing size (``timed``: set name → :func:`timings`)."""
    lines = [
        "| questions | filings | n | extractive answer, median CPU ms | p90 "
        "| navigation + quoting, median CPU ms | answer / navigation |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for name, sets in timed.items():
        for key, label in (("all", "all"), ("large", f"{LARGE_FILING_PAGES}+ pages")):
            s = sets[key]
            if s.get("questions"):
                lines.append(
                    f"| {name} | {label} | {s['questions']} | {s['answer_ms_median']} | "
                    f"{s['answer_ms_p90']} | {s['navigate_ms_median']} | "
                    f"{s['answer_over_navigate']} |"
                )
    return lines


def answer_rows(evaluation) -> list[dict[str, Any]]:  # noqa: ANN001
    """Every graded question: the figures wanted, hit or not, and the answer's first line."""
    from treerag_core.evaluation.answers import first_line

    return [
        {
            "id": r.id,
            "document": r.document.split("/")[-1],
            "wanted": r.answer_figures,
            "page_hit": r.page_hit,
            "answer_hit": r.answer_hit,
            "first_line_hit": r.first_line_hit,
            "first_line": first_line(r.answer or ""),
        }
        for r in evaluation.navigation
        if r.answer_hit is not None
    ]


def miss_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The graded questions whose first line lacks the figure, with what it said instead."""
    lines = [
        "| question | wanted | page hit | in the answer | first line |",
        "|---|---|:---:|:---:|---|",
    ]
    for r in rows:
        if r["first_line_hit"]:
            continue
        said = r["first_line"].replace("|", "\\|")[:160]
        lines.append(
            f"| {r['id']} ({r['document']}) | {', '.join(r['wanted'])} | "
            f"{'yes' if r['page_hit'] else 'no'} | {'yes' if r['answer_hit'] else 'no'} | {said} |"
        )
    return lines if len(lines) > 2 else ["Every graded answer says its figure in the first line."]
