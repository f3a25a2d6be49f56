"""Which conversation is open, and the chat sidebar: the person's threads, new, rename,
delete, download as Markdown.

The open thread is named in the URL (``?thread=<id>``), so a browser refresh or a server
restart opens it again from the store; the session keeps the thread dict as last saved, so
an answer never re-reads it.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from treerag_core.chat import (
    delete_thread,
    get_thread,
    list_threads,
    rename_thread,
    thread_markdown,
)
from treerag_core.errors import ThreadNotFoundError

from . import state
from .errors import message_for
from .i18n import t
from .text import md_escape, plain_label

THREAD_PARAM = "thread"
LISTED = "chat_thread_listed"  # the open thread as of the sidebar's last drawing
FRESH = "chat_thread_fresh"  # the key of the sidebar's place for a thread opened since
# The sidebar lists this many recent conversations (the rest stay stored and linkable).
SIDEBAR_THREADS = 30


def current() -> dict[str, Any] | None:
    """The open thread: the session's, or the one the URL names (after a refresh or a
    restart), whose still-readable documents become the chat's selection."""
    ss = st.session_state
    wanted = st.query_params.get(THREAD_PARAM)
    thread = ss.get(state.CHAT_THREAD)
    if thread is not None and wanted in (None, thread["thread_id"]):
        if wanted is None:
            st.query_params[THREAD_PARAM] = thread["thread_id"]
        return thread
    if not wanted:
        return None
    try:
        thread = get_thread(wanted, state.registry_path(), state.principal())
    except ThreadNotFoundError as exc:
        del st.query_params[THREAD_PARAM]
        ss[state.CHAT_THREAD] = None
        st.warning(message_for(exc))
        return None
    ss[state.CHAT_THREAD] = thread
    gone = set(thread.get("doc_ids_gone") or [])
    ss[state.CHAT_DOCS] = [d for d in thread.get("doc_ids") or [] if d not in gone]
    return thread


def opened(thread: dict[str, Any]) -> None:
    """Make ``thread`` the open one (after it was created or changed)."""
    st.session_state[state.CHAT_THREAD] = thread
    if st.query_params.get(THREAD_PARAM) != thread["thread_id"]:  # each write is a message
        st.query_params[THREAD_PARAM] = thread["thread_id"]


def close() -> None:
    """No open thread: the next question starts a new one."""
    st.session_state[state.CHAT_THREAD] = None
    st.session_state[state.CHAT_CONTEXT] = None
    if THREAD_PARAM in st.query_params:
        del st.query_params[THREAD_PARAM]


def _open(thread_id: str) -> None:
    st.session_state[state.CHAT_THREAD] = None
    st.query_params[THREAD_PARAM] = thread_id


def sidebar(thread: dict[str, Any] | None) -> None:
    """The conversation list (newest first) and the open one's actions."""
    st.subheader(t("threads.title"))
    if st.button(t("threads.new"), icon=":material/add_comment:", key="thread_new"):
        close()
        st.rerun()
    st.session_state[LISTED] = thread["thread_id"] if thread else None
    opened_since_listed()
    rows = list_threads(state.registry_path(), state.principal())
    if not rows:
        st.caption(t("threads.empty"))
    for row in rows[:SIDEBAR_THREADS]:
        label = plain_label(row.get("title") or t("threads.untitled"), 48)
        current_row = thread is not None and row["thread_id"] == thread["thread_id"]
        if st.button(
            label, key=f"thread_{row['thread_id']}", type="primary" if current_row else "tertiary",
            help=t("threads.row_help", count=row.get("turns", 0), when=row.get("updated_at") or ""),
        ):  # fmt: skip
            _open(row["thread_id"])
            st.rerun()
    if len(rows) > SIDEBAR_THREADS:
        st.caption(t("threads.older", count=len(rows) - SIDEBAR_THREADS))
    if thread is not None:
        _actions(thread)


@st.fragment(key=FRESH)
def opened_since_listed() -> None:
    """At the top of the list: the open conversation when the list was drawn before it
    existed. A first question opens its thread in the question box's callback, which
    reruns just this place and the answer's (a whole-page run only to list the thread
    costs more than the answer: measured by bench.load). Empty in a whole-page run, which
    lists the thread with the others."""
    thread = st.session_state.get(state.CHAT_THREAD)
    if thread is None or st.session_state.get(LISTED) == thread["thread_id"]:
        return
    st.button(
        plain_label(thread.get("title") or t("threads.untitled"), 48), type="primary",
        key=f"thread_fresh_{thread['thread_id']}", help=t("threads.open"),
    )  # fmt: skip
    _actions(thread)


def _actions(thread: dict[str, Any]) -> None:
    thread_id = thread["thread_id"]
    registry, principal = state.registry_path(), state.principal()
    with st.popover(t("threads.rename"), icon=":material/edit:"):
        title = st.text_input(
            t("threads.title_field"), value=thread.get("title") or "", key=f"rename_{thread_id}"
        )
        if st.button(t("threads.save_title"), key=f"rename_save_{thread_id}"):
            try:
                opened(rename_thread(thread_id, title, registry, principal))
                st.rerun()
            except Exception as exc:  # shown beside the field; nothing changed
                st.error(message_for(exc))

    def markdown() -> bytes:  # built only when the button is clicked
        return thread_markdown(get_thread(thread_id, registry, principal)).encode("utf-8")

    st.download_button(
        t("threads.download"), markdown, file_name="treerag-conversation.md",
        mime="text/markdown", on_click="ignore", icon=":material/download:",
        key=f"download_{thread_id}",
    )  # fmt: skip
    with st.popover(t("threads.delete"), icon=":material/delete:"):
        st.caption(t("threads.delete_confirm", title=md_escape(thread.get("title"), 80)))
        if st.button(t("threads.delete_yes"), type="primary", key=f"delete_{thread_id}"):
            delete_thread(thread_id, registry, principal)
            close()
            st.rerun()
