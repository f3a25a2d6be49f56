"""The PostgreSQL store's library index: cards and section statistics as rows, read by the
term (a B-tree lookup per question term) among the documents a question may read.

Why here and not beside the app: every replica and worker sees the same index, and it is
kept in the same database as the documents it describes. Its rows reference their document
with ``ON DELETE CASCADE``, so deleting a document removes its entry in the same
transaction, and the collection is read from the document row itself, so a move needs no
second write: the index can never point at a document that is gone, or at an old collection.

Ranking is not the database's: the postings (see ``treerag_core.library.section_terms``)
are read back and scored by routing, with statistics summed over the documents the
question may read, exactly as the file store's are; both stores rank alike.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Collection
from contextlib import AbstractContextManager
from typing import Any

import psycopg
import psycopg.errors
from psycopg.types.json import Jsonb

from ...types import LibraryEntry
from ..postings import pack, unpack

Transaction = Callable[[], AbstractContextManager[psycopg.Connection[Any]]]


class PostgresLibraryIndex:
    def __init__(self, transaction: Transaction) -> None:
        self.transaction = transaction

    def put(self, entry: LibraryEntry) -> None:
        """One document's entry, in one transaction; nothing when the document was deleted
        meanwhile (its row is what the entry references)."""
        try:
            self._put(entry)
        except psycopg.errors.ForeignKeyViolation:
            return

    def _put(self, entry: LibraryEntry) -> None:
        doc_id, sections = entry["doc_id"], entry["sections"]
        shown = {"nodes": sections["nodes"], "titles": sections["titles"]}
        with self.transaction() as conn:
            # The entry's row first: its lock orders two saves of one document, so the
            # second's DELETE (a new snapshot, read committed) sees the first's terms.
            # Deleting first let both see none, and the second's COPY hit the first's rows.
            conn.execute(
                "INSERT INTO library_entries (doc_id, stamp, card, totals, sections, lengths) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (doc_id) DO UPDATE SET "
                "stamp = EXCLUDED.stamp, card = EXCLUDED.card, totals = EXCLUDED.totals, "
                "sections = EXCLUDED.sections, lengths = EXCLUDED.lengths",
                (doc_id, entry["stamp"], Jsonb(entry["card"]), Jsonb(sections["totals"]),
                 Jsonb(shown), pack(sections["lengths"])),
            )  # fmt: skip
            conn.execute("DELETE FROM library_section_terms WHERE doc_id = %s", (doc_id,))
            with conn.cursor().copy(
                "COPY library_section_terms (term, doc_id, postings) FROM STDIN"
            ) as copy:
                for term, postings in sections["postings"].items():
                    copy.write_row((term, doc_id, pack(postings)))

    def remove(self, doc_id: str) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM library_entries WHERE doc_id = %s", (doc_id,))
            conn.execute("DELETE FROM library_section_terms WHERE doc_id = %s", (doc_id,))

    def move(self, doc_id: str, collection: str) -> None:
        """Nothing to write: a search reads the collection from the document's row."""

    def clear(self) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM library_section_terms")
            conn.execute("DELETE FROM library_entries")

    def stamps(self) -> dict[str, str]:
        with self.transaction() as conn:
            rows = conn.execute("SELECT doc_id, stamp FROM library_entries").fetchall()
        return {r["doc_id"]: r["stamp"] for r in rows}

    def cards(self, doc_ids: Collection[str]) -> dict[str, dict[str, Any]]:
        with self.transaction() as conn:
            rows = conn.execute(
                "SELECT e.doc_id, e.card, d.collection FROM library_entries e "
                "JOIN documents d USING (doc_id) WHERE e.doc_id = ANY(%s)",
                (list(doc_ids),),
            ).fetchall()
        return {r["doc_id"]: {**r["card"], "collection": r["collection"]} for r in rows}

    def totals(self, doc_ids: Collection[str] | None) -> dict[str, dict[str, Any]]:
        with self.transaction() as conn:
            rows = conn.execute(
                "SELECT doc_id, totals FROM library_entries "
                "WHERE %s::text[] IS NULL OR doc_id = ANY(%s)",
                (_ids(doc_ids), _ids(doc_ids)),
            ).fetchall()
        return {r["doc_id"]: r["totals"] for r in rows}

    def postings(
        self, terms: Collection[str], doc_ids: Collection[str] | None
    ) -> dict[str, dict[str, array]]:
        wanted = list(dict.fromkeys(terms))
        if not wanted or doc_ids is not None and not doc_ids:
            return {}
        with self.transaction() as conn:
            rows = conn.execute(
                "SELECT term, doc_id, postings FROM library_section_terms WHERE term = ANY(%s) "
                "AND (%s::text[] IS NULL OR doc_id = ANY(%s))",
                (wanted, _ids(doc_ids), _ids(doc_ids)),
            ).fetchall()
        out: dict[str, dict[str, array]] = {}
        for r in rows:
            out.setdefault(r["term"], {})[r["doc_id"]] = unpack(r["postings"])
        return out

    def lengths(self, doc_ids: Collection[str]) -> dict[str, array]:
        with self.transaction() as conn:
            rows = conn.execute(
                "SELECT doc_id, lengths FROM library_entries WHERE doc_id = ANY(%s)",
                (list(doc_ids),),
            ).fetchall()
        return {r["doc_id"]: unpack(r["lengths"]) for r in rows}

    def sections(self, doc_ids: Collection[str]) -> dict[str, dict[str, list[str]]]:
        with self.transaction() as conn:
            rows = conn.execute(
                "SELECT doc_id, sections FROM library_entries WHERE doc_id = ANY(%s)",
                (list(doc_ids),),
            ).fetchall()
        return {r["doc_id"]: r["sections"] for r in rows}


def _ids(doc_ids: Collection[str] | None) -> list[str] | None:
    return None if doc_ids is None else list(doc_ids)
