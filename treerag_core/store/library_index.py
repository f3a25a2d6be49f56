"""The file store's library index: every document's card and passages in SQLite FTS5.

Why SQLite: it is in Python's standard library, and FTS5 is a real full-text engine: an
inverted index on disk, BM25 ranking with column weights, transactions. A question over a
thousand documents reads a few index pages instead of every document, and memory does not
grow with the library. FTS5 cuts the text into terms itself (Unicode words, accents
folded, Porter stems), in C, so an entry adds little to indexing; the index is
derived data: ``treerag_core.library.catalog`` rebuilds or repairs it from the documents,
and a search only ever answers with documents the registry still lists.

Writes happen under the registry's file lock (the caller's), in one SQLite transaction
each; readers never block writers for long (WAL).
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import RegistryError
from ..types import LibraryEntry

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    doc_id TEXT PRIMARY KEY, stamp TEXT NOT NULL, collection TEXT NOT NULL, card TEXT NOT NULL,
    card_row INTEGER, first_row INTEGER, last_row INTEGER, texts BLOB
);
CREATE TABLE IF NOT EXISTS passage_rows (
    row INTEGER PRIMARY KEY, doc_id TEXT NOT NULL, node_id TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS cards USING fts5(
    doc_id UNINDEXED, name, about, summary, tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS passages USING fts5(
    body, content = '', tokenize = 'porter unicode61 remove_diacritics 2'
);
"""
# The layout's version (SQLite's user_version): an index of another version is derived data
# of an older treerag, dropped and built again from the documents by the next question.
INDEX_VERSION = 4  # 4: scripts without spaces indexed as bigrams
# How much a match in each card field counts (name, about, summary): a question names the
# company or product and the period far more often than words of a description.
CARD_WEIGHTS = (6.0, 3.0, 0.5)
BUSY_TIMEOUT_S = 30.0


def _match(tokens: Iterable[str]) -> str:
    """An FTS5 query: any of the tokens, each quoted (a token is never an operator)."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in dict.fromkeys(tokens) if t)


class SqliteLibraryIndex:
    """Cards and passages of one registry, in ``<registry stem>.library.sqlite``."""

    def __init__(self, path: str) -> None:
        self.path = path

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        try:
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)
        except sqlite3.Error as exc:
            raise RegistryError(f"Cannot open the library index {self.path}: {exc}") from exc
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            if conn.execute("PRAGMA user_version").fetchone()[0] != INDEX_VERSION:
                conn.executescript(
                    "DROP TABLE IF EXISTS entries; DROP TABLE IF EXISTS cards; "
                    "DROP TABLE IF EXISTS passage_rows; "
                    f"DROP TABLE IF EXISTS passages; PRAGMA user_version = {INDEX_VERSION};"
                )
            conn.executescript(SCHEMA)
            with conn:  # one transaction: committed on success, rolled back on error
                yield conn
        except sqlite3.DatabaseError as exc:
            raise RegistryError(f"The library index {self.path} failed: {exc}") from exc
        finally:
            conn.close()

    # -- writes ------------------------------------------------------------------------
    def put(self, entry: LibraryEntry) -> None:
        """Insert or replace one document's card and passages."""
        doc_id, fields = entry["doc_id"], entry["card_fields"]
        with self._db() as db:
            _remove(db, doc_id)
            card_row = db.execute(
                "INSERT INTO cards VALUES (?, ?, ?, ?)",
                (doc_id, fields["name"], fields["about"], fields["summary"]),
            ).lastrowid
            first = last = None
            for node_id, body in entry["passages"]:  # rows ascend: one range per document
                last = db.execute("INSERT INTO passage_rows (doc_id, node_id) VALUES (?, ?)",
                                  (doc_id, node_id)).lastrowid  # fmt: skip
                db.execute("INSERT INTO passages (rowid, body) VALUES (?, ?)", (last, body))
                first = first or last
            texts = zlib.compress(json.dumps([b for _, b in entry["passages"]]).encode())
            db.execute(
                "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (doc_id, entry["stamp"], entry["collection"], json.dumps(entry["card"]),
                 card_row, first, last, texts),
            )  # fmt: skip

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
            for table in ("entries", "cards", "passage_rows"):
                db.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed names
            db.execute("INSERT INTO passages (passages) VALUES ('delete-all')")

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

    def search_cards(
        self, tokens: list[str], doc_ids: Collection[str] | None = None
    ) -> dict[str, float]:
        """BM25 of each matching card (higher is better), among ``doc_ids`` (None: all)."""
        query = _match(tokens)
        if not query or doc_ids is not None and not doc_ids:
            return {}
        weights = ", ".join(map(str, CARD_WEIGHTS))
        sql = f"SELECT doc_id, -bm25(cards, 0, {weights}) FROM cards WHERE cards MATCH ?"
        with self._db() as db:
            rows = db.execute(*_among(sql, query, doc_ids)).fetchall()
        return dict(rows)

    def search_passages(
        self, tokens: list[str], doc_ids: Collection[str] | None, limit: int
    ) -> list[tuple[str, str, float]]:
        """The best ``limit`` passages as ``(doc_id, node_id, score)``, among ``doc_ids``."""
        query = _match(tokens)
        if not query or doc_ids is not None and not doc_ids:
            return []
        sql = (
            "SELECT r.doc_id, r.node_id, -bm25(passages) AS s FROM passages "
            "JOIN passage_rows r ON r.row = passages.rowid WHERE passages MATCH ?"
        )
        sql, params = _among(sql, query, doc_ids, "r.doc_id")
        with self._db() as db:
            rows = db.execute(sql + " ORDER BY s DESC LIMIT ?", (*params, limit)).fetchall()
        return [(doc_id, node_id, score) for doc_id, node_id, score in rows]


def _remove(db: sqlite3.Connection, doc_id: str) -> None:
    """A document's rows, found by their rowids (an FTS5 table is keyed by rowid only). The
    passages' index keeps no copy of their text (that would double the registry's size), so
    a passage is taken out by giving it its text again, kept compressed in its entry."""
    row = db.execute(
        "SELECT card_row, first_row, last_row, texts FROM entries WHERE doc_id = ?", (doc_id,)
    ).fetchone()
    if row is None:
        return
    card_row, first, last, texts = row
    db.execute("DELETE FROM cards WHERE rowid = ?", (card_row,))
    if first is not None:
        bodies = json.loads(zlib.decompress(texts))
        db.executemany(
            "INSERT INTO passages (passages, rowid, body) VALUES ('delete', ?, ?)",
            zip(range(first, last + 1), bodies, strict=True),
        )
        db.execute("DELETE FROM passage_rows WHERE row BETWEEN ? AND ?", (first, last))
    db.execute("DELETE FROM entries WHERE doc_id = ?", (doc_id,))


def _among(
    sql: str, query: str, doc_ids: Collection[str] | None, column: str = "doc_id"
) -> tuple[str, tuple]:
    """``sql`` narrowed to ``doc_ids`` (the documents the asker may read), if given."""
    if doc_ids is None:
        return sql, (query,)
    return f"{sql} AND {column} IN ({_marks(doc_ids)})", (query, *doc_ids)


def _marks(items: Collection[Any]) -> str:
    return ", ".join("?" * len(items)) or "NULL"
