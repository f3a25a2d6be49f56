"""Index one upload or URL and summarise the outcome as a result card.

Pure functions over ``index_document``: the page passes in a progress callback (wired to
``st.progress``) and shows the returned :class:`IndexOutcome`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from treerag_core import Limits, TreeragError, index_document
from treerag_core.store.tinydb_store import Registry
from treerag_core.types import Document, ProgressFn

from .uploads import check_upload, stored_upload, upload_path


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
    )


def index_source(
    source: str,
    name: str,
    registry_path: str,
    summarizer: Any,
    overwrite: bool,
    progress: ProgressFn | None = None,
) -> IndexOutcome:
    """Index a stored file or a URL; errors become ``outcome.error`` (nothing is lost)."""
    started = time.perf_counter()
    registry = Registry(registry_path)
    try:
        before = registry.find_by_source(source)
        doc = index_document(
            source,
            summarizer=summarizer,
            registry_path=registry_path,
            overwrite=overwrite,
            verbose=False,
            progress=progress,
        )
    except TreeragError as exc:
        return IndexOutcome(name=name, error=str(exc), seconds=time.perf_counter() - started)
    # Same content and no overwrite: index_document returned the stored document as is.
    unchanged = (
        bool(before) and not overwrite and before.get("content_hash") == doc.get("content_hash")
    )
    return outcome_from(name, doc, time.perf_counter() - started, unchanged)


def index_upload(
    name: str,
    data: bytes,
    uploads_dir: str,
    registry_path: str,
    summarizer: Any,
    overwrite: bool,
    separate: bool = False,
    progress: ProgressFn | None = None,
    limits: Limits | None = None,
) -> IndexOutcome:
    """Check, store and index one uploaded file; a failure restores the previous file."""
    limits = limits or Limits.from_env()
    try:
        check_upload(name, len(data), limits.max_file_bytes)
    except TreeragError as exc:
        return IndexOutcome(name=name, error=str(exc))
    path = upload_path(uploads_dir, name, data, separate)
    outcome = IndexOutcome(name=name)
    try:
        with stored_upload(path, data):
            outcome = index_source(path, name, registry_path, summarizer, overwrite, progress)
            if outcome.error:
                raise _Undo
    except _Undo:
        pass
    except OSError as exc:
        outcome = IndexOutcome(name=name, error=f"Cannot store {name}: {exc.strerror}")
    return outcome


class _Undo(Exception):
    """Internal: make ``stored_upload`` restore the previous file after a failed index."""
