"""Settings: provider, models, key, endpoints, registry path, and a connection test.

The API key lives only in this session's state and in the model client: the field never
shows a stored key back, and nothing here writes it to the registry, an export or a log.
"""

from __future__ import annotations

import os

import streamlit as st

from treerag_core import PROVIDERS, check_connection
from ui import state
from ui.engine import PROVIDER_LABELS, default_models, effective_settings
from ui.errors import message_for, shown_errors
from ui.text import md_escape

ss = st.session_state


def _key_status(chosen: dict, merged: dict) -> str:
    if chosen.get("openai_api_key"):
        return "An API key was entered in this session."
    if merged.get("openai_api_key"):
        return "An API key is set in the environment or .env."
    return "No API key set."


def _take_key() -> None:
    """Move the typed key out of the widget, so the field is empty when the page redraws."""
    ss["_typed_api_key"] = str(ss.get("settings_api_key") or "").strip()
    ss["settings_api_key"] = ""


def main() -> None:
    st.title("Settings")
    chosen = dict(ss.get(state.PROVIDER) or {})
    merged = effective_settings(chosen)
    current = str(merged.get("provider") or "")
    if current not in PROVIDERS:
        current = (
            "openai"
            if merged.get("openai_api_key") or merged.get("openai_base_url")
            else ("ollama" if merged.get("ollama_host") else "offline")
        )
    with st.form("settings_form", clear_on_submit=True):  # the key field empties after saving
        provider = st.radio(
            "Provider", PROVIDERS, index=PROVIDERS.index(current),
            format_func=lambda p: PROVIDER_LABELS.get(p, p), horizontal=True,
        )  # fmt: skip
        search_default, answer_default = default_models(provider)
        search_model = st.text_input(
            "Search / summary model", value=merged.get("search_model") or "",
            placeholder=search_default or "not used offline",
        )  # fmt: skip
        answer_model = st.text_input(
            "Answer model", value=merged.get("answer_model") or "",
            placeholder=answer_default or "not used offline",
        )  # fmt: skip
        st.text_input(
            "OpenAI API key", type="password", key="settings_api_key",
            placeholder="leave empty to keep the current key", help=_key_status(chosen, merged),
        )  # fmt: skip
        base_url = st.text_input(
            "OpenAI base URL (optional)", value=merged.get("openai_base_url") or ""
        )
        ollama_host = st.text_input("Ollama host", value=merged.get("ollama_host") or "")
        registry = st.text_input("Registry file or database URL", value=state.registry_setting())
        saved = st.form_submit_button("Save settings", type="primary", on_click=_take_key)
    if saved:
        new = {
            "provider": provider,
            "search_model": search_model.strip(),
            "answer_model": answer_model.strip(),
            "openai_base_url": base_url.strip(),
            "ollama_host": ollama_host.strip(),
            "openai_api_key": ss.pop("_typed_api_key", "") or chosen.get("openai_api_key", ""),
        }
        ss[state.PROVIDER] = {k: v for k, v in new.items() if v}
        if registry.strip() and registry.strip() != state.registry_setting():
            ss[state.REGISTRY_PATH] = registry.strip()
            ss[state.TREE_DOC] = None
            ss[state.CHAT_DOCS] = []
        st.success("Settings saved for this session.")
        chosen = dict(ss[state.PROVIDER])
        merged = effective_settings(chosen)
    st.caption(_key_status(chosen, merged))
    left, right = st.columns(2)
    if left.button("Test connection", key="settings_test"):
        with st.spinner("Calling the model…"):
            try:
                st.success(md_escape(check_connection(ss[state.PROVIDER]), 300))
            except Exception as exc:
                st.error(message_for(exc))
    if chosen.get("openai_api_key") and right.button("Forget the session's API key"):
        ss[state.PROVIDER] = {k: v for k, v in chosen.items() if k != "openai_api_key"}
        st.rerun()
    st.caption(
        "Deployments configure these with TREERAG_REGISTRY, OPENAI_API_KEY, OPENAI_BASE_URL, "
        f"OLLAMA_HOST or a .env file (working directory: {md_escape(os.getcwd())})."
    )


state.require_app()
with shown_errors():
    main()
