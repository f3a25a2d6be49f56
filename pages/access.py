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
from ui.i18n import t
from ui.text import md_escape

NEW = ""  # the choice of a new collection (labelled as one)
# The page shows the newest entries; the download holds every one.
AUDIT_ROWS_SHOWN = 500
COLUMNS = ("collection", "documents", "readers", "editors")


def _collections(registry: RegistryLike) -> None:
    items = list_collections(registry, state.principal())
    st.subheader(t("access.collections"))
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
            column_config={c: t(f"access.col.{c}") for c in COLUMNS},
        )
    by_name = {c["collection"]: c for c in items}
    new = t("access.new")  # looked up as the page draws
    choice = st.selectbox(
        t("access.pick"), [NEW, *by_name], key="access_pick",
        format_func=lambda c: new if c == NEW else c,
    )  # fmt: skip
    members_help = t("access.members_help", everyone=EVERYONE)
    current = by_name.get(choice, {})
    with st.form(f"access_form_{choice}"):
        name = st.text_input(
            t("access.name"), value="" if choice == NEW else choice, disabled=choice != NEW
        )
        readers = st.text_area(
            t("access.readers"), value=", ".join(current.get("readers") or []), help=members_help
        )
        editors = st.text_area(
            t("access.editors"), value=", ".join(current.get("editors") or []), help=members_help
        )
        saved = st.form_submit_button(t("access.save"), type="primary")
    if saved:
        with shown_errors():
            entry = set_collection_access(
                name if choice == NEW else choice, readers, editors, registry, state.principal()
            )
            st.success(t("access.saved", collection=md_escape(entry["collection"])))


def _audit(registry: RegistryLike) -> None:
    principal = state.principal()
    entries = read_audit_log(registry, principal)
    st.subheader(t("access.audit"))
    st.caption(t("access.audit_count", count=len(entries)))
    if entries:
        columns = ("at", "who", "action", "outcome", "collection", "document", "doc_id", "detail")
        rows = [{c: str(e.get(c) or "") for c in columns} for e in entries[:AUDIT_ROWS_SHOWN]]
        st.dataframe(rows, hide_index=True)
    st.download_button(
        t("access.audit_download"),
        lambda: audit_log_jsonl(read_audit_log(registry, principal)),
        file_name="treerag-audit.jsonl",
        mime="application/jsonl",
        key="access_audit_download",
        on_click="ignore",  # no rerun racing the file made on click (Streamlit's own advice)
    )


def main() -> None:
    st.title(t("access.title"))
    registry = state.registry_path()
    _collections(registry)
    _audit(registry)


state.require_app()
with shown_errors():
    main()
