"""The floor for ``bench.load --floor``: the chat page with nothing but a document picker,
the question box and the messages, over the same engine and helpers (no conversations
kept, no sidebar list, no actions, no sources line). ``bench.load`` runs it in place of
``pages/chat.py`` in a copy of the app, to show what Streamlit's own frontend costs per
question on this machine. Not part of the app."""

import streamlit as st

from ui import docs, state
from ui.chat_logic import start_answer
from ui.engine import current_retriever
from ui.text import answer_markdown

TURNS = "bare_turns"
PICK = "bare_pick"


@st.fragment
def conversation() -> None:
    turns = st.session_state.setdefault(TURNS, [])
    for turn in turns:
        with st.chat_message("user"):
            st.markdown(turn["question"])
        with st.chat_message("assistant"):
            st.markdown(answer_markdown(turn["answer"]))
    question = st.chat_input("Ask")
    if question:
        with st.chat_message("user"):
            st.markdown(question)
        with st.chat_message("assistant"):
            documents = [docs.load(d) for d in st.session_state[PICK]]
            stream = start_answer(question, documents, current_retriever(), None, None,
                                  state.registry_path(), list(turns))  # fmt: skip
            st.write_stream(stream.text())
        turns.append(stream.turn(question))


state.require_app()
st.title("Chat")
labels = {r["doc_id"]: docs.label(r) for r in docs.rows()}
st.session_state.setdefault(PICK, list(labels)[:1])
st.multiselect("Documents", list(labels), format_func=lambda i: labels[i], key=PICK)
conversation()
