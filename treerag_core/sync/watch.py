"""Watched folders: a sync shortly after the files of a folder stop changing.

A copy of 200 files into a share fires hundreds of events over several seconds; syncing on
each would start a sync per event (and be refused while one runs). Each folder has a
:class:`Debounce`: events push its deadline back, and the sync runs once the folder has
been quiet for ``quiet_s``. Changes during a sync leave the folder due again, so they are
picked up by the next one. Events come from ``watchdog`` (inotify on Linux; it comes with
Streamlit), only for files a sync would read.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from .patterns import wanted

log = logging.getLogger("treerag.sync")

# Quiet time before a watched folder is synced: longer than the gap between the files of
# one copy, short enough that a saved document is in the library a moment later.
DEFAULT_QUIET_S = 2.0
# How often the watcher looks at the deadlines (the debounce's resolution).
TICK_S = 0.1


class Debounce:
    """Events in, "sync now" out once they have stopped for ``quiet_s`` (clock passed in)."""

    def __init__(self, quiet_s: float) -> None:
        self.quiet_s = quiet_s
        self.last: float | None = None

    def event(self, now: float) -> None:
        self.last = now

    def due(self, now: float) -> bool:
        """True once per burst of events, ``quiet_s`` after its last one."""
        if self.last is not None and now - self.last >= self.quiet_s:
            self.last = None
            return True
        return False


def watch_folders(
    folders: dict[str, dict[str, Any]],
    on_change: Callable[[str], None],
    stop: threading.Event,
    quiet_s: float = DEFAULT_QUIET_S,
    on_ready: Callable[[], None] | None = None,
) -> None:
    """Call ``on_change(source_id)`` after each burst of changes in a folder source, until
    ``stop`` is set. ``folders``: source id → stored settings (``path``, patterns).
    ``on_ready`` is called once the folders are watched: a change before it may be missed."""
    from watchdog.events import FileSystemEventHandler
    from watchdog.observers import Observer

    lock = threading.Lock()
    debounces = {source_id: Debounce(quiet_s) for source_id in folders}

    class Handler(FileSystemEventHandler):
        def __init__(self, source_id: str, source: dict[str, Any]) -> None:
            self.source_id, self.source = source_id, source

        def on_any_event(self, event: Any) -> None:
            if event.event_type in ("opened", "closed_no_write"):
                return  # reads (ours included) change nothing
            paths = [event.src_path, getattr(event, "dest_path", "") or ""]
            if event.is_directory or any(self._wanted(p) for p in paths if p):
                with lock:
                    debounces[self.source_id].event(time.monotonic())

        def _wanted(self, path: str) -> bool:
            relative = os.path.relpath(os.fsdecode(path), self.source["path"])
            return wanted(relative.replace(os.sep, "/"), self.source.get("include") or [],
                          self.source.get("exclude") or [])  # fmt: skip

    observer = Observer()
    for source_id, source in folders.items():
        observer.schedule(Handler(source_id, source), source["path"], recursive=True)
    observer.start()
    if on_ready is not None:
        on_ready()
    try:
        while not stop.wait(TICK_S):
            now = time.monotonic()
            with lock:
                ready = [source_id for source_id, d in debounces.items() if d.due(now)]
            for source_id in ready:
                try:
                    on_change(source_id)
                except Exception:  # noqa: BLE001 - one failed sync must not end the watch
                    log.exception("sync of %s after a change failed", source_id)
    finally:
        observer.stop()
        observer.join(timeout=5)
