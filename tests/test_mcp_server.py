"""The MCP server through the official SDK's own client: a stdio session (the server as a
child process, as a desktop client runs it) and streamable HTTP sessions with bearer
tokens on a free 127.0.0.1 port, plus the exposure, token and Origin decisions (tested
without opening a socket)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from agent_registry import TOKENS, TeamRegistry, token_file
from async_helpers import run_coroutine
from conftest import ROOT, free_port, server_env, stop_streamlit

from treerag_core import ConfigError
from treerag_core.cli.main import main
from treerag_core.settings import load
from treerag_core.tools.mcp_auth import (
    TOKEN_ENV,
    check_exposure,
    digest,
    load_tokens,
    parse_token_file,
    principal_from_token,
    transport_security,
)

ANA_TOKEN, BOB_TOKEN = list(TOKENS)


def text_of(result: Any) -> dict[str, Any]:
    """A tool result's text content, which is compact JSON."""
    assert not result.is_error, result.content[0].text
    body = json.loads(result.content[0].text)
    assert body == result.structured_content
    return body


async def full_session(client: Any, agent_team: TeamRegistry) -> dict[str, Any]:
    """What an agent does in one session; returns what it saw, for the assertions."""
    seen: dict[str, Any] = {"tools": {t.name: t for t in (await client.list_tools()).tools}}
    seen["list"] = text_of(await client.call_tool("list_documents", {}))
    seen["browse"] = text_of(await client.call_tool("browse", {"doc_id": agent_team.filing_id}))
    seen["search"] = text_of(
        await client.call_tool(
            "search",
            {"query": "total cost of shares repurchased", "doc_ids": [agent_team.filing_id]},
        )
    )
    hits = seen["search"]["hits"]
    hit = next((h for h in hits if h["node_id"] == agent_team.repurchase_id), hits[0])
    seen["read"] = text_of(
        await client.call_tool("read", {"doc_id": hit["doc_id"], "node_id": hit["node_id"]})
    )
    seen["ask"] = text_of(
        await client.call_tool(
            "ask",
            {"question": "What did share repurchases cost?", "doc_ids": [agent_team.filing_id]},
        )
    )
    seen["bad_node"] = await client.call_tool(
        "read", {"doc_id": agent_team.filing_id, "node_id": "9"}
    )
    seen["bad_doc"] = await client.call_tool("browse", {"doc_id": "no-such-document"})
    seen["bad_arg"] = await client.call_tool(
        "browse", {"doc_id": agent_team.filing_id, "depth": 99}
    )
    seen["after_errors"] = text_of(await client.call_tool("list_documents", {}))
    seen["resources"] = (await client.list_resources()).resources
    seen["templates"] = (await client.list_resource_templates()).resource_templates
    outline_uri = f"treerag://documents/{agent_team.filing_id}/outline"
    seen["outline"] = (await client.read_resource(outline_uri)).contents[0].text
    node_uri = f"treerag://documents/{agent_team.filing_id}/nodes/{agent_team.repurchase_id}"
    seen["node"] = (await client.read_resource(node_uri)).contents[0].text
    return seen


def check_session(seen: dict[str, Any], agent_team: TeamRegistry) -> None:
    tools = seen["tools"]
    assert list(tools) == ["list_documents", "browse", "search", "read", "ask"]
    browse_schema = tools["browse"].input_schema
    assert browse_schema["required"] == ["doc_id"]
    assert browse_schema["properties"]["depth"]["maximum"] == 4
    assert tools["read"].input_schema["required"] == ["doc_id", "node_id"]
    ask_ids = tools["ask"].input_schema["properties"]["doc_ids"]
    assert ask_ids["anyOf"][0]["maxItems"] == 10  # and none: the whole library
    assert tools["ask"].input_schema["required"] == ["question"]
    assert all(t.annotations.read_only_hint for t in tools.values())
    assert agent_team.filing_id in [d["doc_id"] for d in seen["list"]["documents"]]
    top = [e["title"] for e in seen["browse"]["outline"]]
    assert any(t.upper().startswith("PART I ") for t in top)
    assert any(t.upper().startswith("PART II ") for t in top)
    hits = seen["search"]["hits"]
    assert agent_team.repurchase_id in [h["node_id"] for h in hits]
    assert all(h["pages"] and h["path"] and h["snippet"] for h in hits)
    read = seen["read"]
    assert read["title"] == "9. Repurchase of Common Stock" and read["pages"] == [12, 13]
    assert "Total cost of shares repurchased $ 69" in read["text"]
    ask = seen["ask"]
    assert ask["engine"] == "treerag-offline" and agent_team.repurchase_id in [
        r["node_id"] for r in ask["references"]
    ]
    assert all(r["pages"] and r["path"] for r in ask["references"])
    assert seen["bad_node"].is_error and "has no section '9'" in seen["bad_node"].content[0].text
    assert seen["bad_doc"].is_error
    assert "no document 'no-such-document'" in seen["bad_doc"].content[0].text
    assert seen["bad_arg"].is_error and "depth" in seen["bad_arg"].content[0].text
    assert seen["after_errors"]["documents"]  # the server is still serving
    uris = [str(r.uri) for r in seen["resources"]]
    assert f"treerag://documents/{agent_team.filing_id}/outline" in uris
    assert {t.uri_template for t in seen["templates"]} == {
        "treerag://documents/{doc_id}/outline",
        "treerag://documents/{doc_id}/nodes/{node_id}",
    }
    assert (
        seen["outline"].startswith("# BESTBUY_2024Q2_10Q.pdf")
        and f"[{agent_team.repurchase_id}]" in seen["outline"]
    )
    assert seen["node"].startswith("# Part I — Financial Information > Item 1. Financial")
    assert "(pages 12-13)" in seen["node"].splitlines()[0]


