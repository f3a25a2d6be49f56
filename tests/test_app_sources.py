"""The Sources page (AppTest): add a folder, sync it now, see counts and failed files, edit,
remove asking keep or delete; hidden from people who are not admins."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import texts

from treerag_core import list_documents
from treerag_core.access.collections import set_collection_access
from treerag_core.sync.sources import add_source, list_sources

HANA = {"X-Forwarded-User": "hana@example.com", "X-Forwarded-Groups": "hr"}
BOSS = {"X-Forwarded-User": "boss@example.com", "X-Forwarded-Groups": "admins"}


@pytest.fixture
def share(tmp_path: Path) -> Path:
    folder = tmp_path / "share"
    (folder / "policies").mkdir(parents=True)
    (folder / "policies" / "leave.md").write_text(
        "# Leave policy\n\n## Parental leave\nParents get 20 weeks of paid leave.\n"
    )
    (folder / "office.md").write_text("# Office\n\n## Wifi\nThe wifi password is plum-7.\n")
    (folder / "broken.pdf").write_bytes(b"not a pdf")
    return folder


def _button(at, key: str):  # noqa: ANN001, ANN202
    return next(b for b in at.button if b.key == key)


def test_add_a_folder_sync_it_and_see_what_happened(
    make_app, app_registry: Path, share: Path
) -> None:  # noqa: ANN001
    at = make_app("pages/sources.py")
    assert not at.exception
    assert "No source yet" in texts(at)
    at.text_input[0].set_value(str(share))  # Folder path
    at.text_input[1].set_value("team")  # Collection
    at.button(key="FormSubmitter:src_add_form-Add source").click().run()
    assert not at.exception
    [source] = list_sources(str(app_registry))
    assert source["collection"] == "team" and "Never synced" in texts(at)
    _button(at, f"src_sync_{source['source_id']}").click().run()
    assert not at.exception
    shown = texts(at)
    assert "2 added" in shown and "1 failed" in shown
    assert any("Failed files (1)" in e.label for e in at.expander)
    assert "broken\\.pdf**: broken\\.pdf is not a PDF file" in shown
    assert {r["file_name"] for r in list_documents(str(app_registry))} == {"leave.md", "office.md"}

    _button(at, f"src_sync_{source['source_id']}").click().run()
    assert "2 unchanged" in texts(at)


def test_edit_then_remove_asks_keep_or_delete(make_app, app_registry: Path, share: Path) -> None:  # noqa: ANN001
    registry = str(app_registry)
    source = add_source("folder", str(share), "team", registry_path=registry)
    sid = source["source_id"]
    at = make_app("pages/sources.py")
    _button(at, f"src_sync_{sid}").click().run()
    _button(at, f"src_edit_{sid}").click().run()
    form_inputs = [t for t in at.text_input if t.label == "Include"]
    form_inputs[0].set_value("*.md")
    at.button(key=f"FormSubmitter:src_edit_form_{sid}-Save").click().run()
    assert list_sources(registry)[0]["include"] == ["*.md"]
    _button(at, f"src_remove_{sid}").click().run()
    assert "What about its documents?" in texts(at)
    at.radio(key=f"src_remove_choice_{sid}").set_value("Delete them from the library").run()
    _button(at, f"src_remove_yes_{sid}").click().run()
    assert not at.exception
    assert list_sources(registry) == [] and list_documents(registry) == []


def test_only_admins_see_the_page(
    make_app, app_registry: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # noqa: ANN001
    registry = str(app_registry)
    set_collection_access("hr", readers=["hr"], editors=["hr"], registry_path=registry)
    monkeypatch.setenv("TREERAG_AUTH", "proxy")
    monkeypatch.setenv("TREERAG_ADMINS", "admins")
    headers = dict(HANA)
    monkeypatch.setattr("ui.identity.request_headers", lambda: headers)
    with pytest.raises(ValueError, match="Could not find a navigation page"):
        make_app("pages/sources.py")  # not among the pages a non-admin is given
    headers.clear()
    headers.update(BOSS)
    at = make_app("pages/sources.py")
    assert not at.exception
    assert "Add a source" in [s.value for s in at.subheader]


def test_a_sync_running_elsewhere_shows_its_progress(
    make_app, app_registry: Path, share: Path
) -> None:  # noqa: ANN001
    import threading

    from testkit.sources_helpers import GatedSummarizer
    from treerag_core.sync.run import sync_source

    registry = str(app_registry)
    sid = add_source("folder", str(share), registry_path=registry)["source_id"]
    gate = GatedSummarizer()
    thread = threading.Thread(target=sync_source, args=(sid, registry),
                              kwargs={"summarizer": gate})  # fmt: skip
    thread.start()
    try:
        assert gate.entered.wait(60)
        at = make_app("pages/sources.py")
        assert not at.exception
        bars = [p for p in at.get("progress")]
        assert bars and "Syncing: index" in str(bars[0].proto.text)
        assert _button(at, f"src_sync_{sid}").disabled
    finally:
        gate.release.set()
        thread.join(120)
    at = make_app("pages/sources.py")
    assert "2 added" in texts(at) and not _button(at, f"src_sync_{sid}").disabled
