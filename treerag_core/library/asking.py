"""Documents as a principal may have them: what ``ask_multi`` and ``evaluate`` read.

Both take documents their caller already loaded (or ids); with a principal, each one's id
is checked against the registry (never a ``collection`` field the caller could have set),
so a forbidden document is never read into an answer or a reference.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..access.principal import Principal
from ..access.rules import not_found, require_document
from ..store import open_store
from ..store.base import RegistryLike
from ..types import Document
from .documents import load_document


def resolve_documents(
    documents: Sequence[Document | str],
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> list[Any]:
    """Ids loaded from the registry, dicts kept as given; with a principal, every one must
    be readable (``AccessDeniedError`` before any of them is read)."""
    if principal is None and all(isinstance(d, dict) for d in documents):
        return list(documents)
    store = open_store(registry_path)
    for item in documents:
        doc_id = item if isinstance(item, str) else (item or {}).get("doc_id")
        if principal is not None and not isinstance(doc_id, str):
            raise not_found(str(doc_id))
        if principal is not None or isinstance(item, str):
            require_document(store, principal, str(doc_id))
    return [load_document(store, d) if isinstance(d, str) else d for d in documents]


def readable_loader(
    load: Callable[[dict[str, Any]], Document],
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> Callable[[dict[str, Any]], Document]:
    """``load`` whose every document must be one the principal may read."""
    if principal is None:
        return load
    store = open_store(registry_path)

    def checked(item: dict[str, Any]) -> Document:
        document = load(item)
        require_document(store, principal, str(document.get("doc_id") or ""))
        return document

    return checked
