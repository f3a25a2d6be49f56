"""The folders and buckets the library follows: add, edit, list and remove them.

Only admins manage sources (with a principal; without one, library use and the CLI on this
machine, nothing is refused), and every change is in the audit log. A source's documents
are ordinary documents of its collection: read and edited under that collection's rules.
Syncing is :mod:`.syncing`.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Any

from ..access.audit import actor, audited
from ..access.collections import check_collection_name
from ..access.principal import Principal
from ..access.rules import require_admin
from ..errors import InvalidSourceError, SourceNotFoundError, SyncBusyError
from ..library.documents import delete_document
from ..settings import load
from ..store import open_store
from ..store.base import (
    DEFAULT_COLLECTION,
    DocumentStore,
    RegistryLike,
    SyncSources,
    WithSyncSources,
)
from ..text.messages import Phrase, raised
from .config import (
    EDITABLE,
    FOLDER,
    credentials_label,
    credentials_ref,
    describe,
    new_source_id,
    source_settings,
)
from .folder import inside
from .patterns import check_patterns
from .s3 import check_endpoint

MANAGING = Phrase("error.what_sources")  # what only admins may do


def sync_store(registry_path: RegistryLike | None) -> tuple[DocumentStore, SyncSources]:
    """The store and its sources; a store of a caller's own without them is refused."""
    store = open_store(registry_path)
    if not isinstance(store, WithSyncSources):
        raise raised(InvalidSourceError, "error.store_no_sources", store=store.location)
    return store, store.sync_sources


def stored_source(sources: SyncSources, source_id: str) -> dict[str, Any]:
    source = sources.get(str(source_id or ""))
    if source is None:
        raise raised(SourceNotFoundError, "error.no_source", id=repr(str(source_id)[:80]))
    return source


def add_source(
    kind: str,
    location: str,
    collection: str = DEFAULT_COLLECTION,
    *,
    include: Any = None,
    exclude: Any = None,
    endpoint: str | None = None,
    region: str | None = None,
    credentials_env: str | None = None,
    credentials_file: str | None = None,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> dict[str, Any]:
    """Follow a folder (``kind="folder"``, its path) or a bucket (``"s3"``,
    ``s3://bucket/prefix`` with ``endpoint``/``region`` for S3-compatible servers); its
    files go to ``collection``. Credentials are named, never given: the environment
    variable holding ``ACCESS_KEY_ID:SECRET``, or an AWS credentials file. Nothing is
    indexed until :func:`~.syncing.sync_source`."""
    store, sources = sync_store(registry_path)
    with audited(store, principal, "source-add", detail=f"{kind} {location}"[:200]) as audit:
        require_admin(principal, MANAGING)
        settings = source_settings(
            kind, location, include=include, exclude=exclude, endpoint=endpoint, region=region,
            credentials_env=credentials_env, credentials_file=credentials_file,
        )  # fmt: skip
        _refuse_registry_inside(store, settings)
        source = {
            "source_id": new_source_id(),
            **settings,
            "collection": check_collection_name(collection or DEFAULT_COLLECTION),
            "created_at": now_stamp(),
            "created_by": actor(principal),
        }
        sources.put(source)
        audit.note(
            collection=source["collection"], detail=f"{source['source_id']} {describe(source)}"
        )
    return shown(source, sources)


def edit_source(
    source_id: str,
    *,
    collection: str | None = None,
    include: Any = None,
    exclude: Any = None,
    endpoint: str | None = None,
    region: str | None = None,
    credentials_env: str | None = None,
    credentials_file: str | None = None,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> dict[str, Any]:
    """Change what is given (None: unchanged; patterns ``[]``: none). A new collection
    moves the documents the source already holds there too."""
    store, sources = sync_store(registry_path)
    with audited(store, principal, "source-edit", detail=str(source_id)[:80]) as audit:
        require_admin(principal, MANAGING)
        source = stored_source(sources, source_id)
        changes: dict[str, Any] = {}
        if collection is not None:
            changes["collection"] = check_collection_name(collection)
        if include is not None:
            changes["include"] = check_patterns(include, "include")
        if exclude is not None:
            changes["exclude"] = check_patterns(exclude, "exclude")
        if source["kind"] != FOLDER:
            if endpoint is not None:
                changes["endpoint"] = endpoint.strip().rstrip("/") or None
                check_endpoint(changes["endpoint"], load().limits())
            if region is not None:
                changes["region"] = region.strip() or None
            if credentials_env is not None or credentials_file is not None:
                changes["credentials"] = credentials_ref(credentials_env, credentials_file)
        changed = {**source, **{k: v for k, v in changes.items() if k in EDITABLE}}
        sources.put(changed)
        moved = 0
        if changed["collection"] != source["collection"]:
            for row in sources.held(source["source_id"]):
                moved += store.set_document_collection(row["doc_id"], changed["collection"])
        audit.note(collection=changed["collection"],
                   detail=f"{source_id}: {', '.join(sorted(changes)) or 'nothing'}"
                   + (f"; {moved} documents moved" if moved else ""))  # fmt: skip
    return shown(changed, sources)


def list_sources(
    registry_path: RegistryLike | None = None, principal: Principal | None = None
) -> list[dict[str, Any]]:
    """Every source with its settings, its state (last sync, counts, failed files) and
    whether a sync of it runs now. Admins only, with a principal."""
    require_admin(principal, MANAGING)
    _, sources = sync_store(registry_path)
    return [shown(source, sources) for source in sources.all()]


def remove_source(
    source_id: str,
    keep_documents: bool = False,
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> dict[str, int]:
    """Stop following a source. Its documents are deleted (each in the audit log), or with
    ``keep_documents`` stay in their collection as they are. Refused while it syncs."""
    store, sources = sync_store(registry_path)
    with audited(store, principal, "source-remove", detail=str(source_id)[:80]) as audit:
        require_admin(principal, MANAGING)
        source = stored_source(sources, source_id)
        audit.note(collection=source["collection"])
        held = sources.held(source["source_id"])
        with sources.lock(source["source_id"]):
            removed = 0
            if not keep_documents:
                for row in held:
                    removed += delete_document(row["doc_id"], store, principal)
                    store.sources.discard(str(row.get("file_path") or ""))
            sources.remove(source["source_id"])
        kept = 0 if not keep_documents else len(held)
        audit.note(detail=f"{source_id} {describe(source)}: {removed} documents removed, "
                          f"{kept} kept")  # fmt: skip
    return {"removed": removed, "kept": kept}


def shown(source: dict[str, Any], sources: SyncSources) -> dict[str, Any]:
    """A source as people see it: its settings, where it is, the credentials' reference
    (a name or a path), its state, and ``running``."""
    return {
        **source,
        "where": describe(source),
        "credentials_shown": credentials_label(source),
        "state": dict(source.get("state") or {}),
        "running": _running(sources, source["source_id"]),
    }


def _running(sources: SyncSources, source_id: str) -> bool:
    """Is a sync of the source running now? (Its lock is held.) A sync killed midway
    leaves its progress in the state but frees the lock: not running."""
    try:
        with sources.lock(source_id):
            return False
    except SyncBusyError:
        return True


def _refuse_registry_inside(store: DocumentStore, settings: dict[str, Any]) -> None:
    """A folder holding the registry would list the registry's own copies as documents."""
    path = getattr(store, "path", None)
    if settings["kind"] == FOLDER and path and inside(settings["path"], os.path.realpath(path)):
        raise raised(
            InvalidSourceError, "error.registry_inside", registry=path, folder=settings["path"]
        )


def now_stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
