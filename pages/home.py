"""Home: the library. What the person can read (searchable), recent conversations, a
question to the whole library, and adding documents; an empty library shows a welcome and a
sample to try the app with."""

from __future__ import annotations

import streamlit as st

from ui import docs, home, state
from ui.errors import shown_errors
from ui.i18n import t


def main() -> None:
    st.title(t("home.title"))
    rows = docs.rows()
    if not rows:
        home.welcome()
        return
    home.add_documents()
    home.ask_box()
    home.listing(rows)
    st.subheader(t("home.recent"))
    home.recent_conversations()


state.require_app()
with shown_errors():
    main()
