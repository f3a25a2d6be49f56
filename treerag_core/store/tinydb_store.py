"""The file store: small metadata rows in TinyDB, each full document in its own file.

Why this layout: listing 100 large documents must not parse their text, and saving one
must not rewrite the others. TinyDB holds one short row per document (plus the schema
version) and stays a few kilobytes; each document's JSON lives beside it in
``<registry>.docs/<doc_id>.json.gz``, gzip-compressed at its fastest level (a document is
mostly its text, which compresses to about a third: the registry stays smaller than its
sources even with the library index beside it, for ~15 ms per save and ~10 ms per read;
a plain ``<doc_id>.json`` of an earlier treerag is read as it is and replaced on its next
save). Every write happens under a cross-process file lock and
replaces files atomically, so concurrent sessions lose nothing and a crash mid-save leaves
the previous registry intact. A registry file that fails to parse raises ``RegistryError``
and is never overwritten. Beside the registry file the store keeps what belongs to it:
``<stem>.docs/`` (documents), ``<stem>.uploads/`` (sources), ``<stem>.cache/<name>/`` and
``<stem>.audit.jsonl`` (the append-only audit log), ``<stem>.threads/`` (conversations, see
:mod:`.thread_files`), ``<stem>.sync/`` (synced folders and buckets, see
:mod:`.sync_sources`). Collection members and saved evaluation questions are TinyDB tables.

Schema 2 added collections: a schema-1 registry is migrated on first open, under the lock,
by giving every row the collection ``default`` (its TinyDB file is copied to
``<registry>.schema1.bak`` first; document files are not touched).
"""

from __future__ import annotations

import builtins  # a class here has a method named list: its annotations say builtins.list
import gzip
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tinydb import Query, TinyDB
from tinydb.storages import Storage

from ..errors import DocumentNotFoundError, RegistryError
from ..types import Document
from .append_log import AppendOnlyLog
from .base import (
    DEFAULT_COLLECTION,
    DOC_ID,
    collection_of,
    listed_row,
    stored_form,
)
from .caches import DirectoryCache
from .file_lock import atomic_write_bytes, locked
from .library_index import SqliteLibraryIndex
from .originals import SourceFolder
from .sync_sources import SyncSourceFiles
from .thread_files import ThreadFiles
from .thread_methods import ThreadMethods

SCHEMA_VERSION = 2  # 2: every document row names its collection; collection members table


class AtomicJSONStorage(Storage):
    """TinyDB storage that refuses to read a corrupt file and writes by atomic replace."""

    def __init__(self, path: str) -> None:
        self.path = path

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            with open(self.path, "rb") as fh:
                raw = fh.read()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise RegistryError(  # worded as the catalogue's key (store: no text layer)
                f"Cannot read the registry {self.path}: {exc.strerror}",
                key="error.registry_unreadable",
                values={"path": self.path, "reason": exc.strerror},
            ) from exc
        if not raw.strip():
            return None
        try:
            data = json.loads(raw)
        except ValueError as exc:
            raise RegistryError(  # worded as the catalogue's key (store: no text layer)
                f"The registry {self.path} is not valid JSON ({exc}). It was left untouched; "
                "restore it from a backup or move it aside to start a new one.",
                key="error.registry_not_json",
                values={"path": self.path, "reason": str(exc)},
            ) from exc
        if not isinstance(data, dict):
            raise RegistryError(
                f"The registry {self.path} does not hold a TinyDB database.",
                key="error.registry_not_tinydb",
                values={"path": self.path},
            )
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        atomic_write_bytes(self.path, json.dumps(data, ensure_ascii=False).encode())

    def close(self) -> None:
        pass


