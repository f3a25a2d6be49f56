"""treerag: the Streamlit app's entry point (``streamlit run app.py``).

The app around the pages (settings, the sign-in gate, navigation, sidebar) is
``ui.shell.run_app``; each page in ``pages/`` is thin and calls helpers in ``ui/`` and
``treerag_core``. Configuration comes from the environment (and a ``.env`` file):
TREERAG_REGISTRY, OPENAI_API_KEY, OPENAI_BASE_URL, OLLAMA_HOST, and for team hosting
TREERAG_AUTH and TREERAG_ADMINS (see SECURITY.md).
"""

from ui.shell import run_app

run_app()
