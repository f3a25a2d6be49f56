"""Settings (a dict, the environment, a ``.env`` file) → the two chat models, or offline.

``make_llms`` returns ``(search_llm, answer_llm)``; ``(None, None)`` means the offline engine,
the default whenever no provider is configured. The API key goes straight into the client
object and is never kept in module state. Timeouts and retries are always explicit, so a
dead or hanging server fails in seconds, not minutes.

Recognised settings (dict keys, or the environment names in brackets):
``provider`` [TREERAG_PROVIDER] openai | ollama | offline;
``openai_api_key`` [OPENAI_API_KEY]; ``openai_base_url`` [OPENAI_BASE_URL];
``ollama_host`` [OLLAMA_HOST]; ``search_model`` [TREERAG_SEARCH_MODEL];
``answer_model`` [TREERAG_ANSWER_MODEL]; ``search_mode`` [TREERAG_SEARCH_MODE] checked |
model | offline (how navigation uses the search model's choice, carried by the search model:
``treerag_core.navigate.navigate.SEARCH_MODES``); ``timeout_s`` [TREERAG_LLM_TIMEOUT];
``max_retries`` [TREERAG_LLM_MAX_RETRIES]; ``temperature`` [TREERAG_TEMPERATURE]; and
each kind of call's output cap and timeout (``search_max_tokens`` [TREERAG_SEARCH_MAX_TOKENS],
``answer_timeout_s`` [TREERAG_ANSWER_TIMEOUT], …: :mod:`.budgets`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..errors import ConfigError
from .budgets import BUDGET_KEY, SEARCH_MODE_KEY, budgets_from_settings, environment_names

PROVIDERS = ("openai", "ollama", "offline")
DEFAULT_MODELS = {
    "openai": ("gpt-4o-mini", "gpt-4o"),
    "ollama": ("llama3.2", "llama3.2"),
}
_ENV = {
    "provider": "TREERAG_PROVIDER",
    "openai_api_key": "OPENAI_API_KEY",
    "openai_base_url": "OPENAI_BASE_URL",
    "ollama_host": "OLLAMA_HOST",
    "search_model": "TREERAG_SEARCH_MODEL",
    "answer_model": "TREERAG_ANSWER_MODEL",
    "search_mode": "TREERAG_SEARCH_MODE",
    "timeout_s": "TREERAG_LLM_TIMEOUT",
    "max_retries": "TREERAG_LLM_MAX_RETRIES",
    "temperature": "TREERAG_TEMPERATURE",
    **environment_names(),
}


def load_settings(
    settings: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    dotenv_path: str | None = ".env",
) -> dict[str, Any]:
    """Merge, highest first: ``settings``, the environment, the ``.env`` file.

    The ``.env`` file is read with ``dotenv_values``, never loaded into ``os.environ``, so
    reading settings has no side effect on the process.
    """
    merged: dict[str, Any] = {}
    if dotenv_path and os.path.isfile(dotenv_path):
        from dotenv import dotenv_values

        file_values = dotenv_values(dotenv_path)
        merged.update({k: v for k, v in ((k, file_values.get(e)) for k, e in _ENV.items()) if v})
    environ = os.environ if env is None else env
    merged.update({k: environ[e] for k, e in _ENV.items() if environ.get(e)})
    merged.update({k: v for k, v in (settings or {}).items() if v not in (None, "")})
    return merged


def resolve_provider(settings: Mapping[str, Any]) -> str:
    """Explicit ``provider``; else OpenAI when a key or base URL is set; else Ollama; else offline."""
    provider = str(settings.get("provider") or "").strip().lower()
    if provider:
        if provider not in PROVIDERS:
            raise ConfigError(
                f"Unknown provider {provider!r}: choose one of {', '.join(PROVIDERS)}."
            )
        return provider
    if settings.get("openai_api_key") or settings.get("openai_base_url"):
        return "openai"
    if settings.get("ollama_host"):
        return "ollama"
    return "offline"


def _number(settings: Mapping[str, Any], key: str, default: float, kind: type = float) -> Any:
    raw = settings.get(key, default)
    try:
        value = kind(raw)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"Setting {key} must be a number, not {raw!r}.") from exc
    if value < 0:
        raise ConfigError(f"Setting {key} must not be negative.")
    return value


def make_chat_model(provider: str, model: str, settings: Mapping[str, Any]) -> Any:
    """One LangChain chat model with explicit timeout and retries; each kind of call's
    budget rides in its ``metadata`` (:mod:`.budgets`)."""
    timeout = _number(settings, "timeout_s", 60.0)
    metadata = {BUDGET_KEY: budgets_from_settings(settings)}
    retries = _number(settings, "max_retries", 1, int)
    temperature = _number(settings, "temperature", 0.0)
    if provider == "openai":
        from langchain_openai import ChatOpenAI

        key = settings.get("openai_api_key")
        base_url = settings.get("openai_base_url") or None
        if not key and not base_url:
            raise ConfigError(
                "OpenAI needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)."
            )
        return ChatOpenAI(
            model=model,
            api_key=key or "not-needed",  # local OpenAI-compatible servers ignore it
            base_url=base_url,
            timeout=timeout,
            max_retries=retries,
            temperature=temperature,
            stream_usage=True,  # token usage in streams, also for non-OpenAI base URLs
            metadata=metadata,
        )
    if provider == "ollama":
        from langchain_ollama import ChatOllama

        return ChatOllama(
            model=model,
            base_url=settings.get("ollama_host") or "http://127.0.0.1:11434",
            temperature=temperature,
            client_kwargs={"timeout": timeout},  # the ollama client waits forever by default
            metadata=metadata,
        )
    raise ConfigError(f"Provider {provider!r} has no chat model.")


def make_llms(
    settings: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    dotenv_path: str | None = ".env",
) -> tuple[Any, Any]:
    """``(search_llm, answer_llm)`` from settings; ``(None, None)`` selects the offline engine."""
    merged = load_settings(settings, env, dotenv_path)
    provider = resolve_provider(merged)
    if provider == "offline":
        return None, None
    search_default, answer_default = DEFAULT_MODELS[provider]
    search_model = str(merged.get("search_model") or search_default)
    answer_model = str(merged.get("answer_model") or merged.get("search_model") or answer_default)
    search = make_chat_model(provider, search_model, merged)
    answer = (
        search if answer_model == search_model else make_chat_model(provider, answer_model, merged)
    )
    if merged.get("search_mode"):
        search.metadata = {**search.metadata, SEARCH_MODE_KEY: str(merged["search_mode"]).lower()}
    return search, answer


def describe_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings with the key masked: safe to show in the UI or a log."""
    shown = dict(settings)
    if shown.get("openai_api_key"):
        key = str(shown["openai_api_key"])
        shown["openai_api_key"] = f"{key[:3]}…{key[-2:]}" if len(key) > 8 else "set"
    return shown


def check_connection(settings: Mapping[str, Any]) -> str:
    """One tiny call to the answer model; returns a success line or raises TreeragError."""
    from .call import invoke, model_name

    _search_llm, answer_llm = make_llms(dict(settings))
    if answer_llm is None:
        return "Offline engine selected: no connection needed."
    reply = invoke(answer_llm, "Reply with the single word OK.", "ping", what="connection test")
    return f"Connected to {model_name(answer_llm)}: it replied {reply.text.strip()[:40]!r}."
