"""The file store's conversations: one JSON file a thread, one small index a person.

Why files beside the registry and not TinyDB rows: a thread is rewritten on every turn, and
TinyDB rewrites its whole file (which every document listing parses) on every write. Here a
turn rewrites one thread file and its owner's index (a few hundred bytes a thread), both
atomically under the registry's lock, so two tabs answering in the same thread at once lose
nothing. Layout: ``<stem>.threads/<owner key>/index.json`` and
``<stem>.threads/<owner key>/<thread_id>.json``; the owner key is a hash of the owner's
name, so a thread is only ever found under the person it belongs to.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from typing import Any

from ..errors import RegistryError
from .base import DOC_ID
from .file_lock import atomic_write_bytes, locked

THREAD_SUMMARY_FIELDS = ("thread_id", "owner", "title", "doc_ids", "created_at", "updated_at")


def owner_key(owner: str) -> str:
    return hashlib.sha256(owner.strip().casefold().encode()).hexdigest()[:32]


def summary_of(thread: dict[str, Any]) -> dict[str, Any]:
    """What a thread list shows: everything but the turns, and how many there are."""
    row = {key: thread.get(key) for key in THREAD_SUMMARY_FIELDS}
    row["turns"] = len(thread.get("turns") or [])
    return row


def _read_json(path: str) -> Any:
    try:
        with open(path, "rb") as fh:
            return json.loads(fh.read())
    except FileNotFoundError:
        return None
    except ValueError as exc:
        raise RegistryError(  # worded as the catalogue's key (store: no text layer)
            f"The stored conversation file {path} is unreadable: {exc}",
            key="error.stored_thread_file_unreadable",
            values={"path": path, "reason": str(exc)},
        ) from exc


def _write_json(path: str, value: Any) -> None:
    atomic_write_bytes(path, json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


class ThreadFiles:
    """Threads of every person under one folder; writes hold ``lock_path``."""

    def __init__(self, directory: str, lock_path: str) -> None:
        self.directory = os.path.abspath(directory)
        self.lock_path = lock_path

    def _folder(self, owner: str) -> str:
        return os.path.join(self.directory, owner_key(owner))

    def _path(self, owner: str, thread_id: str) -> str:
        """Thread ids name files: the closed alphabet of document ids, checked here too."""
        if not DOC_ID.match(str(thread_id or "")):
            raise RegistryError(  # worded as the catalogue's key (store: no text layer)
                f"{str(thread_id)[:80]!r} is not a valid conversation id.",
                key="error.invalid_thread_id",
                values={"id": repr(str(thread_id)[:80])},
            )
        return os.path.join(self._folder(owner), f"{thread_id}.json")

    def _index(self, owner: str) -> dict[str, dict[str, Any]]:
        value = _read_json(os.path.join(self._folder(owner), "index.json"))
        return value if isinstance(value, dict) else {}

    def _write_index(self, owner: str, index: dict[str, dict[str, Any]]) -> None:
        _write_json(os.path.join(self._folder(owner), "index.json"), index)

    def owners(self) -> list[str]:
        """Everyone who has a thread (read from the indexes; for copying a registry)."""
        found: set[str] = set()
        if not os.path.isdir(self.directory):
            return []
        for key in sorted(os.listdir(self.directory)):
            index = _read_json(os.path.join(self.directory, key, "index.json"))
            if isinstance(index, dict):
                found.update(str(row["owner"]) for row in index.values() if row.get("owner"))
        return sorted(found)

    def list(self, owner: str) -> list[dict[str, Any]]:
        rows = list(self._index(owner).values())
        return sorted(rows, key=lambda r: r.get("updated_at") or "", reverse=True)

    def get(self, owner: str, thread_id: str) -> dict[str, Any] | None:
        if not DOC_ID.match(str(thread_id or "")):
            return None
        thread = _read_json(self._path(owner, thread_id))
        if not isinstance(thread, dict) or thread.get("owner") != owner:
            return None
        return thread

    def save(self, thread: dict[str, Any]) -> None:
        owner = str(thread["owner"])
        with locked(self.lock_path):
            self._store(owner, thread)

    def _store(self, owner: str, thread: dict[str, Any]) -> None:
        """Thread file first, then the index: an index row never points at nothing."""
        _write_json(self._path(owner, thread["thread_id"]), thread)
        index = self._index(owner)
        index[thread["thread_id"]] = summary_of(thread)
        self._write_index(owner, index)

    def update(
        self, owner: str, thread_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any] | None:
        with locked(self.lock_path):
            thread = self.get(owner, thread_id)
            if thread is None:
                return None
            changed = change(thread)
            self._store(owner, changed)
        return changed

    def delete(self, owner: str, thread_id: str) -> bool:
        """The index row first, then the file: a crash in between leaves only an orphan."""
        if not DOC_ID.match(str(thread_id or "")):
            return False
        with locked(self.lock_path):
            index = self._index(owner)
            known = index.pop(thread_id, None) is not None
            if known:
                self._write_index(owner, index)
            try:
                os.unlink(self._path(owner, thread_id))
            except FileNotFoundError:
                return known
        return True
