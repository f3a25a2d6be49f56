"""Access (admins): collections with their readers and editors, and the audit log."""

from __future__ import annotations

import streamlit as st

from treerag_core.access import (
    EVERYONE,
    audit_log_jsonl,
    list_collections,
    read_audit_log,
    set_collection_access,
)
from treerag_core.store import RegistryLike
from ui import state
from ui.errors import shown_errors
from ui.text import md_escape

NEW = "New collection…"
# The page shows the newest entries; the download holds every one.
AUDIT_ROWS_SHOWN = 500
MEMBERS_HELP = (
    f"User names (e-mail addresses) or group names, separated by commas; {EVERYONE} means "
    "everyone who is signed in. Editors also read."
)


def _collections(registry: RegistryLike) -> None:
    items = list_collections(registry, state.principal())
    st.subheader("Collections")
    if items:
        st.dataframe(
            [
                {
                    "collection": c["collection"],
                    "documents": c["documents"],
                    "readers": ", ".join(c.get("readers") or []),
                    "editors": ", ".join(c.get("editors") or []),
                }
                for c in items
            ],
            hide_index=True,
        )
    by_name = {c["collection"]: c for c in items}
    choice = st.selectbox("Collection to change", [NEW, *by_name], key="access_pick")
    current = by_name.get(choice, {})
    with st.form(f"access_form_{choice}"):
        name = st.text_input("Name", value="" if choice == NEW else choice, disabled=choice != NEW)
        readers = st.text_area(
            "Readers", value=", ".join(current.get("readers") or []), help=MEMBERS_HELP
        )
        editors = st.text_area(
            "Editors", value=", ".join(current.get("editors") or []), help=MEMBERS_HELP
        )
        saved = st.form_submit_button("Save access", type="primary")
    if saved:
        with shown_errors():
            entry = set_collection_access(
                name if choice == NEW else choice, readers, editors, registry, state.principal()
            )
            st.success(f"Saved the access of {md_escape(entry['collection'])}.")


def _audit(registry: RegistryLike) -> None:
    principal = state.principal()
    entries = read_audit_log(registry, principal)
    st.subheader("Audit log")
    st.caption(
        f"{len(entries)} entries, newest first (append-only: nothing here is ever rewritten)."
    )
    if entries:
        columns = ("at", "who", "action", "outcome", "collection", "document", "doc_id", "detail")
        rows = [{c: str(e.get(c) or "") for c in columns} for e in entries[:AUDIT_ROWS_SHOWN]]
        st.dataframe(rows, hide_index=True)
    st.download_button(
        "Download the audit log (JSON lines)",
        lambda: audit_log_jsonl(read_audit_log(registry, principal)),
        file_name="treerag-audit.jsonl",
        mime="application/jsonl",
        key="access_audit_download",
    )


def main() -> None:
    st.title("Access")
    registry = state.registry_path()
    _collections(registry)
    _audit(registry)


state.require_app()
with shown_errors():
    main()
