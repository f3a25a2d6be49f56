"""treerag_core: vectorless, tree-navigating document Q&A.

read → sections → tree → summaries → outline → store → navigate → answer.

Everything a program (the app, the CLI, a library user) needs is importable from here, one
name per concept; the subpackages say which of their names are public (their
``__all__``), and this module's ``__all__`` is made of theirs, never copied by hand:
``ingest`` (formats, readers, structure, sections, tree, summaries), ``store`` (storage
only: the seam and its two backends), ``library`` (the operations people call: index, list,
get, delete, move, export and import, migrate, each under the access rules and the audit
log), ``llm`` (model calls, providers, prompts), ``qa`` (navigation, answers, evidence, tree
views), ``text`` (the offline engine), ``evaluation``, ``chat`` (conversations), ``access``
(principals, collections, rules, audit log, sign-in modes), ``jobs`` (the indexing queue)
and ``tools`` (agent tools). Older names still work, with a ``DeprecationWarning`` naming
the one to use (``DEPRECATED``; the README lists them).
"""

import importlib
import warnings
from typing import Any, NamedTuple

from . import (
    access,
    answer,
    chat,
    errors,
    evaluation,
    evidence,
    jobs,
    library,
    limits,
    llm,
    navigate,
    read,
    store,
    summarize,
    sync,
    text,
    tools,
    tree,
    types,
    views,
    worker,
)
from .access import *  # noqa: F403 - each subpackage's own __all__ says what is public
from .answer import *  # noqa: F403
from .chat import *  # noqa: F403
from .errors import *  # noqa: F403
from .evaluation import *  # noqa: F403
from .evidence import *  # noqa: F403
from .jobs import *  # noqa: F403
from .library import *  # noqa: F403
from .limits import *  # noqa: F403
from .llm import *  # noqa: F403
from .navigate import *  # noqa: F403
from .read import *  # noqa: F403
from .store import *  # noqa: F403
from .summarize import *  # noqa: F403
from .sync import *  # noqa: F403
from .text import *  # noqa: F403
from .tools import *  # noqa: F403
from .tree import *  # noqa: F403
from .types import *  # noqa: F403
from .views import *  # noqa: F403
from .worker import *  # noqa: F403

PUBLIC_MODULES = (
    errors, types, limits, read, tree, summarize, store, library, sync, llm, navigate, answer,
    evidence, views, text, evaluation, chat, access, jobs, tools, worker,
)  # fmt: skip
__all__ = [name for module in PUBLIC_MODULES for name in module.__all__]


class Renamed(NamedTuple):
    """An old name: where the object lives now, and what to use instead."""

    module: str
    attribute: str
    use: str


# Names kept for code written against an older release; each warns when used.
DEPRECATED = {
    "make_async_retriever": Renamed(
        "treerag_core.answer.retriever", "make_retriever",
        "make_retriever (the same object serves ask and aask)",
    ),
    "offline_summarizer": Renamed(
        "treerag_core.summarize.summarizers", "offline_summarizer",
        "make_summarizer() (no model: the offline engine)",
    ),
    "read_source": Renamed(
        "treerag_core.read.source", "read_source",
        "read_file for the text, or treerag_core.read.source.read_source",
    ),
    "export_documents": Renamed(
        "treerag_core.store.export", "export_documents",
        "export_registry (by id, under the access rules)",
    ),
    "parse_import": Renamed(
        "treerag_core.store.export", "parse_import",
        "import_documents, or treerag_core.store.export.parse_import",
    ),
    "evaluation_page_texts": Renamed(
        "treerag_core.evaluation.page_texts", "registry_page_texts", "registry_page_texts"
    ),
}  # fmt: skip


def __getattr__(name: str) -> Any:
    """An old name: the object it names, with a warning that says which name to use."""
    if name not in DEPRECATED:
        raise AttributeError(f"module 'treerag_core' has no attribute {name!r}")
    old = DEPRECATED[name]
    warnings.warn(f"treerag_core.{name} is deprecated: use {old.use}.", DeprecationWarning, 2)
    return getattr(importlib.import_module(old.module), old.attribute)
