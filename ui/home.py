"""The home page's parts: the library listing with its search, recent conversations, the
ask box over the whole library, and for an empty library the welcome and the sample.

The rows come from ``treerag_core.views.library_rows``; this module only draws them and
moves the person to the page an action opens.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from treerag_core.chat import list_threads
from treerag_core.library import SAMPLE_QUESTION, document_cards, index_sample
from treerag_core.store import open_store
from treerag_core.views import library_rows

from . import state
from .i18n import t
from .text import md_escape

RECENT_THREADS = 5  # conversations listed on the home page (the chat's sidebar has them all)
SEARCH = "home_search"
ASK = "home_ask"
LISTING = "home_listing"
COLUMNS = ("name", "kind", "periods", "pages", "sections", "indexed", "collection")


def headers() -> dict[str, str]:
    """Column headers that say what each column holds or counts (catalogue ``col.*``)."""
    return {key: t(f"col.{key}") for key in COLUMNS}


def add_documents() -> None:
    """The most visible action: add documents (upload or URL), or follow a folder."""
    row = st.container(horizontal=True, vertical_alignment="center")  # as wide as the words
    if row.button(
        t("home.add"), type="primary", icon=":material/upload_file:", key="home_add",
        help=t("home.add_help"),
    ):  # fmt: skip
        st.switch_page(state.PAGE_UPLOAD)
    if state.is_admin():  # the folders and buckets the library follows: admins' page
        row.page_link(state.PAGE_SOURCES, label=t("home.sync"), icon=":material/sync:")


def welcome() -> None:
    """An empty library: what the app does in three steps, and the sample to try it with."""
    st.markdown(t("home.welcome"))
    row = st.container(horizontal=True, vertical_alignment="center")  # side by side
    if row.button(
        t("home.sample"), type="primary", icon=":material/auto_stories:", key="home_sample",
        help=t("home.sample_help"),
    ):  # fmt: skip
        open_sample()
    row.page_link(state.PAGE_UPLOAD, label=t("home.add_own"), icon=":material/upload_file:")


def open_sample() -> None:
    """Index the sample (offline summaries) and open the chat on it with its question."""
    with st.spinner(t("home.sample_indexing")):
        document = index_sample(state.registry_path(), state.principal())
    st.session_state[state.CHAT_THREAD] = None
    st.session_state[state.CHAT_SUGGESTED] = SAMPLE_QUESTION
    state.open_in_chat([str(document["doc_id"])])


def listing(rows: list[dict[str, Any]]) -> None:
    """The searchable table of documents; a chosen row opens in the tree or the chat."""
    query = st.text_input(
        t("home.search"), key=SEARCH, placeholder=t("home.search_placeholder"),
        help=t("home.search_help"),
    )  # fmt: skip
    store = open_store(state.registry_path())
    shown = library_rows(rows, document_cards(store, rows), query)
    if not shown:
        st.caption(t("home.no_match", query=md_escape(query, 80)))
        return
    # One collection only: its column would say "default" on every row, so it goes.
    columns = [k for k in COLUMNS if k != "collection" or len({r[k] for r in shown}) > 1]
    names = headers()
    event = st.dataframe(
        [{names[k]: row[k] for k in columns} for row in shown],
        hide_index=True, key=LISTING, on_select="rerun", selection_mode="single-row",
        column_config={names["pages"]: st.column_config.TextColumn(),
                       names["sections"]: st.column_config.TextColumn()},
    )  # fmt: skip
    chosen = event.selection.rows if event else []
    if not chosen:
        st.caption(t("home.count", count=len(shown)))
        return
    row = shown[chosen[0]]
    tree, chat, _ = st.columns([2, 2, 5])
    if tree.button(t("home.open_tree"), key="home_tree", icon=":material/account_tree:"):
        state.open_in_tree(str(row["doc_id"]))
    if chat.button(t("home.ask_about"), key="home_chat", icon=":material/chat:"):
        st.session_state[state.CHAT_THREAD] = None
        state.open_in_chat([str(row["doc_id"])])


def ask_box() -> None:
    """A question to the whole library: the chat opens and answers it in a new thread."""
    with st.form("home_ask_form", clear_on_submit=True, border=False):
        left, right = st.columns([6, 1], vertical_alignment="bottom")
        question = left.text_input(t("home.ask"), key=ASK, placeholder=t("home.ask_placeholder"))
        asked = right.form_submit_button(t("home.ask_button"), type="primary")
    if asked and question.strip():
        st.session_state[state.CHAT_THREAD] = None
        st.session_state[state.CHAT_ASK] = question.strip()
        state.open_in_chat([])


def recent_conversations() -> None:
    threads = list_threads(state.registry_path(), state.principal())[:RECENT_THREADS]
    if not threads:
        st.caption(t("home.no_threads"))
        return
    for thread in threads:
        st.page_link(
            state.PAGE_CHAT, label=md_escape(thread.get("title"), 80), icon=":material/forum:",
            query_params={"thread": thread["thread_id"]},
        )  # fmt: skip
