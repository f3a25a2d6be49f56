"""A PostgreSQL store is freed, and its connection pool closed, as soon as it is dropped.

A store whose parts held its own bound methods was a reference cycle: its pool lived on
until a full garbage collection, and a process that opened a store per call (a worker,
eight test processes of fifty operations each) ran the server out of connections."""

from __future__ import annotations

import gc
import weakref

from treerag_core.store.postgres.store import PostgresStore


def test_a_dropped_store_is_freed_without_a_garbage_collection() -> None:
    enabled = gc.isenabled()
    gc.disable()
    try:
        store = PostgresStore("postgresql://nobody@127.0.0.1:1/none")  # never connects
        cache = store.cache("ranking")
        dropped, database = weakref.ref(store), weakref.ref(store.db)
        del store
        assert dropped() is None  # no cycle keeps it
        assert database() is not None  # a cache handed out keeps the database it reads
        del cache
        assert database() is None
    finally:
        if enabled:
            gc.enable()
