"""treerag: the Streamlit app's entry point (``streamlit run app.py``).

Only navigation, the sign-in gate and session defaults live here; each page in ``views/``
is thin and calls helpers in ``ui/`` and ``treerag_core``. Configuration comes from the
environment (and a ``.env`` file): TREERAG_REGISTRY, OPENAI_API_KEY, OPENAI_BASE_URL,
OLLAMA_HOST, and for team hosting TREERAG_AUTH and TREERAG_ADMINS (see SECURITY.md).
"""

from __future__ import annotations

import os

import streamlit as st
from dotenv import dotenv_values

from ui import identity, state
from ui.engine import engine_label
from ui.errors import message_for
from ui.text import md_escape


@st.cache_resource(show_spinner=False)
def dotenv_registry() -> str | None:
    """TREERAG_REGISTRY from ``.env`` (read once; the environment wins over it)."""
    return dotenv_values(".env").get("TREERAG_REGISTRY") if os.path.isfile(".env") else None


st.set_page_config(page_title="treerag", page_icon=":material/account_tree:", layout="wide")
env = dict(os.environ)
if not env.get("TREERAG_REGISTRY") and dotenv_registry():
    env["TREERAG_REGISTRY"] = str(dotenv_registry())
state.init_state(env)
auth, principal = identity.gate()  # team modes: a sign-in or refusal page for nobody
admin = principal is None or principal.admin

views = [
    st.Page(state.PAGE_UPLOAD, title="Upload & index", icon=":material/upload_file:", default=True),
    st.Page(state.PAGE_TREE, title="Tree browser", icon=":material/account_tree:", url_path="tree"),
    st.Page(state.PAGE_CHAT, title="Chat", icon=":material/chat:", url_path="chat"),
    st.Page(
        state.PAGE_REGISTRY, title="Registry", icon=":material/inventory_2:", url_path="registry"
    ),
    st.Page(
        state.PAGE_EVALUATE, title="Evaluate", icon=":material/fact_check:", url_path="evaluate"
    ),
]
if admin:  # in a team deployment, only admins change the engine and the registry file
    views.append(
        st.Page(
            state.PAGE_SETTINGS, title="Settings", icon=":material/settings:", url_path="settings"
        )
    )
if principal is not None and principal.admin:
    views.append(
        st.Page(
            state.PAGE_ACCESS, title="Access", icon=":material/shield_person:", url_path="access"
        )
    )
page = st.navigation(views)

with st.sidebar:
    identity.sidebar(principal, auth)
    try:
        st.caption(f"Engine: {md_escape(engine_label())}")
    except Exception as exc:  # a bad provider setting must not break every page
        st.caption(f"Engine: not configured ({md_escape(message_for(exc), 120)})")
    if admin:
        st.caption(f"Registry: {md_escape(state.registry_path())}")

page.run()
