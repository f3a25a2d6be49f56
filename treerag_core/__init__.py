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
from .ingest.indexer import index_document
from .ingest.outline import build_tree_outline
from .ingest.readers import read_file, read_source
from .ingest.sections import parse_sections
from .ingest.summarize import SummaryBudget, make_summarizer, null_summarizer, offline_summarizer
from .ingest.tree import build_hierarchy, flatten_tree
from .limits import Limits
from .llm.providers import load_settings, make_llms
from .qa.answer import (
    AnswerMessage,
    Retriever,
    aask,
    aask_multi,
    ask,
    ask_multi,
    make_async_retriever,
    make_retriever,
)
from .qa.navigate import NavigationConfig
from .store.llm_cache import LLMCache
from .store.tinydb_store import (
    delete_document,
    get_document,
    get_document_by_id,
    list_documents,
    load_registry,
    save_document,
    save_registry,
)

__all__ = [
    "AnswerMessage",
    "LLMCache",
    "NavigationConfig",
    "Retriever",
    "SummaryBudget",
    "aask",
    "aask_multi",
    "ask",
    "ask_multi",
    "load_settings",
    "make_async_retriever",
    "make_llms",
    "make_retriever",
    "make_summarizer",
    "offline_summarizer",
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
