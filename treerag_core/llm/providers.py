"""Settings → the two chat models, or offline.

``make_llms`` returns ``(search_llm, answer_llm)``; ``(None, None)`` means the offline engine,
the default whenever no provider is configured. Every value comes from one
:class:`~treerag_core.settings.Settings` (the environment, ``.env``, or what a caller
passes). The API key goes straight into the client object and is never kept elsewhere.
Timeouts and retries are always explicit, so a dead or hanging server fails in seconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ConfigError
from ..settings import Settings, load
from ..text.messages import raised
from .budgets import BUDGET_KEY, SEARCH_MODE_KEY, budgets_from_settings

PROVIDERS = ("openai", "ollama", "offline")
DEFAULT_MODELS = {
    "openai": ("gpt-4o-mini", "gpt-4o"),
    "ollama": ("llama3.2", "llama3.2"),
}
# A client's own timeout when no setting gives one (each kind of call then has its budget).
DEFAULT_TIMEOUT_S = 60.0


def settings_of(settings: Settings | Mapping[str, Any] | None) -> Settings:
    """``Settings`` as given; a mapping of field values over the environment and ``.env``
    (a person's choices on the Settings page); None: the environment and ``.env``."""
    if isinstance(settings, Settings):
        return settings
    return load(**{k: v for k, v in (settings or {}).items() if v not in (None, "")})


def resolve_provider(settings: Settings | Mapping[str, Any] | None = None) -> str:
    """Explicit ``provider``; else OpenAI when a key or base URL is set; else Ollama; else offline."""
    chosen = settings_of(settings)
    if chosen.provider:
        return chosen.provider
    if chosen.secret("openai_api_key") or chosen.openai_base_url:
        return "openai"
    if chosen.ollama_host:
        return "ollama"
    return "offline"


def make_chat_model(provider: str, model: str, settings: Settings) -> Any:
    """One LangChain chat model with explicit timeout and retries; each kind of call's
    budget rides in its ``metadata`` (:mod:`.budgets`)."""
    timeout = settings.llm_timeout if settings.llm_timeout is not None else DEFAULT_TIMEOUT_S
    metadata = {BUDGET_KEY: budgets_from_settings(settings)}
    if provider == "openai":
        from langchain_openai import ChatOpenAI

        key, base_url = settings.secret("openai_api_key"), settings.openai_base_url or None
        if not key and not base_url:
            raise raised(ConfigError, "error.openai_key")
        return ChatOpenAI(
            model=model,
            api_key=key or "not-needed",  # type: ignore[arg-type]  # a str becomes a SecretStr; local servers ignore it
            base_url=base_url,
            timeout=timeout,
            max_retries=settings.llm_max_retries,
            temperature=settings.temperature,
            stream_usage=True,  # token usage in streams, also for non-OpenAI base URLs
            metadata=metadata,
        )
    if provider == "ollama":
        from langchain_ollama import ChatOllama

        return ChatOllama(
            model=model,
            base_url=settings.ollama_host or "http://127.0.0.1:11434",
            temperature=settings.temperature,
            client_kwargs={"timeout": timeout},  # the ollama client waits forever by default
            metadata=metadata,
        )
    raise raised(ConfigError, "error.provider_no_model", provider=repr(provider))


def make_llms(settings: Settings | Mapping[str, Any] | None = None) -> tuple[Any, Any]:
    """``(search_llm, answer_llm)`` from settings; ``(None, None)`` selects the offline engine."""
    chosen = settings_of(settings)
    provider = resolve_provider(chosen)
    if provider == "offline":
        return None, None
    search_default, answer_default = DEFAULT_MODELS[provider]
    search_model = chosen.search_model or search_default
    answer_model = chosen.answer_model or chosen.search_model or answer_default
    search = make_chat_model(provider, search_model, chosen)
    answer = (
        search if answer_model == search_model else make_chat_model(provider, answer_model, chosen)
    )
    search.metadata = {**search.metadata, SEARCH_MODE_KEY: chosen.search_mode}
    return search, answer


def describe_settings(settings: Settings) -> dict[str, Any]:
    """The model settings with the key masked: safe to show in the UI or a log."""
    shown: dict[str, Any] = settings.model_dump(exclude={"openai_api_key", "mcp_token"})
    key = settings.secret("openai_api_key")
    if key:
        shown["openai_api_key"] = f"{key[:3]}…{key[-2:]}" if len(key) > 8 else "set"
    return shown


def check_connection(settings: Settings | Mapping[str, Any] | None = None) -> str:
    """One tiny call to the answer model; returns a success line or raises TreeragError."""
    from .call import invoke, model_name

    _search_llm, answer_llm = make_llms(settings)
    if answer_llm is None:
        return "Offline engine selected: no connection needed."
    reply = invoke(answer_llm, "Reply with the single word OK.", "ping", what="connection test")
    return f"Connected to {model_name(answer_llm)}: it replied {reply.text.strip()[:40]!r}."
