"""What the signed-in person may do, for hiding what they cannot use (the core still
refuses it: these only decide what is shown)."""

from __future__ import annotations

from typing import Any

from treerag_core.access import ADMIN_ROLE, EDITOR_ROLE, editable_collections, list_collections

from . import state


def roles() -> dict[str, str]:
    """``{collection: role}`` for the person (every collection ``admin`` without sign-in)."""
    return {
        c["collection"]: c["role"]
        for c in list_collections(state.registry_path(), state.principal())
    }


def can_edit(row: dict[str, Any], known: dict[str, str]) -> bool:
    """May the person re-index, move or delete this listed document?"""
    return known.get(row.get("collection") or "default") in (EDITOR_ROLE, ADMIN_ROLE)


def editable() -> list[str]:
    """Collections the person may index into."""
    return editable_collections(state.registry_path(), state.principal())


def choose_collection() -> bool:
    """Show a collection picker? Always when signed in; on a laptop only once there are
    collections besides the default one (so the single-user app looks as it always did)."""
    return state.principal() is not None or len(editable()) > 1
