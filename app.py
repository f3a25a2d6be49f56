"""treerag: placeholder page listing the registry until the full app lands."""

import os

import streamlit as st

from treerag_core import TreeragError, list_documents

st.set_page_config(page_title="treerag", layout="wide")
st.title("treerag")
registry = os.environ.get("TREERAG_REGISTRY", "indexed_docs.json")
try:
    rows = list_documents(registry)
except TreeragError as exc:
    st.error(str(exc))
    rows = []
st.write(f"{len(rows)} documents in {registry}")
st.dataframe(
    [{k: r.get(k) for k in ("file_name", "total_sections", "indexed_at")} for r in rows],
    use_container_width=True,
)
