"""Build an indexed document from a read source: sections → tree → summaries → outline.

Reading and building only: where the document is kept, who may index it and the audit
log are the library layer's (:mod:`treerag_core.library.indexing`), which hands in the
stored version of the same source, if any. A changed source re-summarises only the
sections whose text changed (by fingerprint) and only if the same summarizer wrote the
stored summary.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..errors import DocumentTooLargeError, EmptyDocumentError
from ..limits import Limits
from ..read.source import SourceText
from ..text.language import detect_language, sample_of, section_languages
from ..text.messages import raised
from ..text.table_data import document_tables
from ..tree.nodes import build_hierarchy, flatten_tree, tree_skeleton
from ..tree.outline import build_tree_outline
from ..tree.sections import parse_sections
from ..types import Document, FlatNode, ProgressFn, SummarizerFn, SummaryResult

SIZE_PIECES = "pieces cut for size"


def no_progress(done: int, total: int, message: str) -> None:
    """The progress report of a caller that shows none."""


@dataclass
class Build:
    """One document being built: what it is built with, and when it started (the stats
    count from the first read)."""

    summarizer: SummarizerFn
    limits: Limits
    report: ProgressFn = no_progress
    started: float = field(default_factory=time.perf_counter)

    def document(
        self, source: SourceText, collection: str, previous: Document | None = None
    ) -> Document:
        """The whole document for ``source``, keeping ``previous``'s id and the summaries
        of its unchanged sections."""
        read_s = time.perf_counter() - self.started
        self.report(0, 1, "Finding sections")
        flat = section_tree(source, self.limits)
        parse_s = time.perf_counter() - self.started - read_s
        signature = summarizer_signature(self.summarizer)
        reused = _reuse_summaries(flat, previous, signature)
        todo = [node for node in flat.values() if node.get("summary_by") != signature]
        result: SummaryResult | dict[str, Any] = (
            self.summarizer(todo, progress=self.report) if todo else {}
        )
        _apply_summaries(flat, result.get("summaries", {}), signature)
        summarize_s = time.perf_counter() - self.started - read_s - parse_s
        document = _document(source, flat, previous, collection, signature)
        document["language"] = detect_language(sample_of(flat.values()))
        document["tables"] = document_tables(flat)
        document["section_languages"] = section_languages(flat, document["language"])
        document["summary_fallbacks"] = sum(
            1 for node in flat.values() if str(node.get("summary_by") or "").endswith("#fallback")
        )
        document["stats"] = {
            "read_s": round(read_s, 4),
            "parse_s": round(parse_s, 4),
            "summarize_s": round(summarize_s, 4),
            "sections": len(flat),
            "summaries_reused": reused,
            "summaries_written": len(todo),
            "summaries": result.get("stats", {}),
            "total_s": round(time.perf_counter() - self.started, 4),
        }
        return document


def summarizer_signature(summarizer: SummarizerFn) -> str:
    """Who wrote a summary: a stored one is reused only under the same signature."""
    return str(getattr(summarizer, "signature", getattr(summarizer, "__name__", "custom")))


def section_tree(source: SourceText, limits: Limits) -> dict[str, FlatNode]:
    """The flat tree of a source's sections, within the section limits."""
    sections = parse_sections(source.text, limits.max_section_chars, source.page_unit)
    if not sections or not any(s["text"].strip() or s["title"].strip() for s in sections):
        raise raised(EmptyDocumentError, "error.no_sections", name=source.file_name)
    if len(sections) > limits.max_sections:
        raise raised(
            DocumentTooLargeError,
            "error.sections_too_many",
            name=source.file_name,
            count=f"{len(sections):,}",
            limit=f"{limits.max_sections:,}",
        )
    return flatten_tree(build_hierarchy(sections))


def _document(
    source: SourceText,
    flat: dict[str, FlatNode],
    previous: Document | None,
    collection: str,
    signature: str,
) -> Document:
    return {
        "doc_id": previous["doc_id"] if previous else str(uuid.uuid4()),
        "file_name": source.file_name,
        "file_path": source.source,
        "source_type": source.source_type,
        "structure_source": source.structure_source,
        **_structure_parts(source, flat),  # type: ignore[typeddict-item]  # its keys are Document's
        **({"structure_check": source.structure_check} if source.structure_check else {}),
        **({"metadata": source.metadata} if source.metadata else {}),
        "warnings": source.warnings,
        "ocr_pages": source.ocr_pages,
        **({"ocr_language": source.ocr_language} if source.ocr_language else {}),
        "content_hash": source.content_hash,
        "indexed_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "total_sections": len(flat),
        "total_pages": source.page_count,
        "source_chars": len(source.text),
        "source_bytes": source.byte_size,
        "engine": signature,
        "collection": collection,
        "page_unit": source.page_unit,
        "tree_outline": build_tree_outline(flat, unit=source.page_unit),
        "flat_nodes": flat,
        "tree": tree_skeleton(flat),
    }


def _structure_parts(source: SourceText, flat: dict[str, FlatNode]) -> dict[str, Any]:
    """Which parts of the tree came from where: headings per source, and the pieces a long
    section with no heading to cut at was cut into."""
    parts = dict(source.structure_parts)
    pieces = sum(1 for node in flat.values() if node.get("generated"))
    if pieces:
        parts[SIZE_PIECES] = pieces
    return {"structure_parts": parts} if parts else {}


def _reuse_summaries(flat: dict[str, FlatNode], stored: Document | None, signature: str) -> int:
    """Copy summaries of unchanged sections written by the same summarizer. A section is
    unchanged when its title and text are (its fingerprint) and, when it has no text of its
    own, so are its parts' titles: such a section is summarised by the parts it holds
    ("Covers General; Products; …"), which a re-read may find otherwise (Nike 2023's Item 1
    kept an empty summary from a tree whose Item 1 had no parts)."""
    if not stored:
        return 0
    old_flat = stored.get("flat_nodes", {})
    previous: dict[tuple[str, tuple[str, ...]], FlatNode] = {}
    for node in old_flat.values():
        if node.get("summary_by") == signature:
            previous.setdefault(_summary_key(node, old_flat), node)
    reused = 0
    for node in flat.values():
        old = previous.get(_summary_key(node, flat))
        if old is not None:
            node["summary"] = old.get("summary", "")
            node["tags"] = list(old.get("tags", []))
            node["summary_by"] = signature
            reused += 1
    return reused


def _summary_key(node: FlatNode, flat: Mapping[str, FlatNode]) -> tuple[str, tuple[str, ...]]:
    """The fingerprint, and for a section with no text of its own its parts' titles."""
    if str(node.get("text") or "").strip():
        return str(node.get("fingerprint", "")), ()
    kids = tuple(str(flat[c].get("title") or "") for c in node.get("children") or [] if c in flat)
    return str(node.get("fingerprint", "")), kids


def _apply_summaries(
    flat: dict[str, FlatNode], summaries: dict[str, dict[str, Any]], signature: str
) -> None:
    """Merge summarizer output; a fallback summary is marked so a later run retries it."""
    for node_id, entry in summaries.items():
        node = flat.get(node_id)
        if node is None:
            continue
        node["summary"] = str(entry.get("summary") or "")
        node["tags"] = [str(tag) for tag in entry.get("tags") or []]
        node["summary_by"] = signature if not entry.get("fallback") else f"{signature}#fallback"
