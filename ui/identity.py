"""Who is using this session: the sign-in gate for the three identity modes.

``TREERAG_AUTH=none`` (default): no gate and no principal, so the core filters nothing and
the app is the single-user app. ``oidc``: people not signed in get a sign-in page whose
button starts Streamlit's ``st.login``; ``proxy``: the identity comes from the proxy's
request headers, and a request without them gets a refusal page. Either way the
``Principal`` is kept in the session and every page passes it to the core, which enforces
the rules; the UI only hides what a person cannot use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from treerag_core import ConfigError
from treerag_core.access import (
    AuthSettings,
    Principal,
    auth_settings,
    list_collections,
    principal_from_claims,
    principal_from_headers,
    record_sign_in,
)
from treerag_core.errors import NotSignedInError

from . import state
from .errors import message_for
from .i18n import t
from .text import md_escape


def settings() -> AuthSettings:
    return auth_settings()


def request_headers() -> Mapping[str, str]:
    """The headers of the request that opened this session (what the proxy set)."""
    return dict(st.context.headers or {})


def user_claims() -> dict[str, Any] | None:
    """The signed-in user's ID-token claims, or None when nobody is signed in."""
    return st.user.to_dict() if st.user.is_logged_in else None


def identify(config: AuthSettings) -> Principal | None:
    """The session's principal (None in ``none`` mode); ``NotSignedInError`` if nobody."""
    if config.mode == "proxy":
        return principal_from_headers(request_headers(), config)
    if config.mode == "oidc":
        claims = user_claims()
        if claims is None:
            raise NotSignedInError("Sign in to use treerag.")
        return principal_from_claims(claims, config)
    return None


def gate() -> tuple[AuthSettings, Principal | None]:
    """Run before any page: the settings and the principal, or a sign-in / refusal page
    and ``st.stop()``. A bad ``TREERAG_AUTH`` stops the app with a message (never open)."""
    try:
        config = settings()
    except ConfigError as exc:
        st.error(md_escape(str(exc)))
        st.stop()
        raise
    try:
        principal = identify(config)
    except NotSignedInError as exc:
        state.forget_person()
        if config.mode == "oidc":
            _sign_in_page(config)
        else:
            st.title(t("who.refused_title"))
            st.error(t("who.refused", reason=md_escape(message_for(exc))))
        st.stop()
        raise  # st.stop() raises; this keeps type checkers honest
    if principal is not None and st.session_state.get(state.PRINCIPAL) != principal:
        state.start_person(principal)
        record_sign_in(principal, state.registry_path(), how=config.mode)
    return config, principal


def _sign_in_page(config: AuthSettings) -> None:
    st.title("treerag")
    st.write(t("who.sign_in_text"))
    if st.button(t("who.sign_in"), type="primary", key="sign_in"):
        if config.oidc_provider:
            st.login(config.oidc_provider)
        else:
            st.login()


def sidebar(principal: Principal | None, config: AuthSettings) -> None:
    """Who is signed in and their role in each collection; sign out (OIDC)."""
    if principal is None:
        st.caption(t("sidebar.local_user"))
        return
    signed_in = "who.signed_in_admin" if principal.admin else "who.signed_in"
    st.caption(t(signed_in, user=md_escape(principal.user)))
    roles = list_collections(state.registry_path(), principal)
    if roles:
        lines = [f"{md_escape(c['collection'])}: {_role(c['role'])}" for c in roles]
        st.caption(t("who.collections", roles="; ".join(lines)))
    else:
        st.caption(t("who.no_collection"))
    if config.mode == "oidc" and st.button(t("who.sign_out"), key="sign_out"):
        state.forget_person()
        st.logout()


def _role(role: str) -> str:
    """A role's name in the person's language (a role the catalogue lacks: as stored)."""
    try:
        return t(f"who.role.{role}")
    except KeyError:
        return role
