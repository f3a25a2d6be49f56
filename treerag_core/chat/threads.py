"""Conversations kept in the registry's store, one person's at a time.

A thread is a plain JSON dict::

    {"thread_id", "owner", "title", "doc_ids", "created_at", "updated_at",
     "turns": [{"question", "answer", "references", "trace", "usage", "model", "asked_at",
                "error"?, "feedback"?: {"verdict": "up"|"down", "comment", "at"},
                "regenerated"?: n}]}

The owner is the signed-in person's user name (``principal.user``, compared case-folded),
or ``local`` without sign-in. Every function takes the ``principal`` and works only on that
person's threads: another person's thread id is "not found", with the same message as one
that never existed. Every change goes through the store's ``update_thread`` (one locked
read-change-write), so two tabs asking in one thread at once keep both turns.

Answers stay readable after their document is deleted: a turn keeps its answer and its
references' titles and pages; :func:`get_thread` marks references whose document is gone
(or no longer readable by the person) with ``"gone": True``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from ..access.principal import Principal, normalise_name
from ..access.rules import readable_rows
from ..errors import InvalidThreadError, ThreadNotFoundError
from ..navigate.history import HISTORY_TURNS
from ..store import open_store
from ..store.base import DocumentStore, RegistryLike
from ..text.messages import raised

# Who owns the threads when nobody signs in (the single local user).
LOCAL_OWNER = "local"
# Titles are one line in a sidebar: the first question, cut.
MAX_TITLE_CHARS = 120
# A thread this long is a log, not a conversation; a new one keeps each file small (a turn
# with its references and trace is ~5-20 kB).
MAX_TURNS = 500
MAX_COMMENT_CHARS = 2000
VERDICTS = ("up", "down")
# What a turn keeps of an answer (plain JSON; everything the page shows again).
TURN_FIELDS = (
    "question", "answer", "references", "trace", "usage", "model", "error", "support",
    "model_answer",
)  # fmt: skip


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def owner_of(principal: Principal | None) -> str:
    return normalise_name(principal.user) if principal is not None else LOCAL_OWNER


def _title(text: str) -> str:
    title = " ".join(str(text or "").split())
    if len(title) > MAX_TITLE_CHARS:
        title = title[: MAX_TITLE_CHARS - 1].rstrip() + "…"
    return title


def _not_found(thread_id: str) -> ThreadNotFoundError:
    return raised(ThreadNotFoundError, "error.no_thread", id=repr(str(thread_id)[:80]))


def make_turn(
    question: str,
    answer: str,
    final: dict[str, Any] | None = None,
    error: str | None = None,
) -> dict[str, Any]:
    """A turn from a question, its answer text and the stream's last chunk (or
    ``ask(..., return_raw=False)``'s dict). The answer kept is the one to show: the last
    chunk's (citations renumbered, or the offline answer when the model's was set aside)
    when the stream finished, else what streamed."""
    final = final or {}
    shown = final.get("answer") if final.get("answer") and not error else answer
    turn = {
        "question": str(question),
        "answer": str(shown or ""),
        "references": list(final.get("__references__") or final.get("references") or []),
        "trace": final.get("trace"),
        "usage": final.get("usage"),
        "model": final.get("model_name"),
        "asked_at": now(),
    }
    if final.get("support"):
        turn["support"] = final["support"]
    if final.get("model_answer"):
        turn["model_answer"] = str(final["model_answer"])
    if error:
        turn["error"] = str(error)
    return turn


def history_of(thread: dict[str, Any], before: int | None = None) -> list[dict[str, Any]]:
    """The turns before ``before`` (all by default) as ``ask(history=...)`` takes them;
    failed turns with no answer are left out, and only the recent ones are needed."""
    turns = (thread.get("turns") or [])[:before]
    usable = [t for t in turns if str(t.get("answer") or "").strip()]
    return [
        {"question": t["question"], "answer": t["answer"], "references": t.get("references") or []}
        for t in usable[-HISTORY_TURNS:]
    ]


def create_thread(
    doc_ids: list[str],
    title: str,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> dict[str, Any]:
    """A new, empty thread about ``doc_ids``, titled (usually) by its first question."""
    stamp = now()
    thread = {
        "thread_id": uuid.uuid4().hex,
        "owner": owner_of(principal),
        "title": _title(title) or "New conversation",
        "doc_ids": [str(d) for d in doc_ids],
        "created_at": stamp,
        "updated_at": stamp,
        "turns": [],
    }
    open_store(registry_path).save_thread(thread)
    return thread


def list_threads(
    registry_path: RegistryLike | None = None, principal: Principal | None = None
) -> list[dict[str, Any]]:
    """The person's threads (no turns), most recently updated first."""
    return open_store(registry_path).threads(owner_of(principal))


