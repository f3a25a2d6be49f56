"""The person's language for the app's own words, and the lookup every page uses.

The language is the one chosen on the Settings page for this session, else the browser's
(``st.context.locale``), else English; the words come from the one catalogue,
:mod:`treerag_core.text.messages`.
"""

from __future__ import annotations

import streamlit as st

from treerag_core.text import LANGUAGE_LABELS, language_of, message

CHOSEN = "ui_language"  # the Settings page's choice: "" (as the browser) or a catalogue code


def browser_language() -> str:
    try:
        return language_of(st.context.locale)
    except Exception:  # no browser behind this run (a test harness): English
        return language_of(None)


def language() -> str:
    """The catalogue language this session's words are in."""
    return st.session_state.get(CHOSEN) or browser_language()


def t(key: str, **values: object) -> str:
    """The message ``key`` in the person's language, ``values`` filled in."""
    return message(key, language(), **values)


def choices() -> list[str]:
    return ["", *LANGUAGE_LABELS]


def choice_label(code: str) -> str:
    if not code:
        return t("settings.language_auto", name=LANGUAGE_LABELS[browser_language()])
    return LANGUAGE_LABELS[code]
