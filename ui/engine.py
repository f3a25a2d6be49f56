"""The session's ``Library``: one shared per registry and model settings, seen as the
signed-in person.

A person's model choices on the Settings page are values over the environment and
``.env`` (one :class:`~treerag_core.settings.Settings`). The library for each distinct
registry and settings is opened once per server process (``st.cache_resource``): its store
and pool, its models' HTTP clients, the model-reply cache and the offline ranking's
statistics are shared by every session; each session sees it as its own person
(``Library.as_person``). No model set means the offline engine, which is what a fresh
machine with no key and no network gets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from treerag_core import Library, Retriever, Settings
from treerag_core.llm import DEFAULT_MODELS, model_name, resolve_provider, settings_of
from treerag_core.store import open_store
from treerag_core.summarize import make_summarizer

from . import state
from .i18n import t

PROVIDER_LABELS = {"offline": "Offline engine (no model)", "openai": "OpenAI", "ollama": "Ollama"}


def session_settings() -> dict[str, Any]:
    """The settings the person chose this session (may hold an API key: never display it)."""
    return dict(st.session_state.get(state.PROVIDER) or {})


def effective_settings(settings: Mapping[str, Any] | None = None) -> Settings:
    """Session choices over the environment over ``.env``."""
    return settings_of(settings if settings is not None else session_settings())


def provider_name(settings: Mapping[str, Any] | None = None) -> str:
    """``offline`` / ``openai`` / ``ollama`` as resolved now (raises ConfigError if bad)."""
    return resolve_provider(effective_settings(settings))


def _frozen(settings: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((str(k), str(v)) for k, v in settings.items()))


@st.cache_resource(max_entries=8, show_spinner=False)
def _shared(registry: str, frozen: tuple[tuple[str, str], ...]) -> Library:
    """One library per registry and distinct session settings (the key is hashed, not
    shown); a database's store is the server's one (``state.registry_path``), so every
    library of it shares one connection pool."""
    settings = effective_settings(dict(frozen)).but(registry=registry)
    return Library(open_store(state.registry_path()), settings)


def current_library() -> Library:
    """The library this session works in, as its signed-in person."""
    shared = _shared(state.registry_setting(), _frozen(session_settings()))
    return shared.as_person(state.principal())


def current_llms() -> tuple[Any, Any]:
    """``(search_llm, answer_llm)`` or ``(None, None)`` for offline."""
    retriever = current_library().retriever
    return retriever.search_llm, retriever.llm


def current_summarizer(system_prompt: str | None = None) -> Any:
    """The summarizer for indexing; the offline engine ignores the prompt."""
    library = current_library()
    if system_prompt and library.retriever.search_llm is not None:
        cache = library.store.cache("llm")
        return make_summarizer(library.retriever.search_llm, system_prompt=system_prompt,
                               cache=cache)  # fmt: skip
    return library.summarizer


def current_retriever() -> Retriever:
    """The retriever for chat: search model for navigation, answer model for the reply."""
    return current_library().retriever


def engine_label() -> str:
    """Short description for the sidebar and result cards (no secrets)."""
    search_llm, answer_llm = current_llms()
    if search_llm is None:
        return t("engine.offline")
    names = {model_name(search_llm), model_name(answer_llm)}
    return f"{provider_name()} · {' / '.join(sorted(names))}"


def default_models(provider: str) -> tuple[str, str]:
    return DEFAULT_MODELS.get(provider, ("", ""))
