"""The storage seam (``base.DocumentStore``) and the file store that implements it.

Documents, their uploaded sources and every cache beside a registry belong to one store;
callers open it with :func:`open_store` and never derive paths themselves.
"""

from __future__ import annotations

import os

from .base import DEFAULT_REGISTRY, DocumentStore, RegistryLike
from .tinydb_store import TinyDBStore


def open_store(registry: RegistryLike | None = None) -> DocumentStore:
    """The store for a registry path (the seed's ``registry_path``) or a store as is."""
    if registry is None or isinstance(registry, str | os.PathLike):
        return TinyDBStore(os.fspath(registry or DEFAULT_REGISTRY))
    return registry
