"""A second process reading a long PDF's pages from the last one down, while the indexing
process reads them from the first one up, until the two meet.

Why a process: PDFium's page load and text extraction were the largest single cost of
indexing a filing (about 6 ms a page), PDFium is not thread-safe, and the machine has a
second core. Why meeting in the middle rather than halves fixed in advance: the indexing
process also opens the file with pypdf meanwhile, pages differ in cost, and a busy machine
may give either process less time; each simply reads until the pages run out, and no page is
waited for.

Why ``subprocess`` and a script rather than ``multiprocessing``: a spawned interpreter that
imports ``treerag_core`` spends about a second before reading a page, and forking the app,
which runs many threads (Streamlit's sessions, the workers' heartbeat), is unsafe. The helper
runs :mod:`.pdfium_read` by its path (``-P``: the readers' folder, whose ``html.py`` would
shadow the standard library's, is kept off ``sys.path``) and needs only pypdfium2; it starts
in about 0.1 s. Its pages are the same tuples the indexing process makes, so the document
does not depend on who read which page. Whatever goes wrong with it (no interpreter, a crash,
a garbled answer), the indexing process reads the pages it lacks itself; and the helper is
killed and reaped before ``close`` returns, on success and on error alike.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from . import pdfium_read
from .pdfium_read import FRAME, Page

# A stuck pipe must not hold the indexing process: the helper's threads are given this long
# to finish once it has been killed (they end at once on a closed pipe).
JOIN_TIMEOUT_S = 5.0


class PageHelper:
    """The helper process for one PDF; ``low`` is the first page of the run it has read
    from the end (``count`` until it delivers one), ``pages`` what it has read."""

    def __init__(self, data: bytes, count: int) -> None:
        self.count = count
        self.low = count
        self.pages: dict[int, Page | None] = {}
        self._threads: list[threading.Thread] = []
        self._process: subprocess.Popen[bytes] | None = None
        script = Path(pdfium_read.__file__)
        if not sys.executable or not script.is_file():
            return  # an embedded interpreter or a zipped package: read in this process
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-P", str(script)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            )  # fmt: skip
        except OSError:
            return
        message = FRAME.pack(count) + data
        self._spawn(self._feed, self._process.stdin, message)
        self._spawn(self._collect, self._process.stdout)

    def _spawn(self, target: Any, *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True, name="pdfium-helper")
        thread.start()
        self._threads.append(thread)

    @staticmethod
    def _feed(pipe: IO[bytes], message: bytes) -> None:
        """Hand the helper its input (in a thread: the pipe holds 64 KB, the helper reads it
        only once started, and the indexing process has its own pages to read meanwhile)."""
        try:
            pipe.write(message)
            pipe.close()
        except (OSError, ValueError):  # the helper is gone: its pages are read here
            pass

    def _collect(self, pipe: IO[bytes]) -> None:
        """Take the helper's pages as they come; only an unbroken run down from the last
        page counts (a garbled or out-of-order answer ends the helper's share)."""
        try:
            while True:
                head = pipe.read(FRAME.size)
                if len(head) < FRAME.size:
                    return
                (size,) = FRAME.unpack(head)
                body = pipe.read(size)
                if len(body) < size:
                    return
                index, page = pickle.loads(body)  # noqa: S301 - our own child's answer
                if index != self.low - 1:
                    return
                self.pages[index] = page
                self.low = index  # after the page is kept: ``low`` promises it is there
        except (OSError, ValueError, pickle.UnpicklingError, TypeError, EOFError):
            return

    def close(self) -> None:
        """End the helper (it may still be reading pages this process has read) and wait
        for it and its threads."""
        process = self._process
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.wait()
            for pipe in (process.stdin, process.stdout):
                try:
                    if pipe is not None:
                        pipe.close()
                except OSError:
                    pass
        for thread in self._threads:
            thread.join(JOIN_TIMEOUT_S)

    def __enter__(self) -> PageHelper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
