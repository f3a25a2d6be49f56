"""An answer drawn with its support: a sentence its sources do not hold gets a quiet dotted
underline and a note on hover (not an alarm), and a model answer that was set aside for the
offline one stays one click away ("See the model's answer anyway").

The one place the chat draws an answer's text, so the marking is the same in a fresh
answer and in a conversation opened again. The text is escaped before the marks go in:
an answer may quote a document that holds HTML.
"""

from __future__ import annotations

import html
from typing import Any

import streamlit as st

from .text import answer_markdown

NOTES = {
    "unsupported": "Not found in the sources it cites",
    "partly": "Only partly found in the sources it cites",
}
MARK_STYLE = "text-decoration: underline dotted #9a9a9a; text-underline-offset: 3px"
SET_ASIDE_LABEL = "See the model's answer anyway"


def marked_markdown(text: str, support: dict[str, Any] | None) -> str:
    """The answer as Markdown (HTML escaped, dollar signs literal) with each sentence that
    is not supported wrapped in a ``<span class="treerag-unsupported">`` with its note."""
    marks = [
        s for s in (support or {}).get("sentences") or []
        if s.get("verdict") in NOTES and 0 <= s.get("start", -1) < s.get("end", -1) <= len(text)
    ]  # fmt: skip
    if not marks:
        return answer_markdown(text)
    out, at = [], 0
    for sentence in sorted(marks, key=lambda s: s["start"]):
        if sentence["start"] < at:
            continue
        out.append(_escaped(text[at : sentence["start"]]))
        note = NOTES[sentence["verdict"]] + (f": {sentence['why']}" if sentence.get("why") else "")
        out.append(
            f'<span class="treerag-unsupported" style="{MARK_STYLE}" '
            f'title="{html.escape(note, quote=True)}">'
            f"{_escaped(text[sentence['start'] : sentence['end']])}</span>"
        )
        at = sentence["end"]
    out.append(_escaped(text[at:]))
    return "".join(out)


def _escaped(text: str) -> str:
    return answer_markdown(html.escape(text, quote=False))


def show(turn: dict[str, Any]) -> None:
    """One answer's text, marked, and the model's reply it replaced (if any)."""
    support = turn.get("support")
    body = marked_markdown(str(turn.get("answer") or ""), support)
    st.markdown(body, unsafe_allow_html=body != answer_markdown(turn.get("answer")))
    if turn.get("model_answer"):
        with st.expander(SET_ASIDE_LABEL):
            st.markdown(answer_markdown(html.escape(turn["model_answer"], quote=False)))
