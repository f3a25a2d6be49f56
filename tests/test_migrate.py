"""``python -m treerag_core migrate``: a registry file copied into PostgreSQL and back, with
everything that belongs to it (collections, documents with their sources, the audit log,
conversations, the regression set), identities kept, and a second run adding nothing twice."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from treerag_core import get_document_by_id, index_document, list_documents, make_summarizer
from treerag_core.access.audit import read_audit_log
from treerag_core.access.collections import set_collection_access
from treerag_core.access.principal import Principal
from treerag_core.chat.regression import regression_questions, save_regression_question
from treerag_core.chat.threads import (
    add_turn,
    create_thread,
    get_thread,
    list_threads,
    make_turn,
    set_feedback,
)
from treerag_core.library.indexing import index_upload
from treerag_core.store import open_store

ROOT = Path(__file__).resolve().parents[1]
ANA = Principal("ana@example.com", groups=frozenset({"hr"}))
ADMIN = Principal("root@example.com", admin=True)
POLICY = b"# Leave\nTwenty-five days of paid leave a year.\n\n# Travel\nEconomy class.\n"


def migrate(source: str, target: str) -> str:
    """The command as an operator runs it, in its own process."""
    done = subprocess.run(
        [sys.executable, "-m", "treerag_core", "migrate", "--from", source, "--to", target],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def filled_registry(folder: Path) -> tuple[str, dict, dict, dict]:
    """A registry file with a collection, an upload in it, a document from a path, a thread
    with a thumbs-down turn saved into the regression set."""
    reg = str(folder / "reg.json")
    set_collection_access("hr", readers=["hr"], editors=["hr"], registry_path=reg)
    upload = index_upload("policy.md", POLICY, registry_path=reg, collection="hr")
    notes = folder / "notes.md"
    notes.write_text("# Notes\nThe office opens at nine.\n")
    local = index_document(str(notes), summarizer=make_summarizer(None), registry_path=reg)
    thread = create_thread([upload["doc_id"]], "leave", reg, ANA)
    add_turn(thread["thread_id"], make_turn("How much leave?", "Not sure."), reg, ANA)
    set_feedback(thread["thread_id"], 0, "down", "It is in Leave", reg, ANA)
    save_regression_question(thread["thread_id"], 0, upload["doc_id"], [1], reg, ANA)
    return reg, upload, local, thread


def test_a_registry_file_moves_into_postgresql_whole(tmp_path: Path, pg_url: str) -> None:
    reg, upload, local, thread = filled_registry(tmp_path)
    out = migrate(reg, pg_url)
    assert "2 documents" in out and "1 threads" in out and "1 saved questions" in out

    assert {r["doc_id"] for r in list_documents(pg_url)} == {upload["doc_id"], local["doc_id"]}
    moved = get_document_by_id(upload["doc_id"], pg_url)
    assert moved["flat_nodes"] == get_document_by_id(upload["doc_id"], reg)["flat_nodes"]
    store = open_store(pg_url)
    assert moved["collection"] == "hr" and store.collections()["hr"]["readers"] == ["hr"]
    assert store.sources.read(moved["file_path"]) == POLICY  # every replica can show it
    local_moved = get_document_by_id(local["doc_id"], pg_url)
    assert store.sources.read(local_moved["file_path"]) == (tmp_path / "notes.md").read_bytes()
    # Access rules and conversations came along: Ana reads the HR document and her thread.
    assert [r["doc_id"] for r in list_documents(pg_url, principal=ANA)] == [upload["doc_id"]]
    assert get_thread(thread["thread_id"], pg_url, ANA)["turns"][0]["feedback"]["verdict"] == (
        "down"
    )
    assert [q["question"] for q in regression_questions(pg_url, ANA)] == ["How much leave?"]
    audit = read_audit_log(pg_url, principal=ADMIN)
    assert audit[0]["action"] == "migrate"  # newest first; the file's entries before it
    # A re-upload of the same file updates the migrated document (its identity is kept).
    again = index_upload("policy.md", POLICY, registry_path=pg_url, collection="hr",
                         overwrite=True)  # fmt: skip
    assert again["doc_id"] == upload["doc_id"] and len(list_documents(pg_url)) == 2

    logged = len(read_audit_log(pg_url, principal=ADMIN))
    migrate(reg, pg_url)  # run twice (an interrupted migration is simply run again)
    assert len(list_documents(pg_url)) == 2 and len(list_threads(pg_url, ANA)) == 1
    assert len(regression_questions(pg_url, ANA)) == 1
    assert len(read_audit_log(pg_url, principal=ADMIN)) == logged + 1  # the 'migrate' line
    store.close()


def test_and_back_from_postgresql_into_a_file(tmp_path: Path, pg_url: str) -> None:
    reg, upload, _, thread = filled_registry(tmp_path / "first")
    migrate(reg, pg_url)
    back = str(tmp_path / "back" / "reg.json")
    migrate(pg_url, back)
    assert len(list_documents(back)) == 2
    doc = get_document_by_id(upload["doc_id"], back)
    assert open_store(back).sources.read(doc["file_path"]) == POLICY
    assert list_threads(back, ANA)[0]["thread_id"] == thread["thread_id"]
    assert len(regression_questions(back, ANA)) == 1
