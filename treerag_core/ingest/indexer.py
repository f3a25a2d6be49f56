"""``index_document``: read → sections → tree → summaries → outline → registry.

An unchanged source costs one read and no model call; a changed one re-summarises only
the sections whose text changed (by fingerprint) and only if the same summarizer wrote the
stored summary.

With a ``principal``, only editors of the target collection may index into it, and
re-indexing a stored document (same source) needs editing rights in its collection too.
Every stored indexing is logged in the audit log (``index``, ``reindex``; refused and
failed attempts too).
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from ..access.audit import Audit, audited
from ..access.collections import check_collection_name
from ..access.principal import Principal
from ..access.rules import EDITOR_ROLE, require_collection, require_document
from ..errors import DocumentTooLargeError, EmptyDocumentError
from ..limits import Limits
from ..store import open_store
from ..store.base import (
    DEFAULT_COLLECTION,
    DEFAULT_REGISTRY,
    DocumentStore,
    RegistryLike,
    collection_of,
)
from ..store.sources import safe_file_name
from ..types import Document, FlatNode, ProgressFn, SummarizerFn
from .formats import check_upload
from .outline import build_tree_outline
from .pages import ReadOptions
from .sections import parse_sections
from .source import SourceText, read_bytes, read_source
from .summarize import null_summarizer
from .tree import build_hierarchy, flatten_tree, tree_skeleton

log = logging.getLogger("treerag.ingest")


def index_document(
    file_path: str,
    summarizer: SummarizerFn = null_summarizer,
    registry_path: RegistryLike = DEFAULT_REGISTRY,
    overwrite: bool = False,
    persist: bool = True,
    verbose: bool = True,
    progress: ProgressFn | None = None,
    limits: Limits | None = None,
    collection: str | None = None,
    principal: Principal | None = None,
) -> Document:
    """Index a file or URL and (by default) store it in the registry.

    ``overwrite=False`` returns the stored document when the same source is unchanged;
    a changed source, or ``overwrite=True``, is re-indexed in place (same ``doc_id``).
    ``progress(done, total, message)`` reports each stage and each summary for the UI.
    ``collection``: where it goes (default: where the stored version is, else ``default``).
    """
    limits = limits or Limits.from_env()
    store = open_store(registry_path) if persist else None
    run = _Run(summarizer, store, overwrite, progress, verbose, limits, collection, principal)
    return run.audited(
        str(file_path), lambda: run.index(read_source(file_path, limits, options=run.options()))
    )


def index_upload(
    name: str,
    data: bytes,
    summarizer: SummarizerFn = null_summarizer,
    registry_path: RegistryLike = DEFAULT_REGISTRY,
    overwrite: bool = False,
    separate: bool = False,
    progress: ProgressFn | None = None,
    limits: Limits | None = None,
    collection: str | None = None,
    principal: Principal | None = None,
    location: str | None = None,
) -> Document:
    """Keep an uploaded file in the store's sources and index it.

    The source is what the tree browser shows and evidence is drawn from, so it is kept;
    a failed index puts back the file that was there before (the registry keeps the old
    index too). ``separate=True`` keeps a same-named upload as its own document. Uploads
    to different collections are kept apart (see :mod:`treerag_core.store.sources`).
    ``location``: re-index a source the store already keeps there (the Registry page's
    Re-index of an upload, whose bytes may live in a database rather than on this disk).
    """
    limits = limits or Limits.from_env()
    store = open_store(registry_path)
    run = _Run(summarizer, store, overwrite, progress, False, limits, collection, principal)

    def work() -> Document:
        check_upload(name, len(data), limits)
        folder = check_collection_name(collection) if collection else DEFAULT_COLLECTION
        where = location or store.sources.location_for(name, data, separate, folder)
        run.authorize(store.find_by_source(where))  # before the file is written
        with store.sources.staged(where, data):
            source = read_bytes(
                data, safe_file_name(name), limits, source=where, options=run.options()
            )
            return run.index(source)

    return run.audited(safe_file_name(name), work)


class _Run:
    """One indexing: read source → sections → tree → summaries → outline → store."""

    def __init__(
        self,
        summarizer: SummarizerFn,
        store: DocumentStore | None,
        overwrite: bool,
        progress: ProgressFn | None,
        verbose: bool,
        limits: Limits,
        collection: str | None = None,
        principal: Principal | None = None,
    ) -> None:
        self.collection = collection
        self.principal = principal
        self.log: Audit | None = None
        self.summarizer = summarizer
        self.store = store
        self.overwrite = overwrite
        self.report = progress or (lambda done, total, message: None)
        self.verbose = verbose
        self.limits = limits
        self.started = time.perf_counter()
        self.report(0, 1, "Reading the document")

    def options(self) -> ReadOptions:
        """Progress for long reads (OCR), the registry's OCR cache, and the summarizer's
        model to check the headings found by their look (when it offers one)."""
        cache = self.store.cache("ocr") if self.store is not None else None
        judge = getattr(self.summarizer, "heading_judge", None)
        return ReadOptions(progress=self.report, ocr_cache=cache, heading_judge=judge)

    def say(self, message: str) -> None:
        log.info(message)
        if self.verbose:  # the seed's verbose=True prints, on top of the log
            print(message)

    def audited(self, name: str, work: Callable[[], Document]) -> Document:
        """Run ``work`` (read and index) under the audit log, when anything is stored."""
        if self.store is None:
            return work()
        target = self.collection or None
        with audited(self.store, self.principal, "index", document=name, collection=target) as log:
            self.log = log
            if self.collection is not None:  # refuse a non-editor before reading anything
                require_collection(
                    self.store, self.principal, check_collection_name(self.collection)
                )
            return work()

    def authorize(self, stored: dict[str, Any] | None) -> str:
        """The collection the document goes to, if the principal may put it there."""
        target = check_collection_name(self.collection or collection_of(stored or {}))
        if self.log is not None:
            self.log.note(collection=target)
            if stored is not None:
                self.log.note(action="reindex", doc_id=stored["doc_id"])
        if self.store is not None:
            if stored is not None:
                require_document(self.store, self.principal, stored["doc_id"], EDITOR_ROLE)
            require_collection(self.store, self.principal, target, EDITOR_ROLE)
        return target

    def index(self, source: SourceText) -> Document:
        read_s = time.perf_counter() - self.started
        stored = _stored_version(self.store, source.source)
        collection = self.authorize(stored)
        if self.log is not None:
            self.log.note(document=source.file_name)
        if stored and stored.get("content_hash") == source.content_hash and not self.overwrite:
            self.say(f"{source.file_name}: unchanged, using the stored index ({stored['doc_id']})")
            self.report(1, 1, "Unchanged: loaded from the registry")
            if self.store is not None and collection != collection_of(stored):
                if self.log is not None:
                    self.log.note(action="move", detail=f"from {collection_of(stored)}")
                self.store.set_document_collection(stored["doc_id"], collection)
                return {**stored, "collection": collection}
            if self.log is not None:
                self.log.skip = True  # nothing changed: not an entry in the audit log
            return stored

        self.report(0, 1, "Finding sections")
        flat = self._tree(source)
        parse_s = time.perf_counter() - self.started - read_s

        summarizer = self.summarizer
        signature = str(getattr(summarizer, "signature", getattr(summarizer, "__name__", "custom")))
        reused = _reuse_summaries(flat, stored, signature)
        todo = [node for node in flat.values() if node.get("summary_by") != signature]
        result = summarizer(todo, progress=self.report) if todo else {"summaries": {}, "stats": {}}
        _apply_summaries(flat, result.get("summaries", {}), signature)
        summarize_s = time.perf_counter() - self.started - read_s - parse_s

        document: Document = {
            "doc_id": stored["doc_id"] if stored else str(uuid.uuid4()),
            "file_name": source.file_name,
            "file_path": source.source,
            "source_type": source.source_type,
            "structure_source": source.structure_source,
            **({"structure_check": source.structure_check} if source.structure_check else {}),
            "warnings": source.warnings,
            "ocr_pages": source.ocr_pages,
            "content_hash": source.content_hash,
            "indexed_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
            "total_sections": len(flat),
            "total_pages": source.page_count,
            "source_chars": len(source.text),
            "source_bytes": source.byte_size,
            "engine": signature,
            "collection": collection,
            "tree_outline": build_tree_outline(flat),
            "flat_nodes": flat,
            "tree": tree_skeleton(flat),
            "stats": {
                "read_s": round(read_s, 4),
                "parse_s": round(parse_s, 4),
                "summarize_s": round(summarize_s, 4),
                "sections": len(flat),
                "summaries_reused": reused,
                "summaries_written": len(todo),
                "summaries": result.get("stats", {}),
            },
        }
        if self.store is not None:
            self.report(1, 1, "Saving to the registry")
            document = self.store.save(document)
            if self.log is not None:
                self.log.note(doc_id=document["doc_id"])
        document["stats"]["total_s"] = round(time.perf_counter() - self.started, 4)
        self.say(
            f"{source.file_name}: {len(flat)} sections indexed in "
            f"{document['stats']['total_s']:.2f} s"
            + (f", {reused} summaries reused" if reused else "")
        )
        self.report(1, 1, "Done")
        return document

    def _tree(self, source: SourceText) -> dict[str, FlatNode]:
        limits = self.limits
        sections = parse_sections(source.text, max_section_chars=limits.max_section_chars)
        if not sections or not any(s["text"].strip() or s["title"].strip() for s in sections):
            raise EmptyDocumentError(f"{source.file_name} holds no text to index.")
        if len(sections) > limits.max_sections:
            raise DocumentTooLargeError(
                f"{source.file_name} has {len(sections):,} sections, over the limit of "
                f"{limits.max_sections:,}. Split the document or raise TREERAG_MAX_SECTIONS."
            )
        return flatten_tree(build_hierarchy(sections))


def _stored_version(registry: DocumentStore | None, source: str) -> Document | None:
    if registry is None:
        return None
    row = registry.find_by_source(source)
    return registry.get(row["doc_id"]) if row else None


def _reuse_summaries(flat: dict[str, FlatNode], stored: Document | None, signature: str) -> int:
    """Copy summaries of unchanged sections written by the same summarizer."""
    if not stored:
        return 0
    previous: dict[str, FlatNode] = {}
    for node in stored.get("flat_nodes", {}).values():
        if node.get("summary_by") == signature:
            previous.setdefault(node.get("fingerprint", ""), node)
    reused = 0
    for node in flat.values():
        old = previous.get(node["fingerprint"])
        if old is not None:
            node["summary"] = old.get("summary", "")
            node["tags"] = list(old.get("tags", []))
            node["summary_by"] = signature
            reused += 1
    return reused


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
