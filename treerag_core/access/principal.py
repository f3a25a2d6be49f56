"""Who is asking: a user name, the groups they are in, and whether they administer.

A ``Principal`` is made by whoever authenticated the person (the app from a sign-in or a
proxy header, a future MCP tool from its token) and handed to the core functions as
``principal=``; the core never authenticates anyone itself. Names are compared after
``normalise_name`` (trimmed, case-folded), because e-mail addresses and directory group
names arrive in varying case from different identity providers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

# A member entry that stands for every signed-in person (e.g. readers of a shared collection).
EVERYONE = "*"


def normalise_name(name: str) -> str:
    """How user and group names are compared: trimmed and case-folded."""
    return str(name).strip().casefold()


def normalise_names(names: Iterable[str]) -> frozenset[str]:
    return frozenset(n for n in (normalise_name(x) for x in names) if n)


@dataclass(frozen=True)
class Principal:
    """One signed-in person. ``admin`` is decided by the caller (``TREERAG_ADMINS`` in the
    app: see :func:`treerag_core.access.identity.principal_for`)."""

    user: str
    groups: frozenset[str] = field(default_factory=frozenset)
    admin: bool = False

    def __post_init__(self) -> None:
        if not normalise_name(self.user):
            raise ValueError("A principal needs a user name.")
        object.__setattr__(self, "groups", frozenset(self.groups))

    def names(self) -> frozenset[str]:
        """Everything a collection's member list may name this person by."""
        return normalise_names([self.user, *self.groups]) | {EVERYONE}
