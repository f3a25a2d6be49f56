"""The open conversation on the chat page: its turns, each answer's actions, and (when asked
for) its sources.

Cheap under load, and as cheap in the fiftieth turn as in the first: a question reruns
only the place where its answer goes, never the turns above it. Streamlit redraws every
element of a fragment that reruns (each costs the browser a few milliseconds, measured), so
a conversation drawn as one fragment costs more with every turn. Here each next answer has
a fragment of its own (keyed by its turn number), drawn empty at the end of the
conversation; the question box's callback reruns just that one, which answers and then
draws the empty place for the turn after it. Each answer's sources line, actions and
sources are a fragment too, so a verdict, a comment or opening its sources reruns that
answer only. The evidence thumbnails, the reference buttons and the navigation trace are
drawn only when its Sources toggle is on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from treerag_core.chat import (
    add_turn,
    create_thread,
    history_of,
    make_turn,
    reference_line,
    replace_answer,
    set_feedback,
)

from . import chat_threads, cite_links, docs, evidence, state, support_view, trace_view
from .answer_table_logic import comparison_table, table_csv
from .chat_logic import (
    AnswerStream,
    batched,
    searched_line,
    sources_line,
    start_answer,
)
from .engine import current_retriever
from .errors import message_for, shown_errors
from .i18n import language, t
from .text import answer_markdown, md_escape, plain_label

# Turns drawn at once; older ones wait behind a button (a long thread stays cheap to show).
SHOWN_TURNS = 20
SHOW_ALL = "chat_show_all"  # the thread id whose every turn is shown
REGENERATING = "chat_regenerating"  # (thread id, turn index) to answer again
VERDICTS = {0: "down", 1: "up"}  # st.feedback's thumbs
PENDING = "chat_pending"  # (turn index, question) submitted, to answer in that turn's place
BOX = "chat_question"  # the question box
CONVERSATION = "chat_conversation"  # the conversation fragment's key (regenerate reruns it)
NEXT_TURN = "chat_turn_{}"  # the key of the place where the answer to turn n goes
QUESTION_BOX = "chat_question_box"  # the question box's fragment key


def _key(thread: dict[str, Any], index: int, what: str) -> str:
    return f"{what}_{thread['thread_id'][:12]}_{index}"


@st.fragment(key=CONVERSATION)
def conversation(context: dict[str, Any] | None) -> None:
    """The open thread's turns, then the (empty) place of the next answer."""
    with shown_errors():
        thread = st.session_state.get(state.CHAT_THREAD)
        if thread:
            _title(thread)
        turns = thread["turns"] if thread else []
        start = 0
        if len(turns) > SHOWN_TURNS and st.session_state.get(SHOW_ALL) != thread["thread_id"]:
            start = len(turns) - SHOWN_TURNS
            st.button(
                t("chat.show_earlier", count=start), key="chat_show_earlier",
                on_click=_set, args=(SHOW_ALL, thread["thread_id"]),
            )  # fmt: skip
        regenerating = st.session_state.get(REGENERATING)
        for index in range(start, len(turns)):
            _question(turns[index]["question"])
            with st.chat_message("assistant"):
                if regenerating == (thread["thread_id"], index):
                    thread = _regenerate(thread, index)
                else:
                    _answer_text(turns[index], index)
                answer(index)
        # Done (or for no turn shown) only now: as a pending question, a regeneration a rerun
        # stopped midway is answered again.
        st.session_state.pop(REGENERATING, None)
        next_turn(len(turns), context)


def next_turn(index: int, context: dict[str, Any] | None) -> None:
    """The place of answer ``index``: a fragment keyed by ``index`` (see the module's
    docstring). Empty until the question box's callback reruns it with a question; then
    it answers, and draws the place of the next answer inside itself."""
    st.fragment(_next_turn, key=NEXT_TURN.format(index))(index, context)


def _next_turn(index: int, context: dict[str, Any] | None) -> None:
    pending = st.session_state.get(PENDING)
    thread = st.session_state.get(state.CHAT_THREAD)
    if not pending or pending[0] != index or thread is None:
        st.session_state.pop(PENDING, None)  # one that is not this turn's is stale
        return
    # The selection as it is now (read here, not passed in: a keyed fragment may rerun with
    # the arguments it was first drawn with, from before the person changed it).
    doc_ids = list(st.session_state.get(state.CHAT_DOCS) or [])
    with shown_errors():
        if index == 0:  # the thread was opened by this question
            _title(thread)
        _ask(pending[1], doc_ids, context)
    # Done only now: a rerun that stopped the answer midway (a click elsewhere, the window's
    # width reported late) finds the question still pending and answers it again.
    st.session_state.pop(PENDING, None)
    next_turn(index + 1, context)


