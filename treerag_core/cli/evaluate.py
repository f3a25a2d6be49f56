"""``python -m treerag_core eval``: score retrieval on a questions file, print the report."""

from __future__ import annotations

import json
import os

from ..evaluation.followups import evaluate_followups, followup_table, is_followup
from ..evaluation.loader import registry_loader
from ..evaluation.page_texts import registry_page_texts
from ..evaluation.questions import load_questions
from ..evaluation.report import format_report
from ..evaluation.run import evaluate
from ..store import open_store
from ..store.base import RegistryLike


def run_cli(
    questions_path: str,
    registry_path: RegistryLike,
    source_root: str | None,
    baseline: str,
    json_out: str | None,
) -> int:
    """Offline engine; files the questions name are indexed when the registry lacks them.
    Follow-up rows (with ``history``) are also scored without their history and asked in
    full, and the three figures printed."""
    questions = load_questions(questions_path)
    root = source_root or os.path.dirname(os.path.abspath(questions_path))
    store = open_store(registry_path)
    loader = registry_loader(store, root, index_missing=True)
    evaluation = evaluate(
        questions, loader, baseline=baseline == "chunks", page_texts=registry_page_texts(store)
    )
    print(format_report(evaluation))
    result = evaluation.as_dict()
    if any(is_followup(q) for q in questions):
        followups = evaluate_followups(questions, loader, with_history=evaluation)
        print("\nFollow-up questions:\n" + followup_table(followups.summary()))
        result["followups"] = followups.as_dict()
    if json_out:
        with open(json_out, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=1)
    return 0 if not evaluation.errors else 1
