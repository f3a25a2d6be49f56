"""The app in a team mode (AppTest, proxy headers patched in): per-person state and pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ask, texts

from treerag_core import list_documents
from treerag_core.access.collections import set_collection_access
from treerag_core.library.indexing import index_upload
from ui import state

HANA = {"X-Forwarded-User": "hana@example.com", "X-Forwarded-Groups": "hr"}
ERIN = {"X-Forwarded-User": "erin@example.com", "X-Forwarded-Groups": "eng"}


@pytest.fixture
def team(app_registry: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    registry = str(app_registry)
    set_collection_access("hr", readers=["hr"], editors=["hana@example.com"],
                          registry_path=registry)  # fmt: skip
    set_collection_access("eng", readers=["eng"], registry_path=registry)
    hr = index_upload("salaries.md", b"# Salaries\nLevel 3 earns 90,000.\n",
                      registry_path=registry, collection="hr")  # fmt: skip
    eng = index_upload("design.md", b"# Design\nA token bucket.\n", registry_path=registry,
                       collection="eng")  # fmt: skip
    monkeypatch.setenv("TREERAG_AUTH", "proxy")
    headers = dict(HANA)
    monkeypatch.setattr("ui.identity.request_headers", lambda: headers)
    return {"registry": registry, "hr": hr["doc_id"], "eng": eng["doc_id"], "headers": headers}


def test_chat_history_and_uploads_stay_with_their_person(make_app, team: dict) -> None:  # noqa: ANN001
    at = make_app("pages/chat.py")
    assert not at.exception
    assert "Signed in as" in texts(at) and "hr: editor" in texts(at)
    ask(at, "What does level 3 earn?")
    hana_thread = at.session_state[state.CHAT_THREAD]
    assert "90,000" in hana_thread["turns"][0]["answer"]
    at.session_state[state.UPLOAD_RESULTS] = [{"name": "salaries.md"}]
    team["headers"].clear()
    team["headers"].update(ERIN)  # another person in this session (e.g. a shared browser)
    at.run()
    assert at.session_state[state.CHAT_THREAD] is None  # Hana's conversation is not Erin's
    assert hana_thread["title"] not in texts(at)
    assert at.session_state[state.UPLOAD_RESULTS] == []
    assert at.session_state[state.CHAT_DOCS] == []  # the library Erin may read
    assert "eng: reader" in texts(at)
    ask(at, "What does level 3 earn?")  # Hana's document is not in Erin's library
    erin_turn = at.session_state[state.CHAT_THREAD]["turns"][0]
    assert "90,000" not in erin_turn["answer"]
    assert {r["doc_id"] for r in erin_turn["references"]} <= {team["eng"]}


def test_upload_offers_only_collections_the_person_edits(make_app, team: dict) -> None:  # noqa: ANN001
    at = make_app("pages/upload.py")
    assert at.selectbox(key="upload_collection").options == ["hr"]
    team["headers"].clear()
    team["headers"].update(ERIN)
    at.run()
    assert "not an editor of any collection" in texts(at)
    assert at.button[0].disabled  # Index


def test_a_reader_gets_no_delete_and_no_import(make_app, team: dict) -> None:  # noqa: ANN001
    team["headers"].clear()
    team["headers"].update(ERIN)
    at = make_app("pages/registry.py")
    keys = {b.key for b in at.button}
    assert "reg_delete" not in keys and "reg_reindex" not in keys and "reg_import" not in keys
    assert len(list_documents(team["registry"])) == 2


def test_no_header_means_the_refusal_page(make_app, team: dict) -> None:  # noqa: ANN001
    team["headers"].clear()
    at = make_app()
    assert "Access refused" in [t.value for t in at.title]
    assert "salaries.md" not in texts(at)


def test_the_access_page_in_german(make_app, team: dict, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    """An admin who reads German gets the Access page in German (collections, audit log)."""
    monkeypatch.setenv("TREERAG_ADMINS", "hana@example.com")
    at = make_app()
    at.session_state["ui_language"] = "de"
    at.switch_page("pages/access.py").run()
    assert not at.exception
    assert at.title[0].value == "Zugriff"
    assert {"Sammlungen", "Protokoll"} <= {s.value for s in at.subheader}
    assert "Neue Sammlung…" in at.selectbox(key="access_pick").options
    assert "Lesende" in at.dataframe[0].proto.columns
