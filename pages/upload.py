"""Upload & index: several files and/or a URL into a collection the person edits, live
progress, then a result card each (kept for this person only)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from treerag_core.read import accepted_extensions
from treerag_core.views import source_name
from ui import access_view, jobs_view, state
from ui.engine import current_library, current_llms, current_summarizer, engine_label
from ui.errors import shown_errors
from ui.i18n import language, t
from ui.indexing import IndexOutcome, index_source, index_uploaded_file
from ui.presets import CUSTOM, PRESETS, system_prompt_for
from ui.text import md_escape

MODES = {False: "upload.mode_changed", True: "upload.mode_overwrite"}  # overwrite? → words


def _reporter(bar: Any) -> Any:
    """A core progress callback that drives one ``st.progress`` bar."""

    def report(done: int, total: int, message: str) -> None:
        bar.progress(min(1.0, done / total) if total else 0.0, text=md_escape(message, 100))

    return report


def _run(
    files: list[Any],
    url: str,
    summarizer: Any,
    overwrite: bool,
    separate: bool,
    collection: str | None,
) -> None:
    """Index every file, then the URL; each gets its own status box and progress bar."""
    results: list[dict[str, Any]] = []
    registry = state.registry_path()
    principal = state.principal()
    limits = current_library().settings.limits()
    jobs = [(f.name, f) for f in files] + ([(url, None)] if url else [])
    for name, upload in jobs:
        with st.status(t("upload.indexing", name=md_escape(name, 80)), expanded=True) as box:
            bar = st.progress(0.0, text=t("upload.starting"))
            if upload is not None:
                outcome = index_uploaded_file(
                    name, upload.getvalue(), registry, summarizer, overwrite,
                    separate=separate, progress=_reporter(bar), limits=limits,
                    collection=collection, principal=principal,
                )  # fmt: skip
            else:
                outcome = index_source(
                    name, name, registry, summarizer, overwrite, _reporter(bar), collection,
                    principal,
                )  # fmt: skip
            bar.empty()  # its last step is not where the file stands: the label says
            box.update(
                label=status_label(name, outcome.error),
                state="error" if outcome.error else "complete",
                expanded=False,  # the reason in full is on the file's card below
            )
        results.append(outcome.as_dict())
    st.session_state[state.UPLOAD_RESULTS] = results


def _card(index: int, result: dict[str, Any]) -> None:
    outcome = IndexOutcome(**result)
    with st.container(border=True):
        st.markdown(f"**{md_escape(outcome.name, 100)}**")
        if outcome.error:
            st.error(outcome.error)
            return
        if outcome.unchanged:
            st.info(t("upload.unchanged"))
        for warning in outcome.warnings:
            st.warning(md_escape(warning, 600))
        cols = st.columns(6)
        cols[0].metric(t("upload.sections"), outcome.sections)
        cols[1].metric(t("upload.pages"), outcome.pages if outcome.pages is not None else "–")
        cols[2].metric(t("upload.llm_calls"), outcome.llm_calls)
        cols[3].metric(t("upload.tokens"), outcome.tokens)
        cols[4].metric(t("upload.seconds"), f"{outcome.seconds:.2f}")
        cols[5].metric(t("upload.reused"), outcome.reused)
        how = t("upload.engine", engine=md_escape(outcome.engine))
        if outcome.structure:
            how += t(
                "upload.structure", source=md_escape(source_name(outcome.structure, language()))
            )
        if outcome.ocr_pages:
            how += t("upload.ocr", count=outcome.ocr_pages)
        st.caption(how)
        left, right = st.columns(2)
        if left.button(t("upload.open_tree"), key=f"card_tree_{index}"):
            state.open_in_tree(str(outcome.doc_id))
        if right.button(t("upload.ask"), key=f"card_chat_{index}"):
            state.open_in_chat([str(outcome.doc_id)])


def _collection() -> tuple[str | None, bool]:
    """The target collection (None: the default one) and whether indexing is allowed."""
    if not access_view.choose_collection():
        return None, True
    targets = access_view.editable()
    if not targets:
        st.warning(t("upload.no_collection"))
        return None, False
    return st.selectbox(t("upload.collection"), targets, key="upload_collection"), True


def status_label(name: str, error: str | None) -> str:
    """A file's status line once it is over: done, or failed with the reason's first
    sentence (the whole reason is in the box)."""
    if not error:
        return t("upload.done", name=md_escape(name, 80))
    reason = error.split(". ")[0].rstrip(".")
    return t("upload.failed", name=md_escape(name, 80), reason=md_escape(reason, 120))


def main() -> None:
    st.title(t("upload.title"))
    if state.arrived():  # each visit starts clean: the last run's cards stay behind
        st.session_state[state.UPLOAD_RESULTS] = []
    files = st.file_uploader(
        # The drop zone lists the accepted types, from the one format table.
        t("upload.files"),
        type=accepted_extensions(),
        accept_multiple_files=True,
        key="upload_files",
    )
    url = st.text_input(t("upload.url"), key="upload_url", placeholder="https://…").strip()
    left, right = st.columns(2)
    preset = left.selectbox(t("upload.preset"), [*PRESETS, CUSTOM], key="upload_preset")
    custom = ""
    if preset == CUSTOM:
        custom = left.text_area(t("upload.custom"), key="upload_custom")
    overwrite = right.radio(
        t("upload.when_indexed"),
        list(MODES),
        key="upload_mode",
        format_func={o: t(key) for o, key in MODES.items()}.__getitem__,
    )
    separate = right.checkbox(
        t("upload.separate"),
        help=t("upload.separate_help"),
        key="upload_separate",
    )
    collection, allowed = _collection()
    engine = engine_label()
    st.caption(t("upload.summaries_by", engine=md_escape(engine)))
    if current_llms()[0] is None and preset != "General":  # the offline engine
        st.caption(t("upload.prompts_for_models"))
    queue = jobs_view.available()
    queued = queue and st.checkbox(
        t("upload.queue"),
        value=jobs_view.queue_by_default(),
        key="upload_queue",
    )
    if st.button(
        t("upload.index"), type="primary", disabled=(not files and not url) or not allowed
    ):
        prompt = system_prompt_for(preset, custom)
        if queued:
            jobs_view.enqueue(list(files or []), url, overwrite, separate, collection, prompt)
        else:
            summarizer = current_summarizer(prompt)
            _run(list(files or []), url, summarizer, overwrite, separate, collection)
    for index, result in enumerate(st.session_state.get(state.UPLOAD_RESULTS, [])):
        _card(index, result)
    if queue:
        jobs_view.show_jobs()


state.require_app()
with shown_errors():
    main()
