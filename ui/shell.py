"""The app around every page: settings, sign-in gate, navigation and sidebar.

``app.py`` runs it; a page file run on its own by Streamlit's legacy ``pages/`` mode runs it
too (see :func:`ui.state.require_app`), so no page is ever shown outside it.
"""

from __future__ import annotations

import streamlit as st

from . import identity, state
from .engine import engine_label
from .errors import message_for
from .i18n import t
from .text import md_escape


def run_app() -> None:
    state.page_config()
    state.init_state()
    auth, principal = identity.gate()  # team modes: a sign-in or refusal page for nobody
    admin = principal is None or principal.admin
    page = st.navigation(
        state.app_pages(settings=admin, access=principal is not None and principal.admin)
    )
    state.note_page(page.url_path)
    with st.sidebar:
        identity.sidebar(principal, auth)
        try:
            st.caption(t("sidebar.engine", engine=md_escape(engine_label())))
        except Exception as exc:  # a bad provider setting must not break every page
            st.caption(t("sidebar.engine_bad", reason=md_escape(message_for(exc), 120)))
    page.run()
