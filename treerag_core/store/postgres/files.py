"""Uploaded sources and caches as database rows, so every replica and worker shares them.

Sources: ``sources(location, data bytea)``. A location is ``db:uploads/`` plus the same
upload key the file store uses (:func:`~treerag_core.store.originals.upload_key`), so a
re-upload of ``report.pdf`` updates the same document on either backend and a migration
keeps identities. Caches: ``cache_entries(cache, key, value jsonb)``; as everywhere, a cache
that cannot be read or written only costs time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from ...errors import TreeragError
from ..base import DEFAULT_COLLECTION
from ..originals import upload_key

UPLOADS = "db:uploads/"
Transaction = Callable[[], AbstractContextManager[psycopg.Connection[Any]]]


class DatabaseSources:
    """The database store's :class:`~treerag_core.store.base.SourceFiles`. Any location may
    be kept (a migrated document indexed from a local path keeps its bytes here too)."""

    holds_any_location = True

    def __init__(self, transaction: Transaction) -> None:
        self._tx = transaction

    def location_for(
        self, name: str, data: bytes, separate: bool = False, collection: str = DEFAULT_COLLECTION
    ) -> str:
        return self.location_of(upload_key(name, data, separate, collection))

    def location_of(self, key: str) -> str:
        return UPLOADS + key

    def key_of(self, location: str) -> str | None:
        return location[len(UPLOADS) :] if location.startswith(UPLOADS) else None

    @contextmanager
    def staged(self, location: str, data: bytes) -> Iterator[str]:
        """Store ``data`` for indexing; if indexing fails, put the previous bytes back (the
        registry keeps the previous index, so the source it shows must stay the previous one)."""
        previous = self.read(location)
        self.write(location, data)
        try:
            yield location
        except BaseException:
            if previous is None:
                self.discard(location)
            else:
                self.write(location, previous)
            raise

    def write(self, location: str, data: bytes) -> None:
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO sources (location, data) VALUES (%s, %s) ON CONFLICT (location) "
                "DO UPDATE SET data = EXCLUDED.data, stored_at = now()",
                (location, data),
            )

    def read(self, location: str) -> bytes | None:
        with self._tx() as conn:
            row = conn.execute(
                "SELECT data FROM sources WHERE location = %s", (location,), binary=True
            ).fetchone()
        return bytes(row["data"]) if row else None

    def discard(self, location: str) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM sources WHERE location = %s", (location,))


class DatabaseCache:
    """One named cache of the database store (a :class:`~treerag_core.store.base.Cache`)."""

    def __init__(self, transaction: Transaction, name: str) -> None:
        self._tx = transaction
        self.name = name

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            with self._tx() as conn:
                row = conn.execute(
                    "SELECT value FROM cache_entries WHERE cache = %s AND key = %s",
                    (self.name, key),
                ).fetchone()
        except TreeragError:
            return None
        value = row["value"] if row else None
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        try:
            with self._tx() as conn:
                conn.execute(
                    "INSERT INTO cache_entries (cache, key, value) VALUES (%s, %s, %s) "
                    "ON CONFLICT (cache, key) DO UPDATE SET value = EXCLUDED.value",
                    (self.name, key, Jsonb(value)),
                )
        except TreeragError:
            pass  # a cache that cannot be written only costs time, never correctness

    def __len__(self) -> int:
        with self._tx() as conn:
            row = conn.execute(
                "SELECT count(*) AS n FROM cache_entries WHERE cache = %s", (self.name,)
            ).fetchone()
        return int(row["n"]) if row else 0
