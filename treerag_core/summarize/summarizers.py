"""Which summarizer indexes a document: :func:`make_summarizer` picks the model's or the
offline one.

The summarizers live side by side like the navigators: ``base`` (the :class:`Summarizer`
interface, :class:`SummaryBudget`, the null summarizer), ``offline`` and ``model``. Their
names stay importable from here, where older code found them.
"""

from __future__ import annotations

from typing import Any

from ..store.base import Cache
from .base import (
    NullSummarizer,
    Summarizer,
    SummaryBudget,
    cut_point,
    null_summarizer,
    truncate,
)
from .model import DEFAULT_SYSTEM_PROMPT, DEFAULT_USER_PROMPT, LLMSummarizer, restates_title
from .offline import OfflineSummarizer, offline_summarizer, offline_summary

__all__ = [
    "cut_point",
    "DEFAULT_SYSTEM_PROMPT",
    "DEFAULT_USER_PROMPT",
    "LLMSummarizer",
    "make_summarizer",
    "null_summarizer",
    "NullSummarizer",
    "offline_summarizer",
    "offline_summary",
    "OfflineSummarizer",
    "restates_title",
    "Summarizer",
    "SummaryBudget",
    "truncate",
]


def make_summarizer(
    llm: Any = None,
    system_prompt: str = DEFAULT_SYSTEM_PROMPT,
    user_prompt_template: str = DEFAULT_USER_PROMPT,
    max_workers: int = 10,
    budget: SummaryBudget | None = None,
    cache: Cache | None = None,
    check_headings: bool = True,
) -> LLMSummarizer | OfflineSummarizer:
    """A summarizer for ``index_document``; ``llm=None`` gives the offline engine.

    ``user_prompt_template`` may use ``{title}``, ``{path}``, ``{section}`` (the quoted
    text) and ``{text}`` (the raw, truncated text). ``max_workers`` below 1 is treated as 1.
    ``check_headings``: the model also checks, in one call per document, the headings found only
    by their look (``structure.confirm``); the deterministic headings stand if it fails.
    """
    if llm is None:
        return offline_summarizer
    return LLMSummarizer(
        llm, system_prompt, user_prompt_template, max_workers, budget, cache, check_headings
    )
