"""views: what people are shown of a document (tree slices, outline rows) and of the library
(its listing), apart from answering."""

from .citations import Citation, evidence_caption, find_citations, link_citations
from .library_view import BLANK, LIBRARY_COLUMNS, blank, library_row, library_rows
from .names import source_name
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
    "Citation",
    "evidence_caption",
    "find_citations",
    "link_citations",
    "BLANK",
    "blank",
    "LIBRARY_COLUMNS",
    "library_row",
    "library_rows",
    "ancestors",
    "hit_label",
    "MAX_DRAWN_NODES",
    "node_pages",
    "outline_rows",
    "root_ids",
    "search_nodes",
    "source_name",
    "section_document",
    "tree_slice",
    "TreeSlice",
]
