"""Optional on-disk cache of model replies, keyed by a hash of the model and the prompt.

Re-indexing a document or repeating a question then costs no model call. One small JSON
file per entry (written atomically), in a directory beside the registry; a corrupt or
unreadable entry is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from .file_lock import atomic_write_bytes


class LLMCache:
    """A directory of ``<sha256>.json`` replies. Safe to share between processes."""

    def __init__(self, directory: str) -> None:
        self.directory = os.path.abspath(directory)

    @classmethod
    def beside_registry(cls, registry_path: str) -> LLMCache:
        """The cache that belongs to a registry: ``<registry>.llm_cache/``."""
        return cls(os.path.abspath(registry_path) + ".llm_cache")

    @staticmethod
    def key(model_identity: str, messages: list[tuple[str, str]]) -> str:
        payload = json.dumps([model_identity, messages], ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()

    def _path(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], f"{key}.json")

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            with open(self._path(key), "rb") as fh:
                value = json.loads(fh.read())
        except (OSError, ValueError):
            return None
        return value if isinstance(value, dict) and isinstance(value.get("text"), str) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        path = self._path(key)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            atomic_write_bytes(path, json.dumps(value, ensure_ascii=False).encode())
        except OSError:
            pass  # a cache that cannot be written only costs money, never correctness

    def __bool__(self) -> bool:  # an empty cache is still a cache
        return True

    def __len__(self) -> int:
        count = 0
        for _root, _dirs, files in os.walk(self.directory):
            count += sum(1 for f in files if f.endswith(".json"))
        return count
