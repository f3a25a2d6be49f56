"""Queued indexing on the Upload page: queue files for the workers, show every job's state.

Shown only when the registry has a job queue (PostgreSQL). The job rows live in the
database, so a job queued on one replica shows its progress on every replica.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from treerag_core import TreeragError
from treerag_core.jobs import enqueue_upload, enqueue_url, has_job_queue, list_jobs
from treerag_core.settings import load

from . import state
from .errors import message_for
from .i18n import t
from .text import md_escape

# How often the job list refreshes while a job waits or runs (workers write their progress
# every second; a two-second refresh shows it moving without hammering the database).
JOB_REFRESH_S = 2.0
STATUS_ICONS = {
    "queued": ":material/schedule:",
    "running": ":material/autorenew:",
    "done": ":material/check_circle:",
    "failed": ":material/error:",
}


def available() -> bool:
    return has_job_queue(state.registry_path())


def queue_by_default() -> bool:
    """``TREERAG_INDEXING=workers``: the deployment runs workers, so uploads go to them."""
    return load().indexing == "workers"


def enqueue(
    files: list[Any],
    url: str,
    overwrite: bool,
    separate: bool,
    collection: str | None,
    system_prompt: str | None,
) -> None:
    """Queue every file and the URL; each gets a line saying queued or why not."""
    registry, principal = state.registry_path(), state.principal()
    for upload in files:
        try:
            job = enqueue_upload(
                upload.name, upload.getvalue(), registry, overwrite, separate, collection,
                principal, system_prompt,
            )  # fmt: skip
            st.success(t("upload.jobs.queued", name=md_escape(upload.name, 80), id=job["id"]))
        except TreeragError as exc:
            st.error(f"{md_escape(upload.name, 80)}: {message_for(exc)}")
    if url:
        try:
            job = enqueue_url(url, registry, overwrite, collection, principal, system_prompt)
            st.success(t("upload.jobs.queued", name=md_escape(url, 80), id=job["id"]))
        except TreeragError as exc:
            st.error(f"{md_escape(url, 80)}: {message_for(exc)}")


def show_jobs() -> None:
    """The recent jobs, refreshed every ``JOB_REFRESH_S`` while any waits or runs."""
    jobs = _jobs()
    active = any(job["status"] in ("queued", "running") for job in jobs)

    @st.fragment(run_every=JOB_REFRESH_S if active else None)
    def job_list() -> None:
        current = _jobs()
        st.subheader(t("upload.jobs.title"))
        if not current:
            st.caption(t("upload.jobs.none"))
        for job in current:
            _job_row(job)

    job_list()


def _jobs() -> list[dict[str, Any]]:
    try:
        return list_jobs(state.registry_path(), state.principal())
    except TreeragError as exc:
        st.warning(t("upload.jobs.unreadable", reason=message_for(exc)))
        return []


def _job_row(job: dict[str, Any]) -> None:
    status = str(job["status"])
    with st.container(border=True):
        left, right = st.columns([3, 2])
        shown = t(f"upload.jobs.status.{status}") if status in STATUS_ICONS else status
        left.markdown(t("upload.jobs.row", icon=STATUS_ICONS.get(status, ""), status=shown,
                        name=md_escape(job["name"], 80), id=job["id"]))  # fmt: skip
        parts = [t("upload.jobs.by", who=md_escape(job.get("created_by") or "", 60))]
        if job.get("worker"):
            parts.append(t("upload.jobs.worker", worker=md_escape(job["worker"], 60)))
        parts.append(t("upload.jobs.attempt", attempt=job["attempts"], most=job["max_attempts"]))
        right.caption(" · ".join(parts))
        if status == "running":
            total = max(1, int(job.get("progress_total") or 1))
            done = min(total, int(job.get("progress_done") or 0))
            st.progress(done / total, text=md_escape(job.get("message") or "", 100))
        elif status == "failed":
            st.error(md_escape(job.get("error") or t("upload.jobs.status.failed"), 500))
        elif status == "queued" and job.get("error"):
            st.caption(t("upload.jobs.retry", error=md_escape(job["error"], 300)))
        elif status == "done":
            st.caption(md_escape(job.get("message") or "", 200))
            if job.get("doc_id") and st.button(t("upload.open_tree"), key=f"job_tree_{job['id']}"):
                state.open_in_tree(str(job["doc_id"]))
