"""How one call is shaped for its client: the kind of call's output cap and timeout
(:mod:`.budgets`), and the reply's JSON Schema in the dialect the server takes.

A server that refuses a dialect is asked the next one, and the one it took is remembered on
the model object, so a model is asked once, not per call. :mod:`.call` makes every call
through :class:`Shapes`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .budgets import budget_of

# What a model's client calls its output cap; clients other than OpenAI's and Ollama's are
# called as they are. The caps and timeouts themselves: :mod:`.budgets`.
_CAP_FIELD = {
    "ChatOpenAI": "max_tokens",
    "AzureChatOpenAI": "max_tokens",
    "ChatOllama": "num_predict",
}


def bounded(llm: Any, what: str) -> Any:
    """The model with this kind of call's budget (:mod:`.budgets`): its output cap, unless
    the caller set the model's own; its timeout, when the budget came with the model."""
    field_name = _CAP_FIELD.get(type(llm).__name__)
    budget, carried = budget_of(llm, what)
    if field_name is None or budget is None:
        return llm
    update: dict[str, Any] = {}
    if getattr(llm, field_name, None) is None:
        update[field_name] = budget.max_tokens
    if carried and field_name == "num_predict":  # Ollama: the timeout is its client's
        update["client_kwargs"] = {**(llm.client_kwargs or {}), "timeout": budget.timeout_s}
    try:
        capped = llm.model_copy(update=update) if update else llm
        if "client_kwargs" in update:
            capped._set_clients()  # the copy's own clients, with its timeout
    except Exception:  # noqa: BLE001 - a client that cannot be copied is called as it is
        return llm
    if carried and field_name == "max_tokens":  # OpenAI: a per-request option
        return capped.bind(timeout=budget.timeout_s)
    return capped


# How a reply's JSON Schema is sent, tried in this order until the server takes one:
# "json_schema" is OpenAI's response_format (vLLM, LM Studio and llama.cpp's own server
# take it too); "json_object" with a "schema" is llama-cpp-python's server's; "none" sends
# no schema. Ollama takes its ``format`` or nothing. The one a server took is remembered in
# the model object's ``metadata`` under SCHEMA_KEY: asked once per model, not per call.
SCHEMA_DIALECTS = ("json_schema", "json_object", "none")
SCHEMA_KEY = "treerag_schema_dialect"
_RESPONSE_FORMAT = {"ChatOpenAI", "AzureChatOpenAI"}  # OpenAI-compatible: response_format


def _dialects(llm: Any) -> tuple[str, ...]:
    """The dialects this model's client can send, from the one it was last taken in."""
    name = type(llm).__name__
    kinds: tuple[str, ...]
    if name in _RESPONSE_FORMAT:
        kinds = SCHEMA_DIALECTS
    elif name == "ChatOllama":
        kinds = ("json_schema", "none")
    else:
        return ("none",)
    known = (getattr(llm, "metadata", None) or {}).get(SCHEMA_KEY)
    return kinds[kinds.index(known) :] if known in kinds else kinds


def with_schema(llm: Any, schema: Mapping[str, Any] | None, dialect: str) -> Any:
    """The model asked for replies that follow ``schema`` in ``dialect``."""
    if schema is None or dialect == "none":
        return llm
    if type(llm).__name__ == "ChatOllama":
        return llm.model_copy(update={"format": dict(schema)})
    if dialect == "json_schema":
        spec = {"name": "reply", "schema": dict(schema), "strict": True}
        return llm.bind(response_format={"type": "json_schema", "json_schema": spec})
    return llm.bind(response_format={"type": "json_object", "schema": dict(schema)})


def _refused_schema(exc: BaseException) -> bool:
    """A server that does not take a schema this way answers 400 or 422 (llama-cpp-python:
    500 naming the response_format)."""
    status = getattr(exc, "status_code", None) or getattr(getattr(exc, "response", None),
                                                          "status_code", None)  # fmt: skip
    return status in (400, 422) or status == 500 and "response_format" in str(exc)


class Shapes:
    """One call's way through the dialects: the model to call now, and the next one when
    the server refuses it (remembered on the model); any other failure is raised again."""

    def __init__(self, llm: Any, what: str, schema: Mapping[str, Any] | None) -> None:
        self.llm, self.schema, self.capped = llm, schema, bounded(llm, what)
        self.left = list(_dialects(llm) if schema is not None else ("none",))

    @property
    def model(self) -> Any:
        return with_schema(self.capped, self.schema, self.left[0])

    def refused(self, exc: Exception) -> Any:
        if len(self.left) == 1 or not _refused_schema(exc):
            raise exc
        self.left.pop(0)
        try:
            self.llm.metadata = {**(getattr(self.llm, "metadata", None) or {}),
                                 SCHEMA_KEY: self.left[0]}  # fmt: skip
        except (AttributeError, TypeError, ValueError):
            pass  # a model that keeps no metadata is asked the first way again, and refused
        return self.model
