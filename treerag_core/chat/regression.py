"""The team's regression set: answers people marked wrong, turned into evaluation questions.

A thumbs-down on an answer is a question the engine got wrong. Whoever gave it can say which
pages hold the right answer; the question (with the earlier questions of its conversation,
so a follow-up is evaluated as one) and those pages become a saved evaluation row in the
registry's store. The Evaluate page runs the saved set like an uploaded questions file, so
a later change to the engine is measured on the questions the team actually asked.

A saved row is an ordinary question row (:mod:`treerag_core.evaluation.questions`)::

    {"id", "question", "history": [earlier questions], "doc_id", "file_name",
     "evidence_pages": [...], "gold_sections": [...], "comment", "from": {"thread_id", "turn"}, "who", "at"}
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..access.principal import Principal
from ..access.rules import readable_rows, require_document
from ..errors import AccessDeniedError, InvalidQuestionsError, InvalidThreadError
from ..store import open_store
from ..store.base import RegistryLike
from ..text.messages import raised
from .threads import change_thread, get_thread, history_of, list_threads, now, owner_of, turn_at

# Page lists people type: "12", "12, 14", "12-14"; a range wider than this is a typo.
MAX_PAGE_RANGE = 50


def parse_pages(text: str) -> list[int]:
    """``"12, 14-15"`` → ``[12, 14, 15]``; ``InvalidQuestionsError`` for anything else."""
    pages: list[int] = []
    bare = re.sub(r"\bpp?\.?\s*(?=\d)", "", str(text or ""), flags=re.IGNORECASE)
    for part in re.split(r"[,;\s]+", bare.strip()):
        if not part:
            continue
        match = re.fullmatch(r"(\d{1,5})(?:[-–](\d{1,5}))?", part)
        if not match:
            raise raised(InvalidQuestionsError, "error.not_page_number", part=repr(part[:20]))
        start = int(match.group(1))
        end = int(match.group(2) or start)
        if start < 1 or end < start or end - start > MAX_PAGE_RANGE:
            raise raised(InvalidQuestionsError, "error.not_page_range", part=repr(part[:20]))
        pages.extend(p for p in range(start, end + 1) if p not in pages)
    if not pages:
        raise raised(InvalidQuestionsError, "error.no_pages_marked")
    return pages


def thumbs_down(
    registry_path: RegistryLike | None = None, principal: Principal | None = None
) -> list[dict[str, Any]]:
    """The person's answers marked wrong and not yet saved as questions, newest first:
    ``{"thread_id", "turn", "title", "question", "answer", "comment", "documents"}``
    (documents: the readable ones the answer cited, then the conversation's)."""
    store = open_store(registry_path)
    names = {r["doc_id"]: r.get("file_name") for r in readable_rows(store.list(), store, principal)}
    out = []
    for row in list_threads(store, principal):
        thread = get_thread(row["thread_id"], store, principal)
        for index, turn in enumerate(thread.get("turns") or []):
            feedback = turn.get("feedback") or {}
            if feedback.get("verdict") != "down" or feedback.get("saved_as"):
                continue
            cited = [str(r.get("doc_id")) for r in turn.get("references") or []]
            candidates = list(dict.fromkeys([*cited, *(thread.get("doc_ids") or [])]))
            out.append(
                {
                    "thread_id": thread["thread_id"],
                    "turn": index,
                    "title": thread.get("title"),
                    "question": turn.get("question"),
                    "answer": turn.get("answer"),
                    "comment": feedback.get("comment") or "",
                    "at": feedback.get("at"),
                    "documents": [
                        {"doc_id": d, "file_name": names[d]} for d in candidates if d in names
                    ],
                }
            )
    return sorted(out, key=lambda r: r.get("at") or "", reverse=True)


def save_regression_question(
    thread_id: str,
    turn: int,
    doc_id: str,
    pages: list[int] | str | None = None,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
    sections: list[str] | None = None,
) -> dict[str, Any]:
    """Turn answer ``turn`` of a thread (marked down) into a saved evaluation question whose
    gold is ``pages`` of ``doc_id`` and/or ``sections`` (titles: documents without pages);
    the answer's verdict remembers the row's id."""
    store = open_store(registry_path)
    thread = get_thread(thread_id, store, principal)
    asked = turn_at(thread, turn)
    if (asked.get("feedback") or {}).get("verdict") != "down":
        raise raised(InvalidThreadError, "error.not_marked_wrong")
    row = require_document(store, principal, doc_id) or store.meta(doc_id)
    if row is None:
        raise raised(InvalidQuestionsError, "error.document_gone")
    titles = [" ".join(str(t).split()) for t in sections or [] if str(t).strip()]
    if isinstance(pages, str):
        gold = parse_pages(pages) if pages.strip() or not titles else []
    else:
        gold = [int(p) for p in pages or []]
    if not gold and not titles:
        raise raised(InvalidQuestionsError, "error.nothing_marked")
    total = row.get("total_pages")
    if gold and total and max(gold) > int(total):
        raise raised(
            InvalidQuestionsError, "error.pages_beyond", name=row.get("file_name"), total=total,
            page=max(gold),
        )  # fmt: skip
    question = {
        "id": f"{thread['thread_id'][:12]}-{turn}",
        "question": asked["question"],
        "history": [t["question"] for t in history_of(thread, turn)],
        "doc_id": doc_id,
        "file_name": row.get("file_name"),
        "evidence_pages": gold,
        "gold_sections": titles,
        "comment": (asked.get("feedback") or {}).get("comment") or "",
        "from": {"thread_id": thread["thread_id"], "turn": turn},
        "who": owner_of(principal),
        "at": now(),
    }
    store.save_question(question)

    def remember(stored: dict[str, Any]) -> None:
        turn_at(stored, turn).setdefault("feedback", {})["saved_as"] = question["id"]

    change_thread(thread_id, store, principal, remember)
    return question


def regression_questions(
    registry_path: RegistryLike | None = None, principal: Principal | None = None
) -> list[dict[str, Any]]:
    """The saved questions about documents the person may read, oldest first."""
    store = open_store(registry_path)
    readable = {r["doc_id"] for r in readable_rows(store.list(), store, principal)}
    return [q for q in store.saved_questions() if q.get("doc_id") in readable]


def delete_regression_question(
    question_id: str,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> bool:
    """Remove a saved question: its author or an admin (anyone without sign-in)."""
    store = open_store(registry_path)
    row = next((q for q in store.saved_questions() if q.get("id") == question_id), None)
    if row is None:
        return False
    if principal is not None and not principal.admin and row.get("who") != owner_of(principal):
        raise raised(AccessDeniedError, "error.not_your_question")
    return store.delete_saved_question(question_id)


def questions_jsonl(rows: list[dict[str, Any]]) -> bytes:
    """The saved questions as a questions file (the eval command and the upload read it)."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")
