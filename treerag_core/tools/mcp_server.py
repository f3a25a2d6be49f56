"""``python -m treerag_core mcp``: the registry's tools and resources for MCP clients.

Built on the official ``mcp`` SDK (``MCPServer``): the five tools of
:class:`~.registry_tools.RegistryTools` with the same typed argument schemas, and
resources: every readable document's outline (``treerag://documents/{doc_id}/outline``)
and every section's text (``treerag://documents/{doc_id}/nodes/{node_id}``).

Over stdio (a desktop client starts it) the caller is the local person: nothing is
filtered, as with the CLI. Over streamable HTTP the caller is whoever the bearer token
names (:mod:`.mcp_auth`), and every tool and resource applies that principal's access
rules. A bad id or argument is a tool error with a message (``isError``), never a crashed
server.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import anyio
from mcp.server import MCPServer
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from mcp_types import Resource as MCPResource

from ..answer.retriever import Retriever
from ..client import Library
from ..errors import TreeragError
from ..library.documents import list_documents
from ..store.base import RegistryLike
from .descriptions import TOOL_DESCRIPTIONS, TOOL_NAMES
from .mcp_auth import TokenTable, check_exposure, principal_from_token, transport_security
from .registry_tools import RegistryTools
from .shapes import to_json

SERVER_NAME = "treerag"
# What a client is told about the server as a whole (a prompt: overridable).
SERVER_INSTRUCTIONS = (
    "Indexed documents (PDF filings, reports, manuals) split into their sections. "
    "Call list_documents for doc_ids, then browse an outline or search, then read the "
    "sections you need; or ask for a whole answer with references. Cite doc_id, node_id "
    "and pages for every fact you use."
)
OUTLINE_URI = "treerag://documents/{doc_id}/outline"
NODE_URI = "treerag://documents/{doc_id}/nodes/{node_id}"
# resources/list names one outline per readable document, newest first, up to this many
# (a client shows them in a picker; list_documents pages through the rest).
MAX_LISTED_DOCUMENTS = 200
# An outline resource is the whole table of contents; a 2,000-section one is ~300k chars.
MAX_OUTLINE_CHARS = 200_000
DEFAULT_PORT = 8765
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)


class TreeragMCPServer(MCPServer):
    """An ``MCPServer`` whose resource list holds the caller's documents."""

    def __init__(self, library: Library, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.library = library
        self.store = library.store

    def caller_tools(self) -> RegistryTools:
        """The tools as the current request's caller may use them."""
        return RegistryTools(self.library.as_person(principal_from_token(get_access_token())))

    async def list_resources(self) -> list[MCPResource]:
        principal = principal_from_token(get_access_token())
        rows = await anyio.to_thread.run_sync(
            lambda: list_documents(self.store, principal=principal)
        )
        documents = [
            MCPResource(
                uri=OUTLINE_URI.format(doc_id=row["doc_id"]),
                name=str(row.get("file_name") or row["doc_id"]),
                title=f"Outline of {row.get('file_name') or row['doc_id']}",
                description=f"{row.get('total_sections')} sections, "
                f"{row.get('total_pages') or 'no'} pages, collection {row.get('collection')}",
                mime_type="text/markdown",
            )
            for row in rows[:MAX_LISTED_DOCUMENTS]
        ]
        return [*await super().list_resources(), *documents]


def build_server(
    library: Library | RegistryLike | None = None,
    retriever: Retriever | None = None,
    tokens: TokenTable | None = None,
    descriptions: Mapping[str, str] | None = None,
    instructions: str = SERVER_INSTRUCTIONS,
) -> TreeragMCPServer:
    """The server over one library (or a registry path or URL to open one on).
    ``tokens``: verify bearer tokens (HTTP); ``retriever``: the models ``ask`` uses (None:
    the library's, from the settings; the offline engine without one)."""
    if not isinstance(library, Library):
        library = Library.open(library)
    if retriever is not None:
        library = library.with_models(retriever)
    auth = None
    if tokens is not None:
        # The SDK wants an issuer for its OAuth metadata; with static tokens none is
        # published (no resource_server_url), so this URL is never shown to a client.
        auth = AuthSettings(issuer_url="http://127.0.0.1", resource_server_url=None)  # type: ignore[arg-type]  # pydantic reads the str as a URL
    server = TreeragMCPServer(
        library,
        name=SERVER_NAME,
        instructions=instructions,
        token_verifier=tokens,
        auth=auth,
        log_level="WARNING",
    )
    told = {**TOOL_DESCRIPTIONS, **(descriptions or {})}
    for name in TOOL_NAMES:
        server.add_tool(
            _tool(server, name), name=name, description=told[name], annotations=READ_ONLY
        )

    @server.resource(
        OUTLINE_URI,
        name="outline",
        title="A document's outline",
        description="Every section: node id, title, pages, summary and tags, indented.",
        mime_type="text/markdown",
    )
    def outline(doc_id: str) -> str:
        text = _resource(lambda: server.caller_tools().outline_text(doc_id))
        if len(text) > MAX_OUTLINE_CHARS:
            return text[:MAX_OUTLINE_CHARS] + "\n[… outline cut: use the browse tool]"
        return text

    @server.resource(
        NODE_URI,
        name="section",
        title="A section's text",
        description="One section's own text, headed by its path and pages.",
        mime_type="text/markdown",
    )
    def section(doc_id: str, node_id: str) -> str:
        return _resource(lambda: server.caller_tools().node_text(doc_id, node_id))

    return server


def _tool(server: TreeragMCPServer, name: str) -> Callable[..., CallToolResult]:
    """An MCP tool with the signature (the argument schema) of ``RegistryTools.<name>``."""
    signature = inspect.signature(getattr(RegistryTools, name))

    def call(**arguments: Any) -> CallToolResult:
        try:
            result = getattr(server.caller_tools(), name)(**arguments)
        except TreeragError as exc:
            raise ToolError(str(exc)) from exc
        return CallToolResult(
            content=[TextContent(type="text", text=to_json(result))], structured_content=result
        )

    parameters = list(signature.parameters.values())[1:]  # without self
    call.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=parameters, return_annotation=CallToolResult
    )
    call.__name__ = name
    return call


def _resource(read: Callable[[], str]) -> str:
    try:
        return read()
    except TreeragError as exc:
        raise ResourceNotFoundError(str(exc)) from exc


def serve_stdio(library: Library | RegistryLike | None = None) -> None:
    """Serve over stdin/stdout until the client closes them (a desktop client's child)."""
    build_server(library).run("stdio")


def serve_http(
    library: Library | RegistryLike | None = None,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    tokens: TokenTable | None = None,
    allowed_hosts: Iterable[str] = (),
    allowed_origins: Iterable[str] = (),
) -> None:
    """Serve streamable HTTP at ``http://host:port/mcp`` until interrupted. Refuses (with
    ``ConfigError``) a non-loopback address without tokens, before opening a socket."""
    check_exposure(host, tokens)
    security = transport_security(host, allowed_hosts, allowed_origins)
    server = build_server(library, tokens=tokens)
    server.run("streamable-http", host=host, port=port, transport_security=security)
