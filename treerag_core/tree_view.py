"""What a tree browser draws: a focused, depth-limited, size-capped slice of a document.

A 2,000-section document must never be drawn whole: a person reads a few dozen nodes at a
time, and a graph widget with thousands of nodes freezes the page. Everything here is plain
data over ``flat_nodes`` (no UI library), so any front end and the tests can use it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field

from .types import FlatNode

DEFAULT_MAX_NODES = 150


@dataclass
class TreeSlice:
    """Nodes to draw (breadth-first order), parent→child edges, and what was left out."""

    node_ids: list[str]
    edges: list[tuple[str, str]]
    # node id -> number of its children not drawn (depth limit or node cap)
    hidden_children: dict[str, int] = field(default_factory=dict)
    truncated: bool = False  # the node cap, not only the depth limit, cut the slice


def root_ids(flat: Mapping[str, FlatNode]) -> list[str]:
    """Top-level sections in document order."""
    return [nid for nid, node in flat.items() if not node.get("parent_id")]


def ancestors(flat: Mapping[str, FlatNode], node_id: str) -> list[str]:
    """Ids from the top level down to ``node_id`` inclusive: the breadcrumb."""
    chain: list[str] = []
    current: str | None = node_id
    seen: set[str] = set()
    while current and current in flat and current not in seen:
        seen.add(current)
        chain.append(current)
        current = flat[current].get("parent_id")
    return list(reversed(chain))


def tree_slice(
    flat: Mapping[str, FlatNode],
    focus: str | None = None,
    depth: int = 3,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> TreeSlice:
    """The subtree under ``focus`` (or the whole forest) down to ``depth`` levels.

    Breadth-first so that, when ``max_nodes`` cuts, the levels nearest the focus are the
    ones kept. ``depth=1`` is the focus (or the top level) alone.
    """
    starts = [focus] if focus and focus in flat else root_ids(flat)
    depth = max(1, depth)
    max_nodes = max(1, max_nodes)
    drawn: list[str] = []
    edges: list[tuple[str, str]] = []
    hidden: dict[str, int] = {}
    truncated = False
    queue: deque[tuple[str, int]] = deque((nid, 1) for nid in starts)
    queued = set(starts)
    while queue:
        nid, level = queue.popleft()
        if len(drawn) >= max_nodes:
            truncated = True
            parent = flat[nid].get("parent_id")
            if parent in queued:
                hidden[parent] = hidden.get(parent, 0) + 1
            continue
        drawn.append(nid)
        parent = flat[nid].get("parent_id")
        if parent and parent in queued and nid not in starts:
            edges.append((parent, nid))
        children = [c for c in flat[nid].get("children", []) if c in flat]
        if level >= depth:
            if children:
                hidden[nid] = len(children)
            continue
        for child in children:
            queued.add(child)
            queue.append((child, level + 1))
    drawn_set = set(drawn)
    edges = [(a, b) for a, b in edges if a in drawn_set and b in drawn_set]
    hidden = {nid: n for nid, n in hidden.items() if nid in drawn_set}
    return TreeSlice(node_ids=drawn, edges=edges, hidden_children=hidden, truncated=truncated)


def search_nodes(
    flat: Mapping[str, FlatNode], query: str, limit: int = 25
) -> list[tuple[str, str]]:
    """Nodes whose title, tags or text contain every word of ``query`` (case-insensitive).

    Returns ``(node_id, where)`` with ``where`` in {"title", "tag", "text"}; title matches
    rank first because that is what a person searching a table of contents expects.
    """
    words = [w for w in query.lower().split() if w]
    if not words:
        return []
    ranked: dict[str, list[tuple[str, str]]] = {"title": [], "tag": [], "text": []}
    for nid, node in flat.items():
        title = str(node.get("title") or "").lower()
        tags = " ".join(str(t) for t in node.get("tags") or []).lower()
        text = str(node.get("text") or "").lower()
        if all(w in title for w in words):
            ranked["title"].append((nid, "title"))
        elif all(w in tags or w in title for w in words):
            ranked["tag"].append((nid, "tag"))
        elif all(w in text or w in title or w in tags for w in words):
            ranked["text"].append((nid, "text"))
    return (ranked["title"] + ranked["tag"] + ranked["text"])[:limit]


def page_label(node: Mapping[str, object]) -> str:
    """``p. 4`` / ``pp. 4–6`` / ``""`` for sources without pages."""
    start, end = node.get("page_start"), node.get("page_end")
    if start is None:
        return ""
    return f"p. {start}" if end in (None, start) else f"pp. {start}–{end}"


def outline_rows(flat: Mapping[str, FlatNode], view: TreeSlice) -> list[tuple[str, int, str]]:
    """``(node_id, indent, label)`` for the drawn nodes in document order (text outline)."""
    drawn = set(view.node_ids)
    base = min((int(flat[n].get("level", 1)) for n in drawn), default=1)
    rows = []
    for nid, node in flat.items():
        if nid not in drawn:
            continue
        label = str(node.get("title") or nid)
        pages = page_label(node)
        if pages:
            label += f" ({pages})"
        if view.hidden_children.get(nid):
            label += f" [+{view.hidden_children[nid]}]"
        rows.append((nid, int(node.get("level", 1)) - base, label))
    return rows


def section_document(document: Mapping[str, object], node_id: str) -> dict[str, object]:
    """A copy of ``document`` holding only ``node_id`` and its descendants.

    "Ask about this section": navigation and the answer then only see that part, whatever
    the engine. References keep the real node ids, doc_id and file name.
    """
    from .outline import build_tree_outline

    flat = document.get("flat_nodes") or {}
    assert isinstance(flat, Mapping)
    if node_id not in flat:
        return dict(document)
    keep: dict[str, FlatNode] = {}
    todo = [node_id]
    while todo:
        nid = todo.pop(0)
        if nid in flat and nid not in keep:
            keep[nid] = flat[nid]
            todo.extend(flat[nid].get("children") or [])
    ordered = {nid: dict(node) for nid, node in flat.items() if nid in keep}
    ordered[node_id]["parent_id"] = None
    sub = {k: v for k, v in document.items() if k != "tree"}
    sub["flat_nodes"] = ordered
    sub["tree_outline"] = build_tree_outline(ordered)  # type: ignore[arg-type]
    sub["total_sections"] = len(ordered)
    return sub
