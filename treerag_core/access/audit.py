"""The audit log: who did what to which document or collection, when, and how it ended.

Every index, re-index, move, delete, import, export, access change and sign-in is
recorded, refused attempts too (outcome ``denied``) and failures (``failed``), through the
store's append-only log. Entries are plain JSON dicts::

    {"at": "2026-12-01T09:30:00.123Z", "who": "ana@example.com", "action": "delete",
     "doc_id": "…", "document": "report.pdf", "collection": "hr", "outcome": "ok", "detail": ""}

Only admins read it (``read_audit_log``); nothing ever rewrites it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from ..errors import AccessDeniedError
from ..store import open_store
from ..store.base import DocumentStore, RegistryLike
from .principal import Principal
from .rules import require_admin

# Who the log names when no principal was given: library use and the CLI on this machine.
LOCAL_ACTOR = "local"
# Long error messages are cut in the log: it records what happened, not a traceback.
MAX_DETAIL_CHARS = 300


def actor(principal: Principal | None) -> str:
    return principal.user if principal is not None else LOCAL_ACTOR


def record(
    store: DocumentStore,
    principal: Principal | None,
    action: str,
    outcome: str = "ok",
    **target: Any,
) -> None:
    """Append one entry (``target``: doc_id, document, collection, detail, …)."""
    entry = {
        "at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "who": actor(principal),
        "action": action,
        **{k: v for k, v in target.items() if v not in (None, "")},
        "outcome": outcome,
    }
    if "detail" in entry:
        entry["detail"] = str(entry["detail"])[:MAX_DETAIL_CHARS]
    store.append_audit(entry)


class Audit:
    """What an ``audited`` block fills in as it learns it (the document's name, …)."""

    def __init__(self, target: dict[str, Any]) -> None:
        self.target = target
        self.skip = False  # a read that changed nothing (an unchanged re-index) is not logged

    def note(self, **target: Any) -> None:
        self.target.update(target)


@contextmanager
def audited(
    store: DocumentStore, principal: Principal | None, action: str, **target: Any
) -> Iterator[Audit]:
    """Run the block and log it: ``ok``, ``denied`` (AccessDeniedError) or ``failed``.

    The block may rename the action (``audit.note(action="reindex")``) or add to the target.
    """
    audit = Audit({"action": action, **target})

    def log(outcome: str, detail: str | None = None) -> None:
        fields = dict(audit.target)
        if detail:
            fields["detail"] = detail
        record(store, principal, fields.pop("action"), outcome, **fields)

    try:
        yield audit
    except AccessDeniedError as exc:
        log("denied", str(exc))
        raise
    except Exception as exc:
        log("failed", str(exc))
        raise
    if not audit.skip:
        log("ok")


def record_sign_in(
    principal: Principal, registry_path: RegistryLike | None = None, how: str = ""
) -> None:
    """Log that a person signed in (the app calls it once per session)."""
    record(open_store(registry_path), principal, "sign-in", detail=how)


def read_audit_log(
    registry_path: RegistryLike | None = None, principal: Principal | None = None
) -> list[dict[str, Any]]:
    """Every entry, newest first. Admins only when a principal is given."""
    require_admin(principal)
    return list(reversed(open_store(registry_path).audit_log()))


def audit_log_jsonl(entries: list[dict[str, Any]]) -> bytes:
    """The entries as a JSON-lines download."""
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries).encode("utf-8")
