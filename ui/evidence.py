"""Evidence: each cited page with the quoted passage highlighted.

PDF sources show the real page: thumbnails under the answer (a grid of equal tiles), and
large in the evidence pane beside the chat on a wide window (in a dialog on a narrow one)
when a citation marker or a thumbnail is clicked; the pane keeps the last source opened
while the conversation goes on. Other sources show the section text with the passage
marked, through escaped Markdown highlight syntax, never raw HTML.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import streamlit as st

from treerag_core import Document
from treerag_core.errors import EvidenceUnavailableError
from treerag_core.evidence import EvidencePage, crop_to_evidence, render_evidence, sentence_offsets
from treerag_core.tree import page_label
from treerag_core.views import evidence_caption

from . import docs, state
from .errors import shown_errors
from .i18n import language, t
from .text import md_escape

THUMB_ZOOM = 0.6  # the highlighted part of the page, cropped, stays legible
THUMB_ASPECT = 16 / 9  # every thumbnail the same shape: a grid of equal tiles
LARGE_ZOOM = 1.4
PANE_MARGIN = 160  # page above and below the passage in the pane (pixels at LARGE_ZOOM)
# The pane stays in view while the conversation beside it scrolls.
PANE_CSS = (
    "<style>[data-testid='stColumn']:has(> div > .st-key-evidence_pane) {align-self: flex-start;"
    " position: sticky; top: 3.5rem;}</style>"
)
THUMBS_PER_ROW = 3
MAX_THUMBS = 8
CONTEXT_CHARS = 500  # section text shown around a marked passage
EVIDENCE_AT = "evidence_at"  # (turn index, position in the answer's cited pages)
OPEN = "evidence_open"  # what the pane shows: {"turn", "ref", "page"} (kept across turns)
PANE = "evidence_pane"  # the pane's container key (its CSS class: st-key-evidence_pane)
# Our pages are PNG: said so, Streamlit sends them as they are; left to guess, it decodes
# each one and encodes it again as JPEG on every rerun (blurrier text, and CPU per tile).
PNG = "PNG"


def pages(document: Document, ref: dict[str, Any], zoom: float) -> tuple[list[EvidencePage], str]:
    """The rendered pages, or none and the reason (a missing source, a non-PDF source), kept
    across reruns and sessions: the store's render cache still reads the whole source file
    and decodes each page's PNG, and a rerun asks again for every tile of every earlier
    answer (a sixth of a long conversation's rerun). Keyed by the document's content and
    the reference's highlights; the document was loaded, access checked, by the caller."""
    drawn = [ref.get(k) for k in ("highlights", "sentence_highlights", "page_start")]
    key = json.dumps(  # the reason is in the person's language
        [document.get("doc_id"), document.get("content_hash"), drawn, zoom, language()],
        default=str,
    )
    return _pages(key, str(state.registry_setting()), document, ref, zoom)


@st.cache_resource(max_entries=256, show_spinner=False)
def _pages(
    key: str, registry: str, _document: Document, _ref: dict[str, Any], zoom: float
) -> tuple[list[EvidencePage], str]:
    try:
        return render_evidence(_document, _ref, state.registry_path(), zoom=zoom), ""
    except EvidenceUnavailableError as exc:
        return [], str(exc)


def cropped(
    page: EvidencePage, margin: int = 48, aspect: float | None = None, full_width: bool = False
) -> bytes:
    """The page cropped round its passage, as PNG (:func:`crop_to_evidence`), kept across
    reruns and sessions: every rerun draws each earlier answer's tiles again, and decoding,
    cropping and encoding every tile's PNG each time was a quarter of the chat page's CPU
    in a long conversation (py-spy, 12 questions). Keyed by a digest of the page and its
    boxes: Streamlit's own hashing of hundreds of word boxes cost more than the digest."""
    drawn = repr((page.boxes, page.sentence_boxes)).encode()
    key = hashlib.blake2b(page.png + drawn, digest_size=16).hexdigest()
    return _crop(key, page, margin, aspect, full_width)


@st.cache_data(max_entries=256, show_spinner=False)
def _crop(
    key: str, _page: EvidencePage, margin: int, aspect: float | None, full_width: bool
) -> bytes:
    return crop_to_evidence(_page, margin, aspect, full_width).png


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


def thumbnails(turn_index: int, refs: list[dict[str, Any]], wide: bool = True) -> None:
    """A tile for each cited page (or a line of its text), all the same width and shape,
    captioned ``S3 · Item 7 › Liquidity, p. 45``; each opens its page in the pane (wide
    window) or the dialog (narrow)."""
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
            caption = evidence_caption(ref, image.page if image is not None else page, language())
            if image is not None:
                st.image(
                    cropped(image, aspect=THUMB_ASPECT),
                    caption=caption,
                    width="stretch",
                    output_format=PNG,
                )
            else:
                st.caption(md_escape(caption, 200))
            label = t("evidence.view", ref=ref.get("ref")) + (
                f", {page_label(page, None, ref.get('page_unit'), language())}" if page else ""
            )
            if st.button(label, key=f"evidence_{turn_index}_{position}", icon=":material/zoom_in:"):
                show(turn_index, str(ref.get("ref")), page, wide)


def show(turn_index: int, ref: str, page: int | None, wide: bool) -> None:
    """Open one cited page: in the pane (the whole page reruns to draw it) or the dialog."""
    st.session_state[OPEN] = {"turn": turn_index, "ref": ref, "page": page}
    if wide:
        st.rerun()
    refs = _turn_refs(turn_index)
    stops = _cited_pages(refs)
    position = next(
        (n for n, (i, p) in enumerate(stops) if refs[i].get("ref") == ref and page in (None, p)),
        0,
    )
    st.session_state[EVIDENCE_AT] = (turn_index, position)
    evidence_dialog(refs)


def _turn_refs(turn_index: int) -> list[dict[str, Any]]:
    thread = st.session_state.get(state.CHAT_THREAD) or {}
    turns = thread.get("turns") or []
    if not 0 <= turn_index < len(turns):
        return []
    return [r for r in turns[turn_index].get("references") or [] if not r.get("gone")]


def opened_ref() -> tuple[dict[str, Any], int | None] | None:
    """The reference the pane shows and its page, if it is still in the open thread."""
    opened = st.session_state.get(OPEN) or {}
    for ref in _turn_refs(int(opened.get("turn", -1))):
        if ref.get("ref") == opened.get("ref"):
            page = opened.get("page")
            if page is None:
                page = next((h["page"] for h in ref.get("highlights") or [] if "page" in h), None)
            return ref, page
    return None


def pane() -> None:
    """The evidence pane beside the chat: the last opened cited page, large, with its
    passage highlighted, and the way to its section in the tree."""
    st.html(PANE_CSS)
    with st.container(key=PANE, border=True):
        st.subheader(t("evidence.title"))
        chosen = opened_ref()
        if chosen is None:
            st.caption(t("evidence.empty"))
            return
        ref, page = chosen
        document = docs.load(str(ref["doc_id"]))
        st.markdown(f"**{md_escape(evidence_caption(ref, page, language()), 300)}**")
        shown, reason = pages(document, ref, LARGE_ZOOM)
        image = next((p for p in shown if p.page == page), shown[0] if shown else None)
        if image is not None:
            where = page_label(image.page, None, document.get("page_unit"), language())
            st.image(
                cropped(image, PANE_MARGIN, full_width=True), width="stretch", output_format=PNG,
                caption=f"{document.get('file_name')}, {where}",
            )  # fmt: skip
            with st.expander(t("evidence.whole_page")):
                st.image(image.png, width="stretch", output_format=PNG)
        elif reason and document.get("source_type") == "pdf":
            st.warning(reason)
        with st.expander(t("evidence.passage"), expanded=image is None):
            st.markdown(marked_passage(document, ref) or md_escape(ref.get("title")))
        if st.button(t("evidence.open_tree"), key="pane_tree", icon=":material/account_tree:"):
            state.open_in_tree(str(ref["doc_id"]), str(ref["node_id"]), evidence=ref)


def evidence_dialog(refs: list[dict[str, Any]]) -> None:
    """One cited page, large, with the passage beside it; steps through the answer's pages
    (a dialog titled in the person's language, so made here, not at import)."""
    st.dialog(t("evidence.title"), width="large")(_dialog)(refs)


def _dialog(refs: list[dict[str, Any]]) -> None:
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
            where = page_label(image.page, None, document.get("page_unit"), language())
            st.image(image.png, caption=f"{document.get('file_name')}, {where}", output_format=PNG)
        elif reason and document.get("source_type") == "pdf":
            st.warning(reason)
    with text_col:
        st.caption(t("evidence.passage"))
        with st.container(height=520):
            st.markdown(marked_passage(document, ref) or md_escape(ref.get("title")))
    back, ahead, tree = st.columns(3)
    if back.button(t("evidence.previous"), disabled=position == 0, key="evidence_back"):
        st.session_state[EVIDENCE_AT] = (turn, position - 1)
        st.rerun(scope="fragment")
    if ahead.button(t("evidence.next"), disabled=position >= len(stops) - 1, key="evidence_ahead"):
        st.session_state[EVIDENCE_AT] = (turn, position + 1)
        st.rerun(scope="fragment")
    if tree.button(t("evidence.open_tree"), key="evidence_tree", icon=":material/account_tree:"):
        state.open_in_tree(str(ref["doc_id"]), str(ref["node_id"]), evidence=ref)
