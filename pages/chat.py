"""Chat: questions over one or several documents, streamed answers with clickable references."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui import docs, evidence, state
from ui.chat_logic import (
    history_markdown,
    reference_label,
    start_answer,
    trace_rows,
    usage_rows,
)
from ui.engine import current_retriever
from ui.errors import message_for, shown_errors
from ui.text import answer_markdown, md_escape, plain_label

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


def _show_turn(index: int, turn: dict[str, Any]) -> None:
    with st.chat_message(turn["role"]):
        if turn["role"] == "user":
            st.markdown(md_escape(turn["content"]))
            return
        st.markdown(answer_markdown(turn["content"]))
        if turn.get("error"):
            st.error(turn["error"])
        multi = len({r.get("doc_id") for r in turn.get("references") or []}) > 1
        refs = list(enumerate(turn.get("references") or []))
        cited = [(r, ref) for r, ref in refs if ref.get("cited", True)]
        also_read = [(r, ref) for r, ref in refs if not ref.get("cited", True)]
        if cited:
            evidence.thumbnails(index, turn.get("references") or [])
            st.caption("References used in the answer (open in the tree browser):")
            _reference_buttons(index, cited)
        if also_read:
            with st.expander(f"Also read, not cited ({len(also_read)})"):
                _reference_buttons(index, also_read)
        if turn.get("trace") or turn.get("usage"):
            with st.expander("Navigation trace and token usage"):
                for entry in (turn.get("trace") or {}).get("documents", []):
                    name = md_escape(entry.get("file_name")) if multi else "Navigation"
                    st.markdown(f"**{name}** — mode: {md_escape(entry.get('mode'))}")
                    if entry.get("fallback"):
                        st.caption(md_escape(entry["fallback"], 400))
                    rows = trace_rows(entry, turn.get("references") or [])
                    st.dataframe(rows, hide_index=True)
                    st.json(entry.get("steps") or [], expanded=False)
                if turn.get("usage"):
                    st.dataframe(usage_rows(turn["usage"]), hide_index=True)


def _reference_buttons(index: int, refs: list[tuple[int, dict[str, Any]]]) -> None:
    for r, ref in refs:
        label = plain_label(reference_label(ref, with_file=True), 140)
        if st.button(label, key=f"ref_{index}_{r}", type="tertiary", icon=":material/article:"):
            state.open_in_tree(ref["doc_id"], ref["node_id"], evidence=ref)


def _answer(question: str, doc_ids: list[str], context: dict[str, Any] | None) -> None:
    history = ss[state.CHAT_HISTORY]
    history.append({"role": "user", "content": question})
    _show_turn(len(history) - 1, history[-1])
    turn: dict[str, Any] = {"role": "assistant", "content": "", "references": []}
    with st.chat_message("assistant"):
        stream = None
        try:
            documents = [docs.load(d) for d in doc_ids]
            stream = start_answer(
                question, documents, current_retriever(), context, state.principal(),
                state.registry_path(),
            )  # fmt: skip
            st.write_stream(answer_markdown(chunk) for chunk in stream.text())
        except Exception as exc:  # shown in the turn; the history keeps what streamed
            turn["error"] = message_for(exc)
        if stream is not None:
            turn["content"] = "".join(stream.parts)
            turn["references"] = stream.final.get("__references__", [])
            turn["trace"] = stream.final.get("trace")
            turn["usage"] = stream.final.get("usage")
    history.append(turn)
    st.rerun()


def main() -> None:
    st.title("Chat")
    doc_ids = _pick_documents()
    context = _context(doc_ids)
    history = ss[state.CHAT_HISTORY]
    left, right = st.columns(2)
    if left.button("Clear history", disabled=not history, key="chat_clear"):
        ss[state.CHAT_HISTORY] = []
        st.rerun()
    right.download_button(
        "Download as Markdown",
        history_markdown(history),
        file_name="treerag-chat.md",
        mime="text/markdown",
        disabled=not history,
        key="chat_download",
    )
    for index, turn in enumerate(history):
        _show_turn(index, turn)
    question = st.chat_input("Ask a question about the selected documents", disabled=not doc_ids)
    if question and doc_ids:
        _answer(question, doc_ids, context)


state.require_app()
with shown_errors():
    main()
