"""Tree browser: the hierarchy as a clickable graph, a text outline, search and a node panel."""

from __future__ import annotations

import streamlit as st
from streamlit_agraph import agraph

from treerag_core.views import hit_label, outline_rows, search_nodes
from ui import docs, panel, state
from ui.errors import shown_errors
from ui.graph import graph_elements
from ui.i18n import language, t
from ui.text import md_escape, plain_label
from ui.tree_logic import (
    MAX_DRAWN,
    apply_click,
    breadcrumb,
    follow_address,
    keep_address,
    structure_note,
    visible_slice,
)

ss = st.session_state
GRAPH_HEIGHT = 520  # fixed, so the panel beside it stays in view
GRAPH_WIDTH = 460  # the left column (3/5 of a 1280 px page beside the sidebar, ≈476 px)
OUTLINE_HEIGHT = 320


def _pick_document() -> str | None:
    listing = docs.rows()
    if not listing:
        st.info(t("tree.no_documents"))
        return None
    ids = [r["doc_id"] for r in listing]
    labels = {r["doc_id"]: docs.label(r) for r in listing}
    follow_address(ss, st.query_params, ids)
    if ss.get(state.TREE_DOC) not in ids:
        ss[state.TREE_DOC] = ids[0]
    on_change = state.bind(state.TREE_DOC, "tree_doc_pick")

    def changed() -> None:
        on_change()
        ss[state.TREE_FOCUS] = ss[state.TREE_SELECTED] = ss[state.TREE_LAST_CLICK] = None
        ss[state.TREE_PAGE] = 0

    st.selectbox(
        t("tree.document"),
        ids,
        format_func=lambda i: labels[i],
        key="tree_doc_pick",
        on_change=changed,
    )
    return ss[state.TREE_DOC]


def _search(flat: dict, unit: str | None) -> None:
    query = st.text_input(t("tree.search"), key="tree_search")
    if not query.strip():
        return
    hits = search_nodes(flat, query, limit=12)
    if not hits:
        st.caption(t("tree.no_hit"))
    for nid, where in hits:
        title = plain_label(hit_label(flat, nid, unit, language()) or nid, 90)
        if st.button(f"{title} · {where}", key=f"hit_{nid}"):
            ss[state.TREE_SELECTED] = nid
            st.rerun()


def _breadcrumb(flat: dict, focus: str | None) -> None:
    crumbs = breadcrumb(flat, focus, t("tree.all_sections"))
    cols = st.columns(min(len(crumbs), 6))
    for i, (nid, title) in enumerate(crumbs[-6:]):
        if cols[i].button(plain_label(title, 28), key=f"crumb_{i}", disabled=nid == focus):
            ss[state.TREE_FOCUS] = nid
            ss[state.TREE_PAGE] = 0
            st.rerun()


def _pager(view) -> None:
    if view.pages <= 1:
        return
    left, mid, right = st.columns([1, 3, 1])
    if left.button(t("tree.previous"), key="tree_prev", disabled=view.page == 0):
        ss[state.TREE_PAGE] = view.page - 1
        st.rerun()
    mid.caption(t("tree.group", page=view.page + 1, pages=view.pages))
    if right.button(t("tree.next"), key="tree_next", disabled=view.page >= view.pages - 1):
        ss[state.TREE_PAGE] = view.page + 1
        st.rerun()


def _outline(flat: dict, view, unit: str | None) -> None:
    """The drawn slice as an indented, left-aligned table of contents (one choice)."""
    rows = outline_rows(flat, view, unit)
    labels = {nid: "\u2003" * indent + plain_label(text, 90) for nid, indent, text in rows}
    ids = list(labels)
    selected = ss.get(state.TREE_SELECTED)
    ss["tree_outline_pick"] = selected if selected in labels else None

    def picked() -> None:
        if ss.get("tree_outline_pick"):
            ss[state.TREE_SELECTED] = ss["tree_outline_pick"]

    with st.container(height=OUTLINE_HEIGHT):
        st.radio(
            t("tree.outline"), ids, format_func=labels.__getitem__, key="tree_outline_pick",
            on_change=picked, label_visibility="collapsed",
        )  # fmt: skip


def main() -> None:
    st.title(t("tree.title"))
    doc_id = _pick_document()
    if not doc_id:
        return
    doc = docs.load(doc_id)
    flat = doc.get("flat_nodes") or {}
    if not flat:
        st.warning(t("tree.no_sections"))
        return
    st.caption(structure_note(doc, language()))
    # Search and depth side by side: the graph starts higher, in view on a laptop's screen.
    search, depth = st.columns([3, 2], gap="medium")
    on_depth = state.bind(state.TREE_DEPTH, "tree_depth_pick")
    depth.slider(t("tree.depth"), 1, 8, key="tree_depth_pick", on_change=on_depth)
    with search:
        _search(flat, doc.get("page_unit"))
    selected = ss.get(state.TREE_SELECTED) if ss.get(state.TREE_SELECTED) in flat else None
    view, focus = visible_slice(
        flat, ss.get(state.TREE_FOCUS), ss[state.TREE_DEPTH], selected, ss[state.TREE_PAGE]
    )
    ss[state.TREE_FOCUS], ss[state.TREE_PAGE] = focus, view.page
    _breadcrumb(flat, focus)
    _pager(view)
    # The graph and its outline on the left, the chosen section beside them: a click's
    # result is seen at once, without scrolling past the graph.
    left, right = st.columns([3, 2], gap="medium")
    with left:
        nodes, edges, config = graph_elements(
            flat, view, selected, width=GRAPH_WIDTH, height=GRAPH_HEIGHT,
            unit=doc.get("page_unit"), language=language(),
        )  # fmt: skip
        clicked = agraph(nodes=nodes, edges=edges, config=config)
        if apply_click(ss, clicked, flat, view):
            st.rerun()
        note = t("tree.showing", shown=len(view.node_ids), total=len(flat))
        if view.truncated:
            note += t("tree.truncated", most=MAX_DRAWN)
        st.caption(note + t("tree.click_hint"))
        _outline(flat, view, doc.get("page_unit"))
    keep_address(ss, st.query_params, doc_id, selected)
    with right:
        if selected:
            with st.container(border=True):
                panel.render(doc, selected)
        else:
            st.info(t("tree.select", name=md_escape(doc.get("file_name"))))


state.require_app()
with shown_errors():
    main()
