"""tree: Markdown-style text → sections → a nested tree → the flat node map and its outline.

``sections`` splits text at headings (with pages); ``nodes`` nests and flattens them with
stable ids, paths and fingerprints; ``outline`` writes the compact outline the search model
reads; ``labels`` names a section and its pages the same way everywhere.
"""

from .labels import context_label, heading_label, label_with_pages
from .nodes import build_hierarchy, flatten_tree, subtree_page_range
from .outline import build_tree_outline, page_label
from .sections import join_pages, parse_sections

__all__ = [
    "build_hierarchy",
    "build_tree_outline",
    "context_label",
    "flatten_tree",
    "heading_label",
    "join_pages",
    "label_with_pages",
    "page_label",
    "parse_sections",
    "subtree_page_range",
]
