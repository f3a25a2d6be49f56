"""From a sign-in to a ``Principal``: the three identity modes and their settings.

``TREERAG_AUTH`` picks the mode:

- ``none`` (default): one local person on their own machine; the app passes no principal,
  so nothing is filtered (exactly the single-user app).
- ``oidc``: Streamlit's ``st.login`` with an OpenID Connect provider; the user is the ID
  token's ``email`` (else ``preferred_username``, else ``sub``) and the groups come from the
  claim named by ``TREERAG_OIDC_GROUPS_CLAIM`` (default ``groups``).
- ``proxy``: an authenticating reverse proxy puts the user and groups in request headers
  (``TREERAG_PROXY_USER_HEADER`` / ``_EMAIL_HEADER`` / ``_GROUPS_HEADER``, defaults
  ``X-Forwarded-User``, ``X-Forwarded-Email``, ``X-Forwarded-Groups``). A request without
  them raises ``NotSignedInError``: it is never treated as an admin.

Admins are the users or groups listed in ``TREERAG_ADMINS`` (comma-separated). These are
pure functions over a mapping of settings, headers or claims: nothing here reads a request.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import NotSignedInError
from ..settings import Settings, load
from ..text.messages import raised
from .principal import Principal, normalise_name, normalise_names

MODES = ("none", "oidc", "proxy")
# Group lists arrive comma- or space-separated (oauth2-proxy, Authelia) or as JSON lists.
_GROUP_SPLIT = re.compile(r"[,\s]+")
# Claims tried in order for the user name: e-mail first, since admins list people by it.
USER_CLAIMS = ("email", "preferred_username", "sub")


@dataclass(frozen=True)
class AuthSettings:
    mode: str = "none"
    admins: frozenset[str] = frozenset()
    user_header: str = "X-Forwarded-User"
    email_header: str = "X-Forwarded-Email"
    groups_header: str = "X-Forwarded-Groups"
    groups_claim: str = "groups"
    oidc_provider: str = ""  # a named [auth.NAME] section; empty: the [auth] section itself

    @property
    def team(self) -> bool:
        """True when people sign in (the app then filters everything by principal)."""
        return self.mode != "none"


def auth_settings(settings: Settings | None = None) -> AuthSettings:
    """The sign-in settings (``TREERAG_AUTH``, ``TREERAG_ADMINS``, the proxy's headers, the
    OIDC claim), from ``settings`` or the environment and ``.env``."""
    chosen = settings if settings is not None else load()
    return AuthSettings(
        mode=chosen.auth,
        admins=normalise_names(chosen.admins.split(",")),
        user_header=chosen.proxy_user_header,
        email_header=chosen.proxy_email_header,
        groups_header=chosen.proxy_groups_header,
        groups_claim=chosen.oidc_groups_claim,
        oidc_provider=chosen.oidc_provider.strip(),
    )


def principal_for(user: str, groups: frozenset[str], settings: AuthSettings) -> Principal:
    """A principal, admin when the user or one of its groups is in ``TREERAG_ADMINS``."""
    admin = bool(normalise_names([user, *groups]) & settings.admins)
    return Principal(normalise_name(user), normalise_names(groups), admin)


def _groups(value: Any) -> frozenset[str]:
    if isinstance(value, list | tuple | set | frozenset):
        return normalise_names(str(v) for v in value)
    return normalise_names(_GROUP_SPLIT.split(str(value or "")))


def principal_from_headers(headers: Mapping[str, str], settings: AuthSettings) -> Principal:
    """Proxy mode: the identity headers of one request (names compared case-insensitively)."""
    lower = {str(k).lower(): str(v) for k, v in headers.items()}
    user = lower.get(settings.user_header.lower(), "").strip()
    user = user or lower.get(settings.email_header.lower(), "").strip()
    if not user:
        raise raised(
            NotSignedInError, "error.no_identity", user_header=settings.user_header,
            email_header=settings.email_header,
        )  # fmt: skip
    return principal_for(user, _groups(lower.get(settings.groups_header.lower())), settings)


def principal_from_claims(claims: Mapping[str, Any], settings: AuthSettings) -> Principal:
    """OIDC mode: the signed-in user's ID-token claims (``st.user``)."""
    user = next((str(claims[c]) for c in USER_CLAIMS if str(claims.get(c) or "").strip()), "")
    if not user:
        raise raised(NotSignedInError, "error.no_claims")
    return principal_for(user, _groups(claims.get(settings.groups_claim)), settings)