@st.fragment(key=QUESTION_BOX)
def question_box(askable: bool) -> None:
    """The question box, pinned to the bottom of the window. A fragment of its own: while a
    question is answered, the browser greys out what the interaction would rerun by
    default (for a box in the page's body, the whole page, on every question)."""
    with st.bottom:
        st.chat_input(t("chat.prompt"), disabled=not askable, key=BOX, on_submit=_submitted)


def _title(thread: dict[str, Any]) -> None:
    st.caption(t("chat.conversation", title=md_escape(thread["title"], 120)))


def _submitted() -> None:
    """The question box's callback: keep the question, open a thread titled by it if none
    is open (and rerun the sidebar's place for it), and rerun only the place where its
    answer goes. Should that place be unknown (say, another tab added turns to the thread),
    the whole page runs, and answers in the place it draws."""
    question = str(st.session_state.get(BOX) or "").strip()
    if question:
        # The box's own fragment reruns too (first, it is cheap): a keyed rerun replaces
        # the interaction's default one, and without it the box was sometimes gone from
        # the page once the answer was drawn (bench.load --cold, #42).
        _rerun(QUESTION_BOX, *_pend(question))


def _pend(question: str) -> list[str]:
    """Keep ``question`` to answer in the open thread's next place (opening a thread titled
    by it if none is open); return the keys of the fragments to rerun for it."""
    ss = st.session_state
    doc_ids = list(ss.get(state.CHAT_DOCS) or [])  # none: the library
    places = []
    if ss.get(state.CHAT_THREAD) is None:
        thread = create_thread(doc_ids, question, state.registry_path(), state.principal())
        chat_threads.opened(thread)
        places.append(chat_threads.FRESH)
    # Asked: the suggestion has done its job (kept, to click again, if the thread failed).
    ss.pop(state.CHAT_SUGGESTED, None)
    index = len(ss[state.CHAT_THREAD]["turns"])
    ss[PENDING] = (index, question)
    return [*places, NEXT_TURN.format(index)]


def arrived_question() -> None:
    """A question asked on another page (the home page's ask box): answered in a new
    thread as soon as the chat draws its conversation."""
    question = st.session_state.pop(state.CHAT_ASK, None)
    if question:
        _pend(str(question))


def suggestion() -> None:
    """A question offered to a newcomer (the sample's): one click asks it."""
    question = st.session_state.get(state.CHAT_SUGGESTED)
    thread = st.session_state.get(state.CHAT_THREAD)
    if not question or (thread and thread.get("turns")):
        return
    st.caption(t("chat.try"))
    st.button(
        question, key="chat_suggested_ask", icon=":material/lightbulb:", type="secondary",
        on_click=_ask_suggested, args=(question,),
    )  # fmt: skip


def _ask_suggested(question: str) -> None:
    _pend(question)  # the whole page reruns: the suggestion goes, the answer comes


def _rerun(*keys: str) -> None:
    """From a callback: rerun only the keyed fragments, or the whole page if one of them
    was not drawn in this session."""
    try:
        st.rerun(list(keys))
    except StreamlitAPIException:
        st.rerun()


def _question(text: str) -> None:
    with st.chat_message("user"):
        st.markdown(md_escape(text))


def _stream_answer(
    question: str,
    doc_ids: list[str],
    context: dict[str, Any] | None,
    history: list[dict[str, Any]],
    keep: Callable[[dict[str, Any]], dict[str, Any]],
    turn_index: int,
) -> dict[str, Any]:
    """Stream one answer and ``keep`` its turn (with the error, if it failed: whatever
    streamed before it stays, and the error is shown under it); return what ``keep``
    returned.

    The turn is kept as soon as the answer's last words are out, inside the stream, before
    Streamlit writes anything more: a person who closes the page the moment the answer is
    complete stops the script at its next write, and the answer must already be stored.
    """
    stream: AnswerStream | None = None
    kept: dict[str, Any] = {}

    def chunks() -> Iterator[str]:
        for piece in batched(stream.text()):  # type: ignore[union-attr]
            yield answer_markdown(piece)
        kept["thread"] = None  # keeping was tried: a storage error is not kept twice
        kept["thread"] = keep(stream.turn(question))  # type: ignore[union-attr]

    try:
        documents = [docs.load(d) for d in doc_ids]  # none: the library
        stream = start_answer(
            question, documents, current_retriever(), context, state.principal(),
            state.registry_path(), history, st.session_state.get(state.CHAT_COLLECTION),
        )  # fmt: skip
        place = st.empty()
        with place.container():
            _write_stream(chunks())
        # Streamed, the markers were plain text; complete, they become links, and the
        # answer is drawn again as checked (renumbered, marked, or the offline one instead).
        shown = stream.turn(question)
        with place.container():
            support_view.show(shown, turn_index)
    except Exception as exc:  # kept in the turn and shown under it
        if "thread" in kept:
            raise
        error = message_for(exc)
        turn = stream.turn(question, error) if stream else make_turn(question, "", None, error)
        kept["thread"] = keep(turn)
        st.error(error)
    return kept["thread"]


