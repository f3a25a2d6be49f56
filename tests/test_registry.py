import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from testkit.pg_server import query
from treerag_core import (
    DocumentNotFoundError,
    RegistryError,
    StoreUnavailableError,
    delete_document,
    get_document,
    get_document_by_id,
    index_document,
    list_documents,
    load_registry,
    save_registry,
)
from treerag_core.store import open_store
from treerag_core.store.postgres.schema import SCHEMA_VERSION as PG_SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[1]


def write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def test_registry_round_trip_listing_and_keyed_lookup(tmp_path, any_registry):
    reg = any_registry.url
    a = index_document(write(tmp_path / "a.md", "# A\nalpha\n"), registry_path=reg, verbose=False)
    b = index_document(write(tmp_path / "b.md", "# B\nbeta\n"), registry_path=reg, verbose=False)
    rows = list_documents(reg)
    assert {r["doc_id"] for r in rows} == {a["doc_id"], b["doc_id"]}
    assert all("flat_nodes" not in r and r["name"] == r["file_name"] for r in rows)
    assert get_document_by_id(a["doc_id"], reg)["flat_nodes"]["0000"]["text"] == "alpha"
    assert get_document("b.md", reg)["doc_id"] == b["doc_id"]
    if any_registry.is_file:  # the metadata file stays small: documents live beside it
        assert os.path.getsize(reg) < 4000
        assert sorted(os.listdir(tmp_path / "reg.docs")) == sorted(
            [f"{a['doc_id']}.json.gz", f"{b['doc_id']}.json.gz"]
        )
        assert json.load(open(reg))["_meta"]["1"]["schema_version"] == 2
    else:  # one row per document; the schema is created and stamped on first use
        assert query(reg, "SELECT count(*) FROM documents") == [(2,)]
        assert query(reg, "SELECT max(version) FROM treerag_schema") == [(PG_SCHEMA_VERSION,)]
        assert all(r["size_bytes"] > 0 for r in rows)


def test_same_name_in_two_folders_is_two_documents(tmp_path, any_registry):
    reg = any_registry.url
    one = index_document(write(tmp_path / "x" / "notes.md", "# One\n1\n"), registry_path=reg)
    two = index_document(write(tmp_path / "y" / "notes.md", "# Two\n2\n"), registry_path=reg)
    again = index_document(str(tmp_path / "y" / "notes.md"), registry_path=reg, overwrite=True)
    assert one["doc_id"] != two["doc_id"] and again["doc_id"] == two["doc_id"]
    assert len(list_documents(reg)) == 2
    assert get_document_by_id(one["doc_id"], reg)["flat_nodes"]["0000"]["title"] == "One"


def test_unchanged_source_returns_stored_document_changed_source_reindexes(tmp_path, any_registry):
    reg = any_registry.url
    path = write(tmp_path / "doc.md", "# A\nalpha\n## B\nbeta\n")
    first = index_document(path, registry_path=reg, verbose=False)
    second = index_document(path, registry_path=reg, verbose=False)
    assert second["indexed_at"] == first["indexed_at"] and second["doc_id"] == first["doc_id"]
    write(tmp_path / "doc.md", "# A\nalpha\n## B\nbeta changed\n## C\ngamma\n")
    third = index_document(path, registry_path=reg, verbose=False)
    assert third["doc_id"] == first["doc_id"] and third["total_sections"] == 3
    assert len(list_documents(reg)) == 1


def test_changed_source_reuses_summaries_of_unchanged_sections(tmp_path, any_registry):
    reg = any_registry.url
    calls: list[list[str]] = []

    def summarizer(nodes, progress=None):
        calls.append([n["title"] for n in nodes])
        return {
            "summaries": {
                n["node_id"]: {"summary": f"about {n['title']}", "tags": ["t"]} for n in nodes
            },
            "stats": {"calls": len(nodes)},
        }

    summarizer.signature = "test-v1"
    path = write(tmp_path / "doc.md", "# A\nalpha\n## B\nbeta\n## C\ngamma\n")
    index_document(path, summarizer=summarizer, registry_path=reg, verbose=False)
    write(tmp_path / "doc.md", "# A\nalpha\n## B\nbeta CHANGED\n## C\ngamma\n")
    doc = index_document(path, summarizer=summarizer, registry_path=reg, verbose=False)
    assert calls == [["A", "B", "C"], ["B"]]
    assert doc["stats"]["summaries_reused"] == 2
    assert doc["flat_nodes"]["0002"]["summary"] == "about C"
    assert "— about C | Tags: t" in doc["tree_outline"]
    # A different summarizer never inherits another one's summaries.
    summarizer.signature = "test-v2"
    doc = index_document(path, summarizer=summarizer, registry_path=reg, overwrite=True)
    assert calls[-1] == ["A", "B", "C"] and doc["stats"]["summaries_reused"] == 0


