"""The file store's library index: every document's card and section statistics in SQLite.

Why SQLite: it is in Python's standard library, keeps an index on disk with transactions,
and a question over a thousand documents reads the rows of its own few terms (one B-tree
lookup each) instead of every document, so memory does not grow with the library. The
rows are postings by ``(term, document)``, packed (``postings.py``), the document named by
a small integer key rather than its id (the id in every row was a third of a filing's
rows): the statistics routing ranks with are summed
over the documents a question may read, never the whole index (see
``treerag_core.library.section_terms``). The index is derived data:
``treerag_core.library.catalog`` rebuilds or repairs it from the documents, and a search
only ever answers with documents the registry still lists.

Writes happen under the registry's file lock (the caller's), in one SQLite transaction
each; readers never block writers for long (WAL).
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from array import array
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import RegistryError
from ..types import LibraryEntry
from .postings import pack, unpack

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    doc INTEGER PRIMARY KEY, doc_id TEXT NOT NULL UNIQUE, stamp TEXT NOT NULL,
    collection TEXT NOT NULL, card TEXT NOT NULL, totals TEXT NOT NULL, sections BLOB NOT NULL,
    lengths BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS section_terms (
    term TEXT NOT NULL, doc INTEGER NOT NULL, postings BLOB NOT NULL,
    PRIMARY KEY (term, doc)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS section_terms_doc ON section_terms (doc);
"""
# The layout's version (SQLite's user_version): an index of another version is derived data
# of an older treerag, dropped and built again from the documents by the next question.
INDEX_VERSION = 6  # 6: packed postings, lengths once per section, documents by integer key
BUSY_TIMEOUT_S = 30.0
TABLES = ("entries", "section_terms", "cards", "passages", "passage_rows")  # older ones too


