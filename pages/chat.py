"""Chat: conversations over one or several documents, kept per person; streamed answers with
their sources, verdicts and follow-up questions that remember the conversation."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui import chat_threads, chat_turns, cite_links, docs, evidence, state
from ui.errors import shown_errors
from ui.i18n import t
from ui.text import md_escape

ss = st.session_state


def _pick_documents() -> tuple[list[str], bool]:
    """The documents chosen (none: the whole library the person may read, routed per
    question), and whether there is anything to ask at all."""
    listing = docs.rows()
    if not listing:
        st.info(t("chat.no_documents"))
        return [], False
    labels = {r["doc_id"]: docs.label(r) for r in listing}
    ss[state.CHAT_DOCS] = [d for d in ss.get(state.CHAT_DOCS, []) if d in labels]
    on_change = state.bind(state.CHAT_DOCS, "chat_doc_pick")
    st.multiselect(
        t("chat.documents"), list(labels), format_func=lambda i: labels[i],
        key="chat_doc_pick", on_change=on_change,
        placeholder=t("chat.all_documents", count=len(listing)), help=t("chat.documents_help"),
    )  # fmt: skip
    if not ss[state.CHAT_DOCS]:
        _pick_collection(listing)
    return list(ss[state.CHAT_DOCS]), True


def _pick_collection(listing: list[dict[str, Any]]) -> None:
    """With more than one collection, the library may be narrowed to one of them."""
    names = sorted({r.get("collection") or "default" for r in listing})
    if len(names) < 2:
        ss[state.CHAT_COLLECTION] = None
        return
    if ss.get(state.CHAT_COLLECTION) not in names:
        ss[state.CHAT_COLLECTION] = None
    every = t("chat.all_collections")  # looked up as the page draws
    st.selectbox(
        t("chat.collection"), [None, *names], key=state.CHAT_COLLECTION,
        format_func=lambda name: every if name is None else name,
    )  # fmt: skip


def _context(doc_ids: list[str]) -> dict[str, Any] | None:
    context = ss.get(state.CHAT_CONTEXT)
    if not context or context.get("doc_id") not in doc_ids:
        return None
    left, right = st.columns([4, 1])
    left.info(t("chat.about_section", path=md_escape(context.get("path"), 200)))
    if right.button(t("chat.whole_document"), key="chat_clear_context"):
        ss[state.CHAT_CONTEXT] = None
        st.rerun()
    return context


def main() -> None:
    thread = chat_threads.current()
    with st.sidebar:
        chat_threads.sidebar(thread)
    cited, wide = cite_links.listen()
    if not wide:  # a narrow window: the chat alone, evidence in a dialog
        _chat(thread)
        if cited:
            evidence.show(cited.turn, cited.ref, cited.page, wide=False)
        return
    if cited:
        ss[evidence.OPEN] = cited._asdict()
    left, right = st.columns([3, 2], gap="medium")
    with left:
        _chat(thread)
    with right:
        evidence.pane()


def _chat(thread: dict[str, Any] | None) -> None:
    st.title(t("chat.title"))
    if thread and thread.get("doc_ids_gone"):
        st.caption(t("chat.docs_gone"))
    doc_ids, askable = _pick_documents()
    context = _context(doc_ids)
    chat_turns.arrived_question()
    chat_turns.suggestion()
    chat_turns.conversation(context)
    chat_turns.question_box(askable)


state.require_app()
with shown_errors():
    main()
