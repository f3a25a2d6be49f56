"""make_summarizer: parallel calls, top levels first, budget, fallbacks, cache, real clients."""

from __future__ import annotations

import json

import pytest

from testkit.fake_llm_servers import FakeLLMServer, Status, messages_text, ollama_chat, openai_chat
from testkit.llm_test_docs import hundred_sections
from treerag_core import make_summarizer
from treerag_core.store import open_store
from treerag_core.summarize.summarizers import SummaryBudget, offline_summarizer


@pytest.fixture
def server():
    fake = FakeLLMServer("openai").start()
    yield fake
    fake.stop()


def test_calls_run_in_parallel_up_to_max_workers(server) -> None:
    server.gather = 5  # the first calls are held until five are in flight at once
    nodes = hundred_sections(30)
    result = make_summarizer(openai_chat(server), max_workers=5)(nodes)
    assert server.max_in_flight == 5  # exactly the pool size, never more
    stats = result["stats"]
    assert stats["calls"] == 30 and stats["fallbacks"] == 0
    assert stats["tokens_in"] > 0 and stats["tokens_out"] > 0


def test_top_levels_are_summarised_first(server) -> None:
    nodes = hundred_sections(30)
    make_summarizer(openai_chat(server), max_workers=1)(nodes)
    titles = [messages_text(r)[1].split("\n")[0] for r in server.chat_requests()]
    chapters = [f"Section title: Part {i}" for i in range(0, 30, 10)]
    assert titles[:3] == chapters


def test_budget_max_calls_is_respected_and_the_rest_fall_back(server) -> None:
    nodes = hundred_sections(20)
    progress = []
    budget = SummaryBudget(max_calls=4)
    result = make_summarizer(openai_chat(server), max_workers=3, budget=budget)(
        nodes, progress=lambda done, total, msg: progress.append((done, total))
    )
    assert len(server.chat_requests()) == 4
    stats = result["stats"]
    assert stats["calls"] == 4 and stats["fallbacks"] == 16
    assert stats["fallback_reasons"] == {"budget:max_calls": 16}
    assert len(result["summaries"]) == 20  # every node still gets a summary
    assert all(entry["summary"] for entry in result["summaries"].values())
    assert progress[-1] == (20, 20)


def test_budget_max_input_tokens(server) -> None:
    result = make_summarizer(openai_chat(server), budget=SummaryBudget(max_input_tokens=500))(
        hundred_sections(10)
    )
    assert 0 < result["stats"]["calls"] < 10
    assert "budget:max_input_tokens" in result["stats"]["fallback_reasons"]


def test_failures_and_garbage_fall_back_to_opening_text(server) -> None:
    def reply(request):
        _, user = messages_text(request)
        if "Part 1\n" in user:
            return Status(500)
        if "Part 2\n" in user:
            return "```\n```"
        return json.dumps({"summary": "ok", "tags": "Widget, Steel"})

    server.reply = reply
    result = make_summarizer(openai_chat(server))(hundred_sections(4))
    summaries = result["summaries"]
    assert summaries["0001"]["fallback"] and "Widget1" in summaries["0001"]["summary"]
    assert summaries["0002"]["fallback"]
    assert summaries["0003"] == {"summary": "ok", "tags": ["Widget", "Steel"], "fallback": False}
    assert result["stats"]["failures"] == 1 and result["stats"]["fallbacks"] == 2


def test_per_call_timeout_keeps_indexing_alive(server) -> None:
    server.delay = 3
    result = make_summarizer(openai_chat(server, timeout=0.3))(hundred_sections(3))
    assert result["stats"]["fallbacks"] == 3 and result["stats"]["failures"] == 3


def test_huge_section_is_truncated_before_sending(server) -> None:
    nodes = hundred_sections(1)
    nodes[0]["text"] = "word " * 300_000  # 1.5 MB
    make_summarizer(openai_chat(server), budget=SummaryBudget(max_section_chars=5000))(nodes)
    _, user = messages_text(server.chat_requests()[0])
    assert len(user) < 6000 and "more characters not shown" in user


def test_signature_follows_model_and_prompts(server) -> None:
    llm = openai_chat(server)
    a = make_summarizer(llm).signature
    assert a == make_summarizer(llm).signature
    assert a != make_summarizer(llm, system_prompt="You are a historian.").signature
    assert a != make_summarizer(openai_chat(server, model="other")).signature
    assert make_summarizer(None) is offline_summarizer


def test_domain_prompt_reaches_the_model(server) -> None:
    make_summarizer(openai_chat(server), system_prompt="You are a historian.")(hundred_sections(1))
    system, _ = messages_text(server.chat_requests()[0])
    assert system == "You are a historian."


def test_cache_makes_repeated_summaries_free(server, tmp_path) -> None:
    cache = open_store(str(tmp_path / "indexed_docs.json")).cache("llm")
    summarize = make_summarizer(openai_chat(server), cache=cache)
    first = summarize(hundred_sections(5))
    second = summarize(hundred_sections(5))
    assert len(server.chat_requests()) == 5
    assert second["stats"]["cached"] == 5 and second["stats"]["tokens_in"] == 0
    assert first["summaries"] == second["summaries"]
    assert len(cache) == 5


def test_zero_nodes_and_zero_workers_do_not_crash(server) -> None:
    assert make_summarizer(openai_chat(server), max_workers=0)([])["stats"]["calls"] == 0
    assert (
        make_summarizer(openai_chat(server), max_workers=0)(hundred_sections(2))["stats"]["calls"]
        == 2
    )


def test_ollama_summaries_in_parallel() -> None:
    fake = FakeLLMServer("ollama").start()
    try:
        fake.gather = 4
        result = make_summarizer(ollama_chat(fake), max_workers=4)(hundred_sections(12))
        assert fake.max_in_flight == 4
        assert result["stats"]["calls"] == 12 and result["stats"]["tokens_in"] > 0
    finally:
        fake.stop()