def _write_stream(pieces: Iterator[str]) -> None:
    """``st.write_stream`` for text: each piece added to one Markdown element as it comes.
    Streamlit's own first asks whether the stream is a data frame, which imports pandas,
    NumPy and PyArrow: 0.4 CPU-s in the first answer of every server process, for text
    (py-spy, bench.load --cold). Unlike it, a half-streamed ``**`` shows as typed until its
    closing half arrives (a redraw later)."""
    shown, text = None, ""
    for piece in pieces:
        if piece:
            text += piece
            shown = shown or st.empty()
            shown.markdown(text)


def _ask(question: str, doc_ids: list[str], context: dict[str, Any] | None) -> None:
    """Answer in the open thread, its earlier turns as the history. The streamed text
    stays as it is drawn; the answer's fragment (sources line, actions) goes under it."""
    registry, principal = state.registry_path(), state.principal()
    thread = st.session_state[state.CHAT_THREAD]
    _question(question)
    with st.chat_message("assistant"):

        def keep(turn: dict[str, Any]) -> dict[str, Any]:
            saved = add_turn(thread["thread_id"], turn, registry, principal, doc_ids)
            chat_threads.opened(saved)
            return saved

        turn_index = len(thread["turns"])
        saved = _stream_answer(question, doc_ids, context, history_of(thread), keep, turn_index)
        answer(len(saved["turns"]) - 1)


@st.fragment
def answer(index: int) -> None:
    """Under one answer's text: its cited sections in a line, its actions, its sources."""
    with shown_errors():
        thread = st.session_state.get(state.CHAT_THREAD)
        if not thread or index >= len(thread["turns"]):
            return
        turn = thread["turns"][index]
        _answer_chart(turn)  # a comparison's figures, under its table (streamed or not)
        refs = turn.get("references") or []
        library = (turn.get("trace") or {}).get("library")
        if library:
            st.caption(md_escape(searched_line(library, language()), 600))
        if refs:
            st.caption(
                md_escape(t("chat.sources_line", line=sources_line(refs, language=language())), 600)
            )
        _actions(thread, index, turn)
        if st.session_state.get(_key(thread, index, "sources")):
            _sources(thread, index, refs, turn)


def _answer_text(turn: dict[str, Any], index: int) -> None:
    support_view.show(turn, index)
    if turn.get("error"):
        st.error(turn["error"])


def _answer_chart(turn: dict[str, Any]) -> None:
    """A comparison's figures drawn as a chart (periods along, one series a document), and
    its table as CSV."""
    table = comparison_table(str(turn.get("answer") or ""))
    if table is None:
        return
    import pandas as pd

    frame = pd.DataFrame(
        {name: values for name, values, _texts in table["rows"]}, index=table["periods"]
    )
    if len(table["periods"]) > 2:
        st.line_chart(frame)
    else:
        st.bar_chart(frame, stack=False)
    st.download_button(
        t("chat.csv"), table_csv(table), file_name="comparison.csv", mime="text/csv",
        key=f"csv-{abs(hash(str(turn.get('answer'))))}", on_click="ignore",
    )  # fmt: skip


def _regenerate(thread: dict[str, Any], index: int) -> dict[str, Any]:
    """The same question again with the current settings, its earlier turns as history."""
    turn = thread["turns"][index]
    doc_ids = list(st.session_state.get(state.CHAT_DOCS) or thread.get("doc_ids") or [])

    def keep(new: dict[str, Any]) -> dict[str, Any]:
        saved = replace_answer(
            thread["thread_id"], index, new, state.registry_path(), state.principal()
        )
        chat_threads.opened(saved)
        return saved

    return _stream_answer(turn["question"], doc_ids, None, history_of(thread, index), keep, index)


