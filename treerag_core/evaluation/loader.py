"""Find the document a question names: in a registry, or (if asked) by indexing its file."""

from __future__ import annotations

import os
from typing import Any

from ..access.principal import Principal
from ..access.rules import readable_rows, require_document
from ..errors import DocumentNotFoundError, TreeragError
from ..library.documents import load_document
from ..library.indexing import index_document
from ..store import open_store
from ..store.base import RegistryLike
from ..summarize.summarizers import make_summarizer
from ..text.messages import raised
from ..types import Document
from .run import DocumentLoader


def _stem(name: str) -> str:
    return os.path.splitext(os.path.basename(name))[0]


def registry_loader(
    registry_path: RegistryLike,
    source_root: str | None = None,
    index_missing: bool = False,
    summarizer: Any = None,
    principal: Principal | None = None,
) -> DocumentLoader:
    """A question's document by ``doc_id``, else by ``file`` / ``document`` / ``doc_name``:
    the stored path under ``source_root``, then the file name with or without its extension
    (question sets often name a filing without ``.pdf``). With ``index_missing``, a file
    under ``source_root`` that is not stored yet is indexed (offline summaries by default).
    With a ``principal``, only documents it may read are found (and indexing needs editing
    rights).
    """
    store = open_store(registry_path)
    cache: dict[str, Document] = {}

    def load(item: dict[str, Any]) -> Document:
        if item.get("doc_id"):
            require_document(store, principal, str(item["doc_id"]))
            return load_document(store, str(item["doc_id"]))
        ref = str(item.get("file") or item.get("document") or item.get("doc_name") or "")
        if not ref:
            raise raised(TreeragError, "error.question_no_document", id=item.get("id"))
        if ref not in cache:
            cache[ref] = _find_or_index(ref)
        return cache[ref]

    def _find_or_index(ref: str) -> Document:
        path = os.path.abspath(os.path.join(source_root, ref) if source_root else ref)
        rows = readable_rows(store.list(), store, principal)
        row = next((r for r in rows if r.get("file_path") == path), None)
        row = row or next((r for r in rows if r.get("file_name") == os.path.basename(ref)), None)
        row = row or next((r for r in rows if _stem(str(r.get("file_name"))) == _stem(ref)), None)
        if row is not None:
            return load_document(store, row["doc_id"])
        if index_missing and os.path.exists(path):
            return index_document(
                path, summarizer=summarizer or make_summarizer(), registry_path=store,
                verbose=False, principal=principal,
            )  # fmt: skip
        raise raised(
            DocumentNotFoundError, "error.not_stored_nor_file", ref=ref, where=store.location
        )

    return load
