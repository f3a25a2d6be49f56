"""Flat sections → nested tree → flat node map with stable ids, breadcrumbs and fingerprints."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

from ..types import Document, FlatNode, Section, TreeNode
from .outline import build_tree_outline, heading_label

# A section number printed before a title: "1", "1.", "1.2", "2.1.3", "A.1"; at most three
# digits a part (a year such as "2023 Form 10-K" is part of the name), then a letter.
_SECTION_NUMBER = re.compile(r"^((?:\d{1,3}|[A-Z])(?:\.\d{1,3})+\.?|\d{1,3}\.?)\s+(?=[^\W\d_])")
# An appendix's letter is its number (its sections are "A.1", "A.2"), and the word goes with
# it: "Appendix A External Code Interface" is named "External Code Interface", as the
# Texinfo and DocBook bookmarks name it ("A External Code Interface").
_APPENDIX_NUMBER = re.compile(
    r"^((?:Appendix|APPENDIX|Annex|ANNEX)\s+[A-Z](?:[.-]\d{1,3})?(?:[.:]|\s+[–—-])?)\s+(?=[^\W\d_])"
)


def node_id_for(index: int) -> str:
    return f"{index:04d}"


def build_hierarchy(sections: list[Section]) -> list[dict[str, Any]]:
    """Nest sections by level with a stack; ids follow document order ("0000", "0001", …).

    A level may jump (``#`` then ``###``): the deeper section simply becomes a child of the
    nearest shallower one, so no empty placeholder nodes are invented. A piece a long
    section was cut into (``generated``) is never a parent: a heading deeper than the
    section goes under the section, beside its pieces, not under its last piece (Walmart's
    appended plans sat under "Exhibit Index (continued): 21* List of …").
    """
    roots: list[dict[str, Any]] = []
    stack: list[dict[str, Any]] = []
    for index, section in enumerate(sections):
        node = {**section, "node_id": node_id_for(index), "children": []}
        while stack and (stack[-1]["level"] >= node["level"] or stack[-1].get("generated")):
            stack.pop()
        (stack[-1]["children"] if stack else roots).append(node)
        stack.append(node)
    return roots


def split_number(title: str) -> tuple[str, str]:
    """``(number, name)`` of a heading: "1.2 Simple Examples" → ("1.2", "Simple Examples").

    A section's number says where it stands, its name says what it is about; authors'
    bookmarks (LaTeX's and Texinfo's by default) and tables of contents that people quote
    name sections without the numbers the printed headings carry. The node keeps both, and
    :func:`~treerag_core.tree.outline.heading_label` shows them together wherever the
    section is shown, so nothing printed is lost.
    """
    found = _SECTION_NUMBER.match(title) or _APPENDIX_NUMBER.match(title)
    if not found:
        return "", title
    return found.group(1), title[found.end() :]


def fingerprint(title: str, text: str) -> str:
    return hashlib.sha256(f"{title}\n{text}".encode()).hexdigest()[:16]


def flatten_tree(tree: list[dict[str, Any]]) -> dict[str, FlatNode]:
    """Flat ``{node_id: node}`` in document order, with path, parent, children ids and depth.

    ``level`` becomes the depth in the tree (1 = top), which is what navigation and the UI
    need; the heading's own markup level only decided the nesting.
    """
    flat: dict[str, FlatNode] = {}

    def walk(nodes: list[dict[str, Any]], parent: FlatNode | None, depth: int) -> None:
        for node in nodes:
            number, title = split_number(node["title"])
            label = heading_label({"number": number, "title": title})
            path = f"{parent['path']} > {label}" if parent else label
            text = node.get("text", "")
            flat[node["node_id"]] = FlatNode(
                node_id=node["node_id"],
                title=title,
                level=depth,
                path=path,
                parent_id=parent["node_id"] if parent else None,
                children=[child["node_id"] for child in node["children"]],
                text=text,
                summary=node.get("summary", ""),
                tags=list(node.get("tags", [])),
                page_start=node.get("page_start"),
                page_end=node.get("page_end"),
                fingerprint=fingerprint(node["title"], text),
            )
            if number:
                flat[node["node_id"]]["number"] = number
            if node.get("page_marks"):
                flat[node["node_id"]]["page_marks"] = node["page_marks"]
            if node.get("generated"):
                flat[node["node_id"]]["generated"] = True
            walk(node["children"], flat[node["node_id"]], depth + 1)

    walk(tree, None, 1)
    return flat


def tree_skeleton(flat: dict[str, FlatNode]) -> list[TreeNode]:
    """The nested tree without text: stored in the document so text is kept only once."""
    built: dict[str, TreeNode] = {}
    roots: list[TreeNode] = []
    for node_id, node in flat.items():
        built[node_id] = TreeNode(
            node_id=node_id,
            title=node["title"],
            level=node["level"],
            page_start=node.get("page_start"),
            page_end=node.get("page_end"),
            children=[],
        )
        if node.get("number"):
            built[node_id]["number"] = node["number"]
        parent = node.get("parent_id")
        (built[parent]["children"] if parent else roots).append(built[node_id])
    return roots


def excerpt_pages(node: Mapping[str, Any], start: int, end: int) -> tuple[int | None, int | None]:
    """Pages holding characters ``start:end`` of the node's own text."""
    first, last = node.get("page_start"), node.get("page_start")
    if first is None:
        return None, None
    if "page_marks" not in node:  # one page, or indexed before marks existed: whole range
        return first, node.get("page_end") or first
    for offset, page in node.get("page_marks") or []:
        if offset <= start:
            first = page
        if offset < end:
            last = page
    return first, max(first, last or first)


def subtree_page_range(flat: dict[str, FlatNode], node_id: str) -> tuple[int | None, int | None]:
    """Pages covered by a node and all its descendants (a chapter spans its sections)."""
    starts: list[int] = []
    ends: list[int] = []
    todo = [node_id]
    while todo:
        node = flat[todo.pop()]
        if node.get("page_start") is not None:
            starts.append(node["page_start"])  # type: ignore[arg-type]  # not None: checked above
            ends.append(node.get("page_end") or node["page_start"])  # type: ignore[arg-type]  # as above
        todo.extend(node.get("children", []))
    return (min(starts), max(ends)) if starts else (None, None)


def with_derived_fields(document: Document) -> Document:
    """Rebuild the nested tree and the outline from flat_nodes (cheap, deterministic)."""
    flat = document.get("flat_nodes", {})
    outline = build_tree_outline(flat, unit=document.get("page_unit"))
    return {**document, "tree": tree_skeleton(flat), "tree_outline": outline}
