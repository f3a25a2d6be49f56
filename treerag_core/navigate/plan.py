"""Find the sections that answer a question by reading the outline, not the document.

One plan for every question (:func:`plan_navigation`): a generator that yields the search
model's prompts and receives its replies, so the blocking and awaited drivers
(:func:`navigate`, :func:`anavigate`) share it line for line. It picks the navigator —
the search model's (:mod:`.model`) or, with no model or in ``offline`` mode, the offline
ranking's (:mod:`.offline`) — and hands it the question's :class:`~.base.Search`.

A follow-up question brings its :class:`~.history.Conversation`: every search prompt shows
the recent turns (``{history}``), and the offline ranking searches the question as it was
resolved, reading the previous answer's sections again when the topic carries over (see
:mod:`.followup`).
"""

from __future__ import annotations

from typing import Any

from ..errors import LLMError
from ..llm.call import LLMReply, ainvoke, invoke
from ..llm.prompts import format_extra_context
from ..store.base import Cache
from ..text.language import document_languages
from ..text.messages import Phrase
from ..tree.outline import build_tree_outline
from ..types import Document, FlatNode
from .base import (
    NavigationConfig,
    NavigationResult,
    Navigator,
    Plan,
    Search,
    SearchPrompts,
    SearchRequest,
)
from .history import Conversation
from .line_items import remembered_labels
from .model import ModelNavigator
from .offline import OfflineNavigator, offline_pick
from .ranking import RankingMemory


def plan_navigation(
    query: str,
    document: Document,
    has_model: bool,
    config: NavigationConfig | None = None,
    prompts: SearchPrompts | None = None,
    extra_context: str = "",
    conversation: Conversation | None = None,
    memory: RankingMemory | None = None,
) -> Plan:
    """The navigation as a generator: yields prompts, receives replies, returns the result."""
    config = config or NavigationConfig()
    conversation = conversation or Conversation(query)
    flat: dict[str, FlatNode] = document.get("flat_nodes") or {}
    if not flat:
        return NavigationResult(
            [], "empty", [{"step": 1, "mode": "empty", "note": Phrase("nav.no_sections")}]
        )
    doc_id = str(document.get("doc_id") or "")
    searched, carried = conversation.searched_as, conversation.carried_sections(doc_id)
    language = document_languages(document)
    # Without a caller's memory, one for this question: the language check and the ranking
    # read the same statistics, which would otherwise be built twice.
    memory = memory if memory is not None else RankingMemory()

    labels = remembered_labels(document, language, memory)

    def offline(k: int, pool: list[str] | None = None) -> tuple[list[str], str]:
        return offline_pick(searched, flat, k, pool, carried, memory, language, labels)

    navigator: Navigator = OfflineNavigator()
    outline = ""
    if has_model and config.search_mode != "offline":
        navigator, outline = (
            ModelNavigator(),
            document.get("tree_outline") or build_tree_outline(flat),
        )
    search = Search(
        query, searched, flat, config, prompts or SearchPrompts(),
        format_extra_context(extra_context), conversation.block(doc_id), offline, carried,
        memory, language, outline,
    )  # fmt: skip
    return (yield from navigator.plan(search))


def navigate(
    query: str,
    document: Document,
    search_llm: Any,
    config: NavigationConfig | None = None,
    prompts: SearchPrompts | None = None,
    extra_context: str = "",
    cache: Cache | None = None,
    conversation: Conversation | None = None,
    memory: RankingMemory | None = None,
) -> NavigationResult:
    """Blocking navigation; ``search_llm=None`` uses the offline ranking."""
    plan = _Steps(plan_navigation(
        query, document, search_llm is not None, config, prompts, extra_context, conversation,
        memory,
    ))  # fmt: skip
    while plan.request is not None:
        plan.send(_search(search_llm, plan.request, cache))
    return plan.result


async def anavigate(
    query: str,
    document: Document,
    search_llm: Any,
    config: NavigationConfig | None = None,
    prompts: SearchPrompts | None = None,
    extra_context: str = "",
    cache: Cache | None = None,
    conversation: Conversation | None = None,
    memory: RankingMemory | None = None,
) -> NavigationResult:
    """The async twin of :func:`navigate`."""
    plan = _Steps(plan_navigation(
        query, document, search_llm is not None, config, prompts, extra_context, conversation,
        memory,
    ))  # fmt: skip
    while plan.request is not None:
        plan.send(await _asearch(search_llm, plan.request, cache))
    return plan.result


class _Steps:
    """A plan run one reply at a time, to its result: the stepping both drivers share, so
    each driver only makes the calls (blocking or awaited)."""

    def __init__(self, plan: Plan) -> None:
        self._plan = plan
        self.request: SearchRequest | None = None
        self.result = NavigationResult([], "empty")  # the plan's own, once it returns
        self.send(None)

    def send(self, reply: LLMReply | LLMError | None) -> None:
        """Give the plan its reply (``None`` starts it): it asks again, or it is done."""
        try:
            self.request = self._plan.send(reply)  # type: ignore[arg-type]
        except StopIteration as stop:
            self.request, self.result = None, stop.value


def _search(search_llm: Any, request: SearchRequest, cache: Cache | None) -> LLMReply | LLMError:
    """One blocking search call; a failure is the reply the plan falls back on."""
    try:
        return invoke(search_llm, request.system, request.user, schema=request.schema,
                      **_search_options(cache))  # fmt: skip
    except LLMError as exc:
        return exc


async def _asearch(
    search_llm: Any, request: SearchRequest, cache: Cache | None
) -> LLMReply | LLMError:
    """The awaited twin of :func:`_search`."""
    try:
        return await ainvoke(search_llm, request.system, request.user, schema=request.schema,
                             **_search_options(cache))  # fmt: skip
    except LLMError as exc:
        return exc


def _search_options(cache: Cache | None) -> dict[str, Any]:
    """Both drivers' call options: a search call, cached only when it names something."""
    return {"what": "search", "cache": cache, "cacheable": _useful}


def _useful(text: str) -> bool:
    """Cache only replies that name something: a garbage reply must be retried next time."""
    return any(ch.isdigit() for ch in text)