def test_a_container_whose_parts_changed_is_summarised_again(tmp_path, any_registry):
    """A section with no text of its own is summarised by its parts' titles: when a re-read
    finds other parts below it, its summary is written again, though its own title and
    text (its fingerprint) are unchanged."""
    reg = any_registry.url
    calls: list[list[str]] = []

    def summarizer(nodes, progress=None):
        calls.append([n["title"] for n in nodes])
        return {"summaries": {n["node_id"]: {"summary": n["title"], "tags": []} for n in nodes},
                "stats": {"calls": len(nodes)}}  # fmt: skip

    summarizer.signature = "test-v1"
    path = write(tmp_path / "doc.md", "# A\n## B\nbeta\n## C\ngamma\n")
    index_document(path, summarizer=summarizer, registry_path=reg, verbose=False)
    write(tmp_path / "doc.md", "# A\n## B\nbeta\n## D\ngamma\n")
    doc = index_document(path, summarizer=summarizer, registry_path=reg, verbose=False)
    assert calls[-1] == ["A", "D"] and doc["stats"]["summaries_reused"] == 1  # B's alone


def test_delete_and_missing_ids(tmp_path, any_registry):
    reg = any_registry.url
    doc = index_document(write(tmp_path / "a.md", "# A\nx\n"), registry_path=reg)
    assert delete_document(doc["doc_id"], reg) is True
    assert delete_document(doc["doc_id"], reg) is False
    with pytest.raises(DocumentNotFoundError):
        get_document_by_id(doc["doc_id"], reg)
    with pytest.raises(DocumentNotFoundError):
        get_document_by_id("../../etc/passwd", reg)
    if any_registry.is_file:
        assert not os.listdir(tmp_path / "reg.docs")
    else:
        assert query(reg, "SELECT count(*) FROM documents") == [(0,)]


def test_corrupt_registry_raises_and_is_never_overwritten(tmp_path):
    reg = tmp_path / "reg.json"
    reg.write_text('{"documents": {"1": {"doc_id": "x"')  # truncated
    before = reg.read_bytes()
    with pytest.raises(RegistryError, match="not valid JSON"):
        list_documents(str(reg))
    with pytest.raises(RegistryError):
        index_document(write(tmp_path / "a.md", "# A\nx\n"), registry_path=str(reg))
    assert reg.read_bytes() == before


def test_newer_schema_is_refused(tmp_path, any_registry):
    reg = any_registry.url
    if any_registry.is_file:
        Path(reg).write_text(json.dumps({"_meta": {"1": {"schema_version": 99}}, "documents": {}}))
    else:
        list_documents(reg)  # creates the schema
        query(reg, "INSERT INTO treerag_schema (version, description) VALUES (99, 'future')")
    with pytest.raises(RegistryError, match="newer"):
        list_documents(reg)
    with pytest.raises(RegistryError, match="newer"):
        index_document(write(tmp_path / "a.md", "# A\nx\n"), registry_path=reg)


def test_load_and_save_registry_round_trip(tmp_path, any_registry):
    reg = any_registry.url
    a = index_document(write(tmp_path / "a.md", "# A\nx\n"), registry_path=reg)
    index_document(write(tmp_path / "b.md", "# B\ny\n"), registry_path=reg)
    everything = load_registry(reg)
    assert len(everything) == 2
    save_registry({a["doc_id"]: everything[a["doc_id"]]}, str(tmp_path / "copy.json"))
    assert [r["doc_id"] for r in list_documents(str(tmp_path / "copy.json"))] == [a["doc_id"]]
    save_registry({a["doc_id"]: everything[a["doc_id"]]}, reg)
    assert [r["doc_id"] for r in list_documents(reg)] == [a["doc_id"]]


