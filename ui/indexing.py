"""Index one upload or URL and summarise the outcome as a result card.

Thin wrappers over the core's ``index_document`` / ``index_upload``, which do the work
(access rules, keeping the upload, the audit log): the page passes in a progress callback
(wired to ``st.progress``) and shows the returned :class:`IndexOutcome`, which also says
whether the stored index was kept as it was and turns a refusal into a message.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from treerag_core import Document, TreeragError, index_document
from treerag_core.access import Principal
from treerag_core.library import index_upload
from treerag_core.limits import Limits
from treerag_core.store import DEFAULT_COLLECTION, DocumentStore, RegistryLike, open_store
from treerag_core.types import ProgressFn

from .errors import message_for


@dataclass
class IndexOutcome:
    """What one indexing attempt produced, ready for a result card."""

    name: str
    doc_id: str | None = None
    error: str | None = None
    unchanged: bool = False  # same content as stored: nothing was re-indexed
    sections: int = 0
    pages: int | None = None
    llm_calls: int = 0
    tokens: int = 0
    seconds: float = 0.0
    reused: int = 0
    engine: str = ""
    structure: str = ""  # what gave the tree (bookmarks, headings found in the text, …)
    ocr_pages: int = 0
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def outcome_from(name: str, doc: Document, seconds: float, unchanged: bool) -> IndexOutcome:
    stats = doc.get("stats") or {}
    summary_stats = stats.get("summaries") or {}
    return IndexOutcome(
        name=name,
        doc_id=doc.get("doc_id"),
        unchanged=unchanged,
        sections=int(doc.get("total_sections") or len(doc.get("flat_nodes") or {})),
        pages=doc.get("total_pages"),
        llm_calls=0 if unchanged else int(summary_stats.get("calls") or 0),
        tokens=0
        if unchanged
        else int(summary_stats.get("tokens_in") or 0) + int(summary_stats.get("tokens_out") or 0),
        seconds=round(seconds, 2),
        reused=int(doc.get("total_sections") or 0)
        if unchanged
        else int(stats.get("summaries_reused") or 0),
        engine=str(doc.get("engine") or ""),
        structure=str(doc.get("structure_source") or ""),
        ocr_pages=int(doc.get("ocr_pages") or 0),
        warnings=[str(w) for w in doc.get("warnings") or []],
    )


def index_source(
    source: str,
    name: str,
    registry_path: RegistryLike,
    summarizer: Any,
    overwrite: bool,
    progress: ProgressFn | None = None,
    collection: str | None = None,
    principal: Principal | None = None,
) -> IndexOutcome:
    """Index a stored file or a URL; errors become ``outcome.error`` (nothing is lost).

    ``collection=None`` keeps a stored document where it is (a re-index)."""
    return _indexed(
        name, registry_path, source, overwrite,
        lambda store: index_document(
            source, summarizer=summarizer, registry_path=store, overwrite=overwrite,
            verbose=False, progress=progress, collection=collection, principal=principal,
        ),
    )  # fmt: skip


def reindex(
    row: dict[str, Any],
    registry_path: RegistryLike,
    summarizer: Any,
    principal: Principal | None = None,
) -> IndexOutcome:
    """Re-index a listed document from its source: the URL, the file on this disk, or the
    upload the store keeps (in a database every replica reads it from there)."""
    source = str(row.get("file_path") or "")
    name = str(row.get("file_name") or source)
    if row.get("source_type") == "url" or os.path.isfile(source):
        return index_source(source, name, registry_path, summarizer, True, principal=principal)
    kept = open_store(registry_path).sources.read(source)
    if kept is None:
        return IndexOutcome(
            name=name, error=f"The source file is no longer at {source}: upload it again."
        )
    return index_uploaded_file(name, kept, registry_path, summarizer, True, principal=principal,
                               location=source)  # fmt: skip


def index_uploaded_file(
    name: str,
    data: bytes,
    registry_path: RegistryLike,
    summarizer: Any,
    overwrite: bool,
    *,
    separate: bool = False,
    progress: ProgressFn | None = None,
    limits: Limits | None = None,
    collection: str | None = None,
    principal: Principal | None = None,
    location: str | None = None,
) -> IndexOutcome:
    """Keep and index one uploaded file (the core's ``index_upload``); a failure keeps the
    previous file and index and becomes ``outcome.error``. ``location``: where the store
    already keeps it (a re-index).

    The core returns the stored document as it was when the content is unchanged, without
    saying so; the card says so, which needs the stored version of the same source first,
    so its location is asked of the store here too (the same ``location_for``)."""
    try:
        source = location or open_store(registry_path).sources.location_for(
            name, data, separate, collection or DEFAULT_COLLECTION
        )
    except TreeragError as exc:
        return IndexOutcome(name=name, error=message_for(exc))
    return _indexed(
        name, registry_path, source, overwrite,
        lambda store: index_upload(
            name, data, summarizer=summarizer, registry_path=store, overwrite=overwrite,
            separate=separate, progress=progress, limits=limits, collection=collection,
            principal=principal, location=location,
        ),
    )  # fmt: skip


def _indexed(
    name: str,
    registry_path: RegistryLike,
    source: str,
    overwrite: bool,
    run: Callable[[DocumentStore], Document],
) -> IndexOutcome:
    started = time.perf_counter()
    store = open_store(registry_path)
    try:
        before = store.find_by_source(source)
        doc = run(store)
    except TreeragError as exc:
        return IndexOutcome(
            name=name, error=message_for(exc), seconds=time.perf_counter() - started
        )
    except OSError as exc:
        return IndexOutcome(name=name, error=f"Cannot store {name}: {exc.strerror}")
    # Same content and no overwrite: indexing returned the stored document as is.
    unchanged = (
        bool(before) and not overwrite and before.get("content_hash") == doc.get("content_hash")
    )
    return outcome_from(name, doc, time.perf_counter() - started, unchanged)
