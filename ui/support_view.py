"""An answer drawn with its support: a sentence its sources do not hold gets a quiet dotted
underline and a note on hover (not an alarm), and a model answer that was set aside for the
offline one stays one click away ("See the model's answer anyway").

The one place the chat draws an answer's text, so the marking is the same in a fresh
answer and in a conversation opened again. The text is escaped before the marks go in:
an answer may quote a document that holds HTML.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import streamlit as st

from .i18n import t
from .text import answer_markdown, cited_markdown

NOTES = {"unsupported": "chat.unsupported", "partly": "chat.partly"}  # catalogue keys
MARK_STYLE = "text-decoration: underline dotted #9a9a9a; text-underline-offset: 3px"


def _marks(text: str, support: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The sentences to mark; never a stretch of a Markdown table (a span inside its rows
    would break the table: its cells are cited one by one instead)."""
    return [
        s for s in (support or {}).get("sentences") or []
        if s.get("verdict") in NOTES and 0 <= s.get("start", -1) < s.get("end", -1) <= len(text)
        and "|" not in text[s["start"] : s["end"]]
    ]  # fmt: skip


def marked_markdown(
    text: str, support: dict[str, Any] | None, render: Callable[[str], str] = answer_markdown
) -> str:
    """The answer as Markdown (HTML escaped, dollar signs literal) with each sentence that
    is not supported wrapped in a ``<span class="treerag-unsupported">`` with its note;
    ``render`` turns each stretch of text into Markdown (the chat's links its citations)."""
    marks = _marks(text, support)
    if not marks:
        return render(text)

    def _escaped(part: str) -> str:
        return render(html.escape(part, quote=False))

    out, at = [], 0
    for sentence in sorted(marks, key=lambda s: s["start"]):
        if sentence["start"] < at:
            continue
        out.append(_escaped(text[at : sentence["start"]]))
        note = t(NOTES[sentence["verdict"]]) + (
            f": {sentence['why']}" if sentence.get("why") else ""
        )
        out.append(
            f'<span class="treerag-unsupported" style="{MARK_STYLE}" '
            f'title="{html.escape(note, quote=True)}">'
            f"{_escaped(text[sentence['start'] : sentence['end']])}</span>"
        )
        at = sentence["end"]
    out.append(_escaped(text[at:]))
    return "".join(out)


def show(turn: dict[str, Any], index: int | None = None) -> None:
    """One answer's text, marked, its citation markers linked to the evidence pane (turn
    ``index``; None: plain markers), and the model's reply it replaced (if any)."""
    support, text = turn.get("support"), str(turn.get("answer") or "")
    body = marked_markdown(text, support, lambda part: cited_markdown(part, index))
    st.markdown(body, unsafe_allow_html=bool(_marks(text, support)))
    if turn.get("model_answer"):
        with st.expander(t("chat.set_aside")):
            st.markdown(answer_markdown(html.escape(turn["model_answer"], quote=False)))
