"""What the synced-source tests share: a library's documents from one source, described
so that two libraries (or one before and after) compare, and a summarizer that waits."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from treerag_core import list_documents
from treerag_core.store import open_store
from treerag_core.summarize.summarizers import make_summarizer


def synced_docs(registry: Any, source_id: str | None = None) -> dict[str, dict[str, Any]]:
    """``{path: {doc_id, content_hash, collection, file_name}}`` of the synced documents,
    asserting that no path is held twice and that each kept copy is the indexed bytes."""
    store = open_store(registry)
    out: dict[str, dict[str, Any]] = {}
    for row in list_documents(store):
        origin = row.get("origin") or {}
        if not origin or (source_id and origin.get("source_id") != source_id):
            continue
        assert origin["path"] not in out, f"{origin['path']} held twice"
        kept = store.sources.read(row["file_path"])
        assert kept is not None, f"no kept copy of {origin['path']}"
        import hashlib

        assert hashlib.sha256(kept).hexdigest() == row["content_hash"]
        out[origin["path"]] = {k: row.get(k) for k in ("doc_id", "content_hash", "collection",
                                                       "file_name")}  # fmt: skip
    return out


def folder_hashes(folder: Path) -> dict[str, str]:
    """What a library synced with ``folder`` must hold: each readable file's sha256."""
    import hashlib

    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink() and p.suffix in (".md", ".pdf", ".txt")
    }


class GatedSummarizer:
    """The offline summarizer, holding its first call until ``release`` (a sync that is
    known to be running while another one starts)."""

    signature = "offline-gated"

    def __init__(self) -> None:
        self.inner = make_summarizer(None)
        self.entered = threading.Event()
        self.release = threading.Event()

    def __call__(self, nodes: list, progress: Any = None) -> dict:
        self.entered.set()
        assert self.release.wait(60), "the test never released the summarizer"
        return self.inner(nodes, progress=progress)
