"""What listing a source gives a sync: the files to plan with, the ones set aside and why,
and whether the listing is whole (a cut listing deletes nothing)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..limits import Limits
from .plan import Listed


@dataclass
class Listing:
    entries: list[Listed] = field(default_factory=list)
    # Files and folders not synced, by path, with why (a link out of the folder, an unsafe
    # key, too deep): shown on the Sources page, never retried as failures.
    skipped: dict[str, str] = field(default_factory=dict)
    complete: bool = True

    def add(self, entry: Listed, limits: Limits) -> bool:
        """Keep ``entry``; False (and the listing marked cut) once the count limit is hit."""
        if len(self.entries) >= limits.sync_max_files:
            self.complete = False
            self.skipped["…"] = (
                f"more than {limits.sync_max_files:,} files: the rest are not synced and "
                "nothing is removed until the source fits (TREERAG_SYNC_MAX_FILES)"
            )
            return False
        self.entries.append(entry)
        return True


class SourceReader(Protocol):
    """A folder or a bucket as a sync uses it."""

    bytes_read: int

    def list(self) -> Listing: ...

    def entry(self, path: str) -> Listed | None:
        """One file as the listing would give it (None: gone), for a queued file."""
        ...

    def read(self, path: str) -> tuple[bytes, str]:
        """The file's bytes and their fingerprint (what the library records)."""
        ...
