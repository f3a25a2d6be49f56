"""Chat: conversations over one or several documents, kept per person; streamed answers with
their sources, verdicts and follow-up questions that remember the conversation."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui import chat_threads, chat_turns, docs, state
from ui.errors import shown_errors
from ui.text import md_escape

ss = st.session_state


def _pick_documents() -> list[str]:
    listing = docs.rows()
    if not listing:
        st.info("No documents yet: index one on the Upload & index page.")
        return []
    labels = {r["doc_id"]: docs.label(r) for r in listing}
    ss[state.CHAT_DOCS] = [d for d in ss.get(state.CHAT_DOCS, []) if d in labels]
    if not ss[state.CHAT_DOCS]:
        ss[state.CHAT_DOCS] = [listing[0]["doc_id"]]
    on_change = state.bind(state.CHAT_DOCS, "chat_doc_pick")
    st.multiselect(
        "Documents", list(labels), format_func=lambda i: labels[i], key="chat_doc_pick",
        on_change=on_change,
    )  # fmt: skip
    return list(ss[state.CHAT_DOCS])


def _context(doc_ids: list[str]) -> dict[str, Any] | None:
    context = ss.get(state.CHAT_CONTEXT)
    if not context or context.get("doc_id") not in doc_ids:
        return None
    left, right = st.columns([4, 1])
    left.info(f"Asking about the section: {md_escape(context.get('path'), 200)}")
    if right.button("Whole document", key="chat_clear_context"):
        ss[state.CHAT_CONTEXT] = None
        st.rerun()
    return context


def main() -> None:
    thread = chat_threads.current()
    with st.sidebar:
        chat_threads.sidebar(thread)
    st.title("Chat")
    if thread and thread.get("doc_ids_gone"):
        st.caption("Some documents of this conversation were deleted: their answers stay.")
    doc_ids = _pick_documents()
    context = _context(doc_ids)
    chat_turns.conversation(doc_ids, context)
    chat_turns.question_box(doc_ids)


state.require_app()
with shown_errors():
    main()
