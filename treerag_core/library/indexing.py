"""``index_document`` and ``index_upload``: read → build → store, under the access rules.

The ingest layer reads and builds (:mod:`treerag_core.library.build`); here is what
surrounds it once: who may index into which collection, the stored version of the same
source (whose id and unchanged summaries the new one keeps), saving, and the audit log.
An unchanged source costs one read and no model call.

With a ``principal``, only editors of the target collection may index into it, and
re-indexing a stored document (same source) needs editing rights in its collection too.
Every stored indexing is logged (``index``, ``reindex``; refused and failed attempts too).
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Mapping
from typing import Any

from ..access.audit import Audit, audited
from ..access.collections import check_collection_name
from ..access.principal import Principal
from ..access.rules import EDITOR_ROLE, require_collection, require_document
from ..errors import DocumentNotFoundError
from ..limits import Limits
from ..read.formats import check_upload
from ..read.source import SourceText, is_url, read_bytes, read_source
from ..settings import load
from ..store import open_store
from ..store.base import (
    DEFAULT_COLLECTION,
    DocumentStore,
    RegistryLike,
    collection_of,
)
from ..store.originals import safe_file_name
from ..structure.pages import ReadOptions
from ..summarize.summarizers import null_summarizer
from ..types import Document, Origin, ProgressFn, SummarizerFn
from .build import Build, no_progress
from .catalog import index_entry
from .documents import load_document

log = logging.getLogger("treerag.ingest")


def index_document(
    file_path: str,
    summarizer: SummarizerFn = null_summarizer,
    registry_path: RegistryLike | None = None,
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
    limits = limits or load().limits()
    store = open_store(registry_path) if persist else None
    job = _Indexing(summarizer, store, overwrite, progress, verbose, limits, collection, principal)

    def work() -> Document:
        where = None if is_url(file_path) else os.path.abspath(file_path)  # as read_source
        return job.store_built(read_source(file_path, limits, options=job.read_options(where)))

    return job.run(str(file_path), work)


def index_upload(
    name: str,
    data: bytes,
    summarizer: SummarizerFn = null_summarizer,
    registry_path: RegistryLike | None = None,
    overwrite: bool = False,
    separate: bool = False,
    progress: ProgressFn | None = None,
    limits: Limits | None = None,
    collection: str | None = None,
    principal: Principal | None = None,
    location: str | None = None,
    origin: Origin | None = None,
) -> Document:
    """Keep an uploaded file in the store's sources and index it.

    The source is what the tree browser shows and evidence is drawn from, so it is kept;
    a failed index puts back the file that was there before (the registry keeps the old
    index too). ``separate=True`` keeps a same-named upload as its own document. Uploads
    to different collections are kept apart (see :mod:`treerag_core.store.originals`).
    ``location``: re-index a source the store already keeps there (the Registry page's
    Re-index of an upload, whose bytes may live in a database rather than on this disk).
    ``origin``: the synced source and file it came from (``library/syncing.py``), recorded
    on the document with the same save (an unchanged file gets its new origin too).
    """
    limits = limits or load().limits()
    store = open_store(registry_path)
    job = _Indexing(summarizer, store, overwrite, progress, False, limits, collection, principal)
    job.origin = origin

    def work() -> Document:
        check_upload(name, len(data), limits)
        folder = check_collection_name(collection) if collection else DEFAULT_COLLECTION
        where = location or store.sources.location_for(name, data, separate, folder)
        job.authorize(store.find_by_source(where))  # before the file is written
        with store.sources.staged(where, data):
            options = job.read_options(where)
            source = read_bytes(data, safe_file_name(name), limits, source=where, options=options)
            return job.store_built(source)

    return job.run(safe_file_name(name), work)


class _Indexing:
    """One indexing: the rules and the audit entry around a build, and the save after it.
    Without a store (``persist=False``) nothing is checked or logged: the entry it fills
    in is never written."""

    def __init__(
        self,
        summarizer: SummarizerFn,
        store: DocumentStore | None,
        overwrite: bool,
        progress: ProgressFn | None,
        verbose: bool,
        limits: Limits,
        collection: str | None,
        principal: Principal | None,
    ) -> None:
        self.store, self.principal, self.collection = store, principal, collection
        self.overwrite, self.verbose = overwrite, verbose
        self.origin: Origin | None = None
        self.build = Build(summarizer, limits, progress or no_progress)
        self.audit = Audit({"action": "index"})
        self.build.report(0, 1, "Reading the document")

    def read_options(self, where: str | None = None) -> ReadOptions:
        """Progress for long reads (OCR), the registry's OCR cache, the summarizer's model
        to check the headings found by their look (when it offers one), and the language an
        editor set on the document stored from ``where`` (a scan is read in it)."""
        cache = self.store.cache("ocr") if self.store is not None else None
        judge = getattr(self.build.summarizer, "heading_judge", None)
        return ReadOptions(
            progress=self.build.report,
            ocr_cache=cache,
            heading_judge=judge,
            edited_language=functools.partial(self._edited_language, where),
        )

    def _edited_language(self, where: str | None) -> str:
        """The language on the card of the document stored from ``where``, as an editor
        corrected it ("" none): asked only when a scan's own text does not tell."""
        row = self.store.find_by_source(where) if self.store is not None and where else None
        try:
            stored = self.store.get(row["doc_id"]) if self.store is not None and row else None
        except DocumentNotFoundError:  # deleted meanwhile: nothing was set
            stored = None
        language = ((stored or {}).get("card_edits") or {}).get("language")
        return language if isinstance(language, str) else ""

    def run(self, name: str, work: Callable[[], Document]) -> Document:
        """Run ``work`` (read, build, save) under the audit log, when anything is stored."""
        if self.store is None:
            return work()
        target = self.collection or None
        with audited(self.store, self.principal, "index", document=name, collection=target) as a:
            self.audit = a
            if self.collection is not None:  # refuse a non-editor before reading anything
                name = check_collection_name(self.collection)
                require_collection(self.store, self.principal, name)
            return work()

    def authorize(self, stored: Mapping[str, Any] | None) -> str:
        """The collection the document goes to, if the principal may put it there."""
        target = check_collection_name(self.collection or collection_of(stored or {}))
        self.audit.note(collection=target)
        if stored is not None:
            self.audit.note(action="reindex", doc_id=stored["doc_id"])
        if self.store is not None:
            if stored is not None:
                require_document(self.store, self.principal, stored["doc_id"], EDITOR_ROLE)
            require_collection(self.store, self.principal, target, EDITOR_ROLE)
        return target

    def store_built(self, source: SourceText) -> Document:
        """The stored document for ``source``: the stored version when it is unchanged, else
        a new build kept under the same id."""
        row = self.store.find_by_source(source.source) if self.store is not None else None
        stored = load_document(self.store, row["doc_id"]) if self.store and row else None
        collection = self.authorize(stored)
        self.audit.note(document=source.file_name)
        if stored and stored.get("content_hash") == source.content_hash and not self.overwrite:
            return self._unchanged(stored, collection, source.file_name)
        document = self.build.document(source, collection, stored)
        if (
            stored
            and stored.get("card_edits")
            and stored.get("content_hash") == source.content_hash
        ):
            document["card_edits"] = stored["card_edits"]  # the same file: corrections hold
        origin = self.origin or (stored or {}).get("origin")
        if origin:
            document["origin"] = origin
        if self.store is not None:
            self.build.report(1, 1, "Saving to the registry")
            document = self.store.save(document)
            self.audit.note(doc_id=document["doc_id"])
            index_entry(self.store, document)
        stats = document["stats"]
        reused = stats["summaries_reused"]
        self._say(
            f"{source.file_name}: {stats['sections']} sections indexed in {stats['total_s']:.2f} s"
            + (f", {reused} summaries reused" if reused else "")
        )
        self.build.report(1, 1, "Done")
        return document

    def _unchanged(self, stored: Document, collection: str, name: str) -> Document:
        """The stored version, moved when the indexing names another collection."""
        self._say(f"{name}: unchanged, using the stored index ({stored['doc_id']})")
        self.build.report(1, 1, "Unchanged: loaded from the registry")
        if self.store is not None and self.origin and stored.get("origin") != self.origin:
            stored = self.store.save({**stored, "origin": self.origin})  # e.g. a new mtime
        if self.store is not None and collection != collection_of(stored):
            self.audit.note(action="move", detail=f"from {collection_of(stored)}")
            self.store.set_document_collection(stored["doc_id"], collection)
            return {**stored, "collection": collection}
        self.audit.skip = True  # nothing changed: not an entry in the audit log
        return stored

    def _say(self, message: str) -> None:
        log.info(message)
        if self.verbose:  # the seed's verbose=True prints, on top of the log
            print(message)
