"""treerag_core: vectorless, tree-navigating document Q&A.

read → structure → tree → summarize → store → library → route → navigate → answer.

The top level is what a program starts from: the seed's functions (index a document, ask
it, keep it in a registry: each opens what it needs per call), the :class:`Library` client
a program holds instead when it does more than one thing (its store and pool, models, signed-in
person and caches, opened once), the one :class:`Settings`, the answer and document types,
and the errors people catch. Everything else is imported from its stage's package
(``treerag_core.views``, ``treerag_core.sync``, …). Names that used to live here still work,
with a ``DeprecationWarning`` naming their new home (:data:`DEPRECATED`).
"""

import importlib
import warnings
from typing import Any

from .answer.ask import aask, aask_multi, ask, ask_multi
from .answer.retriever import Retriever, make_async_retriever, make_retriever
from .client import Answer, AnswerEvent, Library, TextDelta
from .deprecated import DEPRECATED
from .errors import (
    AccessDeniedError,
    ConfigError,
    DocumentNotFoundError,
    DocumentReadError,
    DocumentTooLargeError,
    EmptyDocumentError,
    FetchError,
    LLMError,
    RegistryError,
    StoreUnavailableError,
    TreeragError,
    UnsupportedFormatError,
)
from .library.documents import (
    delete_document,
    get_document,
    get_document_by_id,
    list_documents,
    load_registry,
    save_registry,
)
from .library.indexing import index_document
from .read.source import read_file
from .settings import Settings
from .summarize.summarizers import make_summarizer, null_summarizer
from .tree.nodes import build_hierarchy, flatten_tree
from .tree.outline import build_tree_outline
from .tree.sections import parse_sections
from .types import Document, FlatNode, SummarizerFn, TreeNode

# The seed's contract (its API reference, in its order), then what this package adds.
__all__ = [
    "index_document", "make_summarizer", "null_summarizer", "ask", "aask", "ask_multi",
    "aask_multi", "make_retriever", "make_async_retriever", "read_file", "parse_sections",
    "build_hierarchy", "flatten_tree", "build_tree_outline", "list_documents", "get_document",
    "get_document_by_id", "delete_document", "load_registry", "save_registry",
    "Library", "Settings", "Answer", "AnswerEvent", "TextDelta", "AnswerMessage", "Retriever",
    "Document", "FlatNode", "TreeNode", "SummarizerFn",
    "TreeragError", "UnsupportedFormatError", "DocumentReadError", "EmptyDocumentError",
    "DocumentTooLargeError", "FetchError", "RegistryError", "DocumentNotFoundError",
    "StoreUnavailableError", "LLMError", "ConfigError", "AccessDeniedError",
]  # fmt: skip
SEED = __all__[:20]


def __getattr__(name: str) -> Any:
    """An old name: the object it names, with a warning that says where it lives now.
    ``AnswerMessage`` is no old name but a LangChain message: imported on first use, so
    that importing the core does not import LangChain (``answer/message.py``)."""
    if name == "AnswerMessage":
        from .answer.message import AnswerMessage

        return AnswerMessage
    if name not in DEPRECATED:
        raise AttributeError(f"module 'treerag_core' has no attribute {name!r}")
    old = DEPRECATED[name]
    warnings.warn(f"treerag_core.{name} is deprecated: use {old.use}.", DeprecationWarning, 2)
    return getattr(importlib.import_module(old.module), old.attribute)


def __dir__() -> list[str]:
    return sorted([*__all__, *DEPRECATED])
