"""Each kind of call's output cap and timeout are settings, carried by the models made from
them, and sent by the real ChatOpenAI and ChatOllama clients to servers on 127.0.0.1."""

from __future__ import annotations

import json

import pytest

from testkit.fake_llm_servers import Hang, either_server, kind_of, models_from_settings
from testkit.llm_test_docs import make_doc
from treerag_core import ConfigError, ask, make_retriever
from treerag_core.llm.budgets import CALL_BUDGETS, budgets_from_settings
from treerag_core.llm.providers import make_llms
from treerag_core.settings import env_name, load

server = either_server
_models = models_from_settings


def _cap(request: dict) -> int:
    return (
        request.get("max_completion_tokens")
        or request.get("max_tokens")
        or request["options"]["num_predict"]
    )


def test_defaults_every_kind_has_a_cap_and_a_timeout() -> None:
    assert set(CALL_BUDGETS) >= {"search", "summary", "heading check", "answer"}
    budgets = budgets_from_settings(load())
    assert budgets["search"] == {"max_tokens": 600, "timeout_s": 60.0}
    assert budgets["answer"] == {"max_tokens": 1500, "timeout_s": 120.0}


def test_settings_and_environment_set_each_kind(monkeypatch) -> None:
    monkeypatch.setenv("TREERAG_SEARCH_MAX_TOKENS", "120")
    monkeypatch.setenv("TREERAG_ANSWER_TIMEOUT", "9")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    search, _ = make_llms({"summary_max_tokens": 50})
    budgets = search.metadata["treerag_call_budgets"]
    assert budgets["search"]["max_tokens"] == 120 and budgets["answer"]["timeout_s"] == 9.0
    assert budgets["summary"]["max_tokens"] == 50
    assert env_name("heading_check_timeout") == "TREERAG_HEADING_CHECK_TIMEOUT"


def test_one_shared_timeout_is_every_kinds_default() -> None:
    budgets = budgets_from_settings(load(llm_timeout=7, answer_timeout=30))
    assert budgets["search"]["timeout_s"] == 7.0 and budgets["answer"]["timeout_s"] == 30.0


@pytest.mark.parametrize("bad", [{"search_max_tokens": "lots"}, {"answer_timeout": 0}])
def test_a_bad_budget_setting_is_a_config_error(bad) -> None:
    with pytest.raises(ConfigError, match="TREERAG_"):
        budgets_from_settings(load(**bad))


def test_the_caps_from_settings_reach_the_server(server) -> None:
    search, answer = _models(server, search_max_tokens=77, answer_max_tokens=333)

    def reply(request):
        if kind_of(request) == "search":
            return json.dumps({"reasoning": "price", "node_list": ["0001"]})
        return "The Pro plan costs $20 [S1]."

    server.reply = reply
    ask("Pro plan price?", make_doc(), make_retriever(answer, search_llm=search))
    assert [_cap(r) for r in server.chat_requests()] == [77, 333]


def test_a_search_that_hangs_waits_only_its_own_timeout(server) -> None:
    """The search's timeout (0.5 s) ends the hung search call while the answer's (30 s)
    is left for the answer: the offline ranking reads, the model answers."""
    search, answer = _models(server, search_timeout=0.5, answer_timeout=30)

    def reply(request):
        return Hang(300) if kind_of(request) == "search" else "The Pro plan costs $20 [S1]."

    server.reply = reply
    result = ask("Pro plan price?", make_doc(), make_retriever(answer, search_llm=search))
    fallback = result.response_metadata["trace"]["documents"][0]["fallback"]
    assert "search call failed" in fallback and "timed out" in fallback
    assert result.content == "The Pro plan costs $20 [S1]."


def test_a_callers_own_model_keeps_its_client_timeout(server) -> None:
    """Budgets that did not come with the model leave its timeout alone (only caps)."""
    from testkit.fake_llm_servers import ollama_chat, openai_chat
    from treerag_core.llm.call import bounded

    llm = openai_chat(server, timeout=3) if server.protocol == "openai" else ollama_chat(
        server, timeout=3)  # fmt: skip
    capped = bounded(llm, "answer")
    assert getattr(capped, "kwargs", {}).get("timeout") is None
    assert (getattr(capped, "client_kwargs", None) or {}).get("timeout", 3) == 3