def get_thread(
    thread_id: str,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> dict[str, Any]:
    """One of the person's threads, its references marked ``gone`` where their document was
    deleted or is no longer readable; ``ThreadNotFoundError`` otherwise."""
    store = open_store(registry_path)
    thread = store.get_thread(owner_of(principal), str(thread_id))
    if thread is None:
        raise _not_found(thread_id)
    return mark_gone(thread, store, principal)


def mark_gone(
    thread: dict[str, Any], store: DocumentStore, principal: Principal | None = None
) -> dict[str, Any]:
    """A copy of the thread whose references say ``gone`` when their document is not
    readable now (deleted, or moved out of the person's collections)."""
    readable = {row["doc_id"] for row in readable_rows(store.list(), store, principal)}
    turns = []
    for turn in thread.get("turns") or []:
        refs = [
            {**r, "gone": str(r.get("doc_id") or "") not in readable}
            for r in turn.get("references") or []
        ]
        turns.append({**turn, "references": refs})
    # The documents in scope, and (a conversation with the whole library names none) those
    # its answers came from.
    used = list(thread.get("doc_ids") or [])
    used += [str(r.get("doc_id")) for t in turns for r in t["references"] if r.get("doc_id")]
    gone = [d for d in dict.fromkeys(used) if d not in readable]
    return {**thread, "turns": turns, "doc_ids_gone": gone}


def change_thread(
    thread_id: str,
    registry_path: RegistryLike | None,
    principal: Principal | None,
    change: Callable[[dict[str, Any]], None],
) -> dict[str, Any]:
    """Apply ``change`` to the stored thread in one locked step; stamp it as updated."""

    def apply(thread: dict[str, Any]) -> dict[str, Any]:
        change(thread)
        thread["updated_at"] = now()
        return thread

    store = open_store(registry_path)
    changed = store.update_thread(owner_of(principal), str(thread_id), apply)
    if changed is None:
        raise _not_found(thread_id)
    return changed


def turn_at(thread: dict[str, Any], index: int) -> dict[str, Any]:
    turns = thread.get("turns") or []
    if not isinstance(index, int) or not 0 <= index < len(turns):
        raise raised(InvalidThreadError, "error.no_turn", index=index)
    return turns[index]


def add_turn(
    thread_id: str,
    turn: dict[str, Any],
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
    doc_ids: list[str] | None = None,
) -> dict[str, Any]:
    """Append an answered (or failed) turn; ``doc_ids`` updates the documents in scope."""

    def append(thread: dict[str, Any]) -> None:
        if len(thread["turns"]) >= MAX_TURNS:
            raise raised(InvalidThreadError, "error.thread_full", limit=MAX_TURNS)
        thread["turns"].append({k: turn.get(k) for k in (*TURN_FIELDS, "asked_at") if k in turn})
        if doc_ids is not None:
            thread["doc_ids"] = [str(d) for d in doc_ids]

    return change_thread(thread_id, registry_path, principal, append)


def replace_answer(
    thread_id: str,
    index: int,
    turn: dict[str, Any],
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> dict[str, Any]:
    """A regenerated answer in place of turn ``index`` (its verdict no longer applies)."""

    def replace(thread: dict[str, Any]) -> None:
        old = turn_at(thread, index)
        new = {k: turn.get(k) for k in (*TURN_FIELDS, "asked_at") if k in turn}
        new["question"] = old["question"]
        new["regenerated"] = int(old.get("regenerated") or 0) + 1
        thread["turns"][index] = new

    return change_thread(thread_id, registry_path, principal, replace)


def rename_thread(
    thread_id: str,
    title: str,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> dict[str, Any]:
    new_title = _title(title)
    if not new_title:
        raise raised(InvalidThreadError, "error.no_title")

    def rename(thread: dict[str, Any]) -> None:
        thread["title"] = new_title

    return change_thread(thread_id, registry_path, principal, rename)


def delete_thread(
    thread_id: str,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> bool:
    """Delete one of the person's threads; False when there was none."""
    return open_store(registry_path).delete_thread(owner_of(principal), str(thread_id))


def set_feedback(
    thread_id: str,
    index: int,
    verdict: str | None,
    comment: str = "",
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> dict[str, Any]:
    """Thumbs ``up`` or ``down`` (with an optional comment) on answer ``index``; ``None``
    takes the verdict back."""
    if verdict is not None and verdict not in VERDICTS:
        raise raised(InvalidThreadError, "error.verdict", verdict=repr(str(verdict)[:20]))
    text = str(comment or "").strip()[:MAX_COMMENT_CHARS]

    def judge(thread: dict[str, Any]) -> None:
        turn = turn_at(thread, index)
        if verdict is None:
            turn.pop("feedback", None)
            return
        previous = turn.get("feedback") or {}
        turn["feedback"] = {"verdict": verdict, "comment": text, "at": now()}
        if previous.get("saved_as") and verdict == "down":
            turn["feedback"]["saved_as"] = previous["saved_as"]

    return change_thread(thread_id, registry_path, principal, judge)
