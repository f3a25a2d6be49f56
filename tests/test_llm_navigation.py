"""Navigation: single pass vs level by level, budgets, fallbacks, trace, search cache."""

from __future__ import annotations

import json
import re

import pytest

from testkit.fake_llm_servers import FakeLLMServer, Hang, kind_of, messages_text, openai_chat
from testkit.llm_test_docs import big_doc, make_doc
from treerag_core import ask, make_retriever
from treerag_core.navigate.base import NavigationConfig
from treerag_core.navigate.plan import navigate
from treerag_core.store.caches import DirectoryCache


@pytest.fixture
def server():
    fake = FakeLLMServer("openai").start()
    yield fake
    fake.stop()


def level_reply(target_chapter: int, target_section: int):
    """A model that opens the target chapter, then reads the target section."""

    def reply(request):
        _, user = messages_text(request)
        ids = dict(re.findall(r"^\s*- \[(\d+)\] (\S+ \S+)", user, re.M))
        chapter = next((i for i, t in ids.items() if t == f"Chapter {target_chapter}"), None)
        section = next(
            (i for i, t in ids.items() if t == f"Section {target_chapter}.{target_section}"), None
        )
        if chapter:
            return json.dumps(
                {"reasoning": f"chapter {target_chapter} is about it", "open": [chapter]}
            )
        return json.dumps({"reasoning": "that section", "read": [section] if section else []})

    return reply


def test_big_outline_is_walked_level_by_level(server) -> None:
    doc = big_doc()
    assert len(doc["tree_outline"]) > 40_000
    server.reply = level_reply(17, 5)
    nav = navigate("Where is item17x5 described?", doc, openai_chat(server))
    assert nav.mode == "levels" and nav.fallback is None
    assert [doc["flat_nodes"][n]["title"] for n in nav.node_ids] == ["Section 17.5 about item17x5"]
    assert len(nav.trace) == 2 and len(server.chat_requests()) == 2
    first, second = nav.trace
    assert first["candidate_count"] == 40 and first["opened"] and first["reasoning"]
    assert second["read"] == nav.node_ids and "Chapter 17" in second["path"]
    # no call ever carried the whole outline
    assert all(len(messages_text(r)[1]) < 40_000 for r in server.chat_requests())


def test_level_navigation_stays_within_its_call_budget(server) -> None:
    """A model that only ever opens runs into max_calls; the offline ranking picks."""

    def reply(request):
        _, user = messages_text(request)
        ids = re.findall(r"^\s*- \[(\d+)\].*\+\d+$", user, re.M)
        return (
            json.dumps({"open": ids[:1]})
            if ids
            else json.dumps({"open": re.findall(r"\[(\d+)\]", user)[:1]})
        )

    server.reply = reply
    config = NavigationConfig(max_calls=1)
    nav = navigate("item3x4", big_doc(), openai_chat(server), config=config)
    assert len(server.chat_requests()) == 1
    assert any("budget exhausted" in str(step.get("stopped")) for step in nav.trace)
    assert nav.node_ids and nav.fallback


def test_level_step_failure_falls_back_within_candidates(server) -> None:
    server.reply = lambda request: "no idea"
    nav = navigate("item21x3", big_doc(), openai_chat(server))
    assert "no usable choice" in nav.fallback
    assert nav.trace[0]["fallback"] == nav.fallback
    assert "item21x3" in big_doc()["flat_nodes"][nav.node_ids[0]]["title"]


def test_single_pass_threshold_is_configurable(server) -> None:
    server.reply = level_reply(0, 1)
    config = NavigationConfig(single_pass_max_chars=200)
    nav = navigate("Office hours in Berlin?", make_doc(), openai_chat(server), config=config)
    assert nav.mode == "levels"


def test_ask_on_big_document_with_level_navigation(server) -> None:
    target = level_reply(5, 2)

    def reply(request):
        return target(request) if kind_of(request) == "level" else "Item5x2 is in section 5.2."

    server.reply = reply
    result = ask("item5x2?", big_doc(), make_retriever(openai_chat(server)))
    assert result.references[0]["title"] == "Section 5.2 about item5x2"
    assert result.response_metadata["llm_calls"] == 3  # two navigation steps + answer
    # the answer model got the section, not the 40-chapter document
    assert len(messages_text(server.chat_requests()[-1])[1]) < 3000


def test_search_cache_makes_a_repeated_question_cheaper(server, tmp_path) -> None:
    server.reply = lambda request: (
        '{"node_list": ["0001"]}' if kind_of(request) == "search" else "ok"
    )
    retriever = make_retriever(openai_chat(server), cache=DirectoryCache(str(tmp_path / "cache")))
    doc = make_doc()
    ask("Pro plan?", doc, retriever)
    ask("Pro plan?", doc, retriever)
    assert server.kinds() == ["search", "answer", "answer"]  # answers are never cached


def test_hanging_search_falls_back_quickly(server) -> None:
    server.reply = lambda request: Hang(20) if kind_of(request) == "search" else "ok"
    result = ask(
        "Enterprise plan price?", make_doc(), make_retriever(openai_chat(server, timeout=0.5))
    )
    trace = result.response_metadata["trace"]["documents"][0]
    assert "timed out" in trace["fallback"] and result.references[0]["title"] == "Pricing"
    assert result.content == "ok"
