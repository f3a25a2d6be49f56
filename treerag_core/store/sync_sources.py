"""The file store's synced sources: one JSON file a source beside the registry, and a lock
file a source that one sync at a time holds.

Why files and not TinyDB rows: a running sync writes its progress every second, and TinyDB
rewrites its whole file (which every document listing parses) on every write. Layout:
``<stem>.sync/<source_id>.json`` (its settings and ``state``) and
``<stem>.sync/<source_id>.lock``. Changes are read-change-write under the registry's lock
and replace the file atomically; the sync lock is a second ``flock``, taken without
waiting, which the kernel drops when its holder dies, so a killed sync never wedges it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import RegistryError, SyncBusyError
from .base import DOC_ID
from .file_lock import atomic_write_bytes, locked


class SyncSourceFiles:
    """The :class:`~.base.SyncSources` of a registry file. ``listing`` is the store's own
    ``list`` (the documents a source holds are found among its rows)."""

    def __init__(
        self, directory: str, lock_path: str, listing: Callable[[], list[dict[str, Any]]]
    ) -> None:
        self.directory = os.path.abspath(directory)
        self.lock_path = lock_path
        self._listing = listing

    def _path(self, source_id: str, suffix: str = ".json") -> str:
        if not DOC_ID.match(str(source_id or "")):
            raise RegistryError(  # worded as the catalogue's key (store: no text layer)
                f"{str(source_id)[:80]!r} is not a valid source id.",
                key="error.invalid_source_id",
                values={"id": repr(str(source_id)[:80])},
            )
        return os.path.join(self.directory, f"{source_id}{suffix}")

    def _read(self, path: str) -> dict[str, Any] | None:
        try:
            with open(path, "rb") as fh:
                value = json.loads(fh.read())
        except FileNotFoundError:
            return None
        except ValueError as exc:
            raise RegistryError(
                f"The stored source {path} is unreadable: {exc}",
                key="error.stored_source_unreadable",
                values={"path": path, "reason": str(exc)},
            ) from exc
        return value if isinstance(value, dict) else None

    def _write(self, source: dict[str, Any]) -> None:
        body = json.dumps(source, ensure_ascii=False, separators=(",", ":")).encode()
        atomic_write_bytes(self._path(source["source_id"]), body)

    def all(self) -> list[dict[str, Any]]:
        if not os.path.isdir(self.directory):
            return []
        found = [
            self._read(os.path.join(self.directory, name))
            for name in sorted(os.listdir(self.directory))
            if name.endswith(".json")
        ]
        return sorted((s for s in found if s), key=lambda s: str(s.get("created_at") or ""))

    def get(self, source_id: str) -> dict[str, Any] | None:
        if not DOC_ID.match(str(source_id or "")):
            return None
        return self._read(self._path(source_id))

    def put(self, source: dict[str, Any]) -> None:
        with locked(self.lock_path):
            stored = self.get(source["source_id"]) or {}
            self._write({**source, "state": stored.get("state") or source.get("state") or {}})

    def remove(self, source_id: str) -> bool:
        if not DOC_ID.match(str(source_id or "")):
            return False
        with locked(self.lock_path):
            try:
                os.unlink(self._path(source_id))
            except FileNotFoundError:
                return False
        with contextlib.suppress(OSError):
            os.unlink(self._path(source_id, ".lock"))
        return True

    def update_state(
        self, source_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any] | None:
        with locked(self.lock_path):
            source = self.get(source_id)
            if source is None:
                return None
            source["state"] = change(dict(source.get("state") or {}))
            self._write(source)
        return source["state"]

    @contextlib.contextmanager
    def lock(self, source_id: str) -> Iterator[None]:
        path = self._path(source_id, ".lock")
        os.makedirs(self.directory, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise SyncBusyError(  # worded as the catalogue's key (store: no text layer)
                    f"A sync of source {source_id} is already running; it will pick up every "
                    "change it finds, so there is no need to start another.",
                    key="error.sync_busy",
                    values={"id": source_id},
                ) from None
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the flock

    def held(self, source_id: str) -> list[dict[str, Any]]:
        return [
            row
            for row in self._listing()
            if isinstance(row.get("origin"), dict) and row["origin"].get("source_id") == source_id
        ]
