"""The node panel of the tree browser: what a section says and where it comes from."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import streamlit as st

from treerag_core.tree import subtree_page_range
from treerag_core.tree_view import page_label
from treerag_core.types import Document

from . import state
from .pdf_pages import can_show_inline, pages_for
from .text import md_escape, plain_label


def _pdf_pages(doc: Document, node: Mapping[str, Any]) -> None:
    start, end = node.get("page_start"), node.get("page_end")
    if start is None and node.get("children"):
        start, end = subtree_page_range(doc["flat_nodes"], node["node_id"])
    if start is None:
        return
    end = end or start
    path = str(doc.get("file_path") or "")
    data = pages_for(path, int(start), int(end)) if doc.get("source_type") == "pdf" else None
    if data is None:
        st.caption(f"Source pages: {page_label({'page_start': start, 'page_end': end})}")
        return
    if can_show_inline():
        st.pdf(data, height=500)
    st.download_button(
        f"Source pages {start}–{end} (PDF)",
        data,
        file_name=f"{os.path.splitext(os.path.basename(path))[0]}_p{start}-{end}.pdf",
        mime="application/pdf",
        key=f"pdf_{node['node_id']}",
    )


def render(doc: Document, node_id: str) -> None:
    """Title, breadcrumb, pages, summary, tags, children, actions and the full text."""
    flat = doc["flat_nodes"]
    node = flat[node_id]
    st.subheader(md_escape(node.get("title") or node_id, 200))
    st.caption(md_escape(node.get("path") or "", 400))
    pages = page_label(node)
    if pages:
        st.markdown(f"**Pages:** {md_escape(pages)}")
    if node.get("summary"):
        st.markdown(f"**Summary:** {md_escape(node['summary'], 1000)}")
    if node.get("tags"):
        st.markdown("**Tags:** " + ", ".join(md_escape(t, 60) for t in node["tags"]))
    act1, act2 = st.columns(2)
    if act1.button("Ask about this section", key="panel_ask", type="primary"):
        context = {"doc_id": doc["doc_id"], "node_id": node_id, "path": node.get("path", "")}
        state.open_in_chat([doc["doc_id"]], context)
    if node.get("children") and act2.button("Focus on this section", key="panel_focus"):
        st.session_state[state.TREE_FOCUS] = node_id
        st.session_state[state.TREE_PAGE] = 0
        st.rerun()
    _pdf_pages(doc, node)
    children = [c for c in node.get("children", []) if c in flat]
    if children:
        with st.expander(f"Children ({len(children)})", expanded=False):
            for child in children[:100]:
                if st.button(plain_label(flat[child].get("title") or child), key=f"child_{child}"):
                    st.session_state[state.TREE_SELECTED] = child
                    st.rerun()
    st.markdown("**Full text**")
    with st.container(height=320):
        st.text(node.get("text") or "(This heading has no text of its own.)")
