"""Collections: who reads and who edits each one (moving a document between them is the
library's ``move_document``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import InvalidCollectionError
from ..store import open_store
from ..store.base import COLLECTION_NAME, RegistryLike, collection_of
from ..text.messages import raised
from .audit import audited
from .principal import EVERYONE, Principal
from .rules import ADMIN_ROLE, EDITOR_ROLE, require_admin, roles

# A member is a user name (an e-mail address) or a group name, or "*" for everyone.
MAX_MEMBER_CHARS = 200


def check_collection_name(name: str) -> str:
    """The name as stored; ``InvalidCollectionError`` for one outside the alphabet."""
    name = str(name or "").strip()
    if not COLLECTION_NAME.match(name):
        raise raised(InvalidCollectionError, "error.collection_name", name=repr(name[:80]))
    return name


def _members(names: Iterable[str] | str) -> list[str]:
    if isinstance(names, str):
        names = names.replace("\n", ",").split(",")
    out: list[str] = []
    for raw in names:
        name = str(raw).strip()
        if not name:
            continue
        if len(name) > MAX_MEMBER_CHARS or any(ch in name for ch in "\r\n\t"):
            raise raised(InvalidCollectionError, "error.member_name", name=repr(name[:80]))
        if name not in out:
            out.append(name)
    return out


def set_collection_access(
    collection: str,
    readers: Iterable[str] | str = (),
    editors: Iterable[str] | str = (),
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> dict[str, Any]:
    """Create a collection or replace its members (admins only when a principal is given).

    Members are user names or group names (``"*"``: every signed-in person); a string is
    split on commas and new lines. Returns the stored entry.
    """
    store = open_store(registry_path)
    with audited(store, principal, "access", collection=str(collection)[:80]) as audit:
        require_admin(principal)
        name = check_collection_name(collection)
        entry = {"readers": _members(readers), "editors": _members(editors)}
        audit.note(
            collection=name,
            detail=f"readers: {', '.join(entry['readers']) or '-'}; "
            f"editors: {', '.join(entry['editors']) or '-'}",
        )
        store.set_collection(name, entry["readers"], entry["editors"])
    return {"collection": name, **entry}


def get_collection_access(
    collection: str, registry_path: RegistryLike | None = None
) -> dict[str, Any]:
    """``{"collection", "readers", "editors"}`` (empty lists for a collection never set)."""
    entry = open_store(registry_path).collections().get(collection) or {}
    return {
        "collection": collection,
        "readers": list(entry.get("readers") or []),
        "editors": list(entry.get("editors") or []),
    }


def list_collections(
    registry_path: RegistryLike | None = None, principal: Principal | None = None
) -> list[dict[str, Any]]:
    """The collections the principal has a role in: name, role, document count, and (for
    admins or without a principal) the members."""
    store = open_store(registry_path)
    known = store.collections()
    rows = store.list()
    counts: dict[str, int] = {}
    for row in rows:
        counts[collection_of(row)] = counts.get(collection_of(row), 0) + 1
    if principal is None:
        visible = dict.fromkeys(sorted(set(known) | set(counts)), ADMIN_ROLE)
    else:
        visible = roles(store, principal)
    out = []
    for name, role in visible.items():
        item: dict[str, Any] = {"collection": name, "role": role, "documents": counts.get(name, 0)}
        if principal is None or principal.admin:
            item.update(get_collection_access(name, store))
        out.append(item)
    return out


def editable_collections(
    registry_path: RegistryLike | None = None, principal: Principal | None = None
) -> list[str]:
    """Collections the principal may index into (the default one always, without one)."""
    items = list_collections(registry_path, principal)
    names = [c["collection"] for c in items if c["role"] in (EDITOR_ROLE, ADMIN_ROLE)]
    if principal is None or principal.admin:
        names = sorted(set(names) | {"default"})
    return names


__all__ = [
    "EVERYONE",
    "check_collection_name",
    "editable_collections",
    "get_collection_access",
    "list_collections",
    "set_collection_access",
]
