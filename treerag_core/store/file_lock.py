"""Cross-process, cross-thread exclusive lock and atomic file replacement.

Writers of a shared registry (several Streamlit sessions, CLI runs) serialise on an
``flock``; the kernel drops the lock if a holder dies, so a killed process never wedges it.
Every file is written to a temporary sibling and swapped in with ``os.replace``, so readers
and crash survivors only ever see a complete old or complete new file.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import time
from collections.abc import Iterator

from ..errors import RegistryError


@contextlib.contextmanager
def locked(lock_path: str, timeout_s: float = 60.0) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_path`` (created if missing) for the block."""
    os.makedirs(os.path.dirname(os.path.abspath(lock_path)), exist_ok=True)
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise RegistryError(  # worded as the catalogue's key
                        f"The registry is busy (lock {lock_path} held for over {timeout_s:.0f} s).",
                        key="error.registry_busy",
                        values={"lock": lock_path, "seconds": f"{timeout_s:.0f}"},
                    ) from None
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the flock


def atomic_write_bytes(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old or the new file."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
