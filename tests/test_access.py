"""Access rules in the core: two collections, principals in different groups.

HR's collection: readers are the group ``hr``, editors the group ``hr-editors``.
Engineering's: readers ``*`` minus nobody (everyone signed in), editor ``erin@example.com``.
Each public operation is allowed or refused as the rules say, and never leaks a title.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from treerag_core import (
    AccessDeniedError,
    DocumentNotFoundError,
    aask_multi,
    ask,
    ask_multi,
    delete_document,
    get_document,
    get_document_by_id,
    index_document,
    list_documents,
    make_retriever,
)
from treerag_core.access.audit import read_audit_log
from treerag_core.access.collections import (
    get_collection_access,
    list_collections,
    set_collection_access,
)
from treerag_core.access.principal import Principal
from treerag_core.errors import InvalidCollectionError
from treerag_core.evaluation.loader import registry_loader
from treerag_core.evaluation.run import evaluate
from treerag_core.library.documents import move_document
from treerag_core.library.indexing import index_upload
from treerag_core.library.transfer import export_registry, import_documents

ADMIN = Principal("root@example.com", admin=True)
HR_READER = Principal("hana@example.com", frozenset({"hr"}))
HR_EDITOR = Principal("hugo@example.com", frozenset({"hr", "hr-editors"}))
ERIN = Principal("erin@example.com", frozenset({"eng"}))
OUTSIDER = Principal("otto@example.com", frozenset({"sales"}))

SALARIES = (
    b"# Salaries\nThe salary band for level 3 is 90,000 euros.\n\n# Reviews\nReviews are in May.\n"
)
DESIGN = b"# Design\nThe gateway uses a token bucket limiter.\n\n# Storage\nWe store blobs in S3.\n"


@pytest.fixture
def reg(tmp_path: Path) -> dict:
    registry = str(tmp_path / "reg.json")
    set_collection_access("hr", readers=["hr"], editors=["hr-editors"], registry_path=registry)
    set_collection_access("eng", readers="*", editors="erin@example.com", registry_path=registry)
    hr = index_upload("salaries.md", SALARIES, registry_path=registry, collection="hr")
    eng = index_upload("design.md", DESIGN, registry_path=registry, collection="eng")
    return {"path": registry, "hr": hr["doc_id"], "eng": eng["doc_id"]}


def names(rows: list[dict]) -> list[str]:
    return sorted(r["file_name"] for r in rows)


def test_listing_follows_the_collections(reg: dict) -> None:
    path = reg["path"]
    assert names(list_documents(path)) == ["design.md", "salaries.md"]  # no principal
    assert names(list_documents(path, ADMIN)) == ["design.md", "salaries.md"]
    assert names(list_documents(path, HR_READER)) == ["design.md", "salaries.md"]  # eng is "*"
    assert names(list_documents(path, OUTSIDER)) == ["design.md"]
    set_collection_access("eng", readers=["eng"], editors=["erin@example.com"], registry_path=path)
    assert names(list_documents(path, HR_READER)) == ["salaries.md"]
    assert names(list_documents(path, ERIN)) == ["design.md"]
    assert list_documents(path, OUTSIDER) == []
    assert {c["collection"]: c["role"] for c in list_collections(path, HR_EDITOR)} == {
        "hr": "editor"
    }
    assert "readers" not in list_collections(path, HR_EDITOR)[0]  # members: admins only


def test_get_refuses_without_revealing_the_title(reg: dict) -> None:
    path = reg["path"]
    set_collection_access("eng", readers=["eng"], editors=["erin@example.com"], registry_path=path)
    assert get_document_by_id(reg["hr"], path, HR_READER)["file_name"] == "salaries.md"
    with pytest.raises(AccessDeniedError) as hidden:
        get_document_by_id(reg["eng"], path, HR_READER)
    with pytest.raises(AccessDeniedError) as missing:
        get_document_by_id("no-such-id", path, HR_READER)
    assert "design" not in str(hidden.value).lower()
    # A hidden document and a missing one get the same message (no existence oracle).
    assert str(hidden.value).replace(reg["eng"], "X") == str(missing.value).replace(
        "no-such-id", "X"
    )
    with pytest.raises(AccessDeniedError):
        get_document("design.md", path, HR_READER)
    assert get_document("design.md", path)["doc_id"] == reg["eng"]  # library: unfiltered
    with pytest.raises(DocumentNotFoundError):
        get_document_by_id("no-such-id", path)


def test_ask_and_ask_multi_never_read_a_forbidden_document(reg: dict) -> None:
    path = reg["path"]
    set_collection_access("eng", readers=["eng"], editors=["erin@example.com"], registry_path=path)
    retriever = make_retriever()
    answer = ask("What is the salary band?", reg["hr"], retriever, principal=HR_READER,
                 registry_path=path)  # fmt: skip
    assert "90,000" in answer.content
    assert {r["doc_id"] for r in answer.references} == {reg["hr"]}
    for documents in ([reg["hr"], reg["eng"]], [get_document_by_id(reg["eng"], path)]):
        with pytest.raises(AccessDeniedError) as refused:
            ask_multi("What limiter?", documents, retriever, principal=HR_READER,
                      registry_path=path)  # fmt: skip
        assert "design" not in str(refused.value).lower()
    with pytest.raises(AccessDeniedError):  # refused when called, before any chunk streams
        ask_multi("q", [reg["eng"]], retriever, stream=True, principal=HR_READER,
                  registry_path=path)  # fmt: skip
    with pytest.raises(AccessDeniedError):
        asyncio.run(aask_multi("q", [reg["hr"], reg["eng"]], retriever, principal=HR_READER,
                               registry_path=path))  # fmt: skip
    both = asyncio.run(aask_multi("What limiter?", [reg["hr"], reg["eng"]], retriever,
                                  principal=ADMIN, registry_path=path))  # fmt: skip
    assert {r["doc_id"] for r in both.references} <= {reg["hr"], reg["eng"]}
    # Without a principal, ids are loaded from the registry and nothing is checked.
    assert ask_multi("What limiter?", [reg["eng"]], retriever, registry_path=path).references


def test_delete_needs_an_editor_and_is_audited(reg: dict) -> None:
    path = reg["path"]
    with pytest.raises(AccessDeniedError, match="only editors"):
        delete_document(reg["hr"], path, HR_READER)
    with pytest.raises(AccessDeniedError, match="no document"):
        delete_document(reg["hr"], path, OUTSIDER)
    assert names(list_documents(path)) == ["design.md", "salaries.md"]
    assert delete_document(reg["hr"], path, HR_EDITOR) is True
    assert names(list_documents(path)) == ["design.md"]
    log = read_audit_log(path, ADMIN)
    deletes = [(e["who"], e["outcome"]) for e in log if e["action"] == "delete"]
    assert deletes == [
        ("hugo@example.com", "ok"),
        ("otto@example.com", "denied"),
        ("hana@example.com", "denied"),
    ]
    assert all(e["at"] and e["doc_id"] == reg["hr"] for e in log if e["action"] == "delete")
    with pytest.raises(AccessDeniedError):
        read_audit_log(path, HR_EDITOR)


def test_index_needs_an_editor_of_the_target_collection(reg: dict, tmp_path: Path) -> None:
    path = reg["path"]
    before = sorted(p.name for p in (tmp_path / "reg.uploads").rglob("*"))
    with pytest.raises(AccessDeniedError):
        index_upload("plan.md", b"# Plan\nHire.\n", registry_path=path, collection="hr",
                     principal=HR_READER)  # fmt: skip
    with pytest.raises(AccessDeniedError):  # collection not given: the default one
        index_upload("plan.md", b"# Plan\nHire.\n", registry_path=path, principal=HR_EDITOR)
    assert sorted(p.name for p in (tmp_path / "reg.uploads").rglob("*")) == before
    plan = index_upload("plan.md", b"# Plan\nHire.\n", registry_path=path, collection="hr",
                        principal=HR_EDITOR)  # fmt: skip
    assert plan["collection"] == "hr"
    # Same file name in another collection: its own document, never the other team's.
    erin = index_upload("salaries.md", b"# Other\nx\n", registry_path=path, collection="eng",
                        principal=ERIN)  # fmt: skip
    assert erin["doc_id"] != reg["hr"]
    assert get_document_by_id(reg["hr"], path)["flat_nodes"]["0000"]["title"] == "Salaries"
    source = tmp_path / "local.md"
    source.write_text("# Local\ntext\n")
    with pytest.raises(AccessDeniedError):
        index_document(str(source), registry_path=path, collection="eng", principal=HR_EDITOR)
    # Re-indexing a stored document needs editing rights in its collection.
    index_document(str(source), registry_path=path, collection="eng", principal=ERIN)
    with pytest.raises(AccessDeniedError):
        index_document(str(source), registry_path=path, overwrite=True, principal=HR_EDITOR)
    outcomes = [(e["action"], e["who"], e["outcome"]) for e in read_audit_log(path)]
    assert ("index", "hugo@example.com", "ok") in outcomes
    assert ("index", "hana@example.com", "denied") in outcomes
    assert ("reindex", "hugo@example.com", "denied") in outcomes


def test_export_and_import_follow_the_rules(reg: dict, tmp_path: Path) -> None:
    path = reg["path"]
    set_collection_access("eng", readers=["eng"], editors=["erin@example.com"], registry_path=path)
    mine = json.loads(export_registry(None, path, HR_READER))
    assert [d["file_name"] for d in mine["documents"]] == ["salaries.md"]
    assert mine["documents"][0]["collection"] == "hr"
    with pytest.raises(AccessDeniedError):
        export_registry([reg["hr"], reg["eng"]], path, HR_READER)
    eng_export = export_registry([reg["eng"]], path)
    with pytest.raises(AccessDeniedError):  # a reader may export, not import
        import_documents(eng_export, path, HR_READER, collection="hr")
    with pytest.raises(AccessDeniedError):  # would overwrite eng's document: refused whole
        import_documents(eng_export, path, HR_EDITOR, collection="hr")
    assert get_document_by_id(reg["eng"], path)["collection"] == "eng"
    other = str(tmp_path / "other.json")
    saved = import_documents(eng_export, other)  # library restore keeps the collection
    assert [d["collection"] for d in saved] == ["eng"]
    actions = {(e["action"], e["who"], e["outcome"]) for e in read_audit_log(path)}
    assert ("export", "hana@example.com", "ok") in actions
    assert ("export", "hana@example.com", "denied") in actions
    assert ("import", "hugo@example.com", "denied") in actions


def test_evaluate_scores_only_readable_documents(reg: dict) -> None:
    path = reg["path"]
    set_collection_access("eng", readers=["eng"], editors=["erin@example.com"], registry_path=path)
    questions = [
        {"id": "q1", "question": "salary band level 3", "doc_name": "salaries.md",
         "gold_sections": ["Salaries"]},
        {"id": "q2", "question": "which limiter", "doc_name": "design.md",
         "gold_sections": ["Design"]},
        {"id": "q3", "question": "which limiter", "doc_id": reg["eng"], "gold_sections": ["Design"]},
    ]  # fmt: skip
    loader = registry_loader(path, principal=HR_READER)
    result = evaluate(questions, loader, baseline=False, principal=HR_READER, registry_path=path)
    assert [r.id for r in result.navigation] == ["q1"]
    assert [e["id"] for e in result.errors] == ["q2", "q3"]
    assert all("limiter" not in e["error"] and "Design" not in e["error"] for e in result.errors)
    # A loader that ignores the principal is caught by evaluate's own check.
    unchecked = evaluate(questions, registry_loader(path), baseline=False, principal=HR_READER,
                         registry_path=path)  # fmt: skip
    assert [r.id for r in unchecked.navigation] == ["q1"]
    assert len(evaluate(questions, registry_loader(path), baseline=False).navigation) == 3


def test_collections_are_managed_by_admins_only(reg: dict) -> None:
    path = reg["path"]
    with pytest.raises(AccessDeniedError):
        set_collection_access("hr", readers=["everyone"], registry_path=path, principal=HR_EDITOR)
    assert get_collection_access("hr", path) == {
        "collection": "hr", "readers": ["hr"], "editors": ["hr-editors"]
    }  # fmt: skip
    entry = set_collection_access("legal", "lena@example.com, legal\nlegal", "", path, ADMIN)
    assert entry == {"collection": "legal", "readers": ["lena@example.com", "legal"],
                     "editors": []}  # fmt: skip
    for bad in ("", "../etc", "a/b", "x" * 65, "_hidden"):
        with pytest.raises(InvalidCollectionError):
            set_collection_access(bad, registry_path=path, principal=ADMIN)
    changes = [e for e in read_audit_log(path) if e["action"] == "access"]
    assert (changes[0]["collection"], changes[0]["outcome"]) == ("_hidden", "failed")
    assert any(e.get("collection") == "legal" and e["outcome"] == "ok" for e in changes)
    assert any(e["outcome"] == "denied" and e["who"] == "hugo@example.com" for e in changes)


def test_move_needs_an_editor_of_both_collections(reg: dict) -> None:
    path = reg["path"]
    set_collection_access("hr", readers=["hr"], editors=["hr-editors", "erin@example.com"],
                          registry_path=path)  # fmt: skip
    set_collection_access("eng", readers=["eng"], editors=["erin@example.com"], registry_path=path)
    with pytest.raises(AccessDeniedError):
        move_document(reg["hr"], "eng", path, HR_EDITOR)  # not an editor of eng
    move_document(reg["hr"], "eng", path, ERIN)
    assert get_document_by_id(reg["hr"], path)["collection"] == "eng"
    assert [r["collection"] for r in list_documents(path) if r["doc_id"] == reg["hr"]] == ["eng"]
    with pytest.raises(AccessDeniedError):  # HR's readers no longer see it
        get_document_by_id(reg["hr"], path, HR_READER)
    moved = [e for e in read_audit_log(path) if e["action"] == "move" and e["outcome"] == "ok"]
    assert moved[0]["detail"] == "from hr" and moved[0]["collection"] == "eng"
