"""Copy a whole registry into another store: TinyDB → PostgreSQL (or back).

``python -m treerag_core migrate --from indexed_docs.json --to postgresql://…`` copies the
collections and their members, every document (same ``doc_id``, oldest first) with its
uploaded source, the audit log (only into a target whose log is empty, so a second run
adds nothing twice), everyone's conversation threads, the saved evaluation questions and
the synced folders and buckets (their settings and last state; their documents keep their
origin, so the next sync in the target finds them). An upload keeps its identity: its
location is re-derived from the same upload key in the target's uploads, so uploading
``report.pdf`` again later updates the migrated document. A document indexed from a local path keeps that path; a database target
also keeps the file's bytes, so every replica can show its pages. Caches are not copied
(they refill), nor are indexing jobs. Each document is saved with its source in one step
(a failed save puts the target's previous source back), so an interrupted migration is
simply run again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..access.audit import record
from ..errors import ConfigError
from ..store import open_store
from ..store.base import RegistryLike, WithSyncSources
from ..text.messages import raised


def migrate_registry(
    source: RegistryLike,
    target: RegistryLike,
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, int]:
    """Copy everything in ``source`` into ``target``; returns what was copied, by kind."""
    src, dst = open_store(source), open_store(target)
    if src.location == dst.location:
        raise raised(ConfigError, "error.migrate_same")
    report = progress or (lambda done, total, message: None)
    counts = {"collections": 0, "documents": 0, "sources": 0, "audit_entries": 0}
    for name, access in src.collections().items():
        dst.set_collection(name, list(access["readers"]), list(access["editors"]))
        counts["collections"] += 1
    rows = list(reversed(src.list()))  # oldest first: the target lists them in the same order
    for done, row in enumerate(rows, 1):
        document = src.get(row["doc_id"])
        data = src.sources.read(str(document["file_path"]))
        location = _relocated(str(document["file_path"]), src.sources, dst.sources)
        document = {**document, "file_path": location}
        if data is not None and _keeps(dst.sources, location):
            with dst.sources.staged(location, data):
                dst.save(document)
            counts["sources"] += 1
        else:
            dst.save(document)
        counts["documents"] += 1
        report(done, len(rows), str(document.get("file_name")))
    if not dst.audit_log():
        for entry in src.audit_log():
            dst.append_audit(entry)
            counts["audit_entries"] += 1
    counts.update(_copy_conversations(src, dst))
    counts["synced_sources"] = _copy_synced_sources(src, dst)
    record(dst, None, "migrate", detail=f"from {src.location}: {counts}")
    return counts


def _copy_synced_sources(src: Any, dst: Any) -> int:
    """Every synced source's settings and state (replaced by id: a second run adds nothing
    twice). Stores of a caller's own without synced sources have none to give or keep."""
    if not isinstance(src, WithSyncSources) or not isinstance(dst, WithSyncSources):
        return 0
    copied = 0
    for source in src.sync_sources.all():
        dst.sync_sources.put(source)
        copied += 1
    return copied


def _copy_conversations(src: Any, dst: Any) -> dict[str, int]:
    """Every person's threads (replaced by id, so a second run adds nothing twice) and the
    saved evaluation questions. Listing everyone's threads is no part of the protocol (the
    chat only ever asks for one person's), so a source store without ``thread_owners``
    has its threads left behind, and the count says so."""
    counts = {"threads": 0, "saved_questions": 0}
    owners = getattr(src, "thread_owners", None)
    for owner in owners() if owners else ():
        for row in src.threads(owner):
            thread = src.get_thread(owner, row["thread_id"])
            if thread is not None:
                dst.save_thread(thread)
                counts["threads"] += 1
    for question in src.saved_questions():
        dst.save_question(question)
        counts["saved_questions"] += 1
    return counts


def _relocated(location: str, src_sources: Any, dst_sources: Any) -> str:
    """An upload's location in the target's uploads; any other path as it is."""
    key_of = getattr(src_sources, "key_of", None)
    key = key_of(location) if key_of else None
    location_of = getattr(dst_sources, "location_of", None)
    return location_of(key) if key is not None and location_of else location


def _keeps(dst_sources: Any, location: str) -> bool:
    """Whether the target keeps this source's bytes: always in a database; in a folder
    only inside its uploads (a migration never writes elsewhere on a disk)."""
    key_of = getattr(dst_sources, "key_of", None)
    return bool(getattr(dst_sources, "holds_any_location", False)) or (
        key_of is not None and key_of(location) is not None
    )
