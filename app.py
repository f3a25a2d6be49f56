"""treerag: the Streamlit app's entry point (``streamlit run app.py``).

The app around the pages (settings, the sign-in gate, navigation, sidebar) is
``ui.shell.run_app``; each page in ``pages/`` is thin and calls helpers in ``ui/`` and
``treerag_core``. Configuration comes from the environment (and a ``.env`` file):
TREERAG_REGISTRY, OPENAI_API_KEY, OPENAI_BASE_URL, OLLAMA_HOST, and for team hosting
TREERAG_AUTH and TREERAG_ADMINS (see SECURITY.md).
"""

import importlib
import pkgutil
from collections.abc import Callable

import streamlit as st


@st.cache_resource(show_spinner=False)
def _app() -> Callable[[], None]:
    """The app's modules, imported once per server, by one session while the others wait:
    two people opening pages together on a fresh server imported ``treerag_core`` side by
    side, and one got a partially initialised module (ImportError), the other none
    (KeyError)."""
    import ui

    for module in pkgutil.iter_modules(ui.__path__):
        importlib.import_module(f"ui.{module.name}")
    from ui.shell import run_app

    return run_app


_app()()
