"""Uploaded originals in a folder: where each is kept, and how a failed index is undone.

Decision: a document's identity in the registry is its stored location, and an upload is
kept at ``<folder>/<safe name>/<safe name>``. Uploading ``report.pdf`` again therefore
updates the same document (re-indexed in place, summaries of unchanged sections reused),
which is what a person re-uploading a newer version expects. To keep two different files
that share a name, ``separate=True`` stores it in a folder suffixed with its content hash,
so it becomes its own document. Uploads to a collection other than ``default`` live under
``<folder>/_<collection>/`` (a safe file name never starts with ``_``), so two teams'
``report.pdf`` are two documents, and one team's upload never replaces the other's.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import InvalidCollectionError, InvalidSourceError
from .base import COLLECTION_NAME, DEFAULT_COLLECTION, DOC_ID

_UNSAFE = re.compile(r"[^\w .()+,-]")  # \w keeps letters of every script
# Hash characters that tell two same-named uploads apart (40 bits: no accidental clash).
SEPARATE_SUFFIX_CHARS = 10
# Copies of synced files live under this folder: an upload's folder is a safe file name
# (never starting with ``_``) or ``_<collection>`` (a collection starts with a letter or a
# digit), so ``__synced`` is nobody else's.
SYNCED_FOLDER = "__synced"
# Hash characters naming a synced file's folder (64 bits: no accidental clash in a share).
SYNCED_PATH_CHARS = 16


def safe_file_name(name: str) -> str:
    """A file name with no directories, no shell or control characters, no leading dots."""
    base = unicodedata.normalize("NFC", str(name)).replace("\\", "/").split("/")[-1]
    base = _UNSAFE.sub("_", base)
    base = re.sub(r"_{2,}", "_", re.sub(r"\s+", " ", base)).strip(" .-_")
    stem, ext = os.path.splitext(base)
    stem = stem.strip(" .-_")[:120] or "upload"
    ext = re.sub(r"[^A-Za-z0-9.]", "", ext)[:10].lower()
    return stem + ext


def upload_key(
    name: str, data: bytes, separate: bool = False, collection: str = DEFAULT_COLLECTION
) -> str:
    """Where an upload is kept, relative to any store's uploads: ``<folder>/<safe name>``
    (``_<collection>/`` first outside the default collection). Every backend derives its
    locations from this one key, so a migrated document keeps its identity."""
    safe = safe_file_name(name)
    digest = hashlib.sha256(data).hexdigest()[:SEPARATE_SUFFIX_CHARS]
    folder = f"{safe}-{digest}" if separate else safe
    if collection != DEFAULT_COLLECTION:
        if not COLLECTION_NAME.match(collection):
            raise InvalidCollectionError(  # worded as the catalogue's key (store: no text layer)
                f"{collection[:80]!r} is not a collection name.",
                key="error.not_collection_name",
                values={"name": repr(collection[:80])},
            )
        folder = f"_{collection}/{folder}"
    return f"{folder}/{safe}"


def synced_key(source_id: str, path: str) -> str:
    """Where the copy of a synced file is kept, relative to any store's uploads:
    ``__synced/<source id>/<hash of its path>/<safe name>``. The path itself never becomes
    folders, so a bucket key like ``../../etc/passwd`` or ``/etc/passwd`` cannot name a
    place outside the store, and two paths that clean up alike stay two files."""
    if not DOC_ID.match(source_id or ""):
        raise InvalidSourceError(  # worded as the catalogue's key (store: no text layer)
            f"{str(source_id)[:80]!r} is not a source id.",
            key="error.not_source_id",
            values={"id": repr(str(source_id)[:80])},
        )
    digest = hashlib.sha256(path.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{SYNCED_FOLDER}/{source_id}/{digest[:SYNCED_PATH_CHARS]}/{safe_file_name(path)}"


class SourceFolder:
    """The file store's :class:`~.base.SourceFiles`: plain files under one folder."""

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)

    def location_for(
        self, name: str, data: bytes, separate: bool = False, collection: str = DEFAULT_COLLECTION
    ) -> str:
        return self.location_of(upload_key(name, data, separate, collection))

    def location_of(self, key: str) -> str:
        """The file an upload key (:func:`upload_key`) is kept at."""
        return os.path.join(self.root, *key.split("/"))

    def key_of(self, location: str) -> str | None:
        """The upload key of a location in this folder (None: a file kept elsewhere)."""
        relative = os.path.relpath(os.path.abspath(location), self.root)
        if relative.startswith(os.pardir) or os.path.isabs(relative):
            return None
        return relative.replace(os.sep, "/")

    @contextmanager
    def staged(self, location: str, data: bytes) -> Iterator[str]:
        """Write ``data`` at ``location`` for indexing; if indexing fails, put the old file back.

        The registry keeps the previous index when indexing fails, so the file it points at
        (shown beside the tree) must stay the previous one too.
        """
        os.makedirs(os.path.dirname(location), exist_ok=True)
        previous: bytes | None = None
        if os.path.exists(location):
            with open(location, "rb") as fh:
                previous = fh.read()
        tmp = location + ".part"
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, location)
        try:
            yield location
        except BaseException:
            if previous is None:
                os.unlink(location)
            else:
                with open(tmp, "wb") as fh:
                    fh.write(previous)
                os.replace(tmp, location)
            raise

    def read(self, location: str) -> bytes | None:
        try:
            with open(location, "rb") as fh:
                return fh.read()
        except OSError:
            return None

    def discard(self, location: str) -> None:
        """Remove a kept file of this folder and its folder when that is left empty (a
        location outside the folder, e.g. a document indexed in place, is never touched)."""
        if self.key_of(location) is None:
            return
        with contextlib.suppress(FileNotFoundError):
            os.unlink(location)
        with contextlib.suppress(OSError):  # not empty, or gone: either is fine
            os.rmdir(os.path.dirname(location))
