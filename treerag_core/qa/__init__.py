"""navigate → answer: the search model reads the outline (``navigate``), the chosen
sections are quoted (``context``), the answer model replies (``answer``'s drivers) and the
result carries references and usage (``result``). ``tree_view`` slices the tree for people."""

from .answer import aask, aask_multi, ask, ask_multi
from .evidence import sentence_offsets
from .library_answer import aask_library, ask_library, lasting_ranking_memory
from .navigate import SEARCH_MODES, NavigationConfig
from .render import EvidencePage, crop_to_evidence, locate_evidence, render_evidence
from .result import AnswerMessage
from .retriever import Retriever, make_retriever
from .tree_view import (
    MAX_DRAWN_NODES,
    TreeSlice,
    ancestors,
    node_pages,
    outline_rows,
    root_ids,
    search_nodes,
    section_document,
    tree_slice,
)

__all__ = [
    "aask",
    "aask_library",
    "aask_multi",
    "ancestors",
    "AnswerMessage",
    "ask",
    "ask_library",
    "ask_multi",
    "crop_to_evidence",
    "EvidencePage",
    "lasting_ranking_memory",
    "locate_evidence",
    "make_retriever",
    "MAX_DRAWN_NODES",
    "NavigationConfig",
    "SEARCH_MODES",
    "node_pages",
    "outline_rows",
    "render_evidence",
    "Retriever",
    "root_ids",
    "search_nodes",
    "section_document",
    "sentence_offsets",
    "tree_slice",
    "TreeSlice",
]