class SqliteLibraryIndex:
    """Cards and section statistics of one registry, in ``<registry stem>.library.sqlite``."""

    def __init__(self, path: str) -> None:
        self.path = path

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        try:
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)
        except sqlite3.Error as exc:
            raise RegistryError(  # worded as the catalogue's key (store: no text layer)
                f"Cannot open the library index {self.path}: {exc}",
                key="error.library_index_open",
                values={"path": self.path, "reason": str(exc)},
            ) from exc
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            # Derived data: a commit lost to a power cut is rebuilt from the documents by the
            # next question (catalog.sync_index), so no sync to disk on every commit.
            conn.execute("PRAGMA synchronous=NORMAL")
            if conn.execute("PRAGMA user_version").fetchone()[0] != INDEX_VERSION:
                drops = " ".join(f"DROP TABLE IF EXISTS {t};" for t in TABLES)
                conn.executescript(f"{drops} PRAGMA user_version = {INDEX_VERSION};")
                conn.execute("VACUUM")  # give the old layout's pages back to the disk
            conn.executescript(SCHEMA)
            with conn:  # one transaction: committed on success, rolled back on error
                yield conn
        except sqlite3.DatabaseError as exc:
            raise RegistryError(
                f"The library index {self.path} failed: {exc}",
                key="error.library_index_failed",
                values={"path": self.path, "reason": str(exc)},
            ) from exc
        finally:
            conn.close()

    # -- writes ------------------------------------------------------------------------
    def put(self, entry: LibraryEntry) -> None:
        """Insert or replace one document's card and section statistics."""
        doc_id, sections = entry["doc_id"], entry["sections"]
        shown = {"nodes": sections["nodes"], "titles": sections["titles"]}
        with self._db() as db:
            _remove(db, doc_id)
            doc = db.execute(
                "INSERT INTO entries (doc_id, stamp, collection, card, totals, sections, lengths) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (doc_id, entry["stamp"], entry["collection"], json.dumps(entry["card"]),
                 json.dumps(sections["totals"]), zlib.compress(json.dumps(shown).encode()),
                 pack(sections["lengths"])),
            ).lastrowid  # fmt: skip
            db.executemany(
                "INSERT INTO section_terms VALUES (?, ?, ?)",
                ((term, doc, pack(p)) for term, p in sections["postings"].items()),
            )

    def remove(self, doc_id: str) -> None:
        with self._db() as db:
            _remove(db, doc_id)

    def move(self, doc_id: str, collection: str) -> None:
        with self._db() as db:
            row = db.execute("SELECT card FROM entries WHERE doc_id = ?", (doc_id,)).fetchone()
            if row is None:
                return
            card = {**json.loads(row[0]), "collection": collection}
            db.execute(
                "UPDATE entries SET collection = ?, card = ? WHERE doc_id = ?",
                (collection, json.dumps(card), doc_id),
            )

    def clear(self) -> None:
        with self._db() as db:
            db.execute("DELETE FROM entries")
            db.execute("DELETE FROM section_terms")

    # -- reads -------------------------------------------------------------------------
    def stamps(self) -> dict[str, str]:
        """Every indexed document's stamp (what it was indexed from), by doc_id."""
        if not os.path.exists(self.path):
            return {}
        with self._db() as db:
            return dict(db.execute("SELECT doc_id, stamp FROM entries").fetchall())

    def cards(self, doc_ids: Collection[str]) -> dict[str, dict[str, Any]]:
        with self._db() as db:
            rows = db.execute(
                f"SELECT doc_id, card FROM entries WHERE doc_id IN ({_marks(doc_ids)})",
                tuple(doc_ids),
            ).fetchall()
        return {doc_id: json.loads(card) for doc_id, card in rows}

    def totals(self, doc_ids: Collection[str] | None) -> dict[str, dict[str, Any]]:
        """Each document's totals (sections, field lengths, the card's, its language)."""
        with self._db() as db:
            rows = db.execute("SELECT doc_id, totals FROM entries").fetchall()
        return {d: json.loads(t) for d, t in rows if doc_ids is None or d in doc_ids}

    def postings(
        self, terms: Collection[str], doc_ids: Collection[str] | None
    ) -> dict[str, dict[str, array]]:
        """The postings of ``terms``, by term then document, among ``doc_ids`` (None: all)."""
        wanted = list(dict.fromkeys(terms))
        if not wanted or doc_ids is not None and not doc_ids:
            return {}
        with self._db() as db:
            rows = db.execute(
                "SELECT t.term, e.doc_id, t.postings FROM section_terms t "
                f"JOIN entries e ON e.doc = t.doc WHERE t.term IN ({_marks(wanted)})",
                wanted,
            ).fetchall()
        out: dict[str, dict[str, array]] = {}
        for term, doc_id, postings in rows:
            if doc_ids is None or doc_id in doc_ids:
                out.setdefault(term, {})[doc_id] = unpack(postings)
        return out

    def lengths(self, doc_ids: Collection[str]) -> dict[str, array]:
        """Each document's sections' field lengths, flat, in section order."""
        with self._db() as db:
            rows = db.execute(
                f"SELECT doc_id, lengths FROM entries WHERE doc_id IN ({_marks(doc_ids)})",
                tuple(doc_ids),
            ).fetchall()
        return {doc_id: unpack(blob) for doc_id, blob in rows}

    def sections(self, doc_ids: Collection[str]) -> dict[str, dict[str, list[str]]]:
        """Each document's sections' node ids and titles, in section order."""
        with self._db() as db:
            rows = db.execute(
                f"SELECT doc_id, sections FROM entries WHERE doc_id IN ({_marks(doc_ids)})",
                tuple(doc_ids),
            ).fetchall()
        return {doc_id: json.loads(zlib.decompress(blob)) for doc_id, blob in rows}


def _remove(db: sqlite3.Connection, doc_id: str) -> None:
    db.execute(
        "DELETE FROM section_terms WHERE doc IN (SELECT doc FROM entries WHERE doc_id = ?)",
        (doc_id,),
    )
    db.execute("DELETE FROM entries WHERE doc_id = ?", (doc_id,))


def _marks(items: Collection[Any]) -> str:
    return ", ".join("?" * len(items)) or "NULL"
