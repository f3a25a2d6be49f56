"""A folder source: list its files, read one, never anything outside its root.

Confinement: the walk never enters a symbolic link to a folder (a loop, or the same files
twice) and skips a link whose target is outside the root, saying so; a file is opened by
walking its path from the root one component at a time with ``O_NOFOLLOW``, so a path with
``..`` or a link swapped in between the listing and the read cannot reach outside (the
open fails instead). A link to a file inside the root is read at its target's real path.
"""

from __future__ import annotations

import builtins  # a class here has a method named list: its annotations say builtins.list
import contextlib
import hashlib
import os
from typing import Any

from ..errors import DocumentTooLargeError, InvalidSourceError
from ..limits import Limits
from ..text.messages import raised
from .listing import Listing
from .patterns import hidden, wanted
from .plan import Listed

READ_CHUNK = 1024 * 1024


def check_folder(path: str) -> str:
    """The folder's absolute real path, or ``InvalidSourceError`` when it is not one."""
    if not str(path or "").strip():
        raise raised(InvalidSourceError, "error.folder_no_path")
    real = os.path.realpath(os.path.expanduser(str(path).strip()))
    if not os.path.isdir(real):
        raise raised(InvalidSourceError, "error.not_a_folder", path=path)
    return real


def inside(root: str, path: str) -> bool:
    """Is ``path`` (absolute, real) the root or below it?"""
    return os.path.commonpath([root, path]) == root


class FolderSource:
    """One folder, as a sync lists and reads it. ``bytes_read`` counts what was read."""

    def __init__(self, source: dict[str, Any], limits: Limits) -> None:
        self.root = check_folder(source["path"])
        self.include = list(source.get("include") or [])
        self.exclude = list(source.get("exclude") or [])
        self.limits = limits
        self.bytes_read = 0

    def list(self) -> Listing:
        listing = Listing()
        stack = [("", 0)]
        while stack and listing.complete:
            folder, depth = stack.pop()
            try:
                with os.scandir(os.path.join(self.root, folder)) as it:
                    entries = sorted(it, key=lambda e: e.name, reverse=True)
            except OSError as exc:
                listing.skipped[folder or "."] = f"cannot be read ({exc.strerror})"
                continue
            for entry in entries:
                path = f"{folder}/{entry.name}" if folder else entry.name
                if hidden(entry.name):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if depth + 1 > self.limits.sync_max_depth:
                        listing.skipped[path] = (
                            f"deeper than {self.limits.sync_max_depth} folders: not synced "
                            "(TREERAG_SYNC_MAX_DEPTH)"
                        )
                    else:
                        stack.append((path, depth + 1))
                    continue
                if not wanted(path, self.include, self.exclude):
                    continue
                stat = self._stat(entry, path, listing)
                if stat is None:
                    continue
                if not listing.add(Listed(path, stat.st_size, stat.st_mtime_ns), self.limits):
                    break
        return listing

    def _stat(self, entry: os.DirEntry[str], path: str, listing: Listing) -> os.stat_result | None:
        """A regular file's stat; a link to a file inside the root is its target's."""
        try:
            if not entry.is_symlink():
                return entry.stat(follow_symlinks=False) if entry.is_file() else None
            target = os.path.realpath(entry.path)
            if not inside(self.root, target):
                listing.skipped[path] = "a symbolic link out of the folder: not followed"
                return None
            if not os.path.isfile(target):
                listing.skipped[path] = "a symbolic link to a folder: not followed"
                return None
            return os.stat(target)
        except OSError as exc:
            listing.skipped[path] = f"cannot be read ({exc.strerror})"
            return None

    def entry(self, path: str) -> Listed | None:
        """The file at ``path`` as a listing would give it; None when it is gone."""
        try:
            stat = os.stat(self._real(path))
        except FileNotFoundError:
            return None
        return (
            Listed(path, stat.st_size, stat.st_mtime_ns)
            if os.path.isfile(self._real(path))
            else None
        )

    def read(self, path: str) -> tuple[bytes, str]:
        """The file's bytes and their fingerprint (sha256), within the size limit."""
        data = self._read_confined(os.path.relpath(self._real(path), self.root).split(os.sep))
        return data, hashlib.sha256(data).hexdigest()

    def _real(self, path: str) -> str:
        """The real path of a listed path, refused when it leads outside the root."""
        parts = path.split("/")
        if not path or any(p in ("", ".", "..") for p in parts) or "\\" in path or "\0" in path:
            raise raised(InvalidSourceError, "error.not_inside", path=repr(path))
        real = os.path.realpath(os.path.join(self.root, *parts))
        if not inside(self.root, real) or real == self.root:
            raise raised(InvalidSourceError, "error.leads_outside", path=path)
        return real

    def _read_confined(self, parts: builtins.list[str]) -> bytes:
        """Open root/parts[0]/…/parts[-1] refusing a link at every step, and read it."""
        limit = self.limits.max_file_bytes
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        fds = [os.open(self.root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))]
        try:
            for part in parts[:-1]:
                fds.append(os.open(part, flags | getattr(os, "O_DIRECTORY", 0), dir_fd=fds[-1]))
            fds.append(os.open(parts[-1], flags, dir_fd=fds[-1]))
            chunks, size = [], 0
            while chunk := os.read(fds[-1], READ_CHUNK):
                size += len(chunk)
                self.bytes_read += len(chunk)
                if size > limit:
                    raise raised(
                        DocumentTooLargeError, "error.over_file_limit", name=parts[-1],
                        limit=f"{limit / 1e6:.0f}",
                    )  # fmt: skip
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
