"""treerag: the Streamlit app's entry point (``streamlit run app.py``).

Only navigation and session defaults live here; each page in ``pages/`` is thin and calls
helpers in ``ui/`` and ``treerag_core``. Configuration comes from the environment (and a
``.env`` file): TREERAG_REGISTRY, OPENAI_API_KEY, OPENAI_BASE_URL, OLLAMA_HOST.
"""

from __future__ import annotations

import os

import streamlit as st
from dotenv import dotenv_values

from ui import state
from ui.engine import engine_label
from ui.errors import message_for
from ui.text import md_escape


@st.cache_resource(show_spinner=False)
def dotenv_registry() -> str | None:
    """TREERAG_REGISTRY from ``.env`` (read once; the environment wins over it)."""
    return dotenv_values(".env").get("TREERAG_REGISTRY") if os.path.isfile(".env") else None


state.page_config()
env = dict(os.environ)
if not env.get("TREERAG_REGISTRY") and dotenv_registry():
    env["TREERAG_REGISTRY"] = str(dotenv_registry())
state.init_state(env)

page = st.navigation(state.app_pages())

with st.sidebar:
    try:
        st.caption(f"Engine: {md_escape(engine_label())}")
    except Exception as exc:  # a bad provider setting must not break every page
        st.caption(f"Engine: not configured ({md_escape(message_for(exc), 120)})")
    st.caption(f"Registry: {md_escape(state.registry_path())}")

page.run()
