"""treerag_core: vectorless, tree-navigating document Q&A.

read → sections → tree → summaries → outline → navigate → answer.
"""

from .errors import (
    BlockedURLError,
    ConfigError,
    DocumentNotFoundError,
    DocumentReadError,
    DocumentTooLargeError,
    EmptyDocumentError,
    FetchError,
    LLMError,
    RegistryError,
    TreeragError,
    UnsupportedFormatError,
)
from .indexer import index_document
from .limits import Limits
from .outline import build_tree_outline
from .readers import read_file, read_source
from .registry import (
    delete_document,
    get_document,
    get_document_by_id,
    list_documents,
    load_registry,
    save_document,
    save_registry,
)
from .sections import parse_sections
from .summarize import null_summarizer
from .tree import build_hierarchy, flatten_tree

__all__ = [
    "BlockedURLError",
    "ConfigError",
    "DocumentNotFoundError",
    "DocumentReadError",
    "DocumentTooLargeError",
    "EmptyDocumentError",
    "FetchError",
    "LLMError",
    "Limits",
    "RegistryError",
    "TreeragError",
    "UnsupportedFormatError",
    "build_hierarchy",
    "build_tree_outline",
    "delete_document",
    "flatten_tree",
    "get_document",
    "get_document_by_id",
    "index_document",
    "list_documents",
    "load_registry",
    "null_summarizer",
    "parse_sections",
    "read_file",
    "read_source",
    "save_document",
    "save_registry",
]
