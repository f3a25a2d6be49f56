"""Tree-browser state transitions, kept out of the page so they are testable."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from treerag_core import FlatNode
from treerag_core.text import message
from treerag_core.tree import heading_label
from treerag_core.views import (
    MAX_DRAWN_NODES,
    TreeSlice,
    ancestors,
    root_ids,
    source_name,
    tree_slice,
)

MAX_DRAWN = MAX_DRAWN_NODES
PAGE_SIZE = 12
# Parents are opened while the next level stays within this many nodes (the others show
# +N): about 56 px per node keeps labels readable in the ~900 px canvas.
MAX_LEVEL_WIDTH = 16


def visible_slice(
    flat: Mapping[str, FlatNode],
    focus: str | None,
    depth: int,
    selected: str | None,
    page: int = 0,
) -> tuple[TreeSlice, str | None]:
    """The slice to draw and the focus used; the selected node is always kept visible.

    If the selected node (from a reference, a search or the outline) is outside the
    focused, depth-limited, paged slice, the view moves to its parent and its page.
    """
    if focus not in flat:
        focus = None
    view = tree_slice(flat, focus, depth, MAX_DRAWN, page, PAGE_SIZE, MAX_LEVEL_WIDTH)
    if selected in flat and selected not in view.node_ids:
        parent = flat[selected].get("parent_id")
        focus = parent if parent in flat else None
        siblings = list(flat[parent].get("children") or []) if focus else root_ids(flat)
        page = siblings.index(selected) // PAGE_SIZE if selected in siblings else 0
        view = tree_slice(flat, focus, max(depth, 2), MAX_DRAWN, page, PAGE_SIZE, MAX_LEVEL_WIDTH)
    return view, focus


def apply_click(
    ss: Any, clicked: str | None, flat: Mapping[str, FlatNode], view: TreeSlice
) -> bool:
    """Handle agraph's return value; True if the selection changed.

    agraph returns the last clicked id on every rerun, so only a *new* value counts.
    Clicking a node whose children are hidden also drills down into it.
    """
    if not clicked or clicked == ss.get("tree_last_click") or clicked not in flat:
        return False
    ss["tree_last_click"] = clicked
    ss["tree_selected"] = clicked
    if view.hidden_children.get(clicked) and clicked != ss.get("tree_focus"):
        ss["tree_focus"] = clicked
        ss["tree_page"] = 0
    return True


def breadcrumb(
    flat: Mapping[str, FlatNode], focus: str | None, top: str = "All sections"
) -> list[tuple[str | None, str]]:
    """``(focus id, title)`` pairs from ``top`` (all sections) down to the current focus."""
    crumbs: list[tuple[str | None, str]] = [(None, top)]
    if focus in flat:
        crumbs += [(nid, heading_label(flat[nid]) or nid) for nid in ancestors(flat, focus)]
    return crumbs


def source_facts(doc: Mapping[str, Any], language: str | None = None) -> list[str]:
    """What the file says about itself: an e-book's authors, a message's sender, recipients
    and date, a mailbox's size (the title is the page's own), in ``language``."""
    meta = doc.get("metadata") or {}
    facts = []
    if meta.get("authors"):
        facts.append(message("tree.by", language, authors=", ".join(map(str, meta["authors"]))))
    for key, said in (("from", "from"), ("to", "to"), ("cc", "cc"), ("date", "sent")):
        if meta.get(key):
            facts.append(message(f"tree.{said}", language, value=meta[key]))
    if meta.get("messages"):
        facts.append(message("tree.messages", language, count=f"{meta['messages']:,}"))
    return facts


def _parts_note(doc: Mapping[str, Any], language: str | None) -> str:
    """Which parts came from where, when more than one source made the tree: " (43 from
    bookmarks, 120 from typography, 12 pieces cut for size)"."""
    parts = dict(doc.get("structure_parts") or {})
    if len(parts) < 2:
        return ""
    pieces = parts.pop("pieces cut for size", 0)
    said = [
        message("tree.part_from", language, count=f"{n:,}", source=source_name(name, language))
        for name, n in parts.items()
        if n
    ]
    said += [message("tree.pieces_cut", language, count=f"{pieces:,}")] if pieces else []
    return f" ({', '.join(said)})"


