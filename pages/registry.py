"""Registry: every document the person may read; open, re-index, move, delete, export and
import. Buttons a person may not use are not shown; the core refuses them anyway."""

from __future__ import annotations

import os
from typing import Any

import streamlit as st

from treerag_core import TreeragError, delete_document
from treerag_core.library import edit_card, get_card, move_document
from treerag_core.text import LANGUAGE_NAMES, language_name
from ui import access_view, docs, state
from ui.engine import current_summarizer
from ui.errors import message_for, shown_errors
from ui.i18n import language, t
from ui.indexing import reindex
from ui.registry_logic import MAIN_COLUMNS, MORE_COLUMNS, export_bytes, import_bytes, table_rows
from ui.text import md_escape

ss = st.session_state


def _actions(row: dict[str, Any], editor: bool) -> None:
    doc_id = row["doc_id"]
    registry = state.registry_path()
    principal = state.principal()
    cols = st.columns(5)
    if cols[0].button(t("reg.open_tree"), key="reg_tree"):
        state.open_in_tree(doc_id)
    if cols[1].button(t("reg.open_chat"), key="reg_chat"):
        state.open_in_chat([doc_id])
    if editor and cols[2].button(t("reg.reindex"), key="reg_reindex"):
        with st.spinner(t("reg.reindexing")):
            outcome = reindex(row, registry, current_summarizer(), principal)
        if outcome.error:
            st.error(outcome.error)
        else:
            st.success(
                t("reg.reindexed", sections=outcome.sections, seconds=f"{outcome.seconds:.2f}")
            )
            for warning in outcome.warnings:  # what was read only in part, and why
                st.warning(md_escape(warning, 600))
    cols[3].download_button(
        t("reg.export_one"),
        lambda: export_bytes([doc_id], registry, principal),  # made (and logged) on click
        file_name=f"{os.path.splitext(str(row.get('file_name')))[0]}.treerag.json",
        mime="application/json",
        key="reg_export_one",
        on_click="ignore",  # no rerun racing the file made on click (Streamlit's own advice)
    )
    if editor and cols[4].button(t("reg.delete"), key="reg_delete"):
        ss["reg_confirm_delete"] = doc_id
    if ss.get("reg_confirm_delete") == doc_id:
        st.warning(t("reg.delete_confirm", name=md_escape(row.get("file_name"))))
        yes, no = st.columns(2)
        if yes.button(t("reg.delete_yes"), type="primary", key="reg_delete_yes"):
            ss["reg_confirm_delete"] = None
            try:  # the core refuses it if the person's rights changed since the page drew
                delete_document(doc_id, registry, principal)
            except TreeragError as exc:
                st.error(t("reg.not_deleted", reason=message_for(exc)))
                return
            if ss.get(state.TREE_DOC) == doc_id:
                ss[state.TREE_DOC] = None
            st.toast(t("reg.deleted", name=row.get("file_name")))
            st.rerun()
        if no.button(t("reg.cancel"), key="reg_delete_no"):
            ss["reg_confirm_delete"] = None
            st.rerun()


def _move(row: dict[str, Any]) -> None:
    """Move to another collection the person edits (shown to editors only)."""
    current = row.get("collection") or "default"
    targets = [c for c in access_view.editable() if c != current]
    if not targets:
        return
    left, right = st.columns([3, 1])
    target = left.selectbox(
        t("reg.move_to", collection=md_escape(current)), targets, key="reg_move_to"
    )
    if right.button(t("reg.move"), key="reg_move"):
        move_document(row["doc_id"], target, state.registry_path(), state.principal())
        st.toast(t("reg.moved", name=row.get("file_name"), collection=target))
        st.rerun()


