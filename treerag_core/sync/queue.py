"""A sync shared by the workers: the planning sync queues its files, workers index them.

With PostgreSQL, ``queue_sync`` plans under the source's lock like an in-process sync, but
queues one job per file to index (a job names the source and the path; the worker that
claims it reads the file itself, so the bytes never travel through the queue), and does
the cheap steps (re-points, deletions) at once. A path that already has a waiting or
running job is not queued again, so two syncs in a row, or a periodic sync on several
workers, never index a file twice. Workers record each file's outcome in the source's state.
"""

from __future__ import annotations

from typing import Any

from ..access.audit import actor, audited
from ..access.principal import Principal
from ..access.rules import require_admin
from ..jobs.api import DEFAULT_MAX_ATTEMPTS, _with_principal, job_queue
from ..limits import Limits
from ..store.base import RegistryLike
from ..summarize.summarizers import null_summarizer
from .plan import INDEX, REINDEX
from .run import SyncRun, sync_summary
from .sources import MANAGING, stored_source, sync_store


def queue_sync(
    source_id: str,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
    limits: Limits | None = None,
) -> dict[str, Any]:
    """Plan a sync of the source and queue its files for the workers; returns the report
    (``queued``: jobs added; ``counts``: what was done at once)."""
    store, sources = sync_store(registry_path)
    queue = job_queue(store)
    with audited(store, principal, "sync", detail=str(source_id)[:80]) as audit:
        require_admin(principal, MANAGING)
        source = stored_source(sources, source_id)
        audit.note(collection=source["collection"])
        with sources.lock(source["source_id"]):
            run = SyncRun(store, sources, source, principal, null_summarizer, limits)
            plan = run.prepare()
            pending = queue.pending_sync(source["source_id"])
            run.counts["unchanged"] = plan.counts()["unchanged"]
            queued = 0
            for step in plan.todo():
                if step.action not in (INDEX, REINDEX):
                    run.do(step)
                elif step.path not in pending:
                    options = {"sync": {"source_id": source["source_id"], "path": step.path}}
                    queue.add(
                        step.path[:200], None, source["collection"],
                        _with_principal(options, principal), actor(principal),
                        DEFAULT_MAX_ATTEMPTS,
                    )  # fmt: skip
                    queued += 1
            report = run.finish(queued=queued)
        audit.note(detail=f"{source_id}: {sync_summary(report)}")
    return report
