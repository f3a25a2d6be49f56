"""The offline summarizer: what each section holds and its key phrases, with no model.

Deterministic and instant: the summary is ``digest.section_summary`` (the sentences that
state the section's subject, a table's caption, periods and rows, or the sub-sections it
holds), the tags are ``phrases.key_phrases`` over the whole document (phrases specific to
the section within it).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..text import ENGINE_NAME
from ..text.language import detect_language, sample_of
from ..types import FlatNode, ProgressFn, SummaryResult
from .digest import section_summary
from .phrases import key_phrases, section_tags, texts_of


def offline_summaries(nodes: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """``{node_id: {"summary", "tags"}}`` for a document's sections, read together (a
    section's tags are weighed against its siblings', a container names its children)."""
    by_id = {str(node["node_id"]): node for node in nodes}
    # the document's language (its stopwords end a phrase), told as indexing tells it
    tags = key_phrases(texts_of(nodes), language=detect_language(sample_of(nodes)))
    out = {}
    for nid, node in by_id.items():
        # a container names its sub-sections by their titles (their numbers say nothing)
        children = [str(by_id[c].get("title") or "") for c in node.get("children") or []
                    if c in by_id]  # fmt: skip
        out[nid] = {"summary": section_summary(node, children), "tags": tags.get(nid, [])}
    return out


def offline_summary(node: Mapping[str, Any]) -> dict[str, Any]:
    """``{"summary", "tags"}`` for one section alone (no document around it)."""
    return {"summary": section_summary(node), "tags": section_tags(str(node.get("text") or ""))}


class OfflineSummarizer:
    """What each section holds and its key phrases: deterministic, instant, no model."""

    # Another version whenever the summaries it writes change, so that a re-index does not
    # keep the last version's (v3: a sentence about the report's own words is no summary).
    signature = f"{ENGINE_NAME}-v3"

    def __call__(self, nodes: list[FlatNode], progress: ProgressFn | None = None) -> SummaryResult:
        started = time.perf_counter()
        summaries = offline_summaries(nodes)
        if progress:
            progress(len(nodes), len(nodes), "Offline summaries written")
        stats = {"engine": ENGINE_NAME, "calls": 0, "sections": len(nodes)}
        stats["seconds"] = round(time.perf_counter() - started, 4)
        return SummaryResult(summaries=summaries, stats=stats)


offline_summarizer = OfflineSummarizer()
