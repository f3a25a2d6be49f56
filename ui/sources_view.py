"""The Sources page's pieces: a source's card (where, collection, patterns, last sync and
its failed files), the add and edit forms, sync now with progress, and removing with the
choice of keeping or deleting its documents. Everything is done by the core's
``add_source`` / ``edit_source`` / ``sync_source`` / ``queue_sync`` / ``remove_source``,
which refuse anyone but an admin; the page is only shown to admins."""

from __future__ import annotations

from typing import Any

import streamlit as st

from treerag_core import TreeragError
from treerag_core.errors import SyncBusyError
from treerag_core.jobs import has_job_queue
from treerag_core.sync import (
    SYNC_COUNTS,
    add_source,
    edit_source,
    list_sources,
    queue_sync,
    remove_source,
    sync_source,
    sync_summary,
)

from . import jobs_view, state
from .engine import current_summarizer
from .errors import message_for
from .text import md_escape

# How often a source that another session or process is syncing redraws its progress.
RUNNING_REFRESH_S = 2.0
KIND_LABELS = {"folder": "Folder", "s3": "S3 bucket"}
# Failed or skipped files listed per source: a screenful; the command line lists every one.
FILES_SHOWN = 50
ss = st.session_state


def sources() -> list[dict[str, Any]]:
    return list_sources(state.registry_path(), state.principal())


def counts_line(report: dict[str, Any] | None) -> str:
    """``3 added · 1 failed (2.1 s)``, or how a source never synced reads."""
    if not report:
        return "Never synced."
    counts = report.get("counts") or {}
    parts = [f"{counts.get(k, 0)} {k}" for k in SYNC_COUNTS]
    if report.get("queued"):
        parts.insert(0, f"{report['queued']} queued for the workers")
    return (
        f"Last sync {report.get('finished_at', '')}: "
        + " · ".join(parts)
        + (f" ({float(report.get('seconds') or 0):.1f} s)")
    )


def queue_mode() -> bool:
    """Sync through the workers: a database with a queue, and workers deployed."""
    return jobs_view.queue_by_default() and has_job_queue(state.registry_path())


def source_card(source: dict[str, Any]) -> None:
    sid = source["source_id"]
    s_state = source.get("state") or {}
    with st.container(border=True, key=f"src_card_{sid}"):
        where = str(source["where"]).replace("`", "'")  # shown as code: no escapes inside
        st.markdown(
            f"**{KIND_LABELS.get(source['kind'], source['kind'])}** `{where}`"
            f" → collection **{md_escape(source['collection'])}**"
        )
        patterns = ", ".join(source.get("include") or []) or "every readable file"
        extra = f"; not {', '.join(source['exclude'])}" if source.get("exclude") else ""
        creds = (
            f" · credentials: {source['credentials_shown']}" if source.get("kind") == "s3" else ""
        )
        st.caption(f"{md_escape(patterns + extra)}{md_escape(creds)} · id {sid}")
        if source.get("running"):
            _progress_of_another_run(sid)
        st.markdown(md_escape(counts_line(s_state.get("last_sync"))))
        if s_state.get("interrupted") and not source.get("running"):
            st.warning(
                f"The last sync stopped before it finished ({md_escape(s_state['interrupted'], 200)})"
                ": sync again to finish it."
            )
        _files(s_state)
        _actions(source)


def _files(s_state: dict[str, Any]) -> None:
    errors = s_state.get("errors") or {}
    if errors:
        with st.expander(f"Failed files ({len(errors)}): retried on the next sync", expanded=True):
            _file_lines(errors)
    skipped = s_state.get("skipped") or {}
    if skipped:
        with st.expander(f"Not synced ({len(skipped)})"):
            _file_lines(skipped)


def _file_lines(messages: dict[str, str]) -> None:
    """One line a file with its message (the first ``FILES_SHOWN``; the CLI lists all)."""
    lines = [f"- **{md_escape(path, 120)}**: {md_escape(message, 300)}"
             for path, message in list(messages.items())[:FILES_SHOWN]]  # fmt: skip
    if len(messages) > FILES_SHOWN:
        lines.append(f"- … and {len(messages) - FILES_SHOWN} more (`source list` shows all)")
    st.markdown("\n".join(lines))


def _progress_of_another_run(sid: str) -> None:
    """A sync running elsewhere (another session, the CLI, a worker): its progress."""

    @st.fragment(run_every=RUNNING_REFRESH_S)
    def running() -> None:
        current = next((s for s in sources() if s["source_id"] == sid), None)
        if not current or not current.get("running"):
            st.rerun()  # done: draw the new state
        progress = (current.get("state") or {}).get("running") or {}
        total = max(1, int(progress.get("total") or 1))
        done = min(total, int(progress.get("done") or 0))
        st.progress(done / total, text=f"Syncing: {md_escape(progress.get('message') or '', 100)}")

    running()


def _actions(source: dict[str, Any]) -> None:
    sid = source["source_id"]
    sync_col, edit_col, remove_col = st.columns([1, 1, 1])
    if sync_col.button("Sync now", key=f"src_sync_{sid}", type="primary",
                       disabled=bool(source.get("running"))):  # fmt: skip
        _sync_now(sid)
    if edit_col.button("Edit", key=f"src_edit_{sid}"):
        ss["src_editing"] = sid
    if remove_col.button("Remove…", key=f"src_remove_{sid}"):
        ss["src_removing"] = sid
    if ss.get("src_editing") == sid:
        _edit_form(source)
    if ss.get("src_removing") == sid:
        _remove_choice(source)