def test_stdio_session_with_the_sdk_client(agent_team) -> None:
    from mcp import Client, StdioServerParameters

    async def session() -> dict[str, Any]:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "treerag_core", "mcp", "--registry", str(agent_team.path)],
            cwd=str(ROOT),
        )
        async with Client(params, read_timeout_seconds=60) as client:
            return await full_session(client, agent_team)

    check_session(run_coroutine(session()), agent_team)


# --- streamable HTTP ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def http_server(
    agent_team: TeamRegistry, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """``python -m treerag_core mcp --transport http`` on a free 127.0.0.1 port, with the
    token file of :data:`TOKENS`; yields the endpoint URL."""
    folder = tmp_path_factory.mktemp("mcp-http")
    port = free_port()
    log = open(folder / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "treerag_core", "mcp", "--registry", str(agent_team.path),
            "--transport", "http", "--host", "127.0.0.1", "--port", str(port),
            "--token-file", str(token_file(folder)),
        ],
        cwd=ROOT, env=server_env(agent_team.path), stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert proc.poll() is None, (folder / "server.log").read_text()
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        else:
            raise AssertionError("the MCP server did not start")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        stop_streamlit(proc, log)  # any server process: terminate, wait, kill, close its log


def http_session(url: str, token: str, run: Any) -> Any:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async def session() -> Any:
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
            async with Client(streamable_http_client(url, http_client=http)) as client:
                return await run(client)

    return run_coroutine(session())


def test_http_session_with_a_token(agent_team, http_server) -> None:
    check_session(
        http_session(http_server, ANA_TOKEN, lambda c: full_session(c, agent_team)), agent_team
    )


def test_http_each_token_sees_its_own_collections(agent_team, http_server) -> None:
    async def look(client: Any) -> tuple[list[str], list[str], Any]:
        listed = text_of(await client.call_tool("list_documents", {}))
        resources = (await client.list_resources()).resources
        hidden = await client.call_tool(
            "read", {"doc_id": agent_team.filing_id, "node_id": agent_team.repurchase_id}
        )
        return [d["doc_id"] for d in listed["documents"]], [str(r.uri) for r in resources], hidden

    docs, uris, hidden = http_session(http_server, BOB_TOKEN, look)
    assert docs == [agent_team.memo_id]
    assert uris == [f"treerag://documents/{agent_team.memo_id}/outline"]
    assert hidden.is_error and "that you may read" in hidden.content[0].text


