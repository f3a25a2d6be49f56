"""Sources (admins): the folders and buckets the library follows, their last sync and
failed files; add, edit, sync now, remove."""

from __future__ import annotations

import streamlit as st

from ui import sources_view, state
from ui.errors import shown_errors
from ui.i18n import t


def main() -> None:
    st.title(t("src.title"))
    st.caption(t("src.caption"))
    sources_view.last_report()
    listed = sources_view.sources()
    if not listed:
        st.info(t("src.none"))
    for source in listed:
        sources_view.source_card(source)
    sources_view.add_form()


state.require_app()
with shown_errors():
    main()
