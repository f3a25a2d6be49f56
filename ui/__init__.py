"""The Streamlit layer's helpers: small, testable functions the thin pages call.

Nothing in ``treerag_core`` imports from here; everything Streamlit-specific lives here or
in ``views/``.
"""