def _sync_now(sid: str) -> None:
    registry, principal = state.registry_path(), state.principal()
    try:
        if queue_mode():
            report = queue_sync(sid, registry, principal)
            st.success(f"Queued {report['queued']} files for the workers (see Upload's jobs).")
            return
        bar = st.progress(0.0, text="Listing the source…")

        def progress(done: int, total: int, message: str) -> None:
            bar.progress(min(1.0, done / max(1, total)), text=md_escape(message, 120))

        report = sync_source(sid, registry, principal, current_summarizer(), progress)
    except SyncBusyError as exc:
        st.info(message_for(exc))
        return
    except TreeragError as exc:
        st.error(f"Sync failed: {message_for(exc)}")
        return
    ss["src_last_report"] = {**report, "source_id": sid}
    st.rerun()


def _edit_form(source: dict[str, Any]) -> None:
    sid = source["source_id"]
    with st.form(f"src_edit_form_{sid}"):
        collection = st.text_input("Collection", value=source["collection"])
        include = st.text_input("Include", value=", ".join(source.get("include") or []))
        exclude = st.text_input("Exclude", value=", ".join(source.get("exclude") or []))
        changes: dict[str, Any] = {}
        if source["kind"] == "s3":
            changes["endpoint"] = st.text_input("Endpoint URL", value=source.get("endpoint") or "")
            changes["region"] = st.text_input("Region", value=source.get("region") or "")
            ref = source.get("credentials") or {}
            changes["credentials_env"] = st.text_input(
                "Credentials variable", value=ref.get("env", "")
            )
            changes["credentials_file"] = st.text_input(
                "Credentials file", value=ref.get("file", "")
            )
        save, cancel = st.columns(2)
        saved = save.form_submit_button("Save", type="primary")
        cancelled = cancel.form_submit_button("Cancel")
    if cancelled:
        ss["src_editing"] = None
        st.rerun()
    if saved:
        try:
            edit_source(sid, collection=collection, include=include, exclude=exclude,
                        registry_path=state.registry_path(), principal=state.principal(),
                        **changes)  # fmt: skip
        except TreeragError as exc:
            st.error(message_for(exc))
            return
        ss["src_editing"] = None
        st.toast("Saved. The next sync uses the new settings.")
        st.rerun()


def _remove_choice(source: dict[str, Any]) -> None:
    sid = source["source_id"]
    held = source.get("state", {}).get("last_sync", {}).get("listed", 0)
    st.warning(f"Stop following {md_escape(source['where'])}? What about its documents?")
    choice = st.radio(
        "Its documents",
        ["Keep them in the library", "Delete them from the library"],
        key=f"src_remove_choice_{sid}",
        help=f"About {held} files were listed at the last sync.",
    )
    yes, no = st.columns(2)
    if yes.button("Remove the source", key=f"src_remove_yes_{sid}", type="primary"):
        try:
            done = remove_source(sid, choice.startswith("Keep"), state.registry_path(),
                                 state.principal())  # fmt: skip
        except TreeragError as exc:
            st.error(message_for(exc))
            return
        ss["src_removing"] = None
        st.toast(f"Removed: {done['removed']} documents deleted, {done['kept']} kept.")
        st.rerun()
    if no.button("Cancel", key=f"src_remove_no_{sid}"):
        ss["src_removing"] = None
        st.rerun()


def add_form() -> None:
    st.subheader("Add a source")
    kind = st.radio("Kind", ["folder", "s3"], format_func=KIND_LABELS.get, horizontal=True,
                    key="src_kind")  # fmt: skip
    with st.form("src_add_form", clear_on_submit=False):
        if kind == "folder":
            location = st.text_input("Folder path", placeholder="/srv/share/policies")
        else:
            location = st.text_input("Bucket", placeholder="s3://bucket/prefix")
        collection = st.text_input("Collection", value="default")
        include = st.text_input("Include (patterns, comma separated)", placeholder="*.pdf, *.md")
        exclude = st.text_input("Exclude", placeholder="archive/*")
        s3: dict[str, Any] = {}
        if kind == "s3":
            s3["endpoint"] = st.text_input("Endpoint URL (MinIO, Ceph, R2; empty: AWS)")
            s3["region"] = st.text_input("Region", placeholder="us-east-1")
            s3["credentials_env"] = st.text_input(
                "Credentials: environment variable", help="Its name only: it holds KEY_ID:SECRET"
            )
            s3["credentials_file"] = st.text_input("…or an AWS credentials file's path")
        added = st.form_submit_button("Add source", type="primary")
    if added:
        try:
            source = add_source(kind, location, collection, include=include, exclude=exclude,
                                registry_path=state.registry_path(), principal=state.principal(),
                                **s3)  # fmt: skip
        except TreeragError as exc:
            st.error(message_for(exc))
            return
        st.toast(f"Added {source['where']}: sync it to index its files.")
        st.rerun()


def last_report() -> None:
    """What the last Sync now here did, once, above the cards."""
    report = ss.pop("src_last_report", None)
    if report:
        text = f"Synced {report['source_id']}: {sync_summary(report)} in {report['seconds']:.1f} s."
        (st.warning if report["counts"].get("failed") else st.success)(md_escape(text))
