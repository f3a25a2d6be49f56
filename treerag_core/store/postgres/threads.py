"""Conversations and saved evaluation questions as database rows, shared by every replica.

``threads(owner, thread_id, …, body jsonb)``: one row a thread, the whole thread (turns
included) as one JSONB value beside the columns a thread list shows, so listing a person's
threads reads no turns. Why one row and not a turn table: a thread is read and written
whole (the page shows all of it; a change is one read-change-write), as a document is, and
the file store keeps it as one file for the same reason. A change is ``SELECT … FOR UPDATE``,
the caller's change, ``UPDATE`` in one transaction: two replicas answering in one thread at
once serialise on the row and lose no turn. The primary key starts with the owner, so a
thread is only ever found under the person it belongs to.

``saved_questions(id, position, question jsonb)``: the regression set, oldest first (an
upsert keeps a question's place, as the file store's table does).
"""

from __future__ import annotations

import builtins  # a class here has a method named list: its annotations say builtins.list
from collections.abc import Callable
from typing import Any

from psycopg.types.json import Jsonb

from ...errors import RegistryError
from ..base import DOC_ID
from .files import Transaction

_SUMMARY = "thread_id, owner, title, doc_ids, created_at, updated_at, turns"
_UPSERT = """
    INSERT INTO threads (owner, thread_id, title, doc_ids, created_at, updated_at, turns, body)
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
    ON CONFLICT (owner, thread_id) DO UPDATE SET title = EXCLUDED.title,
        doc_ids = EXCLUDED.doc_ids, created_at = EXCLUDED.created_at,
        updated_at = EXCLUDED.updated_at, turns = EXCLUDED.turns, body = EXCLUDED.body
"""


class DatabaseThreads:
    """The database store's conversations and saved questions (see the module text)."""

    def __init__(self, transaction: Transaction, location: str) -> None:
        self._tx = transaction
        self.location = location

    # -- threads ------------------------------------------------------------------------
    def list(self, owner: str) -> list[dict[str, Any]]:
        with self._tx() as conn:
            rows = conn.execute(
                f"SELECT {_SUMMARY} FROM threads WHERE owner = %s ORDER BY updated_at DESC",
                (owner,),
            ).fetchall()
        return [dict(row) for row in rows]

    def owners(self) -> builtins.list[str]:
        with self._tx() as conn:
            rows = conn.execute("SELECT DISTINCT owner FROM threads ORDER BY owner").fetchall()
        return [row["owner"] for row in rows]

    def get(self, owner: str, thread_id: str) -> dict[str, Any] | None:
        if not DOC_ID.match(str(thread_id or "")):
            return None
        with self._tx() as conn:
            row = conn.execute(
                "SELECT body FROM threads WHERE owner = %s AND thread_id = %s",
                (owner, thread_id),
            ).fetchone()
        return self._thread(row, owner, thread_id)

    def save(self, thread: dict[str, Any]) -> None:
        _check_id(thread.get("thread_id"))
        with self._tx() as conn:
            _write(conn, thread)

    def update(
        self, owner: str, thread_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> dict[str, Any] | None:
        """Read (row locked), change and write in one transaction; an error raised by
        ``change`` rolls it back and reaches the caller as it is."""
        if not DOC_ID.match(str(thread_id or "")):
            return None
        with self._tx() as conn:
            row = conn.execute(
                "SELECT body FROM threads WHERE owner = %s AND thread_id = %s FOR UPDATE",
                (owner, thread_id),
            ).fetchone()
            thread = self._thread(row, owner, thread_id)
            if thread is None:
                return None
            changed = change(thread)
            if changed.get("owner") != owner or changed.get("thread_id") != thread_id:
                raise RegistryError("A conversation change cannot move it to another id.")
            _write(conn, changed)
        return changed

    def delete(self, owner: str, thread_id: str) -> bool:
        if not DOC_ID.match(str(thread_id or "")):
            return False
        with self._tx() as conn:
            cursor = conn.execute(
                "DELETE FROM threads WHERE owner = %s AND thread_id = %s", (owner, thread_id)
            )
        return cursor.rowcount > 0

    def _thread(self, row: Any, owner: str, thread_id: str) -> dict[str, Any] | None:
        if row is None:
            return None
        thread = row["body"]
        if not isinstance(thread, dict):
            raise RegistryError(  # worded as the catalogue's key (store: no text layer)
                f"The stored conversation {thread_id} in {self.location} is unreadable: "
                f"a {type(thread).__name__} where a thread object belongs.",
                key="error.stored_thread_unreadable",
                values={"id": thread_id, "where": self.location, "kind": type(thread).__name__},
            )
        return thread if thread.get("owner") == owner else None

    # -- saved evaluation questions -------------------------------------------------------
    def saved_questions(self) -> builtins.list[dict[str, Any]]:
        with self._tx() as conn:
            rows = conn.execute("SELECT question FROM saved_questions ORDER BY position").fetchall()
        return [row["question"] for row in rows]

    def save_question(self, row: dict[str, Any]) -> None:
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO saved_questions (id, question) VALUES (%s, %s) "
                "ON CONFLICT (id) DO UPDATE SET question = EXCLUDED.question",
                (str(row["id"]), Jsonb(dict(row))),
            )

    def delete_saved_question(self, question_id: str) -> bool:
        with self._tx() as conn:
            cursor = conn.execute("DELETE FROM saved_questions WHERE id = %s", (question_id,))
        return cursor.rowcount > 0


def _check_id(thread_id: Any) -> None:
    if not DOC_ID.match(str(thread_id or "")):
        raise RegistryError(  # worded as the catalogue's key (store: no text layer)
            f"{str(thread_id)[:80]!r} is not a valid conversation id.",
            key="error.invalid_thread_id",
            values={"id": repr(str(thread_id)[:80])},
        )


def _write(conn: Any, thread: dict[str, Any]) -> None:
    conn.execute(
        _UPSERT,
        (
            str(thread["owner"]),
            str(thread["thread_id"]),
            str(thread.get("title") or ""),
            Jsonb(list(thread.get("doc_ids") or [])),
            str(thread.get("created_at") or ""),
            str(thread.get("updated_at") or ""),
            len(thread.get("turns") or []),
            Jsonb(thread),
        ),
    )
