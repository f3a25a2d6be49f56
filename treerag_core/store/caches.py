"""A directory of JSON entries: the file store's :class:`~.base.Cache`.

One small file per entry, written atomically and sharded by the key's first two characters
so no directory grows huge. Safe to share between processes: the worst race writes the same
value twice.
"""

from __future__ import annotations

import json
import os
from typing import Any

from .file_lock import atomic_write_bytes


class DirectoryCache:
    """``<directory>/<key[:2]>/<key>.json``; keys are hex digests chosen by the caller."""

    def __init__(self, directory: str) -> None:
        self.directory = os.path.abspath(directory)

    def _path(self, key: str) -> str:
        safe = "".join(ch for ch in key if ch.isalnum() or ch in "-_")[:128] or "_"
        return os.path.join(self.directory, safe[:2], f"{safe}.json")

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            with open(self._path(key), "rb") as fh:
                value = json.loads(fh.read())
        except (OSError, ValueError):
            return None
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        try:
            atomic_write_bytes(self._path(key), json.dumps(value, ensure_ascii=False).encode())
        except OSError:
            pass  # a cache that cannot be written only costs time, never correctness

    def __len__(self) -> int:
        return sum(
            name.endswith(".json")
            for _root, _dirs, names in os.walk(self.directory)
            for name in names
        )