class TinyDBStore(ThreadMethods):
    """One registry on disk. Cheap to create: holds paths, no open handles or caches."""

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        self.location = self.path
        base, _ = os.path.splitext(self.path)
        self.docs_dir = base + ".docs"
        self.cache_dir = base + ".cache"
        self.lock_path = self.path + ".lock"
        self.sources = SourceFolder(base + ".uploads")
        self.audit = AppendOnlyLog(base + ".audit.jsonl", self.lock_path)
        self.thread_backend = ThreadFiles(base + ".threads", self.lock_path)
        self.library = SqliteLibraryIndex(base + ".library.sqlite")
        self.sync_sources = SyncSourceFiles(base + ".sync", self.lock_path, self.list)

    def cache(self, name: str) -> DirectoryCache:
        return DirectoryCache(os.path.join(self.cache_dir, name))

    def library_index(self) -> SqliteLibraryIndex:
        return self.library

    # -- low level -------------------------------------------------------------------
    @contextmanager
    def _db(self, holding_lock: bool = False) -> Iterator[TinyDB]:
        db = TinyDB(self.path, storage=AtomicJSONStorage)
        try:
            if self._schema(db) < SCHEMA_VERSION:
                if not holding_lock:  # flock is per open file: never take it twice
                    db.close()
                    with locked(self.lock_path):
                        db = TinyDB(self.path, storage=AtomicJSONStorage)
                        self._migrate(db)
                else:
                    self._migrate(db)
            yield db
        finally:
            db.close()

    def _schema(self, db: TinyDB) -> int:
        """The registry's schema version (a registry never stamped is current if empty)."""
        rows = db.table("_meta").all()
        version = rows[0].get("schema_version") if rows else None
        if version is None:
            return 1 if db.table("documents").all() else SCHEMA_VERSION
        if version > SCHEMA_VERSION:
            raise RegistryError(
                f"The registry {self.path} was written by a newer treerag (schema {version}); "
                "upgrade treerag to open it.",
                key="error.registry_newer",
                values={"path": self.path, "version": version},
            )
        return int(version)

    def _migrate(self, db: TinyDB) -> None:
        """Schema 1 → 2 (caller holds the lock; re-checked, so two migrators do it once)."""
        if self._schema(db) >= SCHEMA_VERSION:
            return
        backup = self.path + ".schema1.bak"
        if os.path.exists(self.path) and not os.path.exists(backup):
            with open(self.path, "rb") as fh:
                atomic_write_bytes(backup, fh.read())
        db.table("documents").update(
            {"collection": DEFAULT_COLLECTION}, ~Query().collection.exists()
        )
        meta = db.table("_meta")
        meta.truncate()
        meta.insert({"schema_version": SCHEMA_VERSION})

    def _doc_path(self, doc_id: str) -> str:
        if not DOC_ID.match(doc_id or ""):
            raise DocumentNotFoundError(  # worded as the catalogue's key (store: no text layer)
                f"{doc_id!r} is not a valid document id.",
                key="error.invalid_document_id",
                values={"id": repr(doc_id)},
            )
        return os.path.join(self.docs_dir, f"{doc_id}.json.gz")

    def _doc_paths(self, doc_id: str) -> tuple[str, str]:
        """Where a document may be: compressed (this version) or plain (written before)."""
        path = self._doc_path(doc_id)
        return path, path[: -len(".gz")]

    def _unlink_document(self, doc_id: str) -> None:
        for path in self._doc_paths(doc_id):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass

    # -- reads (no lock: every file is replaced atomically) -------------------------
    def list(self) -> list[dict[str, Any]]:
        """Metadata of every document, newest first; never opens a document file."""
        if not os.path.exists(self.path):
            return []
        with self._db() as db:
            rows = [dict(row) for row in db.table("documents").all()]
        for row in rows:
            row["name"] = row.get("file_name")
        return sorted(rows, key=lambda r: r.get("indexed_at") or "", reverse=True)

    def meta(self, doc_id: str) -> dict[str, Any] | None:
        if not os.path.exists(self.path):
            return None
        with self._db() as db:
            row = db.table("documents").get(Query().doc_id == doc_id)
        return dict(row) if row else None

    def get(self, doc_id: str) -> Document:
        compressed, plain = self._doc_paths(doc_id)
        meta = self.meta(doc_id)
        if meta is None:
            raise DocumentNotFoundError(  # worded as the catalogue's key (store: no text layer)
                f"No document with id {doc_id} in {self.path}.",
                key="error.no_document_id",
                values={"id": doc_id, "where": self.path},
            )
        try:
            document = json.loads(_read_document(compressed, plain))
        except FileNotFoundError:
            raise DocumentNotFoundError(
                f"Document {doc_id} was just deleted.",
                key="error.document_deleted",
                values={"id": doc_id},
            ) from None
        except (ValueError, OSError, EOFError) as exc:
            raise RegistryError(
                f"The stored document {doc_id} is unreadable: {exc}",
                key="error.stored_document_unreadable",
                values={"id": doc_id, "reason": str(exc)},
            ) from exc
        document["collection"] = collection_of(meta)  # the row decides (moves touch only it)
        return document

    def find_by_source(self, source: str) -> dict[str, Any] | None:
        if not os.path.exists(self.path):
            return None
        with self._db() as db:
            row = db.table("documents").get(Query().file_path == source)
        return dict(row) if row else None

    def stored_size(self, doc_id: str) -> int:
        for path in self._doc_paths(doc_id):
            try:
                return os.path.getsize(path)
            except OSError:
                continue
        return 0

    # -- writes (under the lock) ----------------------------------------------------
    def save(self, document: Document) -> Document:
        """Insert or replace one document; an entry of the same source keeps its doc_id.

        Re-checking the source under the lock means two sessions indexing the same file at
        once end with one entry, not two.
        """
        with locked(self.lock_path), self._db(holding_lock=True) as db:
            table = db.table("documents")
            same_source = table.get(Query().file_path == document["file_path"])
            if same_source and same_source["doc_id"] != document["doc_id"]:
                document = {**document, "doc_id": same_source["doc_id"]}
            if not document.get("collection"):
                document = {**document, "collection": collection_of(same_source or {})}
            document = self._write(table, document)
            self._stamp(db)
        return document

    def _write(self, table: Any, document: Document) -> Document:
        """Document file first, then its row: a row never points at a missing file."""
        document = {**document, "schema_version": SCHEMA_VERSION}
        body = json.dumps(stored_form(document), ensure_ascii=False, separators=(",", ":"))
        payload = gzip.compress(body.encode(), compresslevel=1, mtime=0)
        compressed, plain = self._doc_paths(document["doc_id"])
        atomic_write_bytes(compressed, payload)
        if os.path.exists(plain):  # an earlier treerag's copy: the compressed one replaces it
            os.unlink(plain)
        row = listed_row(document)
        row["size_bytes"] = len(payload)
        table.upsert(row, Query().doc_id == document["doc_id"])
        return document

    def delete(self, doc_id: str) -> bool:
        """Remove the row first, then the file: a crash in between leaves only an orphan."""
        self._doc_path(doc_id)  # a valid id, or DocumentNotFoundError before anything changes
        with locked(self.lock_path), self._db(holding_lock=True) as db:
            removed = db.table("documents").remove(Query().doc_id == doc_id)
            if removed:
                self._stamp(db)
            self.library.remove(doc_id)
            self._unlink_document(doc_id)
        return bool(removed)

    def replace_all(self, documents: dict[str, Document]) -> None:
        """Make the registry hold exactly ``documents`` (``save_registry``'s contract)."""
        with locked(self.lock_path), self._db(holding_lock=True) as db:
            table = db.table("documents")
            keep = set(documents)
            for row in table.all():
                if row["doc_id"] not in keep:
                    table.remove(Query().doc_id == row["doc_id"])
                    self._unlink_document(row["doc_id"])
            for doc_id, document in documents.items():
                collection = document.get("collection") or DEFAULT_COLLECTION
                self._write(table, {**document, "doc_id": doc_id, "collection": collection})
            self._stamp(db)

    # -- access: collections and the audit log ---------------------------------------
    def collections(self) -> dict[str, dict[str, Any]]:
        if not os.path.exists(self.path):
            return {}
        with self._db() as db:
            rows = db.table("collections").all()
        return {
            row["name"]: {
                "readers": list(row.get("readers", [])),
                "editors": list(row.get("editors", [])),
            }
            for row in rows
        }

    def set_collection(
        self, name: str, readers: builtins.list[str], editors: builtins.list[str]
    ) -> None:
        with locked(self.lock_path), self._db(holding_lock=True) as db:
            row = {"name": name, "readers": list(readers), "editors": list(editors)}
            db.table("collections").upsert(row, Query().name == name)
            self._stamp(db)

    def set_document_collection(self, doc_id: str, collection: str) -> bool:
        with locked(self.lock_path), self._db(holding_lock=True) as db:
            changed = db.table("documents").update(
                {"collection": collection}, Query().doc_id == doc_id
            )
            if changed:
                self.library.move(doc_id, collection)
        return bool(changed)

    def append_audit(self, entry: dict[str, Any]) -> None:
        self.audit.append(entry)

    def audit_log(self) -> builtins.list[dict[str, Any]]:
        return self.audit.entries()

    # -- conversations and the saved evaluation questions ------------------------------
    def saved_questions(self) -> builtins.list[dict[str, Any]]:
        if not os.path.exists(self.path):
            return []
        with self._db() as db:
            return [dict(row) for row in db.table("questions").all()]

    def save_question(self, row: dict[str, Any]) -> None:
        with locked(self.lock_path), self._db(holding_lock=True) as db:
            db.table("questions").upsert(dict(row), Query().id == row["id"])
            self._stamp(db)

    def delete_saved_question(self, question_id: str) -> bool:
        with locked(self.lock_path), self._db(holding_lock=True) as db:
            removed = db.table("questions").remove(Query().id == question_id)
        return bool(removed)

    @staticmethod
    def _stamp(db: TinyDB) -> None:
        meta = db.table("_meta")
        if not meta.all():
            meta.insert({"schema_version": SCHEMA_VERSION})


def _read_document(compressed: str, plain: str) -> bytes:
    """A document file's JSON: the compressed copy, else an earlier treerag's plain one."""
    try:
        with open(compressed, "rb") as fh:
            return gzip.decompress(fh.read())
    except FileNotFoundError:
        with open(plain, "rb") as fh:
            return fh.read()
