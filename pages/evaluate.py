"""Evaluate: score retrieval on a questions file with gold evidence (navigation only), and
the team's own questions saved from answers marked wrong in the chat."""

from __future__ import annotations

import os
from typing import Any

import streamlit as st

from treerag_core.evaluation import (
    METHODS,
    gold_label,
    missed,
    retrieved_rows,
    summary_columns,
    summary_rows,
)
from ui import evaluate_saved, state
from ui.engine import current_retriever, engine_label
from ui.errors import shown_errors
from ui.evaluate_logic import download_bytes, parse_upload, run
from ui.text import md_escape

ss = st.session_state

FORMAT_HELP = (
    "One JSON object a line: `question`, the document (`doc_name`/`file` = its file name, "
    "or `doc_id`), and the gold evidence: `evidence_pages` (page numbers) and/or "
    "`gold_sections` (section titles). Optional `id`."
)


def _run(questions: list[dict[str, Any]], name: str, baseline: bool) -> None:
    ss[state.EVAL_RESULT] = None
    bar = st.progress(0.0, text="Navigating…")

    def progress(done: int, total: int, what: str) -> None:
        bar.progress(done / max(total, 1), text=md_escape(what, 80))

    result = run(
        questions, state.registry_path(), current_retriever(), baseline, progress,
        state.principal(),
    )  # fmt: skip
    bar.empty()
    result["file"] = name
    result["engine"] = engine_label()
    ss[state.EVAL_RESULT] = result


def _show_misses(result: dict[str, Any]) -> None:
    for method, label in METHODS.items():
        if result.get(method) is None:
            continue
        rows_missed = missed(result.get(method) or [])
        with st.expander(f"Misses, {label} ({len(rows_missed)})", expanded=bool(rows_missed)):
            if not rows_missed:
                st.caption("No misses.")
            for row in rows_missed:
                st.markdown(f"**{md_escape(row['id'])}** · {md_escape(row['document'], 120)}")
                st.text(row["question"])
                st.caption(f"Gold: {md_escape(gold_label(row), 300)}")
                rows = retrieved_rows(row)
                if rows:
                    st.dataframe(rows, hide_index=True)
                else:
                    st.caption("Nothing retrieved.")


def _show(result: dict[str, Any]) -> None:
    st.subheader(f"Results for {md_escape(result.get('file'), 80)}")
    st.caption(f"Engine: {md_escape(result.get('engine'), 120)}")
    rows = summary_columns(summary_rows(result["summary"]))  # a measure a row: stays narrow
    if result["summary"]["navigation"]["questions"]:
        st.dataframe(rows, hide_index=True)
    else:
        st.info("No question could be evaluated: none of their documents is in the registry.")
    errors = result.get("errors") or []
    if errors:
        lines = [
            f"- {md_escape(e['id'])} \\[{md_escape(e['document'], 80)}\\]: "
            f"{md_escape(e['error'], 300)}"
            for e in errors
        ]
        st.warning(f"Skipped {len(errors)} question(s):\n" + "\n".join(lines))
    if result.get("ungraded"):
        ids = ", ".join(md_escape(i) for i in result["ungraded"])
        st.caption(f"No gold pages or sections, so not scored: {ids}")
    for note in result.get("notes") or []:
        st.caption(md_escape(note, 400))
    _show_misses(result)
    st.download_button(
        "Download the full results (JSON)",
        download_bytes(result),
        file_name="treerag-eval.json",
        mime="application/json",
        key="eval_download",
    )


def main() -> None:
    st.title("Evaluate")
    st.caption(
        "Navigation only (no answer is generated), with the engine set on the Settings page; "
        "documents are matched against this app's registry."
    )
    upload = st.file_uploader(
        "Questions file (.jsonl)", type=["jsonl", "json", "txt"], key="eval_file",
        help=FORMAT_HELP,
    )  # fmt: skip
    st.caption(FORMAT_HELP)
    baseline = st.checkbox(
        "Also run the chunk baseline (BM25 over ≈500-token chunks, same token budget)",
        value=True,
        key="eval_baseline",
    )
    if st.button("Evaluate", type="primary", disabled=upload is None, key="eval_run"):
        with shown_errors():
            ss[state.EVAL_RESULT] = None  # a bad file leaves no earlier result on show
            name = os.path.basename(upload.name)
            _run(parse_upload(upload.getvalue(), name), name, baseline)
    with shown_errors():
        evaluate_saved.marked_wrong()
        evaluate_saved.saved(lambda questions, name: _run(questions, name, baseline))
    result = ss.get(state.EVAL_RESULT)
    if result:
        _show(result)


state.require_app()
with shown_errors():
    main()
