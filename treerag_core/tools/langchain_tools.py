"""The registry's tools as LangChain tools, for ``bind_tools``, ``create_agent`` or LangGraph.

Each tool's argument schema is derived from the typed signature of its
:class:`~.registry_tools.RegistryTools` method; each returns its result as compact JSON.
A bad argument or an unknown id comes back to the model as the tool's error message (a
``ToolMessage`` with ``status="error"``) so it can correct itself; it never ends the run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..access.principal import Principal
from ..answer.retriever import Retriever
from ..client import Library
from ..errors import TreeragError
from ..store.base import RegistryLike
from .arguments import problem
from .descriptions import TOOL_DESCRIPTIONS, TOOL_NAMES
from .registry_tools import RegistryTools
from .shapes import to_json

if TYPE_CHECKING:  # LangChain's tool classes are imported when tools are made: they pull in
    # its tracing stack, about half a second at every start of the app or of an indexing run.
    from langchain_core.tools import BaseTool
    from pydantic import ValidationError


def make_tools(
    library: Library | RegistryLike | None = None,
    principal: Principal | None = None,
    retriever: Retriever | None = None,
    descriptions: Mapping[str, str] | None = None,
) -> list[BaseTool]:
    """``list_documents``, ``browse``, ``search``, ``read`` and ``ask`` over one library.

    ``library``: an open :class:`~treerag_core.client.Library` (its person and models), or a
    registry path or URL to open one on. ``principal``: whose access rules apply (None:
    nothing filtered). ``retriever``: the models ``ask`` uses (None: the library's, from the
    settings; the offline engine when no model is configured). ``descriptions`` override
    what the model is told about a tool (defaults: :data:`~.descriptions.TOOL_DESCRIPTIONS`).
    """
    if not isinstance(library, Library):
        library = Library.open(library)
    if principal is not None:
        library = library.as_person(principal)
    if retriever is not None:
        library = library.with_models(retriever)
    tools = RegistryTools(library)
    told = {**TOOL_DESCRIPTIONS, **(descriptions or {})}
    return [_tool(getattr(tools, name), name, told[name]) for name in TOOL_NAMES]


def _tool(method: Callable[..., dict[str, Any]], name: str, description: str) -> BaseTool:
    from langchain_core.tools import StructuredTool, ToolException
    from langchain_core.tools.base import create_schema_from_function

    def run(**kwargs: Any) -> str:
        try:
            return to_json(method(**kwargs))
        except TreeragError as exc:
            raise ToolException(str(exc)) from exc

    return StructuredTool.from_function(
        func=run,
        name=name,
        description=description,
        args_schema=create_schema_from_function(name, method),
        handle_tool_error=True,
        handle_validation_error=_invalid_arguments,
    )


def _invalid_arguments(exc: ValidationError) -> str:
    return problem(exc)
