"""Settings → models: offline by default, OpenAI / Ollama with explicit timeouts, no key leaks."""

from __future__ import annotations

import pytest

from treerag_core import ConfigError, make_llms
from treerag_core.llm.providers import describe_settings, load_settings


def test_nothing_configured_means_offline() -> None:
    assert make_llms(env={}, dotenv_path=None) == (None, None)


def test_openai_from_env_with_two_models() -> None:
    env = {
        "OPENAI_API_KEY": "sk-test-1234567890",
        "TREERAG_SEARCH_MODEL": "small",
        "TREERAG_ANSWER_MODEL": "big",
    }
    search, answer = make_llms(env=env, dotenv_path=None)
    assert (search.model_name, answer.model_name) == ("small", "big")
    assert search.request_timeout == 60.0 and search.max_retries == 1
    assert search.stream_usage is True


def test_openai_compatible_base_url_needs_no_key() -> None:
    search, answer = make_llms(
        {"openai_base_url": "http://127.0.0.1:8000/v1"}, env={}, dotenv_path=None
    )
    assert search.openai_api_base == answer.openai_api_base == "http://127.0.0.1:8000/v1"
    assert (search.model_name, answer.model_name) == ("gpt-4o-mini", "gpt-4o")


def test_ollama_host_and_timeout() -> None:
    search, _ = make_llms(
        {"ollama_host": "http://127.0.0.1:11434", "timeout_s": 7}, env={}, dotenv_path=None
    )
    assert type(search).__name__ == "ChatOllama" and search.client_kwargs == {"timeout": 7.0}


def test_dotenv_file_is_read_without_touching_environ(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    env_file = tmp_path / ".env"
    env_file.write_text("OPENAI_API_KEY=sk-from-dotenv-123\nTREERAG_PROVIDER=openai\n")
    settings = load_settings(env={}, dotenv_path=str(env_file))
    assert settings["openai_api_key"] == "sk-from-dotenv-123"
    import os

    assert "OPENAI_API_KEY" not in os.environ
    search, _ = make_llms(env={}, dotenv_path=str(env_file))
    assert search.openai_api_key.get_secret_value() == "sk-from-dotenv-123"
    assert "sk-from-dotenv-123" not in repr(search)


def test_explicit_settings_win_over_env() -> None:
    settings = load_settings(
        {"provider": "offline"}, env={"OPENAI_API_KEY": "sk-x"}, dotenv_path=None
    )
    assert make_llms(settings, env={}, dotenv_path=None) == (None, None)


@pytest.mark.parametrize(
    "settings",
    [{"provider": "mystery"}, {"provider": "openai"}, {"provider": "ollama", "timeout_s": "soon"}],
)
def test_bad_settings_raise_config_error(settings) -> None:
    with pytest.raises(ConfigError):
        make_llms(settings, env={}, dotenv_path=None)


def test_describe_settings_masks_the_key() -> None:
    shown = describe_settings({"openai_api_key": "sk-abcdefghijkl"})
    assert "abcdefghij" not in shown["openai_api_key"]
