"""The retriever: everything a question needs besides the document.

Models, prompts, budgets and the cache travel together in one frozen object, so ``ask`` and
its async, multi-document and streaming twins take the same thing; its defaults are
defined here once and :func:`make_retriever` only overrides what it is given.

Its blocking and async navigation are two thin drivers: the arguments both pass to
:mod:`.navigate` (whose one plan they run) are assembled once, in ``_navigation``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..llm.budgets import SEARCH_MODE_KEY
from ..llm.call import DEFAULT_STREAM_MAX_CHARS, DEFAULT_STREAM_MAX_SECONDS
from ..llm.prompts import (
    ANSWER_SYSTEM_PROMPT,
    ANSWER_USER_PROMPT,
    SEARCH_SYSTEM_PROMPT,
    SEARCH_USER_PROMPT,
)
from ..navigate.base import ANSWER_CONTEXT_CHARS, NavigationConfig, NavigationResult, SearchPrompts
from ..navigate.history import HISTORY_TOKENS, Conversation
from ..navigate.plan import anavigate, navigate
from ..navigate.ranking import RankingMemory
from ..store.base import Cache, SourceFiles
from ..types import Document


@dataclass(frozen=True, eq=False)
class Retriever:
    """Calling it returns the references navigation picks, without answering."""

    llm: Any = None  # the answer model; None = the offline engine's extractive answer
    search_llm: Any = None  # the outline-reading model; None = the offline ranking
    answer_system_prompt: str = ANSWER_SYSTEM_PROMPT
    answer_user_prompt_template: str = ANSWER_USER_PROMPT
    search_prompts: SearchPrompts = field(default_factory=SearchPrompts)
    navigation: NavigationConfig = field(default_factory=NavigationConfig)
    max_context_chars: int = ANSWER_CONTEXT_CHARS
    cache: Cache | None = None
    answer_max_chars: int = DEFAULT_STREAM_MAX_CHARS
    answer_max_seconds: float = DEFAULT_STREAM_MAX_SECONDS
    # Where cited PDFs are read to locate their passages (a store's sources); None reads a
    # document's file_path when it is a local file.
    sources: SourceFiles | None = None
    # The store's OCR cache: a scanned page's evidence is located among the words OCR read
    # (kept there with their boxes when it was indexed); None leaves scans unhighlighted.
    ocr_cache: Cache | None = None
    # The earlier turns of a conversation each model call may see (tokens, chars / 4).
    history_tokens: int = HISTORY_TOKENS
    # The offline ranking's passage statistics, kept between questions by a caller that
    # asks many (the app holds one per process); None tokenises each document per question.
    ranking_memory: RankingMemory | None = None

    def __call__(
        self, query: str, document: Document, extra_context: str = ""
    ) -> list[dict[str, Any]]:
        from ..tree.labels import repeated_titles
        from .context import reference

        nav = self.navigate(query, document, extra_context)
        repeated = repeated_titles(document.get("flat_nodes") or {}) if nav.node_ids else None
        return [reference(document, nid, repeated) for nid in nav.node_ids]

    def navigate(
        self, query: str, document: Document, extra_context: str = "",
        conversation: Conversation | None = None,
    ) -> NavigationResult:  # fmt: skip
        """Blocking navigation of ``document`` with this retriever's model and settings."""
        return navigate(**self._navigation(query, document, extra_context, conversation))

    async def anavigate(
        self, query: str, document: Document, extra_context: str = "",
        conversation: Conversation | None = None,
    ) -> NavigationResult:  # fmt: skip
        """The async twin of :meth:`navigate`."""
        return await anavigate(**self._navigation(query, document, extra_context, conversation))

    def _navigation(
        self,
        query: str,
        document: Document,
        extra_context: str,
        conversation: Conversation | None,
    ) -> dict[str, Any]:
        """What both twins pass on: the question, and this retriever's part in navigating."""
        return {
            "query": query,
            "document": document,
            "search_llm": self.search_llm,
            "config": self.navigation,
            "prompts": self.search_prompts,
            "extra_context": extra_context,
            "cache": self.cache,
            "conversation": conversation,
            "memory": self.ranking_memory,
        }

    def read_source(self, document: Document) -> bytes | None:
        """The document's source bytes, or None when it is not available."""
        location = str(document.get("file_path") or "")
        if self.sources is not None:
            return self.sources.read(location)
        try:
            with open(location, "rb") as fh:
                return fh.read()
        except OSError:
            return None


def make_retriever(
    llm: Any = None,
    search_llm: Any = None,
    search_system_prompt: str = SEARCH_SYSTEM_PROMPT,
    search_user_prompt_template: str = SEARCH_USER_PROMPT,
    answer_system_prompt: str = ANSWER_SYSTEM_PROMPT,
    **options: Any,
) -> Retriever:
    """A retriever for :func:`ask`; ``search_llm`` defaults to ``llm``; ``None`` = offline.

    ``options`` are any other :class:`Retriever` fields (``navigation``, ``cache``,
    ``max_context_chars``, ``answer_user_prompt_template``, …).
    """
    prompts = SearchPrompts(system=search_system_prompt, user=search_user_prompt_template)
    search_llm = search_llm if search_llm is not None else llm
    base = Retriever(
        llm=llm,
        search_llm=search_llm,
        answer_system_prompt=answer_system_prompt,
        search_prompts=prompts,
    )
    mode = (getattr(search_llm, "metadata", None) or {}).get(SEARCH_MODE_KEY)
    if mode and "navigation" not in options:  # the setting the search model was made with
        options["navigation"] = NavigationConfig(search_mode=mode)
    return replace(base, **options)


def make_async_retriever(llm: Any = None, search_llm: Any = None, **kwargs: Any) -> Retriever:
    """The seed's name for the same retriever: :func:`aask` awaits ``ainvoke``/``astream``
    with any retriever, so there is nothing async-specific to build."""
    return make_retriever(llm, search_llm, **kwargs)
