"""treerag: the Streamlit app's entry point (``streamlit run app.py``).

The app around the pages (settings, the sign-in gate, navigation, sidebar) is
``ui.shell.run_app``; each page in ``pages/`` is thin and calls helpers in ``ui/`` and
``treerag_core``. Configuration comes from the environment (and a ``.env`` file):
TREERAG_REGISTRY, OPENAI_API_KEY, OPENAI_BASE_URL, OLLAMA_HOST, and for team hosting
TREERAG_AUTH and TREERAG_ADMINS (see SECURITY.md).
"""

import gc
import importlib
import pkgutil
from collections.abc import Callable

import streamlit as st

# The server's young-object collection threshold (CPython's default: 700). Indexing a filing
# and answering allocate many short-lived lists and dicts and no cycles worth finding that
# soon; collected every 700 they cost a tenth of the indexing's CPU, mostly in the older
# generations' walks that every tenth young collection brings (bench.load --cold).
GC_YOUNG_THRESHOLD = 20_000


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

    # What the imports made lives as long as the server: frozen, it is no longer walked by
    # every full collection (a server process's garbage collector, not the library's).
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    return run_app


_app()()