def _card(row: dict[str, Any], editor: bool) -> None:
    """What the library index knows of the document, as questions over the library are
    routed by it; an editor corrects its kind, periods and description."""
    registry, principal = state.registry_path(), state.principal()
    with st.expander(t("reg.card")):
        card = get_card(row["doc_id"], registry, principal)
        st.markdown(
            f"**{md_escape(card['title'], 200)}** · {md_escape(card['kind'])} · "
            f"{md_escape(', '.join(card['periods']) or t('reg.no_period'), 200)} · "
            f"{md_escape(language_name(card.get('language', '')))}"
            + "".join(
                " · " + t("reg.other_language", count=n, language=md_escape(language_name(code)))
                for code, n in (card.get("other_languages") or {}).items()
            )
        )
        st.caption(md_escape(card["description"], 600))
        if card["names"]:
            st.caption(t("reg.about", names=md_escape(", ".join(card["names"]), 300)))
        if card["edited"]:
            st.caption(t("reg.corrected", fields=", ".join(card["edited"])))
        if editor:
            _card_form(row, card)


def _card_form(row: dict[str, Any], card: dict[str, Any]) -> None:
    with st.form(f"reg_card_{row['doc_id']}"):
        kind = st.text_input(t("reg.kind"), card["kind"])
        periods = st.text_input(t("reg.periods"), ", ".join(card["periods"]))
        description = st.text_area(t("reg.description"), card["description"])
        codes = ["", *LANGUAGE_NAMES]
        current = card.get("language", "")
        chosen = st.selectbox(
            t("reg.language"), codes,
            index=codes.index(current) if current in codes else 0, format_func=language_name,
        )  # fmt: skip
        if st.form_submit_button(t("reg.save_card")):
            changes = {"kind": kind, "periods": periods, "description": description}
            if chosen != current:  # the detected language stays detected until changed
                changes["language"] = chosen
            with shown_errors():
                edit_card(row["doc_id"], changes, state.registry_path(), state.principal())
                st.success(t("reg.card_saved"))


def _import() -> None:
    targets = access_view.editable()
    if not targets:
        return  # readers import nothing
    with st.expander(t("reg.import")):
        upload = st.file_uploader(t("reg.import_file"), type=["json"], key="reg_import_file")
        collection = None
        if access_view.choose_collection():
            collection = st.selectbox(t("reg.import_into"), targets, key="reg_import_into")
        if upload is not None and st.button(t("reg.import_button"), key="reg_import"):
            with shown_errors():
                names = import_bytes(
                    upload.getvalue(), state.registry_path(), state.principal(), collection
                )
                st.success(t("reg.imported", names=", ".join(md_escape(n, 80) for n in names)))


def main() -> None:
    st.title(t("reg.title"))  # where it is kept: on the Settings page, for admins
    listing = docs.rows()
    if not listing:
        if state.principal() is None:
            st.info(t("reg.empty"))
        else:
            st.info(t("reg.empty_reader"))
        _import()
        return
    more = st.multiselect(
        t("reg.more_columns"), MORE_COLUMNS, key="reg_columns",
        placeholder=t("reg.more_placeholder"), format_func={c: t(f"reg.col.{c}") for c in MORE_COLUMNS}.__getitem__,
    )  # fmt: skip
    st.dataframe(
        table_rows(listing, state.registry_path(), language()), hide_index=True,
        column_order=[*MAIN_COLUMNS, *more],
        column_config={c: t(f"reg.col.{c}") for c in (*MAIN_COLUMNS, *MORE_COLUMNS)},
    )  # fmt: skip
    ids = [r["doc_id"] for r in listing]
    registry = state.registry_path()
    by_id = {r["doc_id"]: r for r in listing}
    choice = st.selectbox(
        t("reg.document"), ids, format_func=lambda i: docs.label(by_id[i]), key="reg_pick"
    )
    roles = access_view.roles()
    editor = access_view.can_edit(by_id[choice], roles)
    _actions(by_id[choice], editor)
    if editor:
        _move(by_id[choice])
    _card(by_id[choice], editor)
    if st.button(t("reg.export_all_prepare", count=len(ids)), key="reg_prepare_all"):
        ss["reg_export_all_data"] = export_bytes(ids, registry, state.principal())
    if ss.get("reg_export_all_data"):
        st.download_button(
            t("reg.export_all"),
            ss["reg_export_all_data"],
            file_name="treerag-export.json",
            mime="application/json",
            key="reg_export_all",
            on_click="ignore",
        )
    _import()


state.require_app()
with shown_errors():
    main()
