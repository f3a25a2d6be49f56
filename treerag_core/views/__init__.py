"""views: what people are shown of a document (tree slices, outline rows), apart from answering."""

from .tree_view import (
    MAX_DRAWN_NODES,
    TreeSlice,
    ancestors,
    hit_label,
    node_pages,
    outline_rows,
    root_ids,
    search_nodes,
    section_document,
    tree_slice,
)

__all__ = [
    "ancestors",
    "hit_label",
    "MAX_DRAWN_NODES",
    "node_pages",
    "outline_rows",
    "root_ids",
    "search_nodes",
    "section_document",
    "tree_slice",
    "TreeSlice",
]
