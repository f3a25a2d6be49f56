"""One database URL → a pool of connections, transactions, and typed errors.

Why a pool per store object (and not one per process in a module global): the core keeps no
global mutable state, so whoever holds a store holds its connections. A long-lived process
opens the store once and passes the object (the app keeps one per URL in
``st.cache_resource``; the CLI and the worker open one at start); a library call given the
URL as a string opens a small pool for that call, closed when the store is dropped.

Every operation runs in one transaction (``with db.transaction() as conn``): committed when
the block ends, rolled back on any error, so a connection killed mid-save leaves the previous
rows as they were. psycopg's errors never leave this module: a connection problem becomes
``StoreUnavailableError``, anything else ``RegistryError``, each naming the database without
its password.
"""

from __future__ import annotations

import os
import re
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from ...errors import RegistryError, StoreUnavailableError
from ...settings import load

# How long opening a store waits for its first connection before the typed error: a server
# that is down or refuses us is said so within seconds (libpq retries meanwhile).
OPEN_TIMEOUT_S = 5.0
# How long a caller waits for a free connection of an open pool: long enough to ride over a
# busy moment, short enough that a page says what is wrong.
CONNECT_TIMEOUT_S = 15.0
# libpq's own connect timeout for one attempt (a dead host fails fast instead of hanging).
LIBPQ_CONNECT_TIMEOUT_S = 5
_PASSWORD = re.compile(r"(://[^:/@]+):[^@]*@")


def shown_url(url: str) -> str:
    """The URL as shown to people and in messages: the password is never included."""
    return _PASSWORD.sub(r"\1:***@", url)


class Database:
    """A lazily opened connection pool for one URL (per process: a forked child opens its own)."""

    def __init__(self, url: str, max_connections: int | None = None) -> None:
        self.url = url
        self.shown = shown_url(url)
        if max_connections is None:  # TREERAG_PG_POOL_SIZE, read when the store is opened
            max_connections = load().pg_pool_size
        self.max_connections = max(2, max_connections)
        self._pool: ConnectionPool | None = None
        self._pid = 0
        self._lock = threading.Lock()

    def _open(self) -> ConnectionPool:
        with self._lock:
            if self._pool is None or self._pid != os.getpid():
                pool = ConnectionPool(
                    self.url,
                    min_size=1,
                    max_size=self.max_connections,
                    kwargs={"row_factory": dict_row, "connect_timeout": LIBPQ_CONNECT_TIMEOUT_S},
                    check=ConnectionPool.check_connection,  # a killed connection is replaced
                    timeout=CONNECT_TIMEOUT_S,
                    open=False,
                    name="treerag",
                )
                try:
                    pool.open(wait=True, timeout=OPEN_TIMEOUT_S)
                except (psycopg.Error, PoolTimeout) as exc:
                    pool.close(timeout=0.5)
                    raise StoreUnavailableError(self._message("cannot be reached", exc)) from None
                weakref.finalize(self, _close_pool, pool, os.getpid())
                self._pool, self._pid = pool, os.getpid()
            return self._pool

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """A connection inside one transaction: committed at the end, rolled back on error."""
        try:
            with self._open().connection() as conn:
                yield conn  # type: ignore[misc]  # the pool's row_factory is dict_row
        except PoolTimeout as exc:
            raise StoreUnavailableError(self._message("cannot be reached", exc)) from None
        except psycopg.OperationalError as exc:
            raise StoreUnavailableError(self._message("stopped answering", exc)) from None
        except psycopg.Error as exc:
            raise RegistryError(self._message("refused the operation", exc)) from None

    def close(self) -> None:
        with self._lock:
            if self._pool is not None and self._pid == os.getpid():
                self._pool.close(timeout=1.0)
            self._pool = None

    def _message(self, what: str, exc: Exception) -> str:
        detail = " ".join(str(exc).split())[:200] or type(exc).__name__
        return (
            f"The registry database {self.shown} {what} ({detail}). Nothing was half-written; "
            "check that PostgreSQL is running and reachable, then try again."
        )


def _close_pool(pool: ConnectionPool, pid: int) -> None:
    """Close a dropped store's pool, in the process that opened it only: a forked child
    closing inherited sockets would end its parent's sessions."""
    if os.getpid() == pid:
        pool.close(timeout=1.0)
