"""Settings: provider, models, key, endpoints, registry path, and a connection test.

The API key lives only in this session's state and in the model client: the field never
shows a stored key back, and nothing here writes it to the registry, an export or a log.
"""

from __future__ import annotations

import os
from typing import Any

import streamlit as st

from treerag_core import Settings
from treerag_core.llm import PROVIDERS, check_connection, resolve_provider
from treerag_core.navigate import SEARCH_MODES
from ui import chat_threads, i18n, state
from ui.engine import PROVIDER_LABELS, default_models, effective_settings
from ui.errors import message_for, shown_errors
from ui.text import md_escape

ss = st.session_state


def _key_status(chosen: dict, merged: Settings) -> str:
    if chosen.get("openai_api_key"):
        return i18n.t("set.key_session")
    if merged.secret("openai_api_key"):
        return i18n.t("set.key_environment")
    return i18n.t("set.key_none")


def _provider_label(provider: str) -> str:
    return (
        i18n.t("engine.offline")
        if provider == "offline"
        else PROVIDER_LABELS.get(provider, provider)
    )


def _take_key() -> None:
    """Move the typed key out of the widget, so the field is empty when the page redraws."""
    ss["_typed_api_key"] = str(ss.get("settings_api_key") or "").strip()
    ss["settings_api_key"] = ""


def _shown_provider(merged: Settings) -> str:
    """The provider the form starts on: the one the engine would use (the core decides, so
    the page never disagrees with it); for a name the core refuses, the one the other
    settings point to, so the page still opens and the person can pick another."""
    return resolve_provider(merged)


def _form(chosen: dict[str, Any], merged: Settings) -> tuple[dict[str, str], str] | None:
    """The settings form: ``(settings, registry)`` as entered when saved, else None.

    The typed key is not among them: ``_take_key`` moves it out of the widget on submit."""
    with st.form("settings_form", clear_on_submit=True):  # the key field empties after saving
        provider = st.radio(
            i18n.t("set.provider"), PROVIDERS, index=PROVIDERS.index(_shown_provider(merged)),
            format_func={p: _provider_label(p) for p in PROVIDERS}.__getitem__, horizontal=True,
        )  # fmt: skip
        search_default, answer_default = default_models(provider)
        search_model = st.text_input(
            i18n.t("set.search_model"), value=merged.search_model,
            placeholder=search_default or i18n.t("set.not_offline"),
        )  # fmt: skip
        answer_model = st.text_input(
            i18n.t("set.answer_model"), value=merged.answer_model,
            placeholder=answer_default or i18n.t("set.not_offline"),
        )  # fmt: skip
        mode = merged.search_mode
        search_mode = st.radio(
            i18n.t("set.search_mode"), SEARCH_MODES,
            index=SEARCH_MODES.index(mode) if mode in SEARCH_MODES else 0,
            format_func={m: i18n.t(f"set.mode.{m}") for m in SEARCH_MODES}.__getitem__,
            horizontal=True,
            help=i18n.t("set.search_mode_help"),
        )  # fmt: skip
        st.text_input(
            i18n.t("set.api_key"), type="password", key="settings_api_key",
            placeholder=i18n.t("set.api_key_placeholder"), help=_key_status(chosen, merged),
        )  # fmt: skip
        base_url = st.text_input(i18n.t("set.base_url"), value=merged.openai_base_url)
        ollama_host = st.text_input(i18n.t("set.ollama_host"), value=merged.ollama_host)
        registry = st.text_input(
            i18n.t("set.registry"), value=state.registry_setting(),
            help=i18n.t("set.registry_help"),
        )  # fmt: skip
        st.caption(i18n.t("set.registry_now", where=md_escape(state.registry_label())))
        saved = st.form_submit_button(i18n.t("set.save"), type="primary", on_click=_take_key)
    if not saved:
        return None
    entered = {"provider": provider, "search_model": search_model, "answer_model": answer_model,
               "openai_base_url": base_url, "ollama_host": ollama_host,
               "search_mode": search_mode}  # fmt: skip
    return {k: v.strip() for k, v in entered.items()}, registry.strip()


def _save(entered: dict[str, str], registry: str, chosen: dict[str, Any]) -> None:
    """Keep the entered settings for this session (an empty key field keeps the current key).

    Another registry has other documents and conversations: what the session had open in
    the old one is dropped, so no page goes on showing it."""
    key = ss.pop("_typed_api_key", "") or chosen.get("openai_api_key", "")
    ss[state.PROVIDER] = {k: v for k, v in {**entered, "openai_api_key": key}.items() if v}
    if registry and registry != state.registry_setting():
        state.switch_registry(registry)
        chat_threads.close()  # the open thread is named in the URL too
    st.success(i18n.t("set.saved"))


def _connection_buttons(chosen: dict[str, Any]) -> None:
    """Test the connection with the saved settings; forget the key typed this session."""
    left, right = st.columns(2)
    if left.button(i18n.t("set.test"), key="settings_test"):
        with st.spinner(i18n.t("set.testing")):
            try:
                st.success(md_escape(check_connection(ss[state.PROVIDER]), 300))
            except Exception as exc:
                st.error(message_for(exc))
    if chosen.get("openai_api_key") and right.button(i18n.t("set.forget_key")):
        ss[state.PROVIDER] = {k: v for k, v in chosen.items() if k != "openai_api_key"}
        st.rerun()


def _language() -> None:
    """The app's language for this session: as the browser says, or one chosen."""
    ss.setdefault(i18n.CHOSEN, "")
    on_change = state.bind(i18n.CHOSEN, "settings_language")
    st.selectbox(
        i18n.t("settings.language"), i18n.choices(), format_func=i18n.choice_label,
        key="settings_language", on_change=on_change, width=360,
    )  # fmt: skip


def main() -> None:
    st.title(i18n.t("nav.settings"))
    _language()
    chosen = dict(ss.get(state.PROVIDER) or {})
    merged = effective_settings(chosen)
    submitted = _form(chosen, merged)
    if submitted is not None:
        _save(*submitted, chosen)
        chosen = dict(ss[state.PROVIDER])
        merged = effective_settings(chosen)
    st.caption(_key_status(chosen, merged))
    _connection_buttons(chosen)
    st.caption(i18n.t("set.deployments", cwd=md_escape(os.getcwd())))


state.require_app()
with shown_errors():
    main()
