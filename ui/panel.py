"""The node panel of the tree browser: what a section says and where it comes from."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import streamlit as st

from treerag_core import Document
from treerag_core.tree import heading_label, subtree_page_range
from treerag_core.views import node_pages

from . import evidence, state
from .i18n import language, t
from .pdf_pages import can_show_inline, pages_for
from .text import md_escape, plain_label


def _source_pdf(doc: Document, node: Mapping[str, Any]) -> tuple[bytes | None, int, int]:
    """The node's own pages cut out of its PDF (``None`` when not a PDF or the file is gone)."""
    start, end = node.get("page_start"), node.get("page_end")
    if start is None and node.get("children"):
        start, end = subtree_page_range(doc["flat_nodes"], node["node_id"])
    if start is None or doc.get("source_type") != "pdf":
        return None, 0, 0
    end = end or start
    return pages_for(doc, int(start), int(end)), int(start), int(end)


def _show_pdf(doc: Document, node: Mapping[str, Any], data: bytes, start: int, end: int) -> None:
    st.markdown(f"**{t('panel.source_pages')}**")
    if can_show_inline():
        st.pdf(data, height=560)
    name = os.path.splitext(os.path.basename(str(doc.get("file_path") or "source")))[0]
    st.download_button(
        t("panel.source_pdf", start=start, end=end),
        data,
        file_name=f"{name}_p{start}-{end}.pdf",
        mime="application/pdf",
        key=f"pdf_{node['node_id']}",
        on_click="ignore",
    )


def _evidence(doc: Document, node_id: str) -> None:
    """The passage an answer quoted from this section, marked, when it was opened from one."""
    ref = st.session_state.get(state.TREE_EVIDENCE)
    if not ref or ref.get("doc_id") != doc.get("doc_id"):
        return
    quoted = {span.get("node_id") for span in ref.get("spans") or []} | {ref.get("node_id")}
    if node_id not in quoted:
        return
    with st.expander(t("panel.evidence", ref=md_escape(ref.get("ref"))), expanded=True):
        shown, _reason = evidence.pages(doc, ref, evidence.LARGE_ZOOM)
        for page in shown[:2]:
            st.image(
                page.png, caption=t("panel.evidence_page", page=page.page), output_format="PNG"
            )
        if not shown:
            st.markdown(evidence.marked_passage(doc, ref))


def render(doc: Document, node_id: str) -> None:
    """Title, breadcrumb, pages, summary, tags, children, actions and the full text."""
    flat = doc["flat_nodes"]
    node = flat[node_id]
    st.subheader(md_escape(heading_label(node) or node_id, 200))
    st.caption(md_escape(node.get("path") or "", 400))
    pages = node_pages(node, doc.get("page_unit"), language())
    if pages:
        st.markdown(f"**{t('panel.pages')}:** {md_escape(pages)}")
    if node.get("summary"):
        st.markdown(f"**{t('panel.summary')}:** {md_escape(node['summary'], 1000)}")
    if node.get("tags"):
        st.markdown(f"**{t('panel.tags')}:** " + ", ".join(md_escape(g, 60) for g in node["tags"]))
    actions = st.container(horizontal=True)  # wraps: each button as wide as its words
    if actions.button(t("panel.ask"), key="panel_ask", type="primary"):
        context = {"doc_id": doc["doc_id"], "node_id": node_id, "path": node.get("path", "")}
        state.open_in_chat([doc["doc_id"]], context)
    if node.get("children") and actions.button(t("panel.focus"), key="panel_focus"):
        st.session_state[state.TREE_FOCUS] = node_id
        st.session_state[state.TREE_PAGE] = 0
        st.rerun()
    _evidence(doc, node_id)
    children = [c for c in node.get("children", []) if c in flat]
    if children:
        with st.expander(t("panel.children", count=len(children)), expanded=False):
            for child in children[:100]:
                title = plain_label(heading_label(flat[child]) or child)
                if st.button(title, key=f"child_{child}"):
                    st.session_state[state.TREE_SELECTED] = child
                    st.rerun()
    # The section's text above its source pages, so a person can check one against the other.
    st.markdown(f"**{t('panel.full_text')}**")
    with st.container(height=320):
        st.text(node.get("text") or t("panel.no_text"))
    data, start, end = _source_pdf(doc, node)
    if data:
        _show_pdf(doc, node, data, start, end)
