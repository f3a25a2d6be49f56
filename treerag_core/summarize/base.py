"""The summarizer interface, its budget, and the summarizer that writes nothing.

A summarizer is a callable ``(nodes, progress=None) -> SummaryResult`` with a ``signature``
attribute; the indexer reuses a stored summary only when the section's fingerprint *and*
the summarizer's signature are unchanged (a plain function works too: its name is its
signature). Two live side by side, like the navigators: ``offline`` (no model) and
``model`` (one call per section); ``summarizers.make_summarizer`` picks one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..types import FlatNode, ProgressFn, SummaryResult


@runtime_checkable
class Summarizer(Protocol):
    """Each section's ``{"summary", "tags"}``, and a signature saying how they were made."""

    signature: str

    def __call__(
        self, nodes: list[FlatNode], progress: ProgressFn | None = None
    ) -> SummaryResult: ...


@dataclass(frozen=True)
class SummaryBudget:
    """Hard limits per document, checked before every call (a summary that restates its
    title is asked again once, within the same limits)."""

    max_calls: int = 2000
    max_input_tokens: int = 2_000_000
    timeout_s: float = 600.0  # whole document
    call_timeout_s: float = 120.0  # one call; set the client's own timeout too
    max_section_chars: int = 12_000  # section text sent per call (~3k tokens)


class NullSummarizer:
    """No summaries, no cost: the outline shows titles and pages only."""

    signature = "null"

    def __call__(self, nodes: list[FlatNode], progress: ProgressFn | None = None) -> SummaryResult:
        if progress:
            progress(len(nodes), len(nodes), "No summarizer: titles only")
        return SummaryResult(summaries={}, stats={"engine": "none", "calls": 0})


null_summarizer = NullSummarizer()


def cut_point(text: str, max_chars: int) -> int:
    """Where to cut ``text`` to at most ``max_chars``: a paragraph break, else a word break,
    in the second half; else exactly at the limit."""
    if len(text) <= max_chars:
        return len(text)
    cut = text.rfind("\n\n", 0, max_chars)
    if cut < max_chars // 2:
        cut = text.rfind(" ", 0, max_chars)
    return cut if cut >= max_chars // 2 else max_chars


def truncate(text: str, max_chars: int) -> str:
    """Cut at a paragraph or word boundary and say so, so a giant section costs a bounded call."""
    cut = cut_point(text, max_chars)
    if cut >= len(text):
        return text
    return text[:cut].rstrip() + f"\n[… {len(text) - cut:,} more characters not shown]"
