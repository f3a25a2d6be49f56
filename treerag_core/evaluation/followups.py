"""Follow-up questions scored three ways: with their conversation, without it, asked in full.

A follow-up row is an ordinary question row with ``history`` (the earlier questions, oldest
first) and, for the comparison, ``full_question`` (the same question written out)::

    {"id": "fu03", "file": "AMAZON_2019_10K.pdf", "history": ["What were Amazon's total net
     sales in 2019?"], "question": "And in 2018?", "full_question": "What were Amazon's total
     net sales in 2018?", "evidence_pages": [38]}

"with history" is how the chat asks it; "without history" is how a chat that forgets asks
it; "asked in full" is the ceiling: a follow-up understood from its conversation should hit
the gold pages about as often as the question written out, and far more often than alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..access.principal import Principal
from ..answer.retriever import Retriever
from ..store.base import RegistryLike
from .metrics import QuestionResult
from .report import pct
from .run import DocumentLoader, Evaluation, evaluate

VARIANTS = ("with history", "without history", "asked in full")
# The offline engine reads up to 24 sections, so on a long filing even a question that names
# nothing ("and in 2018?") lands on some gold page by breadth; whether the *best-ranked*
# sections hold the evidence shows what the question was understood to ask.
TOP_SECTIONS = 5


def hit_in_first(result: QuestionResult, k: int = TOP_SECTIONS) -> bool | None:
    """Whether one of the first ``k`` sections read holds a gold page (None: no gold)."""
    gold = set(result.gold_pages)
    if not gold:
        return None
    return any(item.page_set() & gold for item in result.retrieved[:k])


def is_followup(item: dict[str, Any]) -> bool:
    return bool(item.get("history"))


def variants(questions: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The follow-up rows as each variant asks them (rows without ``full_question`` are
    left out of "asked in full")."""
    rows = [q for q in questions if is_followup(q)]
    alone = [{k: v for k, v in q.items() if k != "history"} for q in rows]
    full = [{**q, "question": q["full_question"]} for q in alone if q.get("full_question")]
    return {"with history": rows, "without history": alone, "asked in full": full}


@dataclass
class FollowupEvaluation:
    """One :class:`Evaluation` (navigation only) per variant."""

    runs: dict[str, Evaluation]

    def summary(self) -> dict[str, Any]:
        out = {}
        for name, run in self.runs.items():
            first = [h for h in (hit_in_first(r) for r in run.navigation) if h is not None]
            out[name] = {
                **run.summary()["navigation"],
                f"page_hit_rate_first_{TOP_SECTIONS}": (
                    round(sum(first) / len(first), 4) if first else None
                ),
            }
        return out

    def as_dict(self) -> dict[str, Any]:
        hits = {name: {r.id: r.page_hit for r in run.navigation} for name, run in self.runs.items()}
        return {"summary": self.summary(), "page_hits": hits}


def evaluate_followups(
    questions: Sequence[dict[str, Any]],
    load_document: DocumentLoader,
    retriever: Retriever | None = None,
    with_history: Evaluation | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    principal: Principal | None = None,
    registry_path: RegistryLike | None = None,
) -> FollowupEvaluation:
    """Navigation on the follow-up rows of ``questions`` in the three variants.

    ``with_history``: an evaluation of the same rows already run (the eval command's main
    run), reused instead of navigating them again.
    """
    runs: dict[str, Evaluation] = {}
    for name, rows in variants(questions).items():
        if name == "with history" and with_history is not None:
            ids = {str(q["id"]) for q in rows}
            runs[name] = Evaluation(
                [r for r in with_history.navigation if r.id in ids], None, with_history.errors
            )
            continue
        runs[name] = evaluate(
            rows, load_document, retriever, baseline=False, progress=progress,
            principal=principal, registry_path=registry_path,
        )  # fmt: skip
    return FollowupEvaluation(runs)


def followup_table(summary: dict[str, Any]) -> str:
    """The three variants as a Markdown table."""
    lines = [
        f"| follow-up asked | questions | page hit rate | hit in the first {TOP_SECTIONS} "
        "sections | mean sections | mean tokens |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in VARIANTS:
        s = summary.get(name)
        if not s:
            continue
        lines.append(
            f"| {name} | {s['page_questions']} | {pct(s['page_hit_rate'])} | "
            f"{pct(s[f'page_hit_rate_first_{TOP_SECTIONS}'])} | "
            f"{s['mean_sections_retrieved']} | {round(s['mean_tokens']):,} |"
        )
    return "\n".join(lines)
