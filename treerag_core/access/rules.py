"""The access rules, in one place for every caller (app, CLI, later MCP and LangChain tools
and any store): who may read, change or administer which collection.

- No principal (library use, the CLI): nothing is filtered or refused.
- An admin may do everything.
- A collection's editors index, re-index, move and delete its documents, and read them.
- Its readers browse, ask, evaluate and export its documents.
- Anyone else: its documents do not exist. Listing omits them; naming one raises
  ``AccessDeniedError`` with the same message as for an id that does not exist, so an
  error never reveals a title, or even whether the document exists.
"""

from __future__ import annotations

from typing import Any

from ..errors import AccessDeniedError
from ..store.base import DocumentStore, collection_of
from ..text.messages import Phrase, raised
from .principal import Principal, normalise_names

READER_ROLE = "reader"
EDITOR_ROLE = "editor"
ADMIN_ROLE = "admin"
# What only admins may do, as the refusal says it (a phrase: said in the person's language)
MANAGING_COLLECTIONS = Phrase("error.what_collections")
_RANK = {None: 0, READER_ROLE: 1, EDITOR_ROLE: 2, ADMIN_ROLE: 3}


def role_in(principal: Principal, access: dict[str, Any] | None) -> str | None:
    """``admin``, ``editor``, ``reader`` or ``None`` for one collection's access entry."""
    if principal.admin:
        return ADMIN_ROLE
    access = access or {}
    names = principal.names()
    if names & normalise_names(access.get("editors") or ()):
        return EDITOR_ROLE
    if names & normalise_names(access.get("readers") or ()):
        return READER_ROLE
    return None


def roles(store: DocumentStore, principal: Principal) -> dict[str, str]:
    """Every collection the principal has a role in (an admin: every known collection)."""
    known = store.collections()
    names = set(known) | {collection_of(row) for row in store.list()} if principal.admin else known
    out = {}
    for name in sorted(names):
        role = role_in(principal, known.get(name))
        if role:
            out[name] = role
    return out


def can(principal: Principal | None, store: DocumentStore, collection: str, need: str) -> bool:
    if principal is None:
        return True
    return _RANK[role_in(principal, store.collections().get(collection))] >= _RANK[need]


def readable_rows(
    rows: list[dict[str, Any]], store: DocumentStore, principal: Principal | None
) -> list[dict[str, Any]]:
    """The listed rows the principal may see (all of them without a principal)."""
    if principal is None or principal.admin:
        return rows
    known = store.collections()
    allowed = {name for name, access in known.items() if role_in(principal, access)}
    return [row for row in rows if collection_of(row) in allowed]


def not_found(doc_id: str) -> AccessDeniedError:
    """The one message for a document that is missing or hidden from the principal."""
    return raised(AccessDeniedError, "error.no_readable_document", id=repr(doc_id))


def require_document(
    store: DocumentStore, principal: Principal | None, doc_id: str, need: str = READER_ROLE
) -> dict[str, Any] | None:
    """The document's listed row if the principal may ``need`` it; else ``AccessDeniedError``.

    Without a principal, returns the row (or ``None`` when missing) and never refuses.
    """
    row = store.meta(doc_id) if doc_id else None
    if principal is None:
        return row
    if row is None or not can(principal, store, collection_of(row), READER_ROLE):
        raise not_found(doc_id)
    if need != READER_ROLE and not can(principal, store, collection_of(row), need):
        raise raised(AccessDeniedError, "error.read_only", collection=repr(collection_of(row)))
    return row


def require_collection(
    store: DocumentStore, principal: Principal | None, collection: str, need: str = EDITOR_ROLE
) -> None:
    """Refuse unless the principal has at least ``need`` in ``collection``."""
    if can(principal, store, collection, need):
        return
    if need == ADMIN_ROLE:
        raise raised(AccessDeniedError, "error.admins_only", what=MANAGING_COLLECTIONS)
    raise raised(
        AccessDeniedError, "error.not_in_role", role=Phrase(f"role.{need}"),
        collection=repr(collection),
    )  # fmt: skip


def require_admin(principal: Principal | None, what: str = MANAGING_COLLECTIONS) -> None:
    if principal is not None and not principal.admin:
        raise raised(AccessDeniedError, "error.admins_only", what=what)
