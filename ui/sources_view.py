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
)

from . import jobs_view, state
from .engine import current_summarizer
from .errors import message_for
from .i18n import language, t
from .text import md_escape

# How often a source that another session or process is syncing redraws its progress.
RUNNING_REFRESH_S = 2.0
# Failed or skipped files listed per source: a screenful; the command line lists every one.
FILES_SHOWN = 50
ss = st.session_state


def sources() -> list[dict[str, Any]]:
    return list_sources(state.registry_path(), state.principal())


def kind_label(kind: str) -> str:
    return t(f"src.kind.{kind}") if kind in ("folder", "s3") else kind


def counts(report: dict[str, Any], every: bool = True) -> list[str]:
    """``3 added``, ``1 failed``… in the person's language: every count, or only those not 0."""
    found = report.get("counts") or {}
    parts = [t(f"src.count.{k}", count=found.get(k, 0)) for k in SYNC_COUNTS
             if every or found.get(k)]  # fmt: skip
    if report.get("queued"):
        parts.insert(0, t("src.count.queued", count=report["queued"]))
    return parts


def counts_line(report: dict[str, Any] | None) -> str:
    """``3 added · 1 failed (2.1 s)``, or how a source never synced reads."""
    if not report:
        return t("src.never")
    seconds = f"{float(report.get('seconds') or 0):.1f}"
    return t("src.last_sync", when=report.get("finished_at", ""),
             counts=" · ".join(counts(report)), seconds=seconds)  # fmt: skip


def queue_mode() -> bool:
    """Sync through the workers: a database with a queue, and workers deployed."""
    return jobs_view.queue_by_default() and has_job_queue(state.registry_path())


def source_card(source: dict[str, Any]) -> None:
    sid = source["source_id"]
    s_state = source.get("state") or {}
    with st.container(border=True, key=f"src_card_{sid}"):
        where = str(source["where"]).replace("`", "'")  # shown as code: no escapes inside
        st.markdown(t("src.where", kind=kind_label(source["kind"]), where=where,
                      collection=md_escape(source["collection"])))  # fmt: skip
        patterns = ", ".join(source.get("include") or []) or t("src.every_file")
        if source.get("exclude"):
            patterns += "; " + t("src.not", patterns=", ".join(source["exclude"]))
        parts = [md_escape(patterns)]
        if source.get("kind") == "s3":
            parts.append(md_escape(t("src.credentials", shown=source["credentials_shown"])))
        st.caption(" · ".join([*parts, t("src.id", id=sid)]))
        if source.get("running"):
            _progress_of_another_run(sid)
        st.markdown(md_escape(counts_line(s_state.get("last_sync"))))
        if s_state.get("interrupted") and not source.get("running"):
            st.warning(t("src.interrupted", reason=md_escape(s_state["interrupted"], 200)))
        _files(s_state)
        _actions(source)


def _files(s_state: dict[str, Any]) -> None:
    errors = s_state.get("errors") or {}
    if errors:
        with st.expander(t("src.failed_files", count=len(errors)), expanded=True):
            _file_lines(errors)
    skipped = s_state.get("skipped") or {}
    if skipped:
        with st.expander(t("src.skipped", count=len(skipped))):
            _file_lines(skipped)


def _file_lines(messages: dict[str, str]) -> None:
    """One line a file with its message (the first ``FILES_SHOWN``; the CLI lists all)."""
    lines = [f"- **{md_escape(path, 120)}**: {md_escape(message, 300)}"
             for path, message in list(messages.items())[:FILES_SHOWN]]  # fmt: skip
    if len(messages) > FILES_SHOWN:
        lines.append("- " + t("src.more", count=len(messages) - FILES_SHOWN))
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
        st.progress(
            done / total,
            text=t("src.syncing", message=md_escape(progress.get("message") or "", 100)),
        )

    running()


def _actions(source: dict[str, Any]) -> None:
    sid = source["source_id"]
    sync_col, edit_col, remove_col = st.columns([1, 1, 1])
    if sync_col.button(t("src.sync_now"), key=f"src_sync_{sid}", type="primary",
                       disabled=bool(source.get("running"))):  # fmt: skip
        _sync_now(sid)
    if edit_col.button(t("src.edit"), key=f"src_edit_{sid}"):
        ss["src_editing"] = sid
    if remove_col.button(t("src.remove"), key=f"src_remove_{sid}"):
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
            st.success(t("src.queued", count=report["queued"]))
            return
        bar = st.progress(0.0, text=t("src.listing"))

        def progress(done: int, total: int, message: str) -> None:
            bar.progress(min(1.0, done / max(1, total)), text=md_escape(message, 120))

        report = sync_source(sid, registry, principal, current_summarizer(), progress)
    except SyncBusyError as exc:
        st.info(message_for(exc))
        return
    except TreeragError as exc:
        st.error(t("src.sync_failed", reason=message_for(exc)))
        return
    ss["src_last_report"] = {**report, "source_id": sid}
    st.rerun()


