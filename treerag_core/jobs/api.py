"""Queue an upload or a URL for the indexing workers, and read the jobs back.

The app (any replica) stores the upload in a job row and returns at once; a worker
(``python -m treerag_core worker``, on any machine) indexes it with ``index_upload`` and
writes its progress into the row, which every replica reads. Access rules apply twice: when
the job is queued (a person who may not edit the collection is refused at once) and when the
worker runs it under the same principal (the rules may have changed meanwhile).
"""

from __future__ import annotations

from typing import Any

from ..access.audit import actor, audited
from ..access.collections import check_collection_name
from ..access.principal import Principal
from ..access.rules import EDITOR_ROLE, can, require_collection, require_document
from ..errors import AccessDeniedError, JobsUnavailableError
from ..read.formats import check_upload
from ..settings import load
from ..store import open_store
from ..store.base import DEFAULT_COLLECTION, DocumentStore, RegistryLike
from ..store.originals import safe_file_name
from ..text.messages import raised

# Claims of one job before it fails for good: a worker that dies on the same job twice more
# is likely killed by the job itself (memory), and a person should look at it.
DEFAULT_MAX_ATTEMPTS = 3
# Jobs a listing returns: the Upload page shows the recent ones, waiting and running first.
DEFAULT_LISTED_JOBS = 50


def job_queue(store: DocumentStore) -> Any:
    """The store's job queue; ``JobsUnavailableError`` when it has none (a registry file)."""
    queue = getattr(store, "jobs", None)
    if queue is None:
        raise raised(JobsUnavailableError, "error.jobs_need_postgres", where=store.location)
    return queue


def has_job_queue(registry_path: RegistryLike | None = None) -> bool:
    """Whether this registry can queue indexing jobs (the Upload page asks)."""
    return getattr(open_store(registry_path), "jobs", None) is not None


def enqueue_upload(
    name: str,
    data: bytes,
    registry_path: RegistryLike | None = None,
    overwrite: bool = False,
    separate: bool = False,
    collection: str | None = None,
    principal: Principal | None = None,
    system_prompt: str | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> dict[str, Any]:
    """Queue an uploaded file for the workers; returns the job (``id``, ``status``, …).

    Checked now: the format and size (``check_upload``), the collection name and the
    principal's right to edit it (and the stored document it would replace)."""
    store = open_store(registry_path)
    queue = job_queue(store)
    with audited(store, principal, "enqueue", document=safe_file_name(name)) as audit:
        check_upload(name, len(data), load().limits())
        target = check_collection_name(collection) if collection else None
        location = store.sources.location_for(name, data, separate, target or DEFAULT_COLLECTION)
        _authorize(store, principal, target, store.find_by_source(location))
        options = {"overwrite": overwrite, "separate": separate, "system_prompt": system_prompt}
        job = queue.add(
            safe_file_name(name), data, target, _with_principal(options, principal),
            actor(principal), max_attempts,
        )  # fmt: skip
        audit.note(collection=target, detail=f"job {job['id']}")
    return _shown(job)


def enqueue_url(
    url: str,
    registry_path: RegistryLike | None = None,
    overwrite: bool = False,
    collection: str | None = None,
    principal: Principal | None = None,
    system_prompt: str | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> dict[str, Any]:
    """Queue a web page for the workers (they fetch it, under the same network guard)."""
    store = open_store(registry_path)
    queue = job_queue(store)
    with audited(store, principal, "enqueue", document=str(url)[:200]) as audit:
        target = check_collection_name(collection) if collection else None
        _authorize(store, principal, target, store.find_by_source(url))
        options = {"url": url, "overwrite": overwrite, "system_prompt": system_prompt}
        job = queue.add(
            str(url)[:200], None, target, _with_principal(options, principal), actor(principal),
            max_attempts,
        )  # fmt: skip
        audit.note(collection=target, detail=f"job {job['id']}")
    return _shown(job)


def list_jobs(
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
    limit: int = DEFAULT_LISTED_JOBS,
) -> list[dict[str, Any]]:
    """Recent jobs, waiting and running ones first; with a principal, only those of
    collections they may read and their own."""
    store = open_store(registry_path)
    jobs = [_shown(job) for job in job_queue(store).recent(limit)]
    if principal is None or principal.admin:
        return jobs
    return [
        job
        for job in jobs
        if job["created_by"] == principal.user
        or can(principal, store, job["collection"] or DEFAULT_COLLECTION, "reader")
    ]


def get_job(
    job_id: int, registry_path: RegistryLike | None = None, principal: Principal | None = None
) -> dict[str, Any]:
    """One job by id (``AccessDeniedError`` when missing or hidden from the principal)."""
    store = open_store(registry_path)
    job = job_queue(store).get(int(job_id))
    visible = job is not None and (
        principal is None
        or principal.admin
        or job["created_by"] == principal.user
        or can(principal, store, job["collection"] or DEFAULT_COLLECTION, "reader")
    )
    if not visible:
        raise raised(AccessDeniedError, "error.no_job", id=repr(job_id))
    return _shown(job)


def principal_of(options: dict[str, Any]) -> Principal | None:
    """The person a job runs for (None: queued without one, e.g. by the CLI)."""
    who = options.get("principal")
    if not who:
        return None
    return Principal(who["user"], frozenset(who.get("groups") or ()), bool(who.get("admin")))


def _authorize(
    store: DocumentStore,
    principal: Principal | None,
    target: str | None,
    stored: dict[str, Any] | None,
) -> None:
    if principal is None:
        return
    if stored is not None:
        require_document(store, principal, stored["doc_id"], EDITOR_ROLE)
    into = target or str((stored or {}).get("collection") or DEFAULT_COLLECTION)
    require_collection(store, principal, into, EDITOR_ROLE)


def _with_principal(options: dict[str, Any], principal: Principal | None) -> dict[str, Any]:
    if principal is None:
        return options
    who = {"user": principal.user, "groups": sorted(principal.groups), "admin": principal.admin}
    return {**options, "principal": who}


def _shown(job: dict[str, Any]) -> dict[str, Any]:
    """A job as plain JSON: timestamps as ISO strings, no payload, no principal details."""
    out = {k: v for k, v in job.items() if k not in ("payload", "options")}
    for key, value in out.items():
        if hasattr(value, "isoformat"):
            out[key] = value.isoformat(timespec="seconds")
    options = job.get("options") or {}
    out["overwrite"] = bool(options.get("overwrite"))
    out["url"] = options.get("url")
    return out
