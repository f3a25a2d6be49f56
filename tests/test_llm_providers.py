"""Settings → models: offline by default, OpenAI / Ollama with explicit timeouts, no key leaks."""

from __future__ import annotations

import os

import pytest

from treerag_core import ConfigError, Settings
from treerag_core.llm.providers import describe_settings, make_llms
from treerag_core.settings import load


def test_nothing_configured_means_offline() -> None:
    assert make_llms() == (None, None)


def test_openai_from_env_with_two_models(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-1234567890")
    monkeypatch.setenv("TREERAG_SEARCH_MODEL", "small")
    monkeypatch.setenv("TREERAG_ANSWER_MODEL", "big")
    search, answer = make_llms()
    assert (search.model_name, answer.model_name) == ("small", "big")
    assert search.request_timeout == 60.0 and search.max_retries == 1
    assert search.stream_usage is True


def test_openai_compatible_base_url_needs_no_key() -> None:
    search, answer = make_llms(Settings(openai_base_url="http://127.0.0.1:8000/v1"))
    assert search.openai_api_base == answer.openai_api_base == "http://127.0.0.1:8000/v1"
    assert (search.model_name, answer.model_name) == ("gpt-4o-mini", "gpt-4o")


def test_ollama_host_and_timeout() -> None:
    search, _ = make_llms(Settings(ollama_host="http://127.0.0.1:11434", llm_timeout=7))
    assert type(search).__name__ == "ChatOllama" and search.client_kwargs == {"timeout": 7.0}


def test_dotenv_file_is_read_without_touching_environ(tmp_path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("OPENAI_API_KEY=sk-from-dotenv-123\nTREERAG_PROVIDER=openai\n")
    settings = Settings(_env_file=str(env_file))
    assert settings.secret("openai_api_key") == "sk-from-dotenv-123"
    assert "OPENAI_API_KEY" not in os.environ
    search, _ = make_llms(settings)
    assert search.openai_api_key.get_secret_value() == "sk-from-dotenv-123"
    assert "sk-from-dotenv-123" not in repr(search) + repr(settings)


def test_explicit_settings_win_over_env(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    assert make_llms({"provider": "offline"}) == (None, None)


@pytest.mark.parametrize(
    "settings",
    [
        {"provider": "mystery"},
        {"provider": "openai"},
        {"provider": "ollama", "llm_timeout": "soon"},
    ],
)
def test_bad_settings_raise_config_error(settings) -> None:
    with pytest.raises(ConfigError):
        make_llms(settings)


def test_describe_settings_masks_the_key() -> None:
    shown = describe_settings(load(openai_api_key="sk-abcdefghijkl"))
    assert "abcdefghij" not in shown["openai_api_key"]
