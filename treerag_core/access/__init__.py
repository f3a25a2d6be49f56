"""Access: principals, collections with readers and editors, the rules, and the audit log.

Library use and the CLI pass no principal and are never filtered. The app (and later MCP
and LangChain tools) authenticate a person, build a :class:`Principal`, and pass it as
``principal=`` to the core functions, which apply :mod:`.rules` in one place per operation.
Collection members and the audit log are kept by the store (``DocumentStore``), so every
backend keeps them under its own lock and atomic writes.
"""

from .audit import audit_log_jsonl, read_audit_log, record_sign_in
from .collections import (
    EVERYONE,
    editable_collections,
    get_collection_access,
    list_collections,
    set_collection_access,
)
from .identity import (
    AuthSettings,
    auth_settings,
    principal_for,
    principal_from_claims,
    principal_from_headers,
)
from .principal import Principal
from .rules import ADMIN_ROLE, EDITOR_ROLE, READER_ROLE, readable_rows

__all__ = [
    "ADMIN_ROLE",
    "EDITOR_ROLE",
    "EVERYONE",
    "READER_ROLE",
    "AuthSettings",
    "Principal",
    "audit_log_jsonl",
    "auth_settings",
    "editable_collections",
    "get_collection_access",
    "list_collections",
    "principal_for",
    "principal_from_claims",
    "principal_from_headers",
    "read_audit_log",
    "readable_rows",
    "record_sign_in",
    "set_collection_access",
]
