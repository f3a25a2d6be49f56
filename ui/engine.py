"""Models, summarizers and retrievers from the session's provider settings.

Built through ``treerag_core.make_llms`` (settings → environment → ``.env``), cached with
``st.cache_resource`` so a rerun does not rebuild HTTP clients. ``(None, None)`` models
mean the offline engine, which is what a fresh machine with no key and no network gets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from treerag_core import (
    DEFAULT_MODELS,
    Cache,
    RankingMemory,
    Retriever,
    lasting_ranking_memory,
    load_settings,
    make_llms,
    make_retriever,
    make_summarizer,
    model_name,
    open_store,
    resolve_provider,
)

from . import state

PROVIDER_LABELS = {"offline": "Offline engine (no model)", "openai": "OpenAI", "ollama": "Ollama"}


def session_settings() -> dict[str, Any]:
    """The settings the user chose this session (may hold an API key: never display it)."""
    return dict(st.session_state.get(state.PROVIDER) or {})


def effective_settings(settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Session choices over the environment over ``.env``."""
    return load_settings(settings if settings is not None else session_settings())


def provider_name(settings: Mapping[str, Any] | None = None) -> str:
    """``offline`` / ``openai`` / ``ollama`` as resolved now (raises ConfigError if bad)."""
    return resolve_provider(effective_settings(settings))


def _frozen(settings: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((str(k), str(v)) for k, v in settings.items()))


@st.cache_resource(max_entries=4, show_spinner=False)
def _cached_llms(frozen: tuple[tuple[str, str], ...]) -> tuple[Any, Any]:
    """One pair of clients per distinct settings (the key is hashed, not shown)."""
    return make_llms(dict(frozen))


def current_llms() -> tuple[Any, Any]:
    """``(search_llm, answer_llm)`` or ``(None, None)`` for offline.

    Keyed by the effective settings (session over environment over ``.env``), so a changed
    environment or ``.env`` never reuses clients built for another endpoint.
    """
    return _cached_llms(_frozen(effective_settings()))


def _cache() -> Cache:
    """Summaries and searches already paid for are kept in the registry's store: re-indexing
    or asking the same question again with the same model costs nothing."""
    return open_store(state.registry_path()).cache("llm")


def current_summarizer(system_prompt: str | None = None) -> Any:
    """The summarizer for indexing; the offline engine ignores the prompt."""
    search_llm, _ = current_llms()
    if search_llm is None:
        return make_summarizer(None)
    if system_prompt:
        return make_summarizer(search_llm, system_prompt=system_prompt, cache=_cache())
    return make_summarizer(search_llm, cache=_cache())


@st.cache_resource(show_spinner=False)
def _ranking_memory(registry_path: str) -> RankingMemory:
    """One per process and registry: every session's questions reuse the passages already
    tokenised, and whole documents' statistics last in the registry's cache (a restarted
    server does not tokenise them again)."""
    return lasting_ranking_memory(open_store(registry_path))


def current_retriever() -> Retriever:
    """The retriever for chat: search model for navigation, answer model for the reply."""
    search_llm, answer_llm = current_llms()
    cache = _cache() if search_llm is not None else None
    store = open_store(state.registry_path())  # cited PDFs' passages are located (scans too)
    return make_retriever(
        llm=answer_llm, search_llm=search_llm, cache=cache, sources=store.sources,
        ocr_cache=store.cache("ocr"), ranking_memory=_ranking_memory(state.registry_path()),
    )  # fmt: skip


def engine_label() -> str:
    """Short description for the sidebar and result cards (no secrets)."""
    search_llm, answer_llm = current_llms()
    if search_llm is None:
        return PROVIDER_LABELS["offline"]
    names = {model_name(search_llm), model_name(answer_llm)}
    return f"{provider_name()} · {' / '.join(sorted(names))}"


def default_models(provider: str) -> tuple[str, str]:
    return DEFAULT_MODELS.get(provider, ("", ""))
