"""The tools' arguments: one typed definition, checked on every call, whoever calls.

The ``Annotated`` types below are the argument schemas LangChain and MCP clients see
(descriptions, bounds); :func:`checked` applies the same bounds when a program calls the
tools directly, and turns a bad argument into :class:`ToolArgumentError` with a message an
agent can act on.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from pydantic import ConfigDict, Field, ValidationError, validate_call

from ..errors import ToolArgumentError

# A reply is bounded; these are the most an agent may ask for in one call.
MAX_DEPTH = 4  # levels of outline below the focus: deeper costs more than browsing again
MAX_K = 20  # search hits: past twenty, read what was found rather than ranking more
MAX_READ_CHARS = 12_000  # ~3k tokens: one long section page at a time
MIN_READ_CHARS = 200  # below a paragraph, paging costs more calls than it saves
DEFAULT_READ_CHARS = 4_000  # ~1k tokens: a typical filing note or statement
MAX_ASK_DOCUMENTS = 10  # one answer call reads every document's excerpts
MAX_QUERY_CHARS = 2_000  # a question, not a document pasted into the search box


DocId = Annotated[
    str,
    Field(min_length=1, max_length=64, description="A document id, as list_documents gives."),
]
NodeId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        description="A section's node_id within the document, as browse or search give.",
    ),
]
OptionalNodeId = Annotated[
    str | None,
    Field(
        max_length=64,
        description="Show the outline below this section; leave empty for the top level.",
    ),
]
Depth = Annotated[
    int, Field(ge=1, le=MAX_DEPTH, description="How many levels of sections to show below.")
]
Page = Annotated[int, Field(ge=0, description="Which page of a long first level to show (from 0).")]
Offset = Annotated[
    int, Field(ge=0, description="Where to start: the next_offset a previous result gave.")
]
Query = Annotated[
    str,
    Field(min_length=1, max_length=MAX_QUERY_CHARS, description="What to look for, in words."),
]
Question = Annotated[
    str,
    Field(min_length=1, max_length=MAX_QUERY_CHARS, description="The question to answer."),
]
DocIds = Annotated[
    list[DocId],
    Field(
        min_length=1,
        max_length=MAX_ASK_DOCUMENTS,
        description=f"The documents to answer from (1 to {MAX_ASK_DOCUMENTS} ids).",
    ),
]
AskDocIds = Annotated[
    list[DocId] | None,
    Field(
        max_length=MAX_ASK_DOCUMENTS,
        description=f"The documents to answer from (up to {MAX_ASK_DOCUMENTS} ids); leave "
        "empty to ask the whole library: the question goes to the documents it is about.",
    ),
]
OptionalDocIds = Annotated[
    list[DocId] | None,
    Field(description="Only these documents; leave empty to search every readable one."),
]
K = Annotated[int, Field(ge=1, le=MAX_K, description=f"How many hits to return (1 to {MAX_K}).")]
MaxChars = Annotated[
    int,
    Field(
        ge=MIN_READ_CHARS,
        le=MAX_READ_CHARS,
        description=f"Characters of text to return ({MIN_READ_CHARS} to {MAX_READ_CHARS}).",
    ),
]


def problem(exc: ValidationError, names: list[str] | None = None) -> str:
    """A validation error as one line per bad argument: ``depth: Input should be …``
    (``names``: the parameters, to name an argument passed by position)."""
    lines = []
    for error in exc.errors():
        loc = list(error.get("loc") or ())
        if loc and isinstance(loc[0], int) and names and loc[0] < len(names):
            loc[0] = names[loc[0]]
        where = ".".join(str(part) for part in loc) or "arguments"
        lines.append(f"{where}: {error.get('msg')}")
    return "Invalid arguments: " + "; ".join(lines)


F = TypeVar("F", bound=Callable[..., Any])


def checked(method: F) -> F:
    """Validate a tool method's arguments against its annotations (ToolArgumentError)."""
    validated = validate_call(config=ConfigDict(arbitrary_types_allowed=True))(method)
    names = list(inspect.signature(method).parameters)

    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return validated(*args, **kwargs)
        except ValidationError as exc:
            if exc.title not in (method.__name__, method.__qualname__):  # raised inside the tool
                raise
            raise ToolArgumentError(problem(exc, names)) from None

    return call  # type: ignore[return-value]
