"""Sources (admins): the folders and buckets the library follows, their last sync and
failed files; add, edit, sync now, remove."""

from __future__ import annotations

import streamlit as st

from ui import sources_view, state
from ui.errors import shown_errors


def main() -> None:
    st.title("Sources")
    st.caption(
        "Folders and S3 buckets the library follows: new files are indexed, changed ones "
        "re-indexed (unchanged sections keep their summaries), renamed ones followed, removed "
        "ones removed. `python -m treerag_core sync --watch` keeps folders in step as they change."
    )
    sources_view.last_report()
    listed = sources_view.sources()
    if not listed:
        st.info("No source yet: add a folder or a bucket below.")
    for source in listed:
        sources_view.source_card(source)
    sources_view.add_form()


state.require_app()
with shown_errors():
    main()
