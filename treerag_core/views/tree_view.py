"""What a tree browser draws: a focused, depth-limited, size-capped slice of a document.

A 2,000-section document must never be drawn whole: a person reads a few dozen nodes at a
time, and a graph widget with thousands of nodes freezes the page. Everything here is plain
data over ``flat_nodes`` (no UI library), so any front end and the tests can use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..tree.labels import context_label, label_with_pages
from ..tree.outline import heading_label, page_label
from ..types import FlatNode

MAX_DRAWN_NODES = 150


@dataclass
class TreeSlice:
    """Nodes to draw (level by level), parent→child edges, and what was left out."""

    node_ids: list[str]
    edges: list[tuple[str, str]]
    # node id -> number of its children not drawn (depth limit, width limit or node cap)
    hidden_children: dict[str, int] = field(default_factory=dict)
    truncated: bool = False  # a width or node cap, not only the depth limit, cut the slice
    page: int = 0  # which window of the first level below the focus is shown
    pages: int = 1


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


def _children(flat: Mapping[str, FlatNode], nid: str) -> list[str]:
    return [c for c in flat[nid].get("children", []) if c in flat]


def tree_slice(
    flat: Mapping[str, FlatNode],
    focus: str | None = None,
    depth: int = 3,
    max_nodes: int = MAX_DRAWN_NODES,
    page: int = 0,
    page_size: int = 12,
    max_level_width: int = 16,
) -> TreeSlice:
    """The subtree under ``focus`` (or the whole forest) down to ``depth`` levels.

    A tree drawn top-down is only readable while each level stays narrow, so: the first
    level below the focus (or the top level) is shown ``page_size`` at a time, a deeper
    level is drawn only while it has at most ``max_level_width`` nodes, and never more
    than ``max_nodes`` in all. ``depth=1`` is the focus (or one page of the top level).
    """
    depth = max(1, depth)
    focus = focus if focus and focus in flat else None
    first = _children(flat, focus) if focus else root_ids(flat)
    pages = max(1, -(-len(first) // max(1, page_size)))
    page = min(max(0, page), pages - 1)
    window = first[page * page_size : (page + 1) * page_size]
    if focus and depth == 1:
        return TreeSlice([focus], [], {focus: len(first)}, False, page, pages)
    view = TreeSlice([focus] if focus else [], [], page=page, pages=pages)
    if focus:
        view.edges += [(focus, c) for c in window]
    drawing = _Drawing(flat, view, max_nodes, max_level_width)
    drawing.levels(window, depth - (1 if focus else 0))
    drawn = set(view.node_ids)
    view.edges = [(a, b) for a, b in view.edges if a in drawn and b in drawn]
    return view


@dataclass
class _Drawing:
    """A slice being drawn level by level, within its caps."""

    flat: Mapping[str, FlatNode]
    view: TreeSlice
    max_nodes: int
    max_level_width: int

    def levels(self, level_nodes: list[str], levels_left: int) -> None:
        """Draw ``level_nodes`` and the levels below them while the node cap holds."""
        view = self.view
        while level_nodes:
            room = self.max_nodes - len(view.node_ids)
            if room <= 0:
                view.truncated = True
                break
            if len(level_nodes) > room:
                view.truncated = True
                level_nodes = level_nodes[:room]
            view.node_ids += level_nodes
            levels_left -= 1
            level_nodes = self._open_parents(level_nodes, levels_left)

    def _open_parents(self, level_nodes: list[str], levels_left: int) -> list[str]:
        """The next level: parents are opened one by one, in order, while it stays readable
        and the node cap holds; the rest keep a +N marker (a wide Part II must not hide
        Part I's three items as well)."""
        view = self.view
        below: list[str] = []
        for nid in level_nodes:
            kids = _children(self.flat, nid)
            if not kids:
                continue
            fits = (
                levels_left > 0
                and len(below) + len(kids) <= self.max_level_width
                and len(view.node_ids) + len(below) + len(kids) <= self.max_nodes
            )
            if fits:
                below += kids
                view.edges += [(nid, c) for c in kids]
            else:
                view.hidden_children[nid] = len(kids)
                view.truncated = view.truncated or levels_left > 0
        return below


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
        title = heading_label(node).lower()
        tags = " ".join(str(t) for t in node.get("tags") or []).lower()
        text = str(node.get("text") or "").lower()
        if all(w in title for w in words):
            ranked["title"].append((nid, "title"))
        elif all(w in tags or w in title for w in words):
            ranked["tag"].append((nid, "tag"))
        elif all(w in text or w in title or w in tags for w in words):
            ranked["text"].append((nid, "text"))
    return (ranked["title"] + ranked["tag"] + ranked["text"])[:limit]


def hit_label(
    flat: Mapping[str, FlatNode],
    node_id: str,
    unit: str | None = "page",
    language: str | None = None,
) -> str:
    """A search result as a button shows it: ``Item 7 › Liquidity and Capital Resources,
    pp. 44–45`` (the parent only where the title repeats, the pages once, in ``language``)."""
    node = flat[node_id]
    label = context_label(flat, node_id)
    return label_with_pages(label, node.get("page_start"), node.get("page_end"), unit, language)


def node_pages(
    node: Mapping[str, object], unit: str | None = "page", language: str | None = None
) -> str:
    """The node's (or reference's) pages, spelled as everywhere else (``unit``: the
    document's ``page_unit``; a reference carries its own; ``language``: the reader's)."""
    unit = str(node.get("page_unit") or unit)
    return page_label(node.get("page_start"), node.get("page_end"), unit, language)  # type: ignore[arg-type]


def outline_rows(
    flat: Mapping[str, FlatNode], view: TreeSlice, unit: str | None = "page"
) -> list[tuple[str, int, str]]:
    """``(node_id, indent, label)`` for the drawn nodes in document order (text outline)."""
    drawn = set(view.node_ids)
    base = min((int(flat[n].get("level", 1)) for n in drawn), default=1)
    rows = []
    for nid, node in flat.items():
        if nid not in drawn:
            continue
        label = heading_label(node) or nid
        pages = node_pages(node, unit)
        if pages and not node.get("generated"):  # a split's title already says its pages
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
    from ..tree.outline import build_tree_outline

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
