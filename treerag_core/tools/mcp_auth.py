"""Who may call the MCP server over HTTP, and where it may listen.

- Bearer tokens: ``TREERAG_MCP_TOKEN`` (one shared token: its holder reads what the
  server's owner reads, as with the CLI) and/or a token file mapping each token to a user
  and groups, so the access rules apply per token (admins from ``TREERAG_ADMINS``, as in
  the app). The SDK's bearer middleware asks :class:`TokenTable` and answers 401 for a
  missing or unknown token.
- Exposure: on a non-loopback address the server refuses to start without a token.
- Origin and Host checks (the MCP specification's DNS-rebinding rule for HTTP servers):
  loopback origins only, plus the ones named; a browser page from anywhere else gets 403.

Everything here decides without opening a socket, so the decisions are tested directly.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp.server.auth.provider import AccessToken
from mcp.server.transport_security import TransportSecuritySettings

from ..access.identity import auth_settings, principal_for
from ..access.principal import Principal, normalise_names
from ..errors import ConfigError
from ..settings import Settings, load
from ..text.messages import Phrase, raised

TOKEN_ENV = "TREERAG_MCP_TOKEN"
# A token is all that stands between the network and the documents: shorter is guessable.
MIN_TOKEN_CHARS = 16
# The client id the shared token's sessions are bound to (it names no person).
OWNER = "treerag-owner"
LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
LOOPBACK_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
WILDCARD_ADDRESSES = {"0.0.0.0", "::", ""}


@dataclass(frozen=True)
class TokenEntry:
    digest: str  # sha256 of the token, hex: the table never keeps a token itself
    principal: Principal | None  # None: the shared token, read as the server's owner


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TokenTable:
    """The known tokens; the SDK's ``TokenVerifier`` (``verify_token``)."""

    def __init__(self, entries: Iterable[TokenEntry]) -> None:
        self.entries = list(entries)
        if not self.entries:
            raise raised(ConfigError, "error.mcp_tokens_empty")

    def lookup(self, token: str) -> TokenEntry | None:
        presented = digest(token)
        found = None
        for entry in self.entries:  # every entry compared, in constant time each
            if hmac.compare_digest(entry.digest, presented):
                found = entry
        return found

    async def verify_token(self, token: str) -> AccessToken | None:
        entry = self.lookup(token)
        if entry is None:
            return None
        who = entry.principal
        claims: dict[str, Any] = {}
        if who is not None:
            claims = {"user": who.user, "groups": sorted(who.groups), "admin": who.admin}
        return AccessToken(
            token=token,
            client_id=who.user if who else OWNER,
            subject=who.user if who else OWNER,
            scopes=[],
            claims=claims,
        )


def principal_from_token(access: AccessToken | None) -> Principal | None:
    """The caller behind a verified token (None: stdio, loopback without tokens, or the
    shared owner's token)."""
    claims = (access.claims or {}) if access is not None else {}
    if not claims.get("user"):
        return None
    return Principal(
        str(claims["user"]),
        frozenset(str(g) for g in claims.get("groups") or ()),
        bool(claims.get("admin")),
    )


def parse_token_file(text: str, settings: Settings | None = None) -> list[TokenEntry]:
    """``{"tokens": [{"token" or "sha256": …, "user": …, "groups": [...]}, …]}``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise raised(
            ConfigError, "error.mcp_file_not_json", reason=exc.msg, line=exc.lineno
        ) from None
    rows = data.get("tokens") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise raised(ConfigError, "error.mcp_file_no_list")
    auth = auth_settings(settings)
    entries = []
    for number, row in enumerate(rows, 1):
        if not isinstance(row, dict) or not str(row.get("user") or "").strip():
            raise raised(ConfigError, "error.mcp_entry_user", number=number)
        groups = row.get("groups") or []
        if isinstance(groups, str) or not isinstance(groups, list):
            raise raised(ConfigError, "error.mcp_entry_groups", number=number)
        principal = principal_for(str(row["user"]), normalise_names(map(str, groups)), auth)
        entries.append(TokenEntry(_entry_digest(row, number), principal))
    if len({e.digest for e in entries}) < len(entries):
        raise raised(ConfigError, "error.mcp_same_token")
    return entries


def _entry_digest(row: dict[str, Any], number: int) -> str:
    if row.get("sha256"):
        value = str(row["sha256"]).strip().lower()
        if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
            raise raised(ConfigError, "error.mcp_entry_sha256", number=number)
        return value
    return digest(
        check_token(str(row.get("token") or ""), Phrase("error.mcp_entry", number=number))
    )


def check_token(token: str, where: str) -> str:
    token = token.strip()
    if len(token) < MIN_TOKEN_CHARS or any(c.isspace() for c in token):
        raise raised(ConfigError, "error.mcp_short_token", where=where, count=MIN_TOKEN_CHARS)
    return token


def load_tokens(
    token_file: str | None = None, settings: Settings | None = None
) -> TokenTable | None:
    """The tokens from ``TREERAG_MCP_TOKEN`` and the token file (argument, else
    ``TREERAG_MCP_TOKEN_FILE``); None when neither is set."""
    settings = settings if settings is not None else load()
    entries = []
    shared = settings.secret("mcp_token").strip()
    if shared:
        entries.append(TokenEntry(digest(check_token(shared, TOKEN_ENV)), None))
    path = token_file or settings.mcp_token_file.strip()
    if path:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise raised(
                ConfigError, "error.mcp_file_unreadable", path=path, reason=exc.strerror
            ) from None
        entries += parse_token_file(text, settings)
    return TokenTable(entries) if entries else None


def is_loopback(host: str) -> bool:
    """Is ``host`` reachable only from this machine (127.0.0.0/8, ::1, localhost)?"""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_exposure(host: str, tokens: TokenTable | None) -> None:
    """Refuse to serve documents to a network without a bearer token."""
    if tokens is None and not is_loopback(host):
        raise raised(
            ConfigError, "error.mcp_no_token", host=host or Phrase("error.mcp_every_address"),
            env=TOKEN_ENV,
        )  # fmt: skip


def transport_security(
    host: str, allowed_hosts: Iterable[str] = (), allowed_origins: Iterable[str] = ()
) -> TransportSecuritySettings:
    """Host and Origin checks: loopback names on a loopback address, else the address
    itself and the names given; browser origins only the loopback ones and those given."""
    hosts = [form for h in allowed_hosts if h.strip() for form in _host_forms(h.strip())]
    origins = [o.strip().rstrip("/") for o in allowed_origins if o.strip()]
    name = host.strip()
    if is_loopback(name):
        hosts, origins = LOOPBACK_HOSTS + hosts, LOOPBACK_ORIGINS + origins
    elif name in WILDCARD_ADDRESSES:
        if not hosts:
            raise raised(ConfigError, "error.mcp_allowed_host", name=name or "all")
    else:
        shown = f"[{name}]" if ":" in name else name
        hosts = [shown, f"{shown}:*", *hosts]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )


def _host_forms(host: str) -> list[str]:
    """A name as a Host header carries it: alone (default port) and with any port."""
    if host.endswith("]") or ":" not in host:
        return [host, f"{host}:*"]
    return [host]
