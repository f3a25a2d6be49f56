"""Summarizers: give each section a short summary and entity tags for the outline.

A summarizer is a callable ``(nodes, progress=None) -> SummaryResult`` with a ``signature``
attribute; the indexer reuses a stored summary only when the section's fingerprint *and*
the summarizer's signature are unchanged.
"""

from __future__ import annotations

from .types import FlatNode, ProgressFn, SummaryResult


def null_summarizer(nodes: list[FlatNode], progress: ProgressFn | None = None) -> SummaryResult:
    """No summaries, no cost: the outline shows titles and pages only."""
    if progress:
        progress(len(nodes), len(nodes), "No summarizer: titles only")
    return SummaryResult(summaries={}, stats={"engine": "none", "calls": 0})


null_summarizer.signature = "null"  # type: ignore[attr-defined]
