"""The compact indented outline the search model reads instead of the document."""

from __future__ import annotations

from ..types import FlatNode
from .labels import heading_label, page_label

MAX_SUMMARY_CHARS = 160
MAX_TAGS = 8


def outline_line(node: FlatNode, depth_offset: int = 0, unit: str | None = "page") -> str:
    """``- [0003] Title (pp. 4–6) — summary | Tags: a, b``, indented by depth."""
    indent = "  " * max(0, node["level"] - 1 - depth_offset)
    line = f"{indent}- [{node['node_id']}] {heading_label(node)}"
    pages = page_label(node.get("page_start"), node.get("page_end"), unit)
    if pages:
        line += f" ({pages})"
    summary = " ".join((node.get("summary") or "").split())
    if summary:
        if len(summary) > MAX_SUMMARY_CHARS:
            summary = summary[: MAX_SUMMARY_CHARS - 1].rsplit(" ", 1)[0] + "…"
        line += f" — {summary}"
    tags = [str(t) for t in (node.get("tags") or []) if str(t).strip()][:MAX_TAGS]
    if tags:
        line += " | Tags: " + ", ".join(tags)
    return line


def build_tree_outline(
    flat_nodes: dict[str, FlatNode], max_level: int | None = None, unit: str | None = "page"
) -> str:
    """Every node (or those down to ``max_level``) as one line, in document order.

    Summaries are capped so the outline stays a small fraction of the document no matter
    what a summarizer returns.
    """
    return "\n".join(
        outline_line(node, unit=unit)
        for node in flat_nodes.values()
        if max_level is None or node["level"] <= max_level
    )
