"""How navigation uses the search model's choice (checked, model, offline), through the
real ChatOpenAI and ChatOllama clients and the settings a person sets."""

from __future__ import annotations

import json

import pytest

from testkit.fake_llm_servers import FakeLLMServer, either_server, kind_of, models_from_settings
from testkit.llm_test_docs import make_doc
from treerag_core import ConfigError, ask, make_retriever
from treerag_core.navigate.base import NavigationConfig

server = either_server
_models = models_from_settings


def _script(server: FakeLLMServer, *ids: str) -> None:
    def reply(request):
        if kind_of(request) == "search":
            return json.dumps({"reasoning": "my pick", "node_list": list(ids)})
        return "The Pro plan costs $20 per month [S1]."

    server.reply = reply


def _read(result) -> tuple[list[str], list[dict]]:
    trace = result.response_metadata["trace"]["documents"][0]
    return trace["chosen"], trace["steps"]


def test_a_choice_far_from_the_questions_words_gets_the_offline_best_too(server) -> None:
    """The model chose Security (0003) for a price question: Pricing is read as well, and
    the trace says why."""
    search, answer = _models(server)
    _script(server, "0003")
    result = ask("How much is the Pro plan?", make_doc(), make_retriever(answer, search_llm=search))
    chosen, steps = _read(result)
    assert chosen[0] == "0003" and "0001" in chosen
    check = steps[-1]
    assert check["mode"] == "offline check" and "0001" in check["read"]
    assert "none of the 1 section(s) the model chose" in check["note"]


def test_a_choice_near_the_offline_ranking_is_taken_as_it_is(server) -> None:
    search, answer = _models(server)
    _script(server, "0001")
    result = ask("How much is the Pro plan?", make_doc(), make_retriever(answer, search_llm=search))
    chosen, steps = _read(result)
    assert chosen == ["0001"] and all(s["mode"] != "offline check" for s in steps)


def test_model_mode_takes_even_a_far_choice(server) -> None:
    search, answer = _models(server, search_mode="model")
    _script(server, "0003")
    result = ask("How much is the Pro plan?", make_doc(), make_retriever(answer, search_llm=search))
    assert _read(result)[0] == ["0003"]


def test_offline_mode_lets_the_model_only_answer(server) -> None:
    """TREERAG_SEARCH_MODE=offline: no search call is made, the model writes the answer."""
    search, answer = _models(server, search_mode="offline")
    _script(server, "0003")
    result = ask("How much is the Pro plan?", make_doc(), make_retriever(answer, search_llm=search))
    assert server.kinds() == ["answer"]
    assert _read(result)[0][0] == "0001"
    assert result.content == "The Pro plan costs $20 per month [S1]."


def test_an_unknown_search_mode_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="search mode"):
        NavigationConfig(search_mode="guess")
