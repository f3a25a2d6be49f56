"""read → sections → tree → summaries → outline: a source becomes an indexed document.

``formats`` says which reader a file gets; ``readers`` turn bytes into rich pages or
structured text; ``structure`` strategies find headings; ``sections`` and ``tree`` build the
hierarchy; ``summarize`` writes summaries and tags; ``indexer`` runs it all and stores it.
"""

from .formats import accepted_extensions, check_upload, supported_types
from .outline import build_tree_outline, page_label
from .sections import parse_sections
from .source import read_file
from .summarize import SummaryBudget, make_summarizer, null_summarizer
from .tree import build_hierarchy, flatten_tree, subtree_page_range

__all__ = [
    "accepted_extensions",
    "build_hierarchy",
    "build_tree_outline",
    "check_upload",
    "flatten_tree",
    "make_summarizer",
    "null_summarizer",
    "page_label",
    "parse_sections",
    "read_file",
    "subtree_page_range",
    "SummaryBudget",
    "supported_types",
]