def structure_note(doc: Mapping[str, Any], language: str | None = None) -> str:
    """Where the tree came from, for the caption under the title (in ``language``): a tree
    from bookmarks is the author's, one read from a printed contents or from typography is
    the reader's."""
    source = source_name(doc.get("structure_source"), language)
    pages = doc.get("total_pages")
    sections = doc.get("total_sections") or len(doc.get("flat_nodes") or {})

    def said(key: str, **values: object) -> str:
        return message(key, language, **values)

    parts = [
        *source_facts(doc, language),
        said("tree.structure_from", source=source) + _parts_note(doc, language),
        said("tree.sections", count=f"{sections:,}"),
    ]
    if pages:
        unit = doc.get("page_unit") or "page"
        known = unit in ("page", "slide", "sheet")
        parts.append(
            said(f"tree.pages.{unit}", count=f"{pages:,}") if known else f"{pages:,} {unit}s"
        )
    if doc.get("ocr_pages"):
        ocr_language = f" ({doc['ocr_language']})" if doc.get("ocr_language") else ""
        parts.append(said("tree.ocr", count=f"{doc['ocr_pages']:,}") + ocr_language)
    check = doc.get("structure_check") or {}
    if check.get("error"):
        parts.append(said("tree.check_failed"))
    elif check:
        set_aside = len(check.get("set_aside") or [])
        parts.append(said("tree.check_set_aside", count=set_aside, asked=check.get("asked", 0)))
    fallbacks = int(doc.get("summary_fallbacks") or 0)
    if fallbacks:
        parts.append(said("tree.fallbacks", count=f"{fallbacks:,}", sections=f"{sections:,}"))
    return " · ".join(parts)


# The tree browser's address: ``/tree?doc=<id>&node=<id>`` names what it shows, so a link
# can be shared or reloaded and the browser's back button leaves it for the page before.
DOC_PARAM, NODE_PARAM = "doc", "node"
ADDRESS = "tree_address"  # (doc, node) as last read from or written to the address


def address_of(doc_id: str | None, node_id: str | None) -> dict[str, str]:
    """The query parameters that name a document and one of its sections."""
    params = {DOC_PARAM: doc_id} if doc_id else {}
    if doc_id and node_id:
        params[NODE_PARAM] = node_id
    return params


def follow_address(ss: Any, params: Mapping[str, str], doc_ids: list[str]) -> None:
    """Show what the address names when it changed outside this session's own writes (a
    reload, a shared link, an arrival from another page); a document the person may not
    read is ignored."""
    doc, node = params.get(DOC_PARAM), params.get(NODE_PARAM)
    if not doc or doc not in doc_ids or ss.get(ADDRESS) == (doc, node):
        return
    if doc != ss.get("tree_doc_id"):
        ss["tree_doc_id"], ss["tree_evidence"] = doc, None
    ss["tree_selected"], ss["tree_focus"], ss["tree_page"] = node, None, 0
    ss["tree_last_click"] = None
    ss[ADDRESS] = (doc, node)


def keep_address(ss: Any, params: Any, doc_id: str, node_id: str | None) -> None:
    """Write what the browser shows into the address (a replacement: no history entry)."""
    if ss.get(ADDRESS) == (doc_id, node_id) and params.get(DOC_PARAM) == doc_id:
        return
    wanted = address_of(doc_id, node_id)
    for key in (DOC_PARAM, NODE_PARAM):
        if key not in wanted and key in params:
            del params[key]
    params.update(wanted)
    ss[ADDRESS] = (doc_id, node_id)
