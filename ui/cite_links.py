"""Citation markers that are links: a click on ``[S1, p. 59]`` in an answer opens the cited
page in the evidence pane, and whether the window is wide enough for that pane.

Answers are Markdown, where a link would leave the app (a new session); the markers link to
``#cite-<turn>-<ref>-<page>`` instead, and this component, mounted once on the chat page,
catches clicks on such links anywhere in the page and hands them to Python as a trigger
value. It also reports whether the window is wide (its state, sent only when that changes),
so a narrow window opens the evidence in a dialog as before. Its code is ours and fixed; no
document text reaches it.
"""

from __future__ import annotations

from typing import NamedTuple

import streamlit as st

CITE_PREFIX = "cite-"
WIDE_PX = 1000  # below this the chat takes the whole width and evidence opens in a dialog
KEY = "chat_cite_links"
WIDE = "chat_wide"  # the window's width as last reported: wide enough for the pane

_JS = f"""
export default function(component) {{
    const {{ setTriggerValue, setStateValue, data }} = component;
    const onClick = (event) => {{
        const link = event.target.closest && event.target.closest('a[href^="#{CITE_PREFIX}"]');
        if (!link) return;
        event.preventDefault();
        event.stopPropagation();
        setTriggerValue('cite', link.getAttribute('href').slice(1));
    }};
    let wide = data ? data.wide : null;  // what Python has: only a change is sent
    const report = () => {{
        const now = window.innerWidth >= {WIDE_PX};
        if (now !== wide) {{ wide = now; setStateValue('wide', now); }}
    }};
    document.addEventListener('click', onClick, true);
    window.addEventListener('resize', report);
    report();
    return () => {{
        document.removeEventListener('click', onClick, true);
        window.removeEventListener('resize', report);
    }};
}}
"""

_component = st.components.v2.component("treerag_cite_links", js=_JS)


class Cited(NamedTuple):
    """A clicked marker: the answer's turn, its reference label, the page (None: any)."""

    turn: int
    ref: str
    page: int | None


def href(turn: int, ref: str, page: int | None) -> str:
    return f"#{CITE_PREFIX}{turn}-{ref}-{page or 0}"


def parse(value: str | None) -> Cited | None:
    """``cite-3-S1-59`` → ``Cited(3, "S1", 59)``; anything else → None."""
    if not value or not value.startswith(CITE_PREFIX):
        return None
    parts = value[len(CITE_PREFIX) :].split("-")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[2].isdigit():
        return None
    return Cited(int(parts[0]), parts[1], int(parts[2]) or None)


def listen() -> tuple[Cited | None, bool]:
    """Mount the listener: the marker clicked in this run (if any), and whether the window
    is wide. Before the browser has said, it is taken as wide (a desktop window)."""
    known = st.session_state.get(WIDE, True)
    result = _component(
        key=KEY, default={"wide": True}, height=0, data={"wide": known},
        on_wide_change=lambda: None, on_cite_change=lambda: None,
    )  # fmt: skip
    wide = getattr(result, "wide", True) is not False
    st.session_state[WIDE] = wide
    return parse(getattr(result, "cite", None)), wide
