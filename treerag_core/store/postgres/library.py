"""The PostgreSQL store's library index: cards and passages as ``tsvector`` rows with GIN
indexes, ranked by PostgreSQL's own full-text search.

Why here and not beside the app: every replica and worker sees the same index, and it is
kept in the same database as the documents it describes. Its rows reference their document
with ``ON DELETE CASCADE``, so deleting a document removes its entry in the same
transaction, and the collection is read from the document row itself, so a move needs no
second write: the index can never point at a document that is gone, or at an old collection.

Ranking: ``ts_rank`` knows no inverse document frequency, so a passage's score is the sum,
over the question's tokens it holds, of the token's BM25 idf (counted with the GIN index)
times ``ts_rank`` of that token alone. Cards weigh their fields by ``setweight``: name (A),
what it covers (B), description and outline (D).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable
from contextlib import AbstractContextManager
from typing import Any

import psycopg
import psycopg.errors
from psycopg.types.json import Jsonb

from ...types import LibraryEntry

Transaction = Callable[[], AbstractContextManager[psycopg.Connection[Any]]]
# ts_rank's weights for D, C, B, A: description, (unused), what it covers, its name.
CARD_WEIGHTS = [0.25, 0.5, 0.75, 1.0]


def _query(tokens: Iterable[str]) -> str:
    """A tsquery matching any of the tokens (quotes and backslashes dropped)."""
    words = [t.replace("'", "").replace("\\", "") for t in dict.fromkeys(tokens)]
    return " | ".join(f"'{w}'" for w in words if w)


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
        doc_id, fields = entry["doc_id"], entry["card_fields"]
        with self.transaction() as conn:
            conn.execute("DELETE FROM library_passages WHERE doc_id = %s", (doc_id,))
            conn.execute(
                "INSERT INTO library_entries (doc_id, stamp, card, card_text) VALUES (%s, %s, %s, "
                "setweight(to_tsvector('english', %s), 'A') || "
                "setweight(to_tsvector('english', %s), 'B') || "
                "setweight(to_tsvector('english', %s), 'D')) "
                "ON CONFLICT (doc_id) DO UPDATE SET stamp = EXCLUDED.stamp, card = EXCLUDED.card, "
                "card_text = EXCLUDED.card_text",
                (doc_id, entry["stamp"], Jsonb(entry["card"]), fields["name"], fields["about"],
                 fields["summary"]),
            )  # fmt: skip
            conn.cursor().executemany(
                "INSERT INTO library_passages (doc_id, node_id, body) "
                "VALUES (%s, %s, to_tsvector('english', %s))",
                [(doc_id, node_id, body) for node_id, body in entry["passages"]],
            )

    def remove(self, doc_id: str) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM library_entries WHERE doc_id = %s", (doc_id,))
            conn.execute("DELETE FROM library_passages WHERE doc_id = %s", (doc_id,))

    def move(self, doc_id: str, collection: str) -> None:
        """Nothing to write: a search reads the collection from the document's row."""

    def clear(self) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM library_passages")
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

    def search_cards(
        self, tokens: list[str], doc_ids: Collection[str] | None = None
    ) -> dict[str, float]:
        query = _query(tokens)
        if not query or doc_ids is not None and not doc_ids:
            return {}
        with self.transaction() as conn:
            rows = conn.execute(
                "SELECT doc_id, ts_rank(%s::float4[], card_text, to_tsquery('english', %s)) AS s "
                "FROM library_entries WHERE card_text @@ to_tsquery('english', %s) "
                "AND (%s::text[] IS NULL OR doc_id = ANY(%s))",
                (CARD_WEIGHTS, query, query, _ids(doc_ids), _ids(doc_ids)),
            ).fetchall()
        return {r["doc_id"]: float(r["s"]) for r in rows}

    def search_passages(
        self, tokens: list[str], doc_ids: Collection[str] | None, limit: int
    ) -> list[tuple[str, str, float]]:
        query = _query(tokens)
        if not query or doc_ids is not None and not doc_ids:
            return []
        with self.transaction() as conn:
            terms, idfs = self._idf(conn, tokens)
            rows = conn.execute(
                "SELECT p.doc_id, p.node_id, "
                "sum(q.idf * ts_rank(p.body, to_tsquery('english', q.term))) AS s "
                "FROM library_passages p CROSS JOIN unnest(%s::text[], %s::float8[]) AS q(term, idf) "
                "WHERE p.body @@ to_tsquery('english', %s) AND p.body @@ to_tsquery('english', q.term) "
                "AND (%s::text[] IS NULL OR p.doc_id = ANY(%s)) "
                "GROUP BY p.doc_id, p.node_id ORDER BY s DESC LIMIT %s",
                (terms, idfs, query, _ids(doc_ids), _ids(doc_ids), limit),
            ).fetchall()
        return [(r["doc_id"], r["node_id"], float(r["s"])) for r in rows]

    @staticmethod
    def _idf(conn: psycopg.Connection[Any], tokens: list[str]) -> tuple[list[str], list[float]]:
        """Each token as a tsquery and its BM25 idf over all passages."""
        terms = [t for t in (_query([tok]) for tok in dict.fromkeys(tokens)) if t]
        total = conn.execute("SELECT count(*) AS n FROM library_passages").fetchone()["n"]  # type: ignore[index]  # count(*): one row
        idfs = []
        for term in terms:
            found = conn.execute(
                "SELECT count(*) AS n FROM library_passages WHERE body @@ to_tsquery('english', %s)",
                (term,),
            ).fetchone()["n"]  # type: ignore[index]  # count(*): one row
            idfs.append(math.log(1 + (total - found + 0.5) / (found + 0.5)))
        return terms, idfs


def _ids(doc_ids: Collection[str] | None) -> list[str] | None:
    return None if doc_ids is None else list(doc_ids)
