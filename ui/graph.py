"""The tree as streamlit-agraph nodes: hierarchical, coloured and sized by depth, capped.

Why the care: agraph 0.0.45 copies every Config keyword to the top level (so the layout
is set on ``cfg.layout`` afterwards), and it puts each node's ``title`` into a div's
``innerHTML`` and ``window.open``s it on double-click. Titles are therefore built from
the node id plus markup-free text: never HTML, never a URL scheme.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from streamlit_agraph import Config, Edge, Node

from treerag_core.tree_view import TreeSlice, page_label
from treerag_core.types import FlatNode

from .text import tooltip_text

LEVEL_COLORS = ("#1f5f8b", "#2f8f6e", "#e08a1e", "#8e5ba8", "#c2527a", "#5b7f2a")
SELECTED_COLOR = "#d62728"
EDGE_COLOR = "#9aa5b1"


def node_label(title: str, hidden: int = 0, width: int = 14, lines: int = 2) -> str:
    """Short wrapped label under the dot; ``+N`` when children are not drawn."""
    wrapped = textwrap.wrap(" ".join(title.split()) or "(untitled)", width) or ["(untitled)"]
    if len(wrapped) > lines:
        wrapped = wrapped[:lines]
        wrapped[-1] = wrapped[-1][: width - 1] + "…"
    label = "\n".join(wrapped)
    return f"{label}\n(+{hidden})" if hidden else label


def node_tooltip(node: Mapping[str, Any]) -> str:
    """Hover text; starts with the node id so a double-click can never open a URL scheme."""
    pages = page_label(node)
    text = f"{node.get('node_id')} · {tooltip_text(node.get('path') or node.get('title'))}"
    return f"{text} ({pages})" if pages else text


def level_color(depth: int) -> str:
    return LEVEL_COLORS[(max(1, depth) - 1) % len(LEVEL_COLORS)]


def graph_elements(
    flat: Mapping[str, FlatNode],
    view: TreeSlice,
    selected: str | None,
    width: int = 560,
    height: int = 560,
) -> tuple[list[Node], list[Edge], Config]:
    """Nodes, edges and config for ``agraph``; depth is relative to the drawn slice."""
    base = min((int(flat[n].get("level", 1)) for n in view.node_ids), default=1)
    nodes = []
    for nid in view.node_ids:
        node = flat[nid]
        depth = int(node.get("level", 1)) - base + 1
        is_selected = nid == selected
        nodes.append(
            Node(
                id=nid,
                label=node_label(str(node.get("title") or nid), view.hidden_children.get(nid, 0)),
                title=node_tooltip(node),
                size=max(8, 20 - 3 * (depth - 1)) + (5 if is_selected else 0),
                color=SELECTED_COLOR if is_selected else level_color(depth),
                shape="dot",
                font={"size": 14, "face": "sans-serif", "color": "#1d2a27"},
            )
        )
    edges = [Edge(source=a, target=b, color=EDGE_COLOR) for a, b in view.edges]
    config = Config(
        width=width,
        height=height,
        directed=True,
        physics=False,
        hierarchical=True,
        groups={},
    )
    config.layout["hierarchical"].update(
        direction="UD",
        sortMethod="directed",
        levelSeparation=100,
        nodeSpacing=85,
        treeSpacing=90,  # each top-level section is its own tree: keep them close
    )
    return nodes, edges, config
