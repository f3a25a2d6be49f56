"""The compact JSON an agent gets back: node entries, pages, cut text, and the budgets.

An agent's context is small and every result is paid for on every later turn, so results
carry ids, titles, paths and pages (what an agent needs to cite) and bounded text, and say
when something was left out and which call brings the rest.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..answer.context import reference
from ..tree.outline import heading_label
from ..types import FlatNode

# Titles are labels: a generated "Part 3/5: <first sentence>" title can run long.
MAX_TITLE_CHARS = 120
# A summary in an outline is a hint for where to look, not the text itself.
MAX_SUMMARY_CHARS = 160
# Search snippets: about two lines of a filing, enough to judge a hit without reading it.
SNIPPET_CHARS = 300


def clip(text: Any, max_chars: int) -> str:
    """One line of at most ``max_chars`` characters, cut at a word with an ellipsis."""
    line = " ".join(str(text or "").split())
    if len(line) <= max_chars:
        return line
    cut = line.rfind(" ", 0, max_chars - 1)
    return line[: cut if cut > max_chars // 2 else max_chars - 1].rstrip() + "…"


def pages(start: int | None, end: int | None) -> list[int] | None:
    """``[first, last]`` page (1-based), or ``None`` for sources without pages."""
    if start is None:
        return None
    return [int(start), int(end or start)]


def node_pages(flat: Mapping[str, FlatNode], node_id: str) -> list[int] | None:
    """A section's pages; a heading with little text of its own spans its sub-sections
    (the same rule the answer's references follow)."""
    ref = reference({"flat_nodes": flat}, node_id)  # type: ignore[typeddict-item]
    return pages(ref["page_start"], ref["page_end"])


def node_entry(flat: Mapping[str, FlatNode], node_id: str, summary: bool = True) -> dict[str, Any]:
    """``{node_id, title, pages, summary, children}`` for an outline or a list of sections."""
    node = flat[node_id]
    entry: dict[str, Any] = {
        "node_id": node_id,
        "title": clip(heading_label(node) or node_id, MAX_TITLE_CHARS),
        "pages": node_pages(flat, node_id),
    }
    if summary and node.get("summary"):
        entry["summary"] = clip(node["summary"], MAX_SUMMARY_CHARS)
    kids = [c for c in node.get("children") or [] if c in flat]
    if kids:
        entry["children"] = len(kids)
    return entry


def cited_node(document: Mapping[str, Any], node_id: str) -> dict[str, Any]:
    """What a result needs so the agent can cite a section: document, node, path, pages."""
    ref = reference(document, node_id)  # type: ignore[arg-type]
    return {
        "doc_id": ref["doc_id"],
        "file_name": ref["file_name"],
        "node_id": node_id,
        "title": clip(ref["title"] or node_id, MAX_TITLE_CHARS),
        "path": str(ref["path"]),
        "pages": pages(ref["page_start"], ref["page_end"]),
        **unit_of(ref),
    }


def unit_of(ref: Mapping[str, Any]) -> dict[str, str]:
    """``{"page_unit": "slide"}`` where a deck's or workbook's pages are slides or sheets
    (so an agent cites "slide 4"); nothing for paged documents."""
    unit = ref.get("page_unit") or "page"
    return {} if unit == "page" else {"page_unit": str(unit)}


def to_json(result: Mapping[str, Any]) -> str:
    """Compact JSON (no spaces, real Unicode): what a tool returns as text."""
    return json.dumps(result, ensure_ascii=False, separators=(",", ":"))