def test_persist_false_touches_no_registry(tmp_path, any_registry):
    reg = any_registry.url
    doc = index_document(write(tmp_path / "a.md", "# A\nx\n"), registry_path=reg, persist=False)
    assert doc["total_sections"] == 1
    if any_registry.is_file:
        assert not Path(reg).exists()
    else:  # not even the schema was created
        assert query(reg, "SELECT to_regclass('documents') IS NULL") == [(True,)]
    json.dumps(doc)  # plain JSON


def _index_many(args):
    folder, reg, worker, count = args
    ids = []
    for i in range(count):
        path = Path(folder) / f"w{worker}" / f"doc{i}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Worker {worker} doc {i}\n" + "text " * 200 + f"\n## Part\nmore {i}\n")
        ids.append(index_document(str(path), registry_path=reg, verbose=False)["doc_id"])
    return ids


def test_several_processes_writing_one_registry_lose_nothing(tmp_path, any_registry):
    reg = any_registry.url
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        results = pool.map(_index_many, [(str(tmp_path), reg, w, 8) for w in range(4)])
    expected = {doc_id for ids in results for doc_id in ids}
    assert len(expected) == 32
    assert {r["doc_id"] for r in list_documents(reg)} == expected
    for doc_id in expected:
        assert get_document_by_id(doc_id, reg)["total_sections"] == 2


@pytest.mark.parametrize("killed_at", ["document file", "registry file"])
def test_process_killed_mid_save_leaves_previous_registry_intact(tmp_path, killed_at):
    reg = str(tmp_path / "reg.json")
    target = reg if killed_at == "registry file" else ".docs"
    kept = index_document(write(tmp_path / "keep.md", "# Keep\nme\n"), registry_path=reg)
    before = Path(reg).read_bytes()
    script = textwrap.dedent(
        f"""
        import os, signal
        import treerag_core.store.file_lock as fl
        real_replace = os.replace
        def die(src, dst):
            if {target!r} in dst:
                os.kill(os.getpid(), signal.SIGKILL)  # killed after the temp write, before the swap
            real_replace(src, dst)
        fl.os.replace = die
        from treerag_core import index_document
        index_document({str(tmp_path / "new.md")!r}, registry_path={reg!r})
        """
    )
    write(tmp_path / "new.md", "# New\n" + "x " * 100000)
    # In ROOT, where ``python -c`` finds the package.
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60, cwd=ROOT)
    assert proc.returncode == -signal.SIGKILL
    assert Path(reg).read_bytes() == before
    assert [r["doc_id"] for r in list_documents(reg)] == [kept["doc_id"]]
    assert get_document_by_id(kept["doc_id"], reg)["flat_nodes"]["0000"]["text"] == "me"
    # The lock died with the process: the next writer goes straight through.
    index_document(str(tmp_path / "new.md"), registry_path=reg, verbose=False)
    assert len(open_store(reg).list()) == 2


def test_an_unreachable_database_is_a_typed_error_that_hides_the_password():
    from conftest import free_port

    url = f"postgresql://treerag:s3cret@127.0.0.1:{free_port()}/nowhere"  # nobody listens
    with pytest.raises(StoreUnavailableError) as info:
        list_documents(url)
    message = str(info.value)
    assert "s3cret" not in message and "treerag:***@127.0.0.1" in message
    assert "PostgreSQL is running" in message


def test_the_database_store_needs_no_psycopg_until_a_database_is_opened(tmp_path):
    """The laptop default never imports psycopg: the CLI runs where it is not installed."""
    script = (
        "import sys, builtins\n"
        "real = builtins.__import__\n"
        "def guard(name, *a, **k):\n"
        "    if name.startswith('psycopg'):\n"
        "        raise ImportError('no psycopg here')\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = guard\n"
        "from treerag_core.cli.main import main\n"
        f"assert main(['--registry', {str(tmp_path / 'r.json')!r}, 'list']) == 0\n"
        "assert main(['--registry', 'postgresql://x@127.0.0.1:1/db', 'list']) == 2\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "needs psycopg" in proc.stderr and "pip install" in proc.stderr
