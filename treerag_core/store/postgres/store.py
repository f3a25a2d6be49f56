"""The PostgreSQL store: the same ``DocumentStore`` contract as the file store, for several
app replicas and indexing workers on one database.

Atomicity comes from transactions instead of a file lock and atomic renames: every method is
one transaction, so a connection killed mid-save leaves the previous document, and readers
never see half of one. Two saves of the same source serialise on a transaction-scoped
advisory lock keyed by the source (saves of different documents run in parallel), and the
second keeps the first one's ``doc_id``, as the file store does under its lock.
"""

from __future__ import annotations

import builtins  # a class here has a method named list: its annotations say builtins.list
import json
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from ...errors import DocumentNotFoundError
from ...types import Document
from ..base import DEFAULT_COLLECTION, DOC_ID, collection_of, listed_row, stored_form
from ..thread_methods import ThreadMethods
from .connection import Database
from .files import DatabaseCache, DatabaseSources
from .jobs import JobQueue
from .library import PostgresLibraryIndex
from .schema import SCHEMA_VERSION, ensure_schema
from .sync_sources import DatabaseSyncSources
from .threads import DatabaseThreads

_UPSERT = """
    INSERT INTO documents (doc_id, file_path, collection, indexed_at, meta, body, size_bytes)
    VALUES (%s, %s, %s, %s, %s, %s::jsonb, %s)
    ON CONFLICT (doc_id) DO UPDATE SET file_path = EXCLUDED.file_path,
        collection = EXCLUDED.collection, indexed_at = EXCLUDED.indexed_at,
        meta = EXCLUDED.meta, body = EXCLUDED.body, size_bytes = EXCLUDED.size_bytes
"""


class _Schema:
    """One database's transactions, its schema brought up to date by the first."""

    def __init__(self, db: Database, location: str) -> None:
        self.db, self.location, self.ready = db, location, False

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection[Any]]:
        with self.db.transaction() as conn:
            if not self.ready:
                ensure_schema(conn, self.location)
                self.ready = True
            yield conn


