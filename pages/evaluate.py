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
from ui.i18n import language, t
from ui.text import md_escape

ss = st.session_state


def _run(questions: list[dict[str, Any]], name: str, baseline: bool) -> None:
    ss[state.EVAL_RESULT] = None
    bar = st.progress(0.0, text=t("ev.navigating"))

    def progress(done: int, total: int, what: str) -> None:
        bar.progress(done / max(total, 1), text=md_escape(what, 80))

    result = run(
        questions, state.registry_path(), current_retriever(), baseline, progress,
        state.principal(), language(),
    )  # fmt: skip
    bar.empty()
    result["file"] = name
    result["engine"] = engine_label()
    ss[state.EVAL_RESULT] = result


def _show_misses(result: dict[str, Any]) -> None:
    for method in METHODS:
        if result.get(method) is None:
            continue
        rows_missed = missed(result.get(method) or [])
        title = t("ev.misses", method=t(f"ev.method.{method}"), count=len(rows_missed))
        with st.expander(title, expanded=bool(rows_missed)):
            if not rows_missed:
                st.caption(t("ev.no_misses"))
            for row in rows_missed:
                st.markdown(f"**{md_escape(row['id'])}** · {md_escape(row['document'], 120)}")
                st.text(row["question"])
                st.caption(t("ev.gold", gold=md_escape(gold_label(row), 300)))
                rows = retrieved_rows(row)
                if rows:
                    st.dataframe(rows, hide_index=True)
                else:
                    st.caption(t("ev.nothing_retrieved"))


def _summary_table(summary: dict[str, Any]) -> None:
    """A measure a row, a method a column (stays narrow), in the person's words."""
    rows = [
        {**row, "measure": t(f"ev.measure.{row['measure']}")}
        for row in summary_columns(summary_rows(summary))
    ]
    headers = {label: t(f"ev.method.{key}") for key, label in METHODS.items()}
    st.dataframe(rows, hide_index=True, column_config={"measure": t("ev.col.measure"), **headers})


def _show(result: dict[str, Any]) -> None:
    st.subheader(t("ev.results", file=md_escape(result.get("file"), 80)))
    st.caption(t("ev.engine", engine=md_escape(result.get("engine"), 120)))
    if result["summary"]["navigation"]["questions"]:
        _summary_table(result["summary"])
    else:
        st.info(t("ev.none_evaluated"))
    errors = result.get("errors") or []
    if errors:
        lines = [
            f"- {md_escape(e['id'])} \\[{md_escape(e['document'], 80)}\\]: "
            f"{md_escape(e['error'], 300)}"
            for e in errors
        ]
        st.warning(t("ev.skipped", count=len(errors)) + "\n" + "\n".join(lines))
    if result.get("ungraded"):
        ids = ", ".join(md_escape(i) for i in result["ungraded"])
        st.caption(t("ev.ungraded", ids=ids))
    for note in result.get("notes") or []:
        st.caption(md_escape(note, 400))
    _show_misses(result)
    st.download_button(
        t("ev.download"),
        download_bytes(result),
        file_name="treerag-eval.json",
        mime="application/json",
        key="eval_download",
        on_click="ignore",
    )


def main() -> None:
    st.title(t("ev.title"))
    st.caption(t("ev.intro"))
    upload = st.file_uploader(
        t("ev.file"), type=["jsonl", "json", "txt"], key="eval_file",
        help=t("ev.format_help"),
    )  # fmt: skip
    st.caption(t("ev.format_help"))
    baseline = st.checkbox(
        t("ev.baseline"),
        value=True,
        key="eval_baseline",
    )
    if st.button(t("ev.run"), type="primary", disabled=upload is None, key="eval_run"):
        with shown_errors():
            ss[state.EVAL_RESULT] = None  # a bad file leaves no earlier result on show
            name = os.path.basename(upload.name)
            _run(parse_upload(upload.getvalue(), name), name, baseline)
    result = ss.get(state.EVAL_RESULT)
    if result:  # right under the button that made it, above the saved questions
        _show(result)
    with shown_errors():
        evaluate_saved.marked_wrong()
        evaluate_saved.saved(lambda questions, name: _run(questions, name, baseline))


state.require_app()
with shown_errors():
    main()
