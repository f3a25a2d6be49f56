"""The storage seam (``base.DocumentStore``) and the stores that implement it.

Documents, their uploaded sources and every cache beside a registry belong to one store;
callers open it with :func:`open_store` and never derive paths themselves. A registry file
is the embedded default (TinyDB); a ``postgresql://`` URL opens the database store, whose
module (and psycopg) is imported only then.
"""

from __future__ import annotations

import os

from ..settings import DEFAULT_REGISTRY, load
from .base import DEFAULT_COLLECTION, Cache, DocumentStore, RegistryLike
from .caches import DirectoryCache
from .tinydb_store import TinyDBStore

DATABASE_SCHEMES = ("postgresql://", "postgres://")


def is_database_url(registry: object) -> bool:
    """True for a registry setting that names a PostgreSQL database."""
    return isinstance(registry, str) and registry.startswith(DATABASE_SCHEMES)


def open_store(registry: RegistryLike | None = None) -> DocumentStore:
    """The store for a registry path or database URL (the seed's ``registry_path``), or a
    store as is; None: the configured registry (``TREERAG_REGISTRY``, else
    ``indexed_docs.json``). A database store opened here holds a connection pool: a
    long-lived caller opens it once (a :class:`~treerag_core.client.Library` does)."""
    if registry is None:
        registry = load().registry
    if is_database_url(registry):
        try:
            from .postgres.store import PostgresStore
        except ImportError as exc:  # psycopg missing: say what to install
            from ..errors import ConfigError

            raise ConfigError(  # worded as the catalogue's key (store: no text layer)
                f"A PostgreSQL registry needs psycopg ({exc}): pip install -r requirements.txt.",
                key="error.needs_psycopg",
                values={"reason": str(exc)},
            ) from None
        return PostgresStore(str(registry))
    if registry is None or isinstance(registry, str | os.PathLike):
        return TinyDBStore(os.fspath(registry))
    return registry


__all__ = [
    "Cache",
    "DEFAULT_COLLECTION",
    "DEFAULT_REGISTRY",
    "DirectoryCache",
    "DocumentStore",
    "is_database_url",
    "open_store",
    "RegistryLike",
]
