"""make_tools in a tool-calling agent loop: the real ChatOpenAI client, bound to the tools,
talks to a fake model on 127.0.0.1 that calls list_documents → browse → read and then
answers citing the section it read. Nothing in the client is patched: the tool schemas go
over the wire as OpenAI function definitions and the tool results come back as messages.
"""

from __future__ import annotations

import json
import re
from typing import Any

from fake_llm_servers import FakeLLMServer, ToolCalls, openai_chat
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from treerag_core import make_retriever
from treerag_core.access.principal import Principal
from treerag_core.tools.langchain_tools import make_tools

QUESTION = "How much did Best Buy spend on share repurchases in the quarter?"


def run_agent(model: Any, tools: list, question: str, max_turns: int = 8) -> list[BaseMessage]:
    """The smallest agent loop: call the model; run the tools it asks for; repeat."""
    by_name = {tool.name: tool for tool in tools}
    bound = model.bind_tools(tools)
    messages: list[BaseMessage] = [HumanMessage(question)]
    for _ in range(max_turns):
        reply = bound.invoke(messages)
        messages.append(reply)
        if not reply.tool_calls:
            return messages
        messages += [by_name[call["name"]].invoke(call) for call in reply.tool_calls]
    raise AssertionError("the agent did not finish")


def tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in request["messages"] if m.get("role") == "tool"]


def find(outline: list[dict], word: str) -> dict | None:
    for entry in outline:
        if word in entry["title"]:
            return entry
        hit = find(entry.get("below") or [], word)
        if hit:
            return hit
    return None


def navigating_model(request: dict[str, Any]) -> Any:
    """A model that reads the tool results it is sent and decides the next call."""
    results = tool_results(request)
    if not results:
        return ToolCalls([("list_documents", {})])
    last = json.loads(results[-1]["content"])
    if "documents" in last:
        filing = next(d for d in last["documents"] if d["name"].startswith("BESTBUY"))
        return ToolCalls([("browse", {"doc_id": filing["doc_id"], "depth": 4})])
    if "outline" in last:
        note = find(last["outline"], "Repurchase")
        assert note, (
            "the outline should show the repurchase note at depth 4 (Part I › Item 1 › Notes › 9.)"
        )
        return ToolCalls([("read", {"doc_id": last["doc_id"], "node_id": note["node_id"]})])
    cost = re.search(r"Total cost of shares repurchased \$ (\d+)", last["text"])
    first, end = last["pages"]
    return (
        f"Best Buy spent ${cost.group(1)} million on share repurchases in the quarter "
        f"[{last['file_name']} › {last['path']} (node {last['node_id']}), pp. {first}–{end}]."
    )


def test_agent_browses_reads_and_cites_the_node_it_read(agent_team) -> None:
    server = FakeLLMServer("openai", reply=navigating_model).start()
    try:
        messages = run_agent(openai_chat(server), make_tools(agent_team.path), QUESTION)
        requests = server.chat_requests()
    finally:
        server.stop()
    calls = [c["name"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    assert calls == ["list_documents", "browse", "read"]
    read = json.loads(messages[-2].content)
    assert (
        read["node_id"] == agent_team.repurchase_id
        and read["title"] == "9. Repurchase of Common Stock"
    )
    final = messages[-1]
    assert isinstance(final, AIMessage) and not final.tool_calls
    assert "$69 million" in final.content  # the figure is in the section it read
    assert f"(node {agent_team.repurchase_id}), pp. 12–13" in final.content and read["pages"] == [
        12,
        13,
    ]
    # the real client sent the tools' typed schemas as OpenAI function definitions
    functions = {t["function"]["name"]: t["function"] for t in requests[0]["tools"]}
    assert list(functions) == ["list_documents", "browse", "search", "read", "ask"]
    browse = functions["browse"]["parameters"]
    assert browse["required"] == ["doc_id"] and browse["properties"]["depth"]["maximum"] == 4
    assert functions["read"]["parameters"]["required"] == ["doc_id", "node_id"]
    assert "next_offset" in functions["read"]["description"]
    # and the tool results went back to the model as tool messages with the call ids
    assert [m["tool_call_id"] for m in tool_results(requests[-1])] == ["call_1"] * 3


def test_a_bad_tool_call_comes_back_as_an_error_the_model_can_act_on(agent_team) -> None:
    def reply(request: dict[str, Any]) -> Any:
        results = tool_results(request)
        if not results:
            return ToolCalls([("read", {"doc_id": agent_team.filing_id, "node_id": "9999"})])
        if len(results) == 1:
            return ToolCalls([("browse", {"doc_id": agent_team.filing_id, "depth": 99})])
        return "I could not find that section: " + results[0]["content"]

    server = FakeLLMServer("openai", reply=reply).start()
    try:
        messages = run_agent(openai_chat(server), make_tools(agent_team.path), QUESTION)
    finally:
        server.stop()
    errors = [m for m in messages if isinstance(m, ToolMessage)]
    assert [m.status for m in errors] == ["error", "error"]
    assert "has no section '9999'" in errors[0].content and "browse" in errors[0].content
    assert "depth: Input should be less than or equal to 4" in errors[1].content
    assert messages[-1].content.startswith("I could not find that section")


def test_tools_apply_the_principals_access_rules(agent_team) -> None:
    bob = make_tools(agent_team.path, principal=Principal("bob@example.com", frozenset({"hr"})))
    by_name = {tool.name: tool for tool in bob}
    listed = json.loads(by_name["list_documents"].invoke({}))
    assert [d["doc_id"] for d in listed["documents"]] == [agent_team.memo_id]
    refused = by_name["read"].invoke(
        {"doc_id": agent_team.filing_id, "node_id": agent_team.repurchase_id}
    )
    assert refused.startswith(f"There is no document '{agent_team.filing_id}' that you may read")


def test_ask_tool_uses_the_given_retriever(agent_team) -> None:
    """With a model configured, ask is the two-call answer (search model, then answer)."""

    def reply(request: dict[str, Any]) -> str:
        system = request["messages"][0]["content"]
        if "find the sections" in system:
            return json.dumps({"reasoning": "repurchases", "node_list": [agent_team.repurchase_id]})
        return "Best Buy repurchased $69 million of shares in the quarter [S1]."

    server = FakeLLMServer("openai", reply=reply).start()
    try:
        llm = openai_chat(server)
        tools = make_tools(agent_team.path, retriever=make_retriever(llm, search_llm=llm))
        ask = next(t for t in tools if t.name == "ask")
        result = json.loads(ask.invoke({"question": QUESTION, "doc_ids": [agent_team.filing_id]}))
    finally:
        server.stop()
    assert result["engine"] == "fake-gpt" and result["llm_calls"] == 2
    assert result["answer"].endswith("[S1].")
    [ref] = result["references"]
    assert ref["node_id"] == agent_team.repurchase_id and ref["cited"] and ref["pages"][0] >= 12