def _actions(thread: dict[str, Any], index: int, turn: dict[str, Any]) -> None:
    """Verdict (thumbs, with a comment), copy, regenerate and the Sources toggle."""
    feedback = turn.get("feedback") or {}
    verdict_key = _key(thread, index, "verdict")
    if verdict_key not in st.session_state:
        st.session_state[verdict_key] = {"down": 0, "up": 1}.get(feedback.get("verdict"))
    # One row that wraps, each action as wide as its label (columns of fixed shares cut
    # "Copy" and "Regenerate" short beside the evidence pane, and German labels are longer).
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.feedback("thumbs", key=verdict_key, on_change=_judge, args=(index, verdict_key))
        with st.popover(t("chat.copy"), icon=":material/content_copy:"):
            st.code(turn.get("answer") or "", language=None, wrap_lines=True)
        st.button(
            t("chat.regenerate"), key=_key(thread, index, "regenerate"),
            icon=":material/refresh:", help=t("chat.regenerate_help"),
            on_click=_regenerate_clicked, args=(thread["thread_id"], index),
        )  # fmt: skip
        sources_key = _key(thread, index, "sources")
        st.session_state.setdefault(sources_key, True)  # evidence is shown unless put away
        st.toggle(t("chat.sources"), key=sources_key)
    if feedback.get("verdict"):
        _comment(thread, index, feedback)


def _set(key: str, value: Any) -> None:
    """A button's callback: the value is in place before its fragment reruns (whether the
    click reruns the fragment or, in a full run, the whole page)."""
    st.session_state[key] = value


def _regenerate_clicked(thread_id: str, index: int) -> None:
    """Regenerate's callback: the answer's text is drawn by the conversation (outside the
    answer's fragment), so the conversation reruns, not only this answer."""
    st.session_state[REGENERATING] = (thread_id, index)
    _rerun(CONVERSATION)


def _judge(index: int, verdict_key: str) -> None:
    verdict = VERDICTS.get(st.session_state.get(verdict_key))
    thread = st.session_state[state.CHAT_THREAD]
    comment = (thread["turns"][index].get("feedback") or {}).get("comment", "")
    chat_threads.opened(
        set_feedback(thread["thread_id"], index, verdict, comment, state.registry_path(),
                     state.principal())
    )  # fmt: skip


def _comment(thread: dict[str, Any], index: int, feedback: dict[str, Any]) -> None:
    down = feedback["verdict"] == "down"
    with st.popover(t("chat.edit_comment") if feedback.get("comment") else t("chat.comment")):
        comment_key = _key(thread, index, "comment")
        st.text_area(
            t("chat.what_wrong") if down else t("chat.what_good"),
            value=feedback.get("comment", ""),
            key=comment_key, max_chars=2000,
        )  # fmt: skip
        st.button(
            t("chat.save_comment"), key=_key(thread, index, "comment_save"),
            on_click=_save_comment,
            args=(index, feedback["verdict"], comment_key),
        )  # fmt: skip
    if down and not feedback.get("saved_as"):
        st.page_link(
            state.PAGE_EVALUATE, label=t("chat.marked_wrong"),
            icon=":material/fact_check:",
        )  # fmt: skip


def _save_comment(index: int, verdict: str, comment_key: str) -> None:
    thread = st.session_state[state.CHAT_THREAD]
    chat_threads.opened(
        set_feedback(thread["thread_id"], index, verdict, st.session_state.get(comment_key, ""),
                     state.registry_path(), state.principal())
    )  # fmt: skip


def _sources(thread: dict[str, Any], index: int, refs: list[dict[str, Any]], turn: dict) -> None:
    """Evidence thumbnails, the reference buttons and the trace: drawn on demand only."""
    live = [r for r in refs if not r.get("gone")]
    cited = [(r, ref) for r, ref in enumerate(refs) if ref.get("cited", True)]
    also_read = [(r, ref) for r, ref in enumerate(refs) if not ref.get("cited", True)]
    if live:
        evidence.thumbnails(index, live, st.session_state.get(cite_links.WIDE, True))
    if cited:
        st.caption(t("chat.references"))
        _reference_buttons(thread, index, cited)
    if also_read:
        with st.expander(t("chat.also_read", count=len(also_read))):
            _reference_buttons(thread, index, also_read)
    if turn.get("trace") or turn.get("usage"):
        # Drawn only when opened: every rerun draws every earlier answer, and the trace's
        # tables were a seventh of a long conversation's rerun.
        trace = st.expander(t("chat.trace"), key=_key(thread, index, "trace"), on_change="rerun")
        if trace.open:
            with trace:
                trace_view.trace(turn, refs)


def _reference_buttons(
    thread: dict[str, Any], index: int, refs: list[tuple[int, dict[str, Any]]]
) -> None:
    for r, ref in refs:
        label = plain_label(reference_line(ref, language()), 140)
        if st.button(
            label, key=f"{_key(thread, index, 'ref')}_{r}", type="tertiary",
            icon=":material/article:", disabled=bool(ref.get("gone")),
        ):  # fmt: skip
            state.open_in_tree(ref["doc_id"], ref["node_id"], evidence=ref)
