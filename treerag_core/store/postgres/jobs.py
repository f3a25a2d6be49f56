"""The indexing job queue: one ``jobs`` row per queued upload, claimed by workers.

A worker claims the oldest waiting job with ``SELECT … FOR UPDATE SKIP LOCKED`` (workers
never wait on each other or take the same job), holds it under a lease it renews with each
heartbeat, and writes its progress into the row, so any replica shows any job. A job whose
worker died (no heartbeat until the lease expired) is claimed again; after ``max_attempts``
claims it fails for good. The upload's bytes travel in the row and are dropped once it ends.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

Transaction = Callable[[], AbstractContextManager[psycopg.Connection[Any]]]
# Columns shown to people (never the payload).
SHOWN = (
    "id, name, collection, status, attempts, max_attempts, worker, progress_done, "
    "progress_total, message, error, doc_id, created_by, created_at, started_at, finished_at, "
    "heartbeat_at, lease_until, options"
)
_CLAIM = f"""
    WITH next AS (
        SELECT id FROM jobs
        WHERE (status = 'queued' AND run_after <= now())
           OR (status = 'running' AND lease_until < now() AND attempts < max_attempts)
        ORDER BY id
        FOR UPDATE SKIP LOCKED
        LIMIT 1
    )
    UPDATE jobs SET status = 'running', worker = %(worker)s, attempts = jobs.attempts + 1,
        lease_until = now() + make_interval(secs => %(lease)s), heartbeat_at = now(),
        started_at = coalesce(jobs.started_at, now()), message = 'Claimed by a worker'
    FROM next WHERE jobs.id = next.id
    RETURNING {", ".join("jobs." + c.strip() for c in SHOWN.split(","))}, jobs.payload
"""
# Jobs whose worker died on their last allowed attempt: nobody will take them again.
_GIVE_UP = """
    UPDATE jobs SET status = 'failed', finished_at = now(), payload = NULL,
        error = 'The worker running it stopped answering ' || attempts || ' time(s); '
                || 'giving up. Upload it again to retry.'
    WHERE status = 'running' AND lease_until < now() AND attempts >= max_attempts
"""


class JobQueue:
    """The SQL of the queue; what a job does is the worker's (``treerag_core.jobs``)."""

    def __init__(self, transaction: Transaction) -> None:
        self._tx = transaction

    def add(
        self,
        name: str,
        payload: bytes | None,
        collection: str | None,
        options: dict[str, Any],
        created_by: str,
        max_attempts: int,
    ) -> dict[str, Any]:
        with self._tx() as conn:
            return conn.execute(
                "INSERT INTO jobs (name, payload, collection, options, created_by, max_attempts)"
                f" VALUES (%s, %s, %s, %s, %s, %s) RETURNING {SHOWN}",
                (name, payload, collection, Jsonb(options), created_by, max_attempts),
            ).fetchone()  # type: ignore[return-value]

    def claim(self, worker: str, lease_s: float) -> dict[str, Any] | None:
        """The next job for ``worker`` (now running under a lease), or None."""
        with self._tx() as conn:
            conn.execute(_GIVE_UP)
            return conn.execute(_CLAIM, {"worker": worker, "lease": lease_s}).fetchone()

    def heartbeat(
        self, job_id: int, worker: str, lease_s: float, done: int, total: int, message: str
    ) -> bool:
        """Renew the lease and record progress; False when the job is no longer ours."""
        with self._tx() as conn:
            cursor = conn.execute(
                "UPDATE jobs SET lease_until = now() + make_interval(secs => %s), "
                "heartbeat_at = now(), progress_done = %s, progress_total = %s, message = %s "
                "WHERE id = %s AND worker = %s AND status = 'running'",
                (lease_s, done, total, message[:300], job_id, worker),
            )
        return cursor.rowcount > 0

    def finish(self, job_id: int, worker: str, doc_id: str, message: str) -> bool:
        with self._tx() as conn:
            cursor = conn.execute(
                "UPDATE jobs SET status = 'done', doc_id = %s, message = %s, error = NULL, "
                "progress_done = progress_total, finished_at = now(), payload = NULL, "
                "lease_until = NULL WHERE id = %s AND worker = %s AND status = 'running'",
                (doc_id, message[:300], job_id, worker),
            )
        return cursor.rowcount > 0

    def fail(self, job_id: int, worker: str, error: str, retry_in_s: float | None) -> bool:
        """Record a failure: back to the queue after ``retry_in_s`` when attempts remain
        (None: a permanent failure, e.g. a file that cannot be read)."""
        with self._tx() as conn:
            row = conn.execute(
                "SELECT attempts, max_attempts FROM jobs WHERE id = %s AND worker = %s "
                "AND status = 'running' FOR UPDATE",
                (job_id, worker),
            ).fetchone()
            if row is None:
                return False
            if retry_in_s is not None and row["attempts"] < row["max_attempts"]:
                conn.execute(
                    "UPDATE jobs SET status = 'queued', worker = NULL, lease_until = NULL, "
                    "error = %s, message = 'Waiting to retry', "
                    "run_after = now() + make_interval(secs => %s) WHERE id = %s",
                    (error[:500], retry_in_s, job_id),
                )
            else:
                conn.execute(
                    "UPDATE jobs SET status = 'failed', worker = NULL, lease_until = NULL, "
                    "error = %s, message = 'Failed', finished_at = now(), payload = NULL "
                    "WHERE id = %s",
                    (error[:500], job_id),
                )
        return True

    def pending_sync(self, source_id: str) -> set[str]:
        """Paths of a synced source whose jobs wait or run (a second sync leaves them be)."""
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT options -> 'sync' ->> 'path' AS path FROM jobs "
                "WHERE status IN ('queued', 'running') AND options -> 'sync' ->> 'source_id' = %s",
                (source_id,),
            ).fetchall()
        return {str(r["path"]) for r in rows}

    def get(self, job_id: int) -> dict[str, Any] | None:
        with self._tx() as conn:
            return conn.execute(f"SELECT {SHOWN} FROM jobs WHERE id = %s", (job_id,)).fetchone()

    def recent(self, limit: int) -> list[dict[str, Any]]:
        """The newest jobs first (waiting and running ones included, whatever their age)."""
        with self._tx() as conn:
            return conn.execute(
                f"SELECT {SHOWN} FROM jobs ORDER BY (status IN ('queued', 'running')) DESC, "
                "id DESC LIMIT %s",
                (limit,),
            ).fetchall()