def post(url: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()
    request = urllib.request.Request(url, data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Accept", "application/json, text/event-stream")
    for name, value in headers.items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers)


def test_http_refuses_a_missing_or_wrong_token_with_401(http_server) -> None:
    status, headers = post(http_server, {})
    assert status == 401 and headers["www-authenticate"].startswith("Bearer")
    assert post(http_server, {"Authorization": "Bearer not-a-known-token-at-all"})[0] == 401
    assert post(http_server, {"Authorization": f"Basic {ANA_TOKEN}"})[0] == 401


def test_http_refuses_a_foreign_origin_with_403(http_server) -> None:
    auth = {"Authorization": f"Bearer {ANA_TOKEN}"}
    assert post(http_server, {**auth, "Origin": "http://evil.example"})[0] == 403
    port = http_server.split(":")[2].split("/")[0]
    assert post(http_server, {**auth, "Origin": f"http://127.0.0.1:{port}"})[0] not in (401, 403)


# --- the decisions, without a socket -----------------------------------------------------


def test_a_non_loopback_address_needs_a_token(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="without a bearer token"):
        check_exposure("0.0.0.0", None)
    with pytest.raises(ConfigError, match="without a bearer token"):
        check_exposure("192.0.2.10", None)
    for loopback in ("127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"):
        check_exposure(loopback, None)
    tokens = load_tokens(None, load(mcp_token="a-shared-token-0123456789"))
    check_exposure("192.0.2.10", tokens)


def test_the_cli_refuses_before_listening(capsys: pytest.CaptureFixture[str]) -> None:
    env_token = os.environ.pop(TOKEN_ENV, None)
    try:
        code = main(["mcp", "--transport", "http", "--host", "0.0.0.0", "--port", "1"])
    finally:
        if env_token is not None:
            os.environ[TOKEN_ENV] = env_token
    assert code == 2 and "Refusing to serve MCP on 0.0.0.0" in capsys.readouterr().err


def test_host_and_origin_checks() -> None:
    local = transport_security("127.0.0.1")
    assert local.enable_dns_rebinding_protection
    assert "http://evil.example" not in local.allowed_origins
    assert "http://127.0.0.1:*" in local.allowed_origins
    named = transport_security("192.0.2.10", ["mcp.example.com"], ["https://agents.example.com/"])
    assert {"192.0.2.10", "192.0.2.10:*", "mcp.example.com", "mcp.example.com:*"} <= set(
        named.allowed_hosts
    )
    assert named.allowed_origins == ["https://agents.example.com"]
    with pytest.raises(ConfigError, match="--allowed-host"):
        transport_security("0.0.0.0")
    assert transport_security("0.0.0.0", ["mcp.example.com:8765"]).allowed_hosts == [
        "mcp.example.com:8765"
    ]


def test_token_file_maps_tokens_to_principals(monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps(
        {
            "tokens": [
                {"token": "carol-token-0123456789", "user": "Carol@Example.com", "groups": ["HR"]},
                {"sha256": digest("dave-token-0123456789"), "user": "dave@example.com"},
            ]
        }
    )
    table_entries = parse_token_file(text, load(admins="dave@example.com"))
    carol, dave = (e.principal for e in table_entries)
    assert carol.user == "carol@example.com" and carol.groups == {"hr"} and not carol.admin
    assert dave.admin  # TREERAG_ADMINS applies per token, as in the app
    from treerag_core.tools.mcp_auth import TokenTable

    table = TokenTable(table_entries)
    access = run_coroutine(table.verify_token("carol-token-0123456789"))
    assert principal_from_token(access) == carol
    assert run_coroutine(table.verify_token("carol-token-0123456788")) is None
    assert run_coroutine(table.verify_token("dave-token-0123456789")).client_id == dave.user
    shared = load_tokens(None, load(mcp_token="a-shared-token-0123456789"))
    owner = run_coroutine(shared.verify_token("a-shared-token-0123456789"))
    assert principal_from_token(owner) is None  # the shared token reads as the owner
    assert principal_from_token(None) is None  # stdio


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not JSON"),
        ("{}", '"tokens" list'),
        ('{"tokens": [{"token": "short", "user": "a"}]}', "at least 16 characters"),
        ('{"tokens": [{"token": "long-enough-token-123"}]}', "needs a user"),
        ('{"tokens": [{"sha256": "abc", "user": "a"}]}', "64 hex digits"),
        ('{"tokens": [{"token": "long-enough-token-123", "user": "a", "groups": "x"}]}', "list"),
        (
            '{"tokens": [{"token": "long-enough-token-123", "user": "a"},'
            ' {"token": "long-enough-token-123", "user": "b"}]}',
            "same token",
        ),
    ],
)
def test_a_bad_token_file_is_a_config_error(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_token_file(text, load())


def test_no_tokens_configured_means_none(tmp_path: Path) -> None:
    assert load_tokens(None, load()) is None
    with pytest.raises(ConfigError, match="Cannot read the MCP token file"):
        load_tokens(str(tmp_path / "missing.json"), load())
    with pytest.raises(ConfigError, match=TOKEN_ENV):
        load_tokens(None, load(mcp_token="short"))
