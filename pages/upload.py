"""Upload & index: several files and/or a URL into a collection the person edits, live
progress, then a result card each (kept for this person only)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from treerag_core.read import accepted_extensions
from ui import access_view, jobs_view, state
from ui.engine import current_library, current_summarizer, engine_label
from ui.errors import shown_errors
from ui.i18n import t
from ui.indexing import IndexOutcome, index_source, index_uploaded_file
from ui.presets import CUSTOM, PRESETS, system_prompt_for
from ui.text import md_escape

MODES = ("Re-index only if the file changed", "Re-index anyway (overwrite)")


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
        with st.status(f"Indexing {md_escape(name, 80)}", expanded=True) as box:
            bar = st.progress(0.0, text="Starting")
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
            st.info("Unchanged since it was last indexed: the stored index was kept.")
        for warning in outcome.warnings:
            st.warning(md_escape(warning, 600))
        cols = st.columns(6)
        cols[0].metric("Sections", outcome.sections)
        cols[1].metric("Pages", outcome.pages if outcome.pages is not None else "–")
        cols[2].metric("LLM calls", outcome.llm_calls)
        cols[3].metric("Tokens", outcome.tokens)
        cols[4].metric("Seconds", f"{outcome.seconds:.2f}")
        cols[5].metric("Summaries reused", outcome.reused)
        how = f"Engine: {md_escape(outcome.engine)}"
        if outcome.structure:
            how += f" · structure from {md_escape(outcome.structure)}"
        if outcome.ocr_pages:
            how += f" · {outcome.ocr_pages} page(s) read by OCR"
        st.caption(how)
        left, right = st.columns(2)
        if left.button("Open in tree", key=f"card_tree_{index}"):
            state.open_in_tree(str(outcome.doc_id))
        if right.button("Ask about it", key=f"card_chat_{index}"):
            state.open_in_chat([str(outcome.doc_id)])


def _collection() -> tuple[str | None, bool]:
    """The target collection (None: the default one) and whether indexing is allowed."""
    if not access_view.choose_collection():
        return None, True
    targets = access_view.editable()
    if not targets:
        st.warning("You are not an editor of any collection: ask an admin to make you one.")
        return None, False
    return st.selectbox("Collection", targets, key="upload_collection"), True


def status_label(name: str, error: str | None) -> str:
    """A file's status line once it is over: done, or failed with the reason's first
    sentence (the whole reason is in the box)."""
    if not error:
        return t("upload.done", name=md_escape(name, 80))
    reason = error.split(". ")[0].rstrip(".")
    return t("upload.failed", name=md_escape(name, 80), reason=md_escape(reason, 120))


def main() -> None:
    st.title("Upload & index")
    if state.arrived():  # each visit starts clean: the last run's cards stay behind
        st.session_state[state.UPLOAD_RESULTS] = []
    files = st.file_uploader(
        # The drop zone lists the accepted types, from the one format table.
        "Documents (scans and images are read by OCR; e-mail attachments are read too)",
        type=accepted_extensions(),
        accept_multiple_files=True,
        key="upload_files",
    )
    url = st.text_input("…or a web page URL", key="upload_url", placeholder="https://…").strip()
    left, right = st.columns(2)
    preset = left.selectbox("Domain prompt", [*PRESETS, CUSTOM], key="upload_preset")
    custom = ""
    if preset == CUSTOM:
        custom = left.text_area("Custom summary prompt", key="upload_custom")
    mode = right.radio("When a document is already indexed", MODES, key="upload_mode")
    separate = right.checkbox(
        "Keep as a separate document if a file with the same name was uploaded before",
        key="upload_separate",
    )
    collection, allowed = _collection()
    engine = engine_label()
    st.caption(f"Summaries by: {md_escape(engine)}")
    if engine.startswith("Offline") and preset != "General":
        st.caption(
            "The offline engine extracts summaries and tags itself; prompts apply to models."
        )
    queue = jobs_view.available()
    queued = queue and st.checkbox(
        "Queue for the indexing workers (progress below, on every replica)",
        value=jobs_view.queue_by_default(),
        key="upload_queue",
    )
    if st.button("Index", type="primary", disabled=(not files and not url) or not allowed):
        prompt = system_prompt_for(preset, custom)
        if queued:
            jobs_view.enqueue(
                list(files or []), url, mode == MODES[1], separate, collection, prompt
            )
        else:
            summarizer = current_summarizer(prompt)
            _run(list(files or []), url, summarizer, mode == MODES[1], separate, collection)
    for index, result in enumerate(st.session_state.get(state.UPLOAD_RESULTS, [])):
        _card(index, result)
    if queue:
        jobs_view.show_jobs()


state.require_app()
with shown_errors():
    main()