class PostgresStore(ThreadMethods):
    """One registry database. Cheap to create; connections open on first use."""

    def __init__(self, url: str, max_connections: int | None = None) -> None:
        self.db = Database(url, max_connections)
        self.location = self.db.shown
        # The parts get the schema's transaction, not the store's bound method: a part
        # holding the store would make each store a reference cycle, and its pool (up to
        # TREERAG_PG_POOL_SIZE connections) would live on until a full garbage collection.
        # A process opening a store per call (a worker, a script) ran the server out of
        # connections that way.
        self._schema = _Schema(self.db, self.location)
        transaction = self._schema.transaction
        self.sources = DatabaseSources(transaction)
        self.jobs = JobQueue(transaction)
        self.thread_backend: DatabaseThreads = DatabaseThreads(transaction, self.location)
        self.library = PostgresLibraryIndex(transaction)
        self.sync_sources = DatabaseSyncSources(transaction)

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the pool (also done when the store is dropped)."""
        self.db.close()

    def transaction(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        """One transaction on a schema that is up to date (created on first use)."""
        return self._schema.transaction()

    def schema_version(self) -> int:
        return SCHEMA_VERSION

    def cache(self, name: str) -> DatabaseCache:
        return DatabaseCache(self._schema.transaction, name)

    def library_index(self) -> PostgresLibraryIndex:
        """Entries cascade with their document and read its collection: delete and
        set_document_collection need no second write."""
        return self.library

    # -- reads -------------------------------------------------------------------------
    def list(self) -> list[dict[str, Any]]:
        """Metadata of every document, newest first; never reads a document body."""
        with self.transaction() as conn:
            rows = conn.execute(
                "SELECT meta, collection, size_bytes FROM documents ORDER BY indexed_at DESC"
            ).fetchall()
        return [_row(r) for r in rows]

    def meta(self, doc_id: str) -> dict[str, Any] | None:
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT meta, collection, size_bytes FROM documents WHERE doc_id = %s", (doc_id,)
            ).fetchone()
        return _row(row, named=False) if row else None

    def get(self, doc_id: str) -> Document:
        if not DOC_ID.match(doc_id or ""):
            raise DocumentNotFoundError(  # worded as the catalogue's key (store: no text layer)
                f"{doc_id!r} is not a valid document id.",
                key="error.invalid_document_id",
                values={"id": repr(doc_id)},
            )
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT body, collection FROM documents WHERE doc_id = %s", (doc_id,)
            ).fetchone()
        if row is None:
            raise DocumentNotFoundError(  # worded as the catalogue's key (store: no text layer)
                f"No document with id {doc_id} in {self.location}.",
                key="error.no_document_id",
                values={"id": doc_id, "where": self.location},
            )
        document = row["body"]
        document["collection"] = row["collection"]  # the row decides (moves touch only it)
        return document

    def find_by_source(self, source: str) -> dict[str, Any] | None:
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT meta, collection, size_bytes FROM documents WHERE file_path = %s",
                (source,),
            ).fetchone()
        return _row(row, named=False) if row else None

    def stored_size(self, doc_id: str) -> int:
        row = self.meta(doc_id)
        return int(row.get("size_bytes") or 0) if row else 0

    # -- writes (one transaction each) ------------------------------------------------
    def save(self, document: Document) -> Document:
        """Insert or replace one document; an entry of the same source keeps its doc_id."""
        with self.transaction() as conn:
            conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (document["file_path"],)
            )
            same = conn.execute(
                "SELECT doc_id, collection FROM documents WHERE file_path = %s",
                (document["file_path"],),
            ).fetchone()
            if same and same["doc_id"] != document["doc_id"]:
                document = {**document, "doc_id": same["doc_id"]}
            if not document.get("collection"):
                document = {**document, "collection": collection_of(same or {})}
            _write(conn, document)
        return document

    def delete(self, doc_id: str) -> bool:
        with self.transaction() as conn:
            cursor = conn.execute("DELETE FROM documents WHERE doc_id = %s", (doc_id,))
        return cursor.rowcount > 0

    def replace_all(self, documents: dict[str, Document]) -> None:
        """Make the registry hold exactly ``documents``, in one transaction."""
        with self.transaction() as conn:
            conn.execute("LOCK TABLE documents IN SHARE ROW EXCLUSIVE MODE")
            conn.execute("DELETE FROM documents WHERE NOT (doc_id = ANY(%s))", (list(documents),))
            for doc_id, document in documents.items():
                collection = document.get("collection") or DEFAULT_COLLECTION
                conn.execute("DELETE FROM documents WHERE file_path = %s AND doc_id <> %s",
                             (document["file_path"], doc_id))  # fmt: skip
                _write(conn, {**document, "doc_id": doc_id, "collection": collection})

    # -- access: collections and the audit log ---------------------------------------
    def collections(self) -> dict[str, dict[str, Any]]:
        with self.transaction() as conn:
            rows = conn.execute("SELECT name, readers, editors FROM collections").fetchall()
        return {
            r["name"]: {"readers": list(r["readers"]), "editors": list(r["editors"])} for r in rows
        }

    def set_collection(
        self, name: str, readers: builtins.list[str], editors: builtins.list[str]
    ) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO collections (name, readers, editors) VALUES (%s, %s, %s) "
                "ON CONFLICT (name) DO UPDATE SET readers = EXCLUDED.readers, "
                "editors = EXCLUDED.editors",
                (name, Jsonb(list(readers)), Jsonb(list(editors))),
            )

    def set_document_collection(self, doc_id: str, collection: str) -> bool:
        with self.transaction() as conn:
            cursor = conn.execute(
                "UPDATE documents SET collection = %s WHERE doc_id = %s", (collection, doc_id)
            )
        return cursor.rowcount > 0

    def append_audit(self, entry: dict[str, Any]) -> None:
        """One insert: concurrent writers never lose an entry, and a trigger refuses any
        update or delete of the table."""
        with self.transaction() as conn:
            conn.execute("INSERT INTO audit_log (entry) VALUES (%s)", (Jsonb(entry),))

    def audit_log(self) -> builtins.list[dict[str, Any]]:
        with self.transaction() as conn:
            rows = conn.execute("SELECT entry FROM audit_log ORDER BY id").fetchall()
        return [r["entry"] for r in rows]

    # -- conversations and the saved evaluation questions (rows: see .threads) ----------
    def saved_questions(self) -> builtins.list[dict[str, Any]]:
        return self.thread_backend.saved_questions()

    def save_question(self, row: dict[str, Any]) -> None:
        self.thread_backend.save_question(row)

    def delete_saved_question(self, question_id: str) -> bool:
        return self.thread_backend.delete_saved_question(question_id)


def _row(row: dict[str, Any], named: bool = True) -> dict[str, Any]:
    """A listed row as the file store returns it (``name`` only in ``list``)."""
    out = dict(row["meta"])
    out["collection"] = row["collection"]
    out["size_bytes"] = row["size_bytes"]
    if named:
        out["name"] = out.get("file_name")
    return out


def _write(conn: psycopg.Connection[Any], document: Document) -> None:
    payload = json.dumps(stored_form(document), ensure_ascii=False, separators=(",", ":"))
    meta = listed_row(document)
    conn.execute(
        _UPSERT,
        (
            document["doc_id"],
            document["file_path"],
            document.get("collection") or DEFAULT_COLLECTION,
            str(document.get("indexed_at") or ""),
            Jsonb(meta),
            payload,
            len(payload.encode("utf-8")),
        ),
    )
