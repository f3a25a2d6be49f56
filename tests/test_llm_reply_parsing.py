"""Search and summary reply parsing: the replies small and local models actually give."""

from __future__ import annotations

import pytest

from treerag_core.llm.replies import (
    parse_navigation_step,
    parse_search_reply,
    parse_summary_reply,
    parse_tags,
)

KNOWN = ["0000", "0001", "0002", "0003", "0010"]


@pytest.mark.parametrize(
    "reply",
    [
        '{"node_list": ["0003", "0001"]}',
        '{"node_ids": ["0003", "0001"], "thinking": "because"}',
        '{"ids": [3, 1]}',
        '{"nodes": ["[0003]", "0001"]}',
        '["0003", "0001"]',
        "[3, 1]",
        '```json\n{"node_list": ["0003", "0001"]}\n```',
        'Sure! Here are the sections:\n{"reasoning": "pricing", "node_list": ["0003", "0001"]}',
        '<think>the user wants pricing, maybe 0002</think>{"node_list": ["0003", "0001"]}',
        "The relevant sections are [0003] and [0001].",
        "Sections 0003 and 0001 answer this.",
        "Sections 3 and 1.",
        '{"relevant_sections": [{"node_id": "0003"}, {"id": "1"}]}',
        '{"answer": {"x": 1}, "picked": ["0003", "0001"]}',
    ],
)
def test_search_reply_variants(reply: str) -> None:
    ids, _reasoning, how = parse_search_reply(reply, KNOWN)
    assert ids == ["0003", "0001"], (reply, how)


def test_search_reply_drops_duplicates_and_unknown_ids() -> None:
    ids, reasoning, how = parse_search_reply(
        '{"reasoning": "r", "node_list": ["0003", "0003", "9999", 3, "0001"]}', KNOWN
    )
    assert ids == ["0003", "0001"]
    assert reasoning == "r" and how == "json"


def test_search_reply_prefers_padded_ids_over_stray_numbers() -> None:
    ids, _, _ = parse_search_reply("I found 2 sections: 0003 and 0010.", KNOWN)
    assert ids == ["0003", "0010"]


@pytest.mark.parametrize("reply", ["", "I don't know.", "<html>502</html>", "{not json", "null"])
def test_search_reply_garbage_gives_nothing(reply: str) -> None:
    assert parse_search_reply(reply, KNOWN)[0] == []


def test_search_reply_explicit_empty_list_is_reported() -> None:
    assert parse_search_reply('{"node_list": [], "reasoning": "nothing fits"}', KNOWN) == (
        [],
        "nothing fits",
        "json-empty",
    )


def test_navigation_step_open_and_read() -> None:
    opened, read, reasoning, how = parse_navigation_step(
        '{"open": ["0001"], "read": ["0003"], "reasoning": "x"}', KNOWN, ["0001"]
    )
    assert (opened, read, reasoning, how) == (["0001"], ["0003"], "x", "json")
    # a plain list is split: parents are opened, leaves read
    opened, read, _, _ = parse_navigation_step('["0001", "0003"]', KNOWN, ["0001"])
    assert (opened, read) == (["0001"], ["0003"])


@pytest.mark.parametrize(
    "reply, summary, tags",
    [
        ('{"summary": "Prices.", "tags": ["Pro", "Enterprise"]}', "Prices.", ["Pro", "Enterprise"]),
        (
            '```json\n{"summary": "Prices.", "tags": "Pro, Enterprise"}\n```',
            "Prices.",
            ["Pro", "Enterprise"],
        ),
        ('Here you go: {"summary": "Prices.", "tags": ["Pro"]}', "Prices.", ["Pro"]),
        ('{"summary": null, "tags": ["Pro"]}', "", ["Pro"]),
        ('{"Summary": "Prices.", "entities": ["Pro", "pro", ""]}', "Prices.", ["Pro"]),
        (
            "The section lists prices.\nTags: Pro, Enterprise",
            "The section lists prices.",
            ["Pro", "Enterprise"],
        ),
        ("Summary: The section lists prices.", "The section lists prices.", []),
    ],
)
def test_summary_reply_variants(reply: str, summary: str, tags: list[str]) -> None:
    assert parse_summary_reply(reply) == {"summary": summary, "tags": tags}


@pytest.mark.parametrize("reply", ["", "{}", '{"foo": 1}', "```\n```", "[1, 2]", "42"])
def test_summary_reply_garbage_is_none(reply: str) -> None:
    assert parse_summary_reply(reply) is None


def test_tags_string_is_never_split_into_letters() -> None:
    assert parse_tags("Ghulam Sarwar") == ["Ghulam Sarwar"]
    assert parse_tags("a, b; c") == ["a", "b", "c"]
    assert parse_tags(["x", {"name": "y"}, 3]) == ["x", "y", "3"]
    assert parse_tags(None) == []
