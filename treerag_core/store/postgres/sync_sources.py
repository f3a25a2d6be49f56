"""Synced sources as rows: ``sync_sources(source_id, config jsonb, state jsonb)``.

Every replica and worker sees the same sources and their state; a state change is one
``SELECT … FOR UPDATE`` and ``UPDATE`` (workers recording their files at once lose none).
The sync lock is a session-level advisory lock keyed by the source, on a connection the
sync holds for its length: PostgreSQL frees it when that connection closes, so a killed
sync (or a lost machine) never wedges the source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from ...errors import SyncBusyError

Transaction = Callable[[], AbstractContextManager[psycopg.Connection[Any]]]
# Advisory lock keys of sync locks are hashed from this prefix and the source id, apart
# from the per-source save locks (hashed from a document's location).
LOCK_PREFIX = "treerag-sync:"


class DatabaseSyncSources:
    """The database store's :class:`~treerag_core.store.base.SyncSources`."""

    def __init__(self, transaction: Transaction) -> None:
        self._tx = transaction

    def all(self) -> list[dict[str, Any]]:
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT config, state FROM sync_sources ORDER BY created_at, source_id"
            ).fetchall()
        return [{**r["config"], "state": r["state"]} for r in rows]

    def get(self, source_id: str) -> dict[str, Any] | None:
        with self._tx() as conn:
            row = conn.execute(
                "SELECT config, state FROM sync_sources WHERE source_id = %s", (source_id,)
            ).fetchone()
        return {**row["config"], "state": row["state"]} if row else None

    def put(self, source: dict[str, Any]) -> None:
        config = {k: v for k, v in source.items() if k != "state"}
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO sync_sources (source_id, config, state) VALUES (%s, %s, %s) "
                "ON CONFLICT (source_id) DO UPDATE SET config = EXCLUDED.config",
                (source["source_id"], Jsonb(config), Jsonb(source.get("state") or {})),
            )

    def remove(self, source_id: str) -> bool:
        with self._tx() as conn:
            cursor = conn.execute("DELETE FROM sync_sources WHERE source_id = %s", (source_id,))
        return cursor.rowcount > 0

    def update_state(
        self, source_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any] | None:
        with self._tx() as conn:
            row = conn.execute(
                "SELECT state FROM sync_sources WHERE source_id = %s FOR UPDATE", (source_id,)
            ).fetchone()
            if row is None:
                return None
            state = change(dict(row["state"] or {}))
            conn.execute(
                "UPDATE sync_sources SET state = %s WHERE source_id = %s",
                (Jsonb(state), source_id),
            )
        return state

    @contextmanager
    def lock(self, source_id: str) -> Iterator[None]:
        key = LOCK_PREFIX + source_id
        with self._tx() as conn:
            row = conn.execute(
                "SELECT pg_try_advisory_lock(hashtextextended(%s, 0)) AS got", (key,)
            ).fetchone()
            conn.commit()  # the lock is the session's: no transaction stays open meanwhile
            if not row or not row["got"]:
                raise SyncBusyError(  # worded as the catalogue's key (store: no text layer)
                    f"A sync of source {source_id} is already running; it will pick up every "
                    "change it finds, so there is no need to start another.",
                    key="error.sync_busy",
                    values={"id": source_id},
                )
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (key,))

    def held(self, source_id: str) -> list[dict[str, Any]]:
        with self._tx() as conn:
            rows = conn.execute(
                "SELECT meta, collection FROM documents "
                "WHERE meta -> 'origin' ->> 'source_id' = %s",
                (source_id,),
            ).fetchall()
        return [{**r["meta"], "collection": r["collection"]} for r in rows]
