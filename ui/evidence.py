"""Evidence under an answer: each cited page with the quoted passage highlighted.

PDF sources show the real page (a thumbnail under the answer, large in a dialog with the
passage beside it); other sources show the section text with the passage marked, through
escaped Markdown highlight syntax, never raw HTML.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from treerag_core import Document
from treerag_core.errors import EvidenceUnavailableError
from treerag_core.evidence import EvidencePage, crop_to_evidence, render_evidence, sentence_offsets
from treerag_core.tree import page_label

from . import docs, state
from .errors import shown_errors
from .text import md_escape

THUMB_ZOOM = 0.6  # the highlighted part of the page, cropped, stays legible
LARGE_ZOOM = 1.4
THUMBS_PER_ROW = 4
MAX_THUMBS = 8
CONTEXT_CHARS = 500  # section text shown around a marked passage
EVIDENCE_AT = "evidence_at"  # (turn index, position in the answer's cited pages)


def pages(document: Document, ref: dict[str, Any], zoom: float) -> tuple[list[EvidencePage], str]:
    """The rendered pages, or none and the reason (a missing source, a non-PDF source)."""
    try:
        return render_evidence(document, ref, state.registry_path(), zoom=zoom), ""
    except EvidenceUnavailableError as exc:
        return [], str(exc)


def marked_passage(document: Document, ref: dict[str, Any]) -> str:
    """The quoted passage marked inside its section text (Markdown, every character escaped)."""
    flat = document.get("flat_nodes") or {}
    spans = sentence_offsets(document, ref) or ref.get("spans") or []
    parts = []
    for span in spans[:3]:
        text = str((flat.get(span.get("node_id")) or {}).get("text") or "")
        start, end = int(span["start"]), int(span["end"])
        before = text[max(0, start - CONTEXT_CHARS) : start]
        after = text[end : end + CONTEXT_CHARS]
        parts.append(
            ("… " if start > CONTEXT_CHARS else "")
            + md_escape(before)
            + f" :orange-background[{md_escape(text[start:end])}] "
            + md_escape(after)
            + (" …" if end + CONTEXT_CHARS < len(text) else "")
        )
    return "\n\n".join(parts)


def _cited_pages(refs: list[dict[str, Any]]) -> list[tuple[int, int | None]]:
    """(reference index, page) for every page an answer's cited references highlight."""
    out: list[tuple[int, int | None]] = []
    for index, ref in enumerate(refs):
        if not ref.get("cited", True):
            continue
        highlighted = [h["page"] for h in ref.get("highlights") or [] if "page" in h]
        out += [(index, page) for page in highlighted] or [(index, None)]
    return out


def thumbnails(turn_index: int, refs: list[dict[str, Any]]) -> None:
    """A thumbnail of each cited page (or a line of its text), each opening the dialog."""
    stops = _cited_pages(refs)[:MAX_THUMBS]
    if not stops:
        return
    cols = st.columns(THUMBS_PER_ROW)
    for position, (index, page) in enumerate(stops):
        ref = refs[index]
        with cols[position % THUMBS_PER_ROW]:
            document = docs.load(str(ref["doc_id"]))
            shown, _reason = pages(document, ref, THUMB_ZOOM)
            image = next((p for p in shown if p.page == page), shown[0] if shown else None)
            if image is not None:
                where = page_label(image.page, None, ref.get("page_unit"))
                st.image(crop_to_evidence(image).png, caption=f"{ref.get('ref')} · {where}")
            label = f"View {ref.get('ref')}" + (
                f", {page_label(page, None, ref.get('page_unit'))}" if page else ""
            )
            if st.button(label, key=f"evidence_{turn_index}_{position}", icon=":material/zoom_in:"):
                st.session_state[EVIDENCE_AT] = (turn_index, position)
                evidence_dialog(refs)


@st.dialog("Evidence", width="large")
def evidence_dialog(refs: list[dict[str, Any]]) -> None:
    """One cited page, large, with the passage beside it; steps through the answer's pages."""
    with shown_errors():
        _dialog_body(refs)


def _dialog_body(refs: list[dict[str, Any]]) -> None:
    stops = _cited_pages(refs)
    turn, position = st.session_state.get(EVIDENCE_AT) or (0, 0)
    position = min(max(0, position), len(stops) - 1)
    index, page = stops[position]
    ref = refs[index]
    document = docs.load(str(ref["doc_id"]))
    st.markdown(f"**{md_escape(ref.get('ref'))} · {md_escape(ref.get('path'), 300)}**")
    image_col, text_col = st.columns([3, 2])
    with image_col:
        shown, reason = pages(document, ref, LARGE_ZOOM)
        image = next((p for p in shown if p.page == page), shown[0] if shown else None)
        if image is not None:
            where = page_label(image.page, None, document.get("page_unit"))
            st.image(image.png, caption=f"{document.get('file_name')}, {where}")
        elif reason and document.get("source_type") == "pdf":
            st.warning(reason)
    with text_col:
        st.caption("The passage the answer quoted")
        with st.container(height=520):
            st.markdown(marked_passage(document, ref) or md_escape(ref.get("title")))
    back, ahead, tree = st.columns(3)
    if back.button("Previous cited page", disabled=position == 0, key="evidence_back"):
        st.session_state[EVIDENCE_AT] = (turn, position - 1)
        st.rerun(scope="fragment")
    if ahead.button("Next cited page", disabled=position >= len(stops) - 1, key="evidence_ahead"):
        st.session_state[EVIDENCE_AT] = (turn, position + 1)
        st.rerun(scope="fragment")
    if tree.button("Open in tree", key="evidence_tree", icon=":material/account_tree:"):
        state.open_in_tree(str(ref["doc_id"]), str(ref["node_id"]), evidence=ref)
