"""What the store keeps for access: the schema-1 → 2 migration, the append-only audit log
under concurrent writer processes, and the identity modes' pure decisions."""

from __future__ import annotations

import gzip
import json
import multiprocessing
import os
from pathlib import Path

import pytest

from testkit.pg_server import query
from treerag_core import ConfigError, get_document_by_id, index_document, list_documents
from treerag_core.access.audit import read_audit_log, record
from treerag_core.access.collections import set_collection_access
from treerag_core.access.identity import (
    auth_settings,
    principal_from_claims,
    principal_from_headers,
)
from treerag_core.access.principal import Principal
from treerag_core.errors import NotSignedInError
from treerag_core.settings import load
from treerag_core.store import open_store

WRITERS = 6
ENTRIES = 40


def _schema1_registry(tmp_path: Path) -> tuple[str, list[dict]]:
    """A registry as treerag wrote it before collections: rows and documents without a
    collection, ``_meta`` at schema 1."""
    reg = str(tmp_path / "old.json")
    docs = []
    for name in ("a", "b"):
        source = tmp_path / f"{name}.md"
        source.write_text(f"# {name.upper()}\n{name} text\n## Sub\nmore {name}\n")
        docs.append(index_document(str(source), registry_path=reg, verbose=False))
    data = json.loads(Path(reg).read_text())
    for row in data["documents"].values():
        del row["collection"]
    data["_meta"] = {"1": {"schema_version": 1}}
    Path(reg).write_text(json.dumps(data))
    for doc in docs:
        compressed = tmp_path / "old.docs" / f"{doc['doc_id']}.json.gz"
        stored = json.loads(gzip.decompress(compressed.read_bytes()))
        del stored["collection"]
        stored["schema_version"] = 1
        compressed.unlink()  # schema 1 kept plain JSON files
        (tmp_path / "old.docs" / f"{doc['doc_id']}.json").write_text(json.dumps(stored))
    return reg, docs


def test_schema1_registry_migrates_to_default_without_losing_anything(tmp_path: Path) -> None:
    reg, docs = _schema1_registry(tmp_path)
    old_bytes = Path(reg).read_bytes()
    rows = list_documents(reg)  # the first open migrates
    assert sorted(r["doc_id"] for r in rows) == sorted(d["doc_id"] for d in docs)
    assert {r["collection"] for r in rows} == {"default"}
    data = json.loads(Path(reg).read_text())
    assert data["_meta"]["1"]["schema_version"] == 2
    assert Path(reg + ".schema1.bak").read_bytes() == old_bytes
    for doc in docs:
        loaded = get_document_by_id(doc["doc_id"], reg)
        assert loaded["flat_nodes"] == doc["flat_nodes"] and loaded["collection"] == "default"
    # Admins see the migrated documents; nobody else until an admin grants the collection.
    admin, someone = Principal("root", admin=True), Principal("ana", frozenset({"staff"}))
    assert len(list_documents(reg, admin)) == 2 and list_documents(reg, someone) == []
    set_collection_access("default", readers=["staff"], registry_path=reg)
    assert len(list_documents(reg, someone)) == 2
    # The next save of a document replaces its plain file with the compressed one.
    Path(docs[0]["file_path"]).write_text("# A\nchanged text\n")
    again = index_document(docs[0]["file_path"], registry_path=reg, verbose=False)
    assert again["doc_id"] == docs[0]["doc_id"]
    assert sorted(p.name for p in (tmp_path / "old.docs").iterdir()) == sorted(
        [f"{docs[0]['doc_id']}.json.gz", f"{docs[1]['doc_id']}.json"]
    )


def test_a_registry_from_a_newer_schema_is_refused(tmp_path: Path) -> None:
    from treerag_core import RegistryError

    reg = tmp_path / "new.json"
    reg.write_text(json.dumps({"_meta": {"1": {"schema_version": 3}}, "documents": {}}))
    with pytest.raises(RegistryError, match="newer treerag"):
        list_documents(str(reg))