def _edit_form(source: dict[str, Any]) -> None:
    sid = source["source_id"]
    with st.form(f"src_edit_form_{sid}"):
        collection = st.text_input(t("src.collection"), value=source["collection"])
        include = st.text_input(t("src.include"), value=", ".join(source.get("include") or []))
        exclude = st.text_input(t("src.exclude"), value=", ".join(source.get("exclude") or []))
        changes: dict[str, Any] = {}
        if source["kind"] == "s3":
            changes["endpoint"] = st.text_input(
                t("src.endpoint"), value=source.get("endpoint") or ""
            )
            changes["region"] = st.text_input(t("src.region"), value=source.get("region") or "")
            ref = source.get("credentials") or {}
            changes["credentials_env"] = st.text_input(t("src.cred_env"), value=ref.get("env", ""))
            changes["credentials_file"] = st.text_input(
                t("src.cred_file"), value=ref.get("file", "")
            )
        save, cancel = st.columns(2)
        saved = save.form_submit_button(t("src.save"), type="primary")
        cancelled = cancel.form_submit_button(t("src.cancel"))
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
        st.toast(t("src.saved"))
        st.rerun()


def _remove_choice(source: dict[str, Any]) -> None:
    sid = source["source_id"]
    held = source.get("state", {}).get("last_sync", {}).get("listed", 0)
    st.warning(t("src.remove_ask", where=md_escape(source["where"])))
    choice = st.radio(
        t("src.its_documents"),
        [t("src.keep"), t("src.delete")],
        key=f"src_remove_choice_{sid}",
        help=t("src.held", count=held),
    )
    yes, no = st.columns(2)
    if yes.button(t("src.remove_yes"), key=f"src_remove_yes_{sid}", type="primary"):
        try:
            done = remove_source(sid, choice == t("src.keep"), state.registry_path(),
                                 state.principal())  # fmt: skip
        except TreeragError as exc:
            st.error(message_for(exc))
            return
        ss["src_removing"] = None
        st.toast(t("src.removed", removed=done["removed"], kept=done["kept"]))
        st.rerun()
    if no.button(t("src.cancel"), key=f"src_remove_no_{sid}"):
        ss["src_removing"] = None
        st.rerun()


def add_form() -> None:
    st.subheader(t("src.add"))
    # The labels are the options (a format_func in the person's language would not survive
    # a test harness's replay); the key follows the language so a switch starts afresh.
    kinds = {kind_label(k): k for k in ("folder", "s3")}
    kind = kinds[st.radio(t("src.kind"), list(kinds), horizontal=True,
                          key=f"src_kind_{language()}")]  # fmt: skip
    with st.form("src_add_form", clear_on_submit=False):
        if kind == "folder":
            location = st.text_input(t("src.folder_path"), placeholder="/srv/share/policies")
        else:
            location = st.text_input(t("src.bucket"), placeholder="s3://bucket/prefix")
        collection = st.text_input(t("src.collection"), value="default")
        include = st.text_input(t("src.include_add"), placeholder="*.pdf, *.md")
        exclude = st.text_input(t("src.exclude"), placeholder="archive/*")
        s3: dict[str, Any] = {}
        if kind == "s3":
            s3["endpoint"] = st.text_input(t("src.endpoint_add"))
            s3["region"] = st.text_input(t("src.region"), placeholder="us-east-1")
            s3["credentials_env"] = st.text_input(
                t("src.cred_env_add"), help=t("src.cred_env_help")
            )
            s3["credentials_file"] = st.text_input(t("src.cred_file_add"))
        added = st.form_submit_button(t("src.add_button"), type="primary")
    if added:
        try:
            source = add_source(kind, location, collection, include=include, exclude=exclude,
                                registry_path=state.registry_path(), principal=state.principal(),
                                **s3)  # fmt: skip
        except TreeragError as exc:
            st.error(message_for(exc))
            return
        st.toast(t("src.added", where=source["where"]))
        st.rerun()


def last_report() -> None:
    """What the last Sync now here did, once, above the cards."""
    report = ss.pop("src_last_report", None)
    if report:
        summary = ", ".join(counts(report, every=False)) or t("src.nothing")
        seconds = f"{report['seconds']:.1f}"
        text = t("src.synced", id=report["source_id"], summary=summary, seconds=seconds)
        (st.warning if report["counts"].get("failed") else st.success)(md_escape(text))
