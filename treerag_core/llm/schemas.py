"""The JSON Schemas of the replies that are data: asked of servers that can constrain their
output to a schema (OpenAI's ``response_format`` ``json_schema``, llama.cpp's and vLLM's
the same way, Ollama's ``format``), so the reply is valid by construction and names only
ids that exist (each list of ids is an ``enum``). The tolerant parsers of :mod:`.replies`
still read every reply: a server that ignores the schema is understood as before.

Every object lists all its properties as required and allows no others, and no length
keyword is used: OpenAI's strict mode asks for exactly that, and llama.cpp's grammars do
not take lengths (the token caps bound the reply instead).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

_REASONING = {"type": "string"}


def _object(**properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties),
            "additionalProperties": False}  # fmt: skip


def _ids(ids: Iterable[str | int]) -> dict[str, Any]:
    values = list(dict.fromkeys(ids))
    kind = "integer" if values and all(isinstance(v, int) for v in values) else "string"
    return {"type": "array", "items": {"type": kind, "enum": values}}


def search_schema(ids: Iterable[str]) -> dict[str, Any]:
    """A single-pass search: the sections to read, among the outline's."""
    return _object(reasoning=_REASONING, node_list=_ids(ids))


def level_schema(ids: Iterable[str]) -> dict[str, Any]:
    """A level step: which candidates to open and which to read."""
    shown = list(ids)
    return _object(reasoning=_REASONING, open=_ids(shown), read=_ids(shown))


def routing_schema(numbers: Iterable[int]) -> dict[str, Any]:
    """Library routing: the numbers of the cards to open."""
    return _object(reasoning=_REASONING, documents=_ids(numbers))


SUMMARY_SCHEMA = _object(
    summary={"type": "string"}, tags={"type": "array", "items": {"type": "string"}}
)


def heading_schema(numbers: Iterable[int]) -> dict[str, Any]:
    """The heading check: the line numbers that are not headings."""
    return _object(not_headings=_ids(numbers))
