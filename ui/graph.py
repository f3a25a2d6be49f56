"""The tree as streamlit-agraph nodes: left to right, coloured by depth, capped; the
selected section red, the sections on its path from the top in charcoal, joined by thick
charcoal edges, so where it sits in the tree is seen at a glance.

Why the care: agraph 0.0.45 copies every Config keyword to the top level (so the layout
is set on ``cfg.layout`` afterwards), and it puts each node's ``title`` into a div's
``innerHTML`` and ``window.open``s it on double-click. Titles are therefore built from
the node id plus markup-free text: never HTML, never a URL scheme.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from treerag_core import FlatNode
from treerag_core.tree import heading_label
from treerag_core.views import TreeSlice, ancestors, node_pages

from .text import tooltip_text

if TYPE_CHECKING:  # imported where the tree is drawn: a server that never draws one skips
    # it (56 ms of the app's first imports, which every fresh server pays)
    from streamlit_agraph import Config, Edge, Node

LEVEL_COLORS = ("#1f5f8b", "#2f8f6e", "#e08a1e", "#8e5ba8", "#c2527a", "#5b7f2a")
SELECTED_COLOR = "#d62728"
PATH_COLOR = "#2b2b2b"  # the selected section's ancestors, and the edges down to it
ROW_HEIGHT = 36  # vertical pixels per sibling
MIN_HEIGHT, MAX_HEIGHT = 360, 900
EDGE_COLOR = "#9aa5b1"


def node_label(title: str, hidden: int = 0, width: int = 34) -> str:
    """One line inside the box (left-to-right trees keep titles readable); ``+N`` when
    children are not drawn."""
    label = " ".join(title.split()) or "(untitled)"
    if len(label) > width:
        label = label[: width - 1].rstrip() + "…"
    return f"{label}  (+{hidden})" if hidden else label


def node_tooltip(
    node: Mapping[str, Any], unit: str | None = "page", language: str | None = None
) -> str:
    """Hover text; starts with the node id so a double-click can never open a URL scheme
    (its pages named in ``language``)."""
    pages = node_pages(node, unit, language)
    text = f"{node.get('node_id')} · {tooltip_text(node.get('path') or heading_label(node))}"
    return f"{text} ({pages})" if pages else text


def level_color(depth: int) -> str:
    return LEVEL_COLORS[(max(1, depth) - 1) % len(LEVEL_COLORS)]


def graph_elements(
    flat: Mapping[str, FlatNode],
    view: TreeSlice,
    selected: str | None,
    width: int = 640,
    height: int | None = None,
    unit: str | None = "page",
    language: str | None = None,
) -> tuple[list[Node], list[Edge], Config]:
    """Nodes, edges and config for ``agraph``; depth is relative to the drawn slice.

    Left to right, like a table of contents: siblings stack vertically, so a wide level
    (Part II's sixteen Items) stays readable, and the canvas grows with the widest level.
    """
    from streamlit_agraph import Edge, Node

    base = min((int(flat[n].get("level", 1)) for n in view.node_ids), default=1)
    per_level = Counter(int(flat[n].get("level", 1)) for n in view.node_ids)
    if height is None:
        widest = max(per_level.values(), default=1)
        height = max(MIN_HEIGHT, min(MAX_HEIGHT, ROW_HEIGHT * widest + 60))
    path = set(ancestors(flat, selected)) if selected in flat else set()
    nodes = []
    for nid in view.node_ids:
        node = flat[nid]
        depth = int(node.get("level", 1)) - base + 1
        on_path = nid in path and nid != selected
        color = SELECTED_COLOR if nid == selected else PATH_COLOR if on_path else level_color(depth)
        nodes.append(
            Node(
                id=nid,
                label=node_label(heading_label(node) or nid, view.hidden_children.get(nid, 0)),
                title=node_tooltip(node, unit, language),
                color=color,
                shape="box",
                margin=6,
                font={"size": 13, "face": "sans-serif", "color": "#ffffff"},
            )
        )  # fmt: skip
    edges = [
        Edge(source=a, target=b, color=PATH_COLOR, width=4)
        if a in path and b in path
        else Edge(source=a, target=b, color=EDGE_COLOR, width=1)
        for a, b in view.edges
    ]
    return nodes, edges, _config(width, height)


def _config(width: int, height: int) -> Config:
    """Left to right, levels 250 px apart, one row per sibling."""
    from streamlit_agraph import Config

    config = Config(
        width=width, height=height, directed=True, physics=False, hierarchical=True, groups={}
    )
    config.layout["hierarchical"].update(
        direction="LR",
        sortMethod="directed",
        levelSeparation=250,
        nodeSpacing=ROW_HEIGHT,
        treeSpacing=ROW_HEIGHT,  # each top-level section is its own tree: keep them close
    )
    return config
