"""Registry page (AppTest): table, delete with confirmation, export/import, re-index."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import texts

from treerag_core import list_documents
from treerag_core.store.export import InvalidImportError, export_documents, parse_import
from ui import state

REG = "pages/registry.py"


def test_table_and_delete_with_confirmation(make_app, sample_doc, app_registry: Path) -> None:  # noqa: ANN001
    at = make_app(REG)
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["name"]) == ["sample.md"]
    row = table.iloc[0]
    assert row["pages"] == "–" and row["sections"] == "4"  # Markdown has no pages: no "None"
    assert row["summaries made offline"] == 4  # the offline engine wrote every summary
    assert {"structure from", "summaries by", "size on disk"} <= set(table.columns)
    assert at.dataframe[0].proto.column_order == [
        "name",
        "collection",
        "pages",
        "sections",
        "indexed at",
    ]  # the rest on request
    at.button(key="reg_delete").click().run()
    assert "cannot be undone" in texts(at)
    at.button(key="reg_delete_no").click().run()
    assert len(list_documents(str(app_registry))) == 1
    at.button(key="reg_delete").click().run()
    at.button(key="reg_delete_yes").click().run()
    assert list_documents(str(app_registry)) == []
    assert "The registry is empty" in texts(at)


def test_export_then_import_into_fresh_registry(
    make_app, sample_doc, app_registry, tmp_path
) -> None:  # noqa: ANN001
    from ui.registry_logic import import_bytes

    at = make_app(REG)
    assert not at.exception and at.session_state[state.REGISTRY_PATH] == str(app_registry)
    exported = export_documents([sample_doc])
    other = tmp_path / "other" / "reg.json"
    other.parent.mkdir()
    assert import_bytes(exported, str(other)) == ["sample.md"]
    assert [r["doc_id"] for r in list_documents(str(other))] == [sample_doc["doc_id"]]
    assert "OPENAI" not in exported.decode()


def test_bad_import_is_refused_with_message(make_app, app_registry: Path) -> None:  # noqa: ANN001
    at = make_app(REG)
    at.file_uploader(key="reg_import_file").set_value(("x.json", b"{not json", "application/json"))
    at.run()
    at.button(key="reg_import").click().run()
    assert not at.exception
    assert any("not valid JSON" in e.value for e in at.error)
    assert list_documents(str(app_registry)) == []


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"format": "other"}, "not a treerag export"),
        ({"format": "treerag-export", "version": 1, "documents": []}, "no documents"),
        ({"format": "treerag-export", "version": 9, "documents": [{}]}, "version"),
        ({"doc_id": "../x", "flat_nodes": {}}, "doc_id"),
    ],
)
def test_parse_import_rejects(payload, message) -> None:  # noqa: ANN001
    with pytest.raises(InvalidImportError, match=message):
        parse_import(json.dumps(payload).encode())


def test_parse_import_rejects_broken_tree(sample_doc) -> None:  # noqa: ANN001
    doc = json.loads(json.dumps(sample_doc))
    doc["flat_nodes"]["0001"]["parent_id"] = "9999"
    with pytest.raises(InvalidImportError, match="missing parent"):
        parse_import(export_documents([doc]))
    doc = json.loads(json.dumps(sample_doc))
    doc["flat_nodes"]["0001"]["children"] = ["nope"]
    with pytest.raises(InvalidImportError, match="missing child"):
        parse_import(export_documents([doc]))


def test_import_through_page(make_app, sample_doc, app_registry: Path) -> None:  # noqa: ANN001
    exported = export_documents([sample_doc])
    from treerag_core import delete_document

    delete_document(sample_doc["doc_id"], str(app_registry))
    at = make_app(REG)
    at.file_uploader(key="reg_import_file").set_value(("e.json", exported, "application/json"))
    at.run()
    at.button(key="reg_import").click().run()
    assert any("Imported: sample" in s.value for s in at.success)
    assert len(list_documents(str(app_registry))) == 1


def test_reindex_missing_source_is_a_message(make_app, sample_doc) -> None:  # noqa: ANN001
    os.unlink(sample_doc["file_path"])
    at = make_app(REG)
    at.button(key="reg_reindex").click().run()
    assert not at.exception
    assert any("no longer at" in e.value for e in at.error)


def test_reindex_and_open_buttons(make_app, sample_doc) -> None:  # noqa: ANN001
    at = make_app(REG)
    at.button(key="reg_reindex").click().run()
    assert any("Re-indexed: 4 sections" in s.value for s in at.success)
    at.button(key="reg_chat").click().run()
    assert [t.value for t in at.title] == ["Chat"]


def test_export_bytes_reads_the_given_registry(sample_doc, app_registry: Path) -> None:  # noqa: ANN001
    from ui.registry_logic import export_bytes

    documents = parse_import(export_bytes([sample_doc["doc_id"]], str(app_registry)))
    assert [d["doc_id"] for d in documents] == [sample_doc["doc_id"]]
    assert "tree_outline" not in documents[0]


def test_export_all_is_prepared_on_request(make_app, sample_doc) -> None:  # noqa: ANN001
    at = make_app(REG)
    assert "reg_export_all_data" not in at.session_state
    at.button(key="reg_prepare_all").click().run()
    documents = parse_import(at.session_state["reg_export_all_data"])
    assert [d["file_name"] for d in documents] == ["sample.md"]


def test_the_card_shows_and_an_editor_corrects_it(make_app, sample_doc, app_registry) -> None:  # noqa: ANN001
    from treerag_core import index_document
    from treerag_core.library.catalog import get_card

    at = make_app("pages/registry.py")
    assert any(e.label.startswith("Card: how questions over") for e in at.expander)
    assert "sample** · document · no period found · English" in texts(at)
    form_kind = next(w for w in at.text_input if w.label == "Kind")
    form_kind.set_value("research note")
    next(w for w in at.text_area if w.label == "Description").set_value("Treerag's own notes.")
    next(b for b in at.button if b.label == "Save the card").click().run()
    assert not at.exception
    card = get_card(sample_doc["doc_id"], str(app_registry))
    assert card["kind"] == "research note" and card["description"] == "Treerag's own notes."
    assert set(card["edited"]) == {"kind", "periods", "description"}
    language = next(w for w in at.selectbox if w.label.startswith("Language"))
    assert language.value == "en"
    language.set_value("de")
    next(b for b in at.button if b.label == "Save the card").click().run()
    card = get_card(sample_doc["doc_id"], str(app_registry))
    assert card["language"] == "de" and "language" in card["edited"]
    # Re-indexed from the same file: the corrections hold.
    index_document(sample_doc["file_path"], registry_path=str(app_registry), overwrite=True,
                   verbose=False)  # fmt: skip
    assert get_card(sample_doc["doc_id"], str(app_registry))["kind"] == "research note"