def _audit_writer(args: tuple[str, str, int]) -> int:
    reg, folder, worker = args
    store = open_store(reg)
    who = Principal(f"user{worker}@example.com")
    for n in range(ENTRIES):
        record(store, who, "export", doc_id=f"w{worker}-{n}", detail="x" * (n * 37 % 500))
        if n % 10 == 0:  # documents written between entries, under the same lock
            source = Path(folder) / f"w{worker}-{n}.md"
            source.write_text(f"# Doc {worker} {n}\ntext\n")
            index_document(str(source), registry_path=reg, verbose=False)
    return worker


def test_audit_entries_from_concurrent_processes_are_never_lost(
    tmp_path: Path, any_registry
) -> None:
    reg = any_registry.url
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(WRITERS) as pool:
        assert sorted(
            pool.map(_audit_writer, [(reg, str(tmp_path), w) for w in range(WRITERS)])
        ) == list(range(WRITERS))
    entries = read_audit_log(reg)
    exports = [e for e in entries if e["action"] == "export"]
    assert len(exports) == WRITERS * ENTRIES
    assert {e["doc_id"] for e in exports} == {
        f"w{w}-{n}" for w in range(WRITERS) for n in range(ENTRIES)
    }
    indexes = [e for e in entries if e["action"] == "index"]
    assert len(indexes) == WRITERS * (ENTRIES // 10) and all(e["outcome"] == "ok" for e in indexes)
    if any_registry.is_file:
        lines = (tmp_path / "reg.audit.jsonl").read_bytes().splitlines()
        assert len(lines) == len(entries) and all(json.loads(line) for line in lines)
    else:  # insert-only: the database refuses to change or remove an entry
        assert query(reg, "SELECT count(*) FROM audit_log") == [(len(entries),)]
        import psycopg

        for statement in ("UPDATE audit_log SET entry = '{}'", "DELETE FROM audit_log",
                          "TRUNCATE audit_log"):  # fmt: skip
            with pytest.raises(psycopg.Error, match="append-only"):
                query(reg, statement)
        assert len(read_audit_log(reg)) == len(entries)


def test_a_torn_last_line_is_skipped_and_the_next_entry_starts_clean(tmp_path: Path) -> None:
    reg = str(tmp_path / "reg.json")
    store = open_store(reg)
    record(store, None, "export", detail="first")
    with open(tmp_path / "reg.audit.jsonl", "ab") as fh:
        fh.write(b'{"at": "2026-12-01", "who": "crash')  # a writer killed mid-append
    record(store, None, "export", detail="second")
    assert [e["detail"] for e in read_audit_log(reg)] == ["second", "first"]
    size = os.path.getsize(tmp_path / "reg.audit.jsonl")
    record(store, None, "export", detail="third")
    assert (tmp_path / "reg.audit.jsonl").read_bytes()[:size].endswith(b"\n")  # append only


def test_identity_modes_decide_without_a_request() -> None:
    settings = auth_settings(load(auth="proxy", admins="ops, Root@Example.com"))
    assert settings.team and settings.mode == "proxy"
    with pytest.raises(NotSignedInError):
        principal_from_headers({}, settings)
    with pytest.raises(NotSignedInError):
        principal_from_headers({"X-Forwarded-Groups": "ops"}, settings)  # groups alone: no one
    ana = principal_from_headers(
        {"x-forwarded-email": "Ana@Example.com", "X-Forwarded-Groups": "hr, eng staff"}, settings
    )
    assert ana == Principal("ana@example.com", frozenset({"hr", "eng", "staff"}))
    assert principal_from_headers({"X-Forwarded-User": "bob", "X-Forwarded-Groups": "ops"},
                                  settings).admin  # fmt: skip
    assert principal_from_headers({"X-Forwarded-User": "root@example.com"}, settings).admin
    custom = auth_settings(load(auth="proxy", proxy_user_header="Remote-User"))
    assert principal_from_headers({"remote-user": "carl"}, custom).user == "carl"
    oidc = auth_settings(load(auth="oidc", oidc_groups_claim="roles"))
    dora = principal_from_claims({"email": "dora@example.com", "roles": ["HR"]}, oidc)
    assert dora.groups == frozenset({"hr"}) and not dora.admin
    assert principal_from_claims({"sub": "42"}, oidc).user == "42"
    with pytest.raises(NotSignedInError):
        principal_from_claims({"name": "no id"}, oidc)
    assert not auth_settings(load()).team
    with pytest.raises(ConfigError, match="TREERAG_AUTH"):
        auth_settings(load(auth="ldap"))
