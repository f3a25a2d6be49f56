"""The store protocol's conversation methods, handed to a store's thread backend.

Both stores keep conversations in a backend of their own (files beside a registry, a table
in a database) with the same six operations; the protocol's methods are one line each, so
they are written once here, and a store names its backend ``thread_backend``.
"""

from __future__ import annotations

import builtins  # a class here has a method named list: its annotations say builtins.list
from collections.abc import Callable
from typing import Any, Protocol


class ThreadBackend(Protocol):
    def list(self, owner: str) -> list[dict[str, Any]]: ...
    def owners(self) -> builtins.list[str]: ...
    def get(self, owner: str, thread_id: str) -> dict[str, Any] | None: ...
    def save(self, thread: dict[str, Any]) -> None: ...
    def update(
        self, owner: str, thread_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any] | None: ...
    def delete(self, owner: str, thread_id: str) -> bool: ...


class ThreadMethods:
    """Mixed into a store: its conversation methods, from ``self.thread_backend``."""

    thread_backend: ThreadBackend

    def threads(self, owner: str) -> list[dict[str, Any]]:
        return self.thread_backend.list(owner)

    def thread_owners(self) -> list[str]:
        """Everyone who has a thread (``migrate_registry`` copies each one's)."""
        return self.thread_backend.owners()

    def get_thread(self, owner: str, thread_id: str) -> dict[str, Any] | None:
        return self.thread_backend.get(owner, thread_id)

    def save_thread(self, thread: dict[str, Any]) -> None:
        self.thread_backend.save(thread)

    def update_thread(
        self, owner: str, thread_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any] | None:
        return self.thread_backend.update(owner, thread_id, change)

    def delete_thread(self, owner: str, thread_id: str) -> bool:
        return self.thread_backend.delete(owner, thread_id)
