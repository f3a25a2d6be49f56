"""An append-only JSON-lines file: the file store's audit log.

Why a file of its own and not a TinyDB table: TinyDB rewrites its whole file on every write,
so a log kept there would be rewritten (and slow every document write) forever. Here an
entry is one ``write`` of one line to a file opened with ``O_APPEND``, under the registry's
lock and followed by ``fsync``: concurrent writers never interleave or lose a line, and no
earlier byte is ever rewritten. A crash mid-append can leave a torn last line; the next
append first ends it with a newline, and readers skip lines that do not parse.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..errors import RegistryError
from .file_lock import locked


class AppendOnlyLog:
    """``<path>``: one JSON object a line, oldest first."""

    def __init__(self, path: str, lock_path: str) -> None:
        self.path = os.path.abspath(path)
        self.lock_path = lock_path

    def append(self, entry: dict[str, Any]) -> None:
        line = json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n"
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        with locked(self.lock_path):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
            except OSError as exc:
                raise RegistryError(  # worded as the catalogue's key (store: no text layer)
                    f"Cannot write the audit log {self.path}: {exc}",
                    key="error.audit_log_write",
                    values={"path": self.path, "reason": str(exc)},
                ) from exc
            try:
                prefix = b"" if _ends_with_newline(self.path) else b"\n"
                os.write(fd, prefix + line.encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)

    def entries(self) -> list[dict[str, Any]]:
        try:
            with open(self.path, "rb") as fh:
                raw = fh.read()
        except FileNotFoundError:
            return []
        out = []
        for line in raw.splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a torn line from a crash mid-append
            if isinstance(entry, dict):
                out.append(entry)
        return out


def _ends_with_newline(path: str) -> bool:
    """True for an empty file or one whose last byte is a newline."""
    with open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell() == 0:
            return True
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"
