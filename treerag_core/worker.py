"""The indexing worker: claim a job, index it with the same code as the app, report, repeat.

Run any number of them, on any machines that reach the database
(``python -m treerag_core worker``). Each claimed job is held under a lease the worker renews
with a heartbeat (which also writes the progress the Upload page shows). A worker that dies
stops renewing; when its lease expires another worker claims the job again, and because a
document's identity is its source, the retried job replaces the same document: it is stored
once. A file that cannot be indexed (a ``TreeragError``: unreadable, empty, refused) fails at
once; anything else (the database went away, a crash in a reader) is retried after a delay,
up to the job's ``max_attempts``.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from .errors import StoreUnavailableError, SyncBusyError, TreeragError
from .jobs.api import job_queue, principal_of
from .library.indexing import index_document, index_upload
from .llm.providers import make_llms
from .store.base import DocumentStore
from .summarize.summarizers import make_summarizer
from .sync.queue import queue_sync
from .sync.run import sync_file
from .text.messages import raised

log = logging.getLogger("treerag.jobs")

# A worker whose heartbeat stops for this long is presumed dead and its job is claimed again:
# thirty missed beats, longer than a database restart or a long pause of the process.
DEFAULT_LEASE_S = 30.0
# How often a busy worker writes its progress (and renews its lease): the Upload page
# refreshes every two seconds, and one small UPDATE a second per worker costs nothing.
PROGRESS_EVERY_S = 1.0
# How long an idle worker waits before asking for a job again.
DEFAULT_POLL_S = 1.0
# A job that failed for a passing reason waits this long per attempt before its retry.
RETRY_DELAY_S = 5.0

SummarizerFactory = Callable[[str | None], Any]


class Worker:
    """Claims and runs jobs from one store until stopped (or, with ``drain``, until none wait)."""

    def __init__(
        self,
        store: DocumentStore,
        name: str | None = None,
        lease_s: float = DEFAULT_LEASE_S,
        poll_s: float = DEFAULT_POLL_S,
        retry_delay_s: float = RETRY_DELAY_S,
        summarizer_for: SummarizerFactory | None = None,
        sync_every_s: float | None = None,
    ) -> None:
        self.store = store
        self.queue = job_queue(store)
        self.name = name or f"{socket.gethostname()}-{os.getpid()}"
        self.lease_s = lease_s
        self.poll_s = poll_s
        self.retry_delay_s = retry_delay_s
        self.summarizer_for = summarizer_for or environment_summarizers(store)
        self.sync_every_s = sync_every_s
        self._next_sync = 0.0
        self._stopping = threading.Event()

    def stop(self) -> None:
        """Finish the job in hand, then return from :meth:`run` (SIGTERM does this)."""
        self._stopping.set()

    def run(self, drain: bool = False, max_jobs: int | None = None) -> int:
        """Process jobs; returns how many were run. ``drain``: return when none is waiting."""
        done = 0
        while not self._stopping.is_set() and (max_jobs is None or done < max_jobs):
            try:
                self.sync_if_due()
                ran = self.run_one()
            except StoreUnavailableError as exc:  # the database is away: wait, then ask again
                log.warning("%s: %s", self.name, exc)
                ran = False
            if ran:
                done += 1
            elif drain:
                break
            else:
                self._stopping.wait(self.poll_s)
        return done

    def sync_if_due(self) -> int:
        """Every ``sync_every_s`` seconds, plan a sync of every source and queue its files
        (``jobs/sync.py``); a source another worker is planning is left to it. Returns the
        files queued."""
        if self.sync_every_s is None or time.monotonic() < self._next_sync:
            return 0
        self._next_sync = time.monotonic() + self.sync_every_s
        queued = 0
        for source in self.store.sync_sources.all():  # type: ignore[attr-defined]
            try:
                queued += queue_sync(source["source_id"], self.store)["queued"]
            except SyncBusyError:
                continue
            except TreeragError as exc:
                log.warning("%s: sync of %s: %s", self.name, source["source_id"], exc)
        return queued

    def run_one(self) -> bool:
        """Claim and run one job; False when none is waiting."""
        job = self.queue.claim(self.name, self.lease_s)
        if job is None:
            return False
        log.info("%s: job %s (%s), attempt %s", self.name, job["id"], job["name"], job["attempts"])
        beat = Heartbeat(self.queue, job["id"], self.name, self.lease_s)
        beat.start()
        try:
            document = self._index(job, beat.report)
        except StoreUnavailableError as exc:
            self._failed(job, str(exc), retry=True)
        except TreeragError as exc:
            self._failed(job, str(exc), retry=False)
        except Exception as exc:  # noqa: BLE001 - a crash in one job must not end the worker
            log.exception("%s: job %s crashed", self.name, job["id"])
            self._failed(job, f"{type(exc).__name__}: {exc}", retry=True)
        else:
            sections = document.get("total_sections")
            message = f"Indexed: {sections} sections"
            if not self.queue.finish(job["id"], self.name, document["doc_id"], message):
                log.warning("%s: job %s was taken over meanwhile", self.name, job["id"])
        finally:
            beat.stop()
        return True

    def _index(self, job: dict[str, Any], progress: Callable[[int, int, str], None]) -> Any:
        options = job["options"] or {}
        common = {
            "summarizer": self.summarizer_for(options.get("system_prompt")),
            "registry_path": self.store,
            "overwrite": bool(options.get("overwrite")),
            "progress": progress,
            "collection": job["collection"],
            "principal": principal_of(options),
        }
        if options.get("url"):
            return index_document(options["url"], verbose=False, **common)
        if options.get("sync"):  # a synced file: read from its source now (jobs/sync.py)
            sync = options["sync"]
            document = sync_file(
                sync["source_id"], sync["path"], self.store, common["principal"],
                common["summarizer"], progress,
            )  # fmt: skip
            return document or {"doc_id": "", "total_sections": 0}
        payload = job.get("payload")
        if payload is None:
            raise raised(TreeragError, "error.upload_gone")
        return index_upload(
            job["name"], bytes(payload), separate=bool(options.get("separate")), **common
        )

    def _failed(self, job: dict[str, Any], error: str, retry: bool) -> None:
        delay = self.retry_delay_s * job["attempts"] if retry else None
        log.warning("%s: job %s failed (%s): %s", self.name, job["id"],
                    "will retry" if retry else "for good", error)  # fmt: skip
        try:
            self.queue.fail(job["id"], self.name, error, delay)
        except StoreUnavailableError:
            pass  # the lease runs out and another worker (or this one) claims it again


class Heartbeat(threading.Thread):
    """Renews a job's lease and writes its latest progress, every ``PROGRESS_EVERY_S``."""

    def __init__(self, queue: Any, job_id: int, worker: str, lease_s: float) -> None:
        super().__init__(name=f"heartbeat-{job_id}", daemon=True)
        self.queue, self.job_id, self.worker, self.lease_s = queue, job_id, worker, lease_s
        self.every_s = min(PROGRESS_EVERY_S, lease_s / 4)
        self.progress: tuple[int, int, str] = (0, 1, "Started")
        self.lost = False
        self._stop_event = threading.Event()

    def report(self, done: int, total: int, message: str) -> None:
        """The indexer's progress callback: kept here, written with the next beat."""
        self.progress = (done, total, message)

    def run(self) -> None:
        while not self._stop_event.wait(self.every_s):
            try:
                if not self.queue.heartbeat(self.job_id, self.worker, self.lease_s, *self.progress):
                    self.lost = True
            except TreeragError as exc:  # a blip: the next beat tries again
                log.warning("heartbeat of job %s: %s", self.job_id, exc)

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=5)


def environment_summarizers(store: DocumentStore) -> SummarizerFactory:
    """Summaries by the models configured in this worker's environment (as the CLI does;
    none: the offline engine), with replies cached in the shared store."""
    search_llm, _ = make_llms()

    def summarizer_for(system_prompt: str | None) -> Any:
        if search_llm is None:
            return make_summarizer(None)
        if system_prompt:
            return make_summarizer(
                search_llm, system_prompt=system_prompt, cache=store.cache("llm")
            )
        return make_summarizer(search_llm, cache=store.cache("llm"))

    return summarizer_for


__all__ = ["DEFAULT_LEASE_S", "Worker"]
