"""The Evaluate page's regression set: answers people marked wrong in the chat become
evaluation questions (the question, its conversation's earlier questions, and the pages
the person marks as holding the right answer), which the page then runs like a file.

Why here and not in the chat: marking the right pages needs the document's page numbers
and a moment's care, and the Evaluate page is where those rows are used; the chat only
links to it after a thumbs-down.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from treerag_core.chat import (
    delete_regression_question,
    questions_jsonl,
    regression_questions,
    save_regression_question,
    thumbs_down,
)

from . import state
from .errors import message_for
from .i18n import t
from .text import md_escape

# Marked-wrong answers shown at once (the rest wait until these are handled).
SHOWN_MARKED = 10
ANSWER_PREVIEW_CHARS = 400
SAVED_COLUMNS = ("id", "question", "after", "document", "pages", "comment", "by")


def marked_wrong() -> None:
    """The person's thumbs-down answers not yet saved, each with a form to save it."""
    rows = thumbs_down(state.registry_path(), state.principal())
    st.subheader(t("ev.marked"))
    if not rows:
        st.caption(t("ev.marked_none"))
        return
    for row in rows[:SHOWN_MARKED]:
        _marked_row(row)
    if len(rows) > SHOWN_MARKED:
        st.caption(t("ev.marked_more", count=len(rows) - SHOWN_MARKED))


def _marked_row(row: dict[str, Any]) -> None:
    key = f"{row['thread_id'][:12]}_{row['turn']}"
    with st.container(border=True):
        st.markdown(f"**{md_escape(row.get('question'), 300)}**")
        st.caption(t("ev.answer_given", answer=md_escape(row.get("answer"), ANSWER_PREVIEW_CHARS)))
        if row.get("comment"):
            st.caption(t("ev.comment", comment=md_escape(row["comment"], 400)))
        documents = row.get("documents") or []
        if not documents:
            st.caption(t("ev.docs_gone"))
            return
        names = {d["doc_id"]: d.get("file_name") or d["doc_id"] for d in documents}
        left, right = st.columns([3, 2])
        doc_id = left.selectbox(
            t("ev.right_document"), list(names), format_func=names.__getitem__,
            key=f"saved_doc_{key}",
        )  # fmt: skip
        pages = right.text_input(
            t("ev.right_pages"), placeholder=t("ev.pages_placeholder"),
            key=f"saved_pages_{key}",
        )  # fmt: skip
        if st.button(t("ev.save_question"), key=f"saved_add_{key}", type="primary"):
            try:
                saved = save_regression_question(
                    row["thread_id"], row["turn"], doc_id, pages, state.registry_path(),
                    state.principal(),
                )  # fmt: skip
            except Exception as exc:  # shown beside the form; nothing was saved
                st.error(message_for(exc))
                return
            st.toast(t("ev.saved_toast", id=saved["id"]))
            st.rerun()


def saved(run: Callable[[list[dict[str, Any]], str], None]) -> None:
    """The saved questions: a table, run them (``run(questions, name)``), download, remove."""
    rows = regression_questions(state.registry_path(), state.principal())
    st.subheader(t("ev.saved", count=len(rows)))
    if not rows:
        st.caption(t("ev.saved_none"))
        return
    st.dataframe(
        [
            {
                "id": r["id"],
                "question": r["question"],
                "after": " → ".join(r.get("history") or []),
                "document": r.get("file_name"),
                "pages": ", ".join(str(p) for p in r.get("evidence_pages") or []),
                "comment": r.get("comment") or "",
                "by": r.get("who"),
            }
            for r in rows
        ],
        hide_index=True,
        key="saved_table",
        column_config={c: t(f"ev.saved_col.{c}") for c in SAVED_COLUMNS},
    )
    cols = st.columns(3)
    if cols[0].button(t("ev.saved_run"), type="primary", key="saved_run"):
        run(rows, t("ev.saved_name"))
        st.rerun()  # the results are drawn above this part of the page
    cols[1].download_button(
        t("ev.saved_download"), questions_jsonl(rows), file_name="treerag-saved.jsonl",
        mime="application/jsonl", key="saved_download", on_click="ignore",
    )  # fmt: skip
    with cols[2].popover(t("ev.remove_one"), icon=":material/delete:"):
        gone = st.selectbox(t("ev.question"), [r["id"] for r in rows], key="saved_remove_pick")
        if st.button(t("ev.remove"), key="saved_remove"):
            try:
                delete_regression_question(gone, state.registry_path(), state.principal())
            except Exception as exc:  # e.g. someone else's question
                st.error(message_for(exc))
                return
            st.rerun()
