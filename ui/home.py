"""The home page's parts: the library listing with its search, recent conversations, the
ask box over the whole library, and for an empty library the welcome and the sample.

The rows come from ``treerag_core.views.library_rows``; this module only draws them and
moves the person to the page an action opens.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from treerag_core.chat import list_threads
from treerag_core.library.catalog import document_cards
from treerag_core.library.sample import SAMPLE_QUESTION, index_sample
from treerag_core.store import open_store
from treerag_core.views import library_rows

from . import state
from .text import md_escape

RECENT_THREADS = 5  # conversations listed on the home page (the chat's sidebar has them all)
SEARCH = "home_search"
ASK = "home_ask"
LISTING = "home_listing"
# Column headers that say what each column holds or counts.
HEADERS = {
    "name": "Document",
    "kind": "Kind",
    "periods": "Periods covered",
    "pages": "Pages",
    "sections": "Sections",
    "indexed": "Indexed at",
    "collection": "Collection",
}


def add_documents() -> None:
    """The most visible action: add documents (upload or URL), or follow a folder."""
    left, right, _ = st.columns([2, 2, 5], vertical_alignment="center")
    if left.button(
        "Add documents", type="primary", icon=":material/upload_file:", key="home_add",
        help="Upload files or index a web page by its URL", width="stretch",
    ):  # fmt: skip
        st.switch_page(state.PAGE_UPLOAD)
    if state.is_admin():  # the folders and buckets the library follows: admins' page
        right.page_link(state.PAGE_SOURCES, label="Sync a folder", icon=":material/sync:")


def welcome() -> None:
    """An empty library: what the app does in three steps, and the sample to try it with."""
    st.markdown(
        "treerag answers questions from your documents and shows where each answer came "
        "from.\n\n"
        "1. **Add a document**: a PDF, Word file, slide deck, spreadsheet, e-mail or web "
        "page. It is split into its own sections and each gets a summary.\n"
        "2. **Ask a question** in plain words, of one document or of the whole library.\n"
        "3. **Check the answer**: every citation opens the cited page with the passage "
        "highlighted."
    )
    left, right = st.columns(2)
    if left.button(
        "Try it with a sample", type="primary", icon=":material/auto_stories:",
        key="home_sample", help="Index a five-page staff handbook shipped with treerag "
        "(offline, no network) and open the chat with a question to ask it",
    ):  # fmt: skip
        open_sample()
    right.page_link(
        state.PAGE_UPLOAD, label="Add your own documents", icon=":material/upload_file:"
    )


def open_sample() -> None:
    """Index the sample (offline summaries) and open the chat on it with its question."""
    with st.spinner("Indexing the sample handbook…"):
        document = index_sample(state.registry_path(), state.principal())
    st.session_state[state.CHAT_THREAD] = None
    st.session_state[state.CHAT_SUGGESTED] = SAMPLE_QUESTION
    state.open_in_chat([str(document["doc_id"])])


def listing(rows: list[dict[str, Any]]) -> None:
    """The searchable table of documents; a chosen row opens in the tree or the chat."""
    query = st.text_input(
        "Search the library", key=SEARCH, placeholder="A name, a kind, a year, a company…",
        help="Looks in each document's name and card (kind, periods, names, description)",
    )  # fmt: skip
    store = open_store(state.registry_path())
    shown = library_rows(rows, document_cards(store, rows), query)
    if not shown:
        st.caption(f"No document matches “{md_escape(query, 80)}”.")
        return
    # One collection only: its column would say "default" on every row, so it goes.
    columns = [k for k in HEADERS if k != "collection" or len({r[k] for r in shown}) > 1]
    event = st.dataframe(
        [{HEADERS[k]: row[k] for k in columns} for row in shown],
        hide_index=True, key=LISTING, on_select="rerun", selection_mode="single-row",
        column_config={HEADERS["pages"]: st.column_config.TextColumn(),
                       HEADERS["sections"]: st.column_config.TextColumn()},
    )  # fmt: skip
    chosen = event.selection.rows if event else []
    if not chosen:
        st.caption(f"{len(shown)} document(s). Choose a row to open it.")
        return
    row = shown[chosen[0]]
    tree, chat, _ = st.columns([2, 2, 5])
    if tree.button("Open in tree", key="home_tree", icon=":material/account_tree:"):
        state.open_in_tree(str(row["doc_id"]))
    if chat.button("Ask about it", key="home_chat", icon=":material/chat:"):
        st.session_state[state.CHAT_THREAD] = None
        state.open_in_chat([str(row["doc_id"])])


def ask_box() -> None:
    """A question to the whole library: the chat opens and answers it in a new thread."""
    with st.form("home_ask_form", clear_on_submit=True, border=False):
        left, right = st.columns([6, 1], vertical_alignment="bottom")
        question = left.text_input("Ask the whole library", key=ASK,
                                   placeholder="Ask a question about your documents")  # fmt: skip
        asked = right.form_submit_button("Ask", type="primary")
    if asked and question.strip():
        st.session_state[state.CHAT_THREAD] = None
        st.session_state[state.CHAT_ASK] = question.strip()
        state.open_in_chat([])


def recent_conversations() -> None:
    threads = list_threads(state.registry_path(), state.principal())[:RECENT_THREADS]
    if not threads:
        st.caption("No conversations yet.")
        return
    for thread in threads:
        st.page_link(
            state.PAGE_CHAT, label=md_escape(thread.get("title"), 80), icon=":material/forum:",
            query_params={"thread": thread["thread_id"]},
        )  # fmt: skip
