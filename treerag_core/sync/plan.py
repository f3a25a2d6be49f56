"""What a sync must do, decided without touching anything: the source's listing and what
the library holds from it in, a plan of steps out.

Pure functions over plain values, so every case (a new file, an edit, a rename, a move, a
deletion, a touched file, two copies of one file) is a unit test; the drivers
(``library/syncing.py`` in process, ``jobs/sync.py`` through the queue) only carry out the
steps. A file's identity is its path; its content is known by a fingerprint (the content's
sha256 for a folder, ``etag:…`` for a bucket). Reading every byte of a share on each sync
to hash it would cost as much as indexing it, so:

- a folder file whose size and modification time are what the library recorded is
  unchanged without being read; one whose size or time moved is re-indexed (re-indexing
  an unchanged content costs one read: the stored summaries are all reused);
- a bucket object's ETag comes with the listing, so nothing is read to compare;
- a folder file at a new path is hashed before planning only when a file of the same size
  vanished (the only way it can be that file renamed or moved): a renamed file is
  re-pointed, not re-indexed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

INDEX = "index"  # a new file: read and index it
REINDEX = "reindex"  # a known path whose file changed: index again (unchanged sections reused)
REPOINT = "repoint"  # a known file at a new path (renamed, moved): the document follows it
DELETE = "delete"  # a known file that is gone: its document goes too
UNCHANGED = "unchanged"
ACTIONS = (INDEX, REINDEX, REPOINT, DELETE, UNCHANGED)


@dataclass(frozen=True)
class Listed:
    """One file as the source lists it (``path``: relative, ``/``-separated)."""

    path: str
    size: int
    mtime_ns: int | None = None  # a folder's
    etag: str | None = None  # a bucket's

    @property
    def fingerprint(self) -> str | None:
        """The fingerprint the listing itself gives (a bucket's ETag), else None."""
        return f"etag:{self.etag}" if self.etag else None


@dataclass(frozen=True)
class Held:
    """One document the library holds from the source (from its ``origin``)."""

    doc_id: str
    path: str
    fingerprint: str
    size: int | None = None
    mtime_ns: int | None = None


@dataclass(frozen=True)
class Step:
    action: str
    path: str  # the file's path now (for a deletion: the path the document had)
    doc_id: str | None = None  # the document it changes (None: a new one)
    fingerprint: str | None = None  # when known before reading
    previous_path: str | None = None  # a re-pointed document's old path


@dataclass
class SyncPlan:
    steps: list[Step] = field(default_factory=list)
    complete: bool = True  # False: the listing was cut at a limit, so nothing is deleted

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(ACTIONS, 0)
        for step in self.steps:
            out[step.action] += 1
        return out

    def todo(self) -> list[Step]:
        """The steps that change something, in the order they are best run: re-points and
        deletions first (cheap, and they free paths), then indexing."""
        order = {REPOINT: 0, DELETE: 1, REINDEX: 2, INDEX: 3}
        return sorted(
            (s for s in self.steps if s.action != UNCHANGED), key=lambda s: order[s.action]
        )


def held_from_rows(rows: Iterable[dict]) -> list[Held]:
    """The held documents from the store's listed rows (their ``origin``)."""
    out = []
    for row in rows:
        origin = row.get("origin") or {}
        if origin.get("path") is None:
            continue
        out.append(
            Held(
                doc_id=str(row["doc_id"]),
                path=str(origin["path"]),
                fingerprint=str(origin.get("fingerprint") or ""),
                size=origin.get("size"),
                mtime_ns=origin.get("mtime_ns"),
            )
        )
    return out


def fingerprints_needed(listing: Iterable[Listed], held: Iterable[Held]) -> list[str]:
    """The new paths whose content must be hashed before planning: those without a listed
    fingerprint whose size is the size of a held file that vanished (a rename candidate)."""
    listing = list(listing)
    listed = {entry.path for entry in listing}
    held = list(held)
    known = {h.path for h in held}
    vanished_sizes = {h.size for h in held if h.path not in listed}
    return sorted(
        entry.path
        for entry in listing
        if entry.path not in known and entry.fingerprint is None and entry.size in vanished_sizes
    )


def plan_sync(
    listing: Iterable[Listed],
    held: Iterable[Held],
    fingerprints: dict[str, str] | None = None,
    complete: bool = True,
) -> SyncPlan:
    """The steps that make the library hold exactly the listed files.

    ``fingerprints``: content hashes of the paths :func:`fingerprints_needed` named.
    ``complete=False`` (the listing stopped at a limit): held files not listed are kept.
    """
    fingerprints = fingerprints or {}
    by_path: dict[str, Held] = {}
    extra: list[Held] = []  # a second document claiming one path (never written by us)
    h: Held | None
    for h in sorted(held, key=lambda h: (h.path, h.doc_id)):
        if h.path in by_path:
            extra.append(h)
        else:
            by_path[h.path] = h
    listing = sorted(listing, key=lambda e: e.path)
    listed = {entry.path for entry in listing}
    vanished: dict[str, list[Held]] = {}
    if complete:
        for h in by_path.values():
            if h.path not in listed and h.fingerprint:
                vanished.setdefault(h.fingerprint, []).append(h)
    steps: list[Step] = []
    moved: set[str] = set()
    for entry in listing:
        fingerprint = entry.fingerprint or fingerprints.get(entry.path)
        h = by_path.get(entry.path)
        if h is not None:
            action = UNCHANGED if _same(entry, h) else REINDEX
            steps.append(Step(action, entry.path, h.doc_id, fingerprint))
            continue
        candidates = vanished.get(fingerprint or "") or []
        if candidates:
            source = candidates.pop(0)
            moved.add(source.doc_id)
            steps.append(Step(REPOINT, entry.path, source.doc_id, fingerprint, source.path))
        else:
            steps.append(Step(INDEX, entry.path, None, fingerprint))
    gone = [h for h in by_path.values() if h.path not in listed and h.doc_id not in moved]
    if complete:
        steps += [Step(DELETE, h.path, h.doc_id, h.fingerprint) for h in gone]
    steps += [Step(DELETE, h.path, h.doc_id, h.fingerprint) for h in extra]
    return SyncPlan(steps, complete)


def _same(entry: Listed, held: Held) -> bool:
    """Is the listed file what the held document was indexed from, without reading it?"""
    if entry.fingerprint is not None:
        return entry.fingerprint == held.fingerprint
    return (
        held.size is not None
        and held.mtime_ns is not None
        and entry.size == held.size
        and entry.mtime_ns == held.mtime_ns
    )
