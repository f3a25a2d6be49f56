"""Sync a folder or a bucket into the library: list, plan (``sync/plan.py``), carry out.

One sync of a source runs at a time (the store's sync lock: a file lock beside a registry
file, an advisory lock in PostgreSQL); a second is refused with ``SyncBusyError``. Each
step is one of the library's own writes, so a sync killed at any point leaves a library
that the next sync finishes into the same one an uninterrupted sync gives:

- a new or changed file is read, kept in the store at a place named by the source and a
  hash of its path (``store/sources.synced_key``) and indexed there with ``index_upload``
  (its origin saved with the document; a changed file keeps its id and the summaries of its
  unchanged sections); killed before the save, the next plan indexes it again;
- a renamed or moved file (same fingerprint, new path) is re-pointed: its kept copy and
  the document move to the new path, nothing is read or indexed again;
- a file that is gone takes its document (and kept copy) with it.

A file that fails (unreadable, too large, empty) is recorded with its message and the
others go on; it is planned again on the next sync, since the library holds nothing for it.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from ..access.audit import actor, audited
from ..access.principal import Principal
from ..access.rules import EDITOR_ROLE, require_admin, require_document
from ..errors import StoreUnavailableError, TreeragError
from ..library.catalog import index_entry
from ..library.documents import delete_document, load_document
from ..library.indexing import index_upload
from ..limits import Limits
from ..read.formats import check_upload
from ..settings import load
from ..store.base import DocumentStore, RegistryLike, SyncSources
from ..store.originals import safe_file_name, synced_key
from ..summarize.summarizers import null_summarizer
from ..types import Document, Origin, ProgressFn, SummarizerFn
from .config import open_reader
from .listing import SourceReader
from .plan import (
    DELETE,
    INDEX,
    REINDEX,
    REPOINT,
    Listed,
    Step,
    SyncPlan,
    fingerprints_needed,
    held_from_rows,
    plan_sync,
)
from .sources import MANAGING, now_stamp, stored_source, sync_store

log = logging.getLogger("treerag.sync")

# How often a running sync writes its progress into the source's state (other sessions'
# Sources pages show it): one small write a second, whatever the number of files.
PROGRESS_EVERY_S = 1.0
# A failed file's message as kept in the state and shown on the page.
MAX_ERROR_CHARS = 300
# What a sync's report counts, in the order people read it (the CLI, the Sources page).
SYNC_COUNTS = ("added", "updated", "moved", "removed", "unchanged", "failed")


def sync_source(
    source_id: str,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
    summarizer: SummarizerFn = null_summarizer,
    progress: ProgressFn | None = None,
    limits: Limits | None = None,
) -> dict[str, Any]:
    """Bring the library in step with the source now; returns the sync's report
    (``counts``: added, updated, moved, removed, unchanged, failed; ``errors`` by path;
    ``skipped``; ``bytes_read``; ``seconds``). ``SyncBusyError`` if one is running."""
    store, sources = sync_store(registry_path)
    with audited(store, principal, "sync", detail=str(source_id)[:80]) as audit:
        require_admin(principal, MANAGING)
        source = stored_source(sources, source_id)
        audit.note(collection=source["collection"])
        with sources.lock(source["source_id"]):
            run = SyncRun(store, sources, source, principal, summarizer, limits, progress)
            report = run.run()
        audit.note(detail=f"{source_id}: {sync_summary(report)}")
    return report


def sync_summary(report: dict[str, Any]) -> str:
    """``3 added, 1 failed`` (``2 queued, …`` through the workers): a report in a line."""
    counts = report.get("counts") or {}
    line = ", ".join(f"{counts.get(k, 0)} {k}" for k in SYNC_COUNTS if counts.get(k))
    if report.get("queued"):
        line = ", ".join(filter(None, [f"{report['queued']} queued", line]))
    return line or "nothing to do"


class SyncRun:
    """One sync of one source (its lock held by the caller): plan, then each step."""

    def __init__(
        self,
        store: DocumentStore,
        sources: SyncSources,
        source: dict[str, Any],
        principal: Principal | None,
        summarizer: SummarizerFn,
        limits: Limits | None,
        progress: ProgressFn | None = None,
    ) -> None:
        self.store, self.sources, self.source = store, sources, source
        self.principal, self.summarizer = principal, summarizer
        self.limits = limits or load().limits()
        self.progress = progress or (lambda done, total, message: None)
        self.started, self.last_write = time.monotonic(), 0.0
        self.started_at = now_stamp()
        self.counts = dict.fromkeys(SYNC_COUNTS, 0)
        self.errors: dict[str, str] = {}
        self.entries: dict[str, Listed] = {}
        self.hashes: dict[str, str] = {}  # held doc_id → content hash before this sync
        self.skipped: dict[str, str] = {}
        self.complete = True
        self._reader: SourceReader | None = None

    @property
    def reader(self) -> SourceReader:
        if self._reader is None:
            self._reader = open_reader(self.source, self.limits)
        return self._reader

    def prepare(self) -> SyncPlan:
        """List the source and plan against what the library holds from it."""
        self._state(running={"started_at": self.started_at, "by": actor(self.principal),
                             "done": 0, "total": 0, "message": "Listing the source"})  # fmt: skip
        self.progress(0, 1, "Listing the source")
        listing = self.reader.list()
        self.entries = {entry.path: entry for entry in listing.entries}
        self.skipped, self.complete = listing.skipped, listing.complete
        rows = self.sources.held(self.source["source_id"])
        self.hashes = {str(r["doc_id"]): str(r.get("content_hash") or "") for r in rows}
        held = held_from_rows(rows)
        hashes = {}
        for path in fingerprints_needed(listing.entries, held):
            try:
                hashes[path] = self.reader.read(path)[1]
            except (TreeragError, OSError) as exc:  # planned as new: its indexing says why
                log.info("cannot fingerprint %s: %s", path, exc)
        return plan_sync(listing.entries, held, hashes, listing.complete)

    def run(self) -> dict[str, Any]:
        try:
            plan = self.prepare()
            self.counts["unchanged"] = plan.counts()["unchanged"]
            todo = plan.todo()
            for done, step in enumerate(todo):
                self._report(done, len(todo), f"{step.action}: {step.path}")
                self.do(step)
            return self.finish()
        except BaseException as exc:
            self._state(running=None, interrupted=f"{type(exc).__name__}: {exc}"[:MAX_ERROR_CHARS])
            raise

    def do(self, step: Step) -> None:
        """Carry out one step; a file that fails is recorded, and the sync goes on."""
        try:
            if step.action == REPOINT:
                self._repoint(step)
            elif step.action == DELETE:
                self._delete(step)
            else:
                self.index(step)
        except StoreUnavailableError:
            raise  # the database is away: every later step would fail too
        except Exception as exc:  # noqa: BLE001 - one bad file must not stop the others
            log.info("sync %s: %s failed: %s", self.source["source_id"], step.path, exc)
            self.counts["failed"] += 1
            self.errors[step.path] = _message(exc)
            if step.action == INDEX:  # nothing was kept for it: no empty folder stays either
                self.store.sources.discard(self._location(step.path))

    def index(self, step: Step) -> Document | None:
        """Read a new or changed file and index it at its kept place (None: it is gone)."""
        entry = self.entries.get(step.path) or self.reader.entry(step.path)
        if entry is None:
            return None
        name = safe_file_name(os.path.basename(step.path))
        check_upload(name, entry.size, self.limits)  # refused before any byte is read
        data, fingerprint = self.reader.read(step.path)
        document = index_upload(
            name, data, summarizer=self.summarizer, registry_path=self.store,
            collection=self.source["collection"], principal=self.principal, limits=self.limits,
            location=self._location(step.path), origin=self._origin(entry, fingerprint),
        )  # fmt: skip
        if step.action == INDEX:
            self.counts["added"] += 1
        elif self.hashes.get(str(document["doc_id"])) == document.get("content_hash"):
            self.counts["unchanged"] += 1  # touched, not changed: the stored index holds
        else:
            self.counts["updated"] += 1
        return document

    def _repoint(self, step: Step) -> None:
        """The same file at a new path: move its kept copy and its document, read nothing."""
        row = require_document(self.store, self.principal, str(step.doc_id), EDITOR_ROLE)
        old = str((row or self.store.meta(str(step.doc_id)) or {}).get("file_path") or "")
        data = self.store.sources.read(old) if old else None
        if data is None:  # the kept copy is gone: index the file afresh instead
            self._delete(step)
            self.index(Step(INDEX, step.path))
            return
        entry = self.entries[step.path]
        document = load_document(self.store, str(step.doc_id))
        new = self._location(step.path)
        with audited(
            self.store,
            self.principal,
            "sync-move",
            doc_id=step.doc_id,
            collection=self.source["collection"],
            detail=f"from {step.previous_path}",
        ):
            moved: Document = {**document, "file_path": new,
                     "file_name": safe_file_name(os.path.basename(step.path)),
                     "origin": self._origin(entry, str(step.fingerprint))}  # fmt: skip
            with self.store.sources.staged(new, data):
                moved = self.store.save(moved)
            index_entry(self.store, moved)
            self.store.sources.discard(old)
        self.counts["moved"] += 1

    def _delete(self, step: Step) -> None:
        row = self.store.meta(str(step.doc_id))
        if row is not None and delete_document(str(step.doc_id), self.store, self.principal):
            self.store.sources.discard(str(row.get("file_path") or ""))
            self.counts["removed"] += 1

    def finish(self, queued: int = 0) -> dict[str, Any]:
        """Record and return the report of this sync."""
        report = {
            "source_id": self.source["source_id"],
            "started_at": self.started_at,
            "finished_at": now_stamp(),
            "seconds": round(time.monotonic() - self.started, 3),
            "by": actor(self.principal),
            "counts": dict(self.counts),
            "queued": queued,
            "listed": len(self.entries),
            "complete": self.complete,
            "bytes_read": self.reader.bytes_read,
        }
        self._state(running=None, interrupted=None, last_sync=report,
                    errors=dict(self.errors), skipped=dict(self.skipped))  # fmt: skip
        self.progress(1, 1, "Done")
        return {**report, "errors": dict(self.errors), "skipped": dict(self.skipped)}

    def _report(self, done: int, total: int, message: str) -> None:
        self.progress(done, total, message)
        if time.monotonic() - self.last_write >= PROGRESS_EVERY_S:
            self.last_write = time.monotonic()
            running = {"started_at": self.started_at, "by": actor(self.principal),
                       "done": done, "total": total, "message": message[:200]}  # fmt: skip
            self._state(running=running)

    def _state(self, **changes: Any) -> None:
        self.sources.update_state(self.source["source_id"], lambda s: {**s, **changes})

    def _location(self, path: str) -> str:
        return self.store.sources.location_of(synced_key(self.source["source_id"], path))  # type: ignore[attr-defined]

    def _origin(self, entry: Listed, fingerprint: str) -> Origin:
        return {"source_id": self.source["source_id"], "path": entry.path,
                "fingerprint": fingerprint, "size": entry.size, "mtime_ns": entry.mtime_ns}  # fmt: skip


def sync_file(
    source_id: str,
    path: str,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
    summarizer: SummarizerFn = null_summarizer,
    progress: ProgressFn | None = None,
) -> Document | None:
    """Index one file of a source as it is now (a queued sync's job, run by a worker) and
    record its outcome in the source's state; returns the document (None: the file is
    gone, the next sync removes it). A failure is recorded, then raised."""
    store, sources = sync_store(registry_path)
    source = stored_source(sources, source_id)
    run = SyncRun(store, sources, source, principal, summarizer, None, progress)
    try:
        document = run.index(Step(REINDEX, path))
    except Exception as exc:
        _record_file(sources, source_id, path, _message(exc))
        raise
    _record_file(sources, source_id, path, None)
    return document


def _record_file(sources: SyncSources, source_id: str, path: str, error: str | None) -> None:
    def change(state: dict[str, Any]) -> dict[str, Any]:
        errors = dict(state.get("errors") or {})
        if error:
            errors[path] = error
        else:
            errors.pop(path, None)
        return {**state, "errors": errors}

    sources.update_state(source_id, change)


def _message(exc: BaseException) -> str:
    text = str(exc) if isinstance(exc, TreeragError) else f"{type(exc).__name__}: {exc}"
    return " ".join(text.split())[:MAX_ERROR_CHARS] or type(exc).__name__
