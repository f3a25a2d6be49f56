"""The trace under a chat answer ("How this answer was found"): drawn when its Sources
toggle is on (:mod:`.chat_turns`); the rows come from :mod:`.chat_logic`."""

from __future__ import annotations

from typing import Any

import streamlit as st

from .chat_logic import mode_name, trace_rows, usage_rows
from .i18n import language, t
from .text import md_escape


def trace(turn: dict[str, Any], refs: list[dict[str, Any]]) -> None:
    """How the answer was found: each document's navigation (its mode, its fallback, a row
    a step) and the calls' token usage. The notes are in the answer's language (the core
    said them so); the headers and modes in the person's."""
    trace = turn.get("trace") or {}
    if trace.get("searched_as") and trace.get("searched_as") != trace.get("question"):
        st.caption(t("chat.searched_as", query=md_escape(trace["searched_as"], 400)))
    multi = len({r.get("doc_id") for r in refs}) > 1
    for entry in trace.get("documents", []):
        name = md_escape(entry.get("file_name")) if multi else t("chat.navigation")
        mode = md_escape(mode_name(entry.get("mode"), language()))
        st.markdown(f"**{name}** — {t('chat.mode', mode=mode)}")
        if entry.get("fallback"):
            st.caption(md_escape(entry["fallback"], 400))
        st.dataframe(trace_rows(entry, refs, language()), hide_index=True)
        st.json(entry.get("steps") or [], expanded=False)
    if turn.get("usage"):
        st.dataframe(usage_rows(turn["usage"], language()), hide_index=True)
