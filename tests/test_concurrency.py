"""8 processes x 50 mixed operations on one registry (file and PostgreSQL): nothing lost,
nothing half-written."""

import gzip
import json
import multiprocessing
import os
import random
from pathlib import Path

import pytest

from testkit.pg_server import query
from treerag_core import (
    DocumentNotFoundError,
    delete_document,
    get_document_by_id,
    index_document,
    list_documents,
)

WORKERS = 8
OPS = 50
SHARED_FILES = 3


def _doc_text(tag: str, version: int) -> str:
    return f"# {tag} v{version}\nintro {version}\n## Detail\n" + f"{tag} body " * 50 + "\n"


def _worker(args):
    folder, reg, worker = args
    rng = random.Random(worker)
    own: dict[str, str] = {}  # path -> doc_id of this worker's live documents
    counts = {"index": 0, "overwrite": 0, "delete": 0, "list": 0, "get": 0}
    for op_no in range(OPS):
        op = rng.choice(["index", "index", "overwrite", "delete", "list", "get"])
        if op == "index" or (op in {"overwrite", "delete", "get"} and not own):
            path = Path(folder) / f"w{worker}" / f"doc{op_no}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_doc_text(f"w{worker}-{op_no}", 0))
            own[str(path)] = index_document(str(path), registry_path=reg, verbose=False)["doc_id"]
            counts["index"] += 1
        elif op == "overwrite":
            if rng.random() < 0.5:  # a file every worker rewrites
                path = Path(folder) / "shared" / f"s{rng.randrange(SHARED_FILES)}.md"
                # Replaced whole, as an editor saves: write_text truncates first, and another
                # worker reading the file at that moment would index an empty document.
                staged = path.with_name(f".{path.name}.{worker}")
                staged.write_text(_doc_text(path.stem, rng.randrange(1000)))
                os.replace(staged, path)
                index_document(str(path), registry_path=reg, overwrite=True, verbose=False)
            else:
                path = rng.choice(sorted(own))
                Path(path).write_text(_doc_text(Path(path).stem, op_no))
                doc = index_document(path, registry_path=reg, overwrite=True, verbose=False)
                assert doc["doc_id"] == own[path]
            counts["overwrite"] += 1
        elif op == "delete":
            path = rng.choice(sorted(own))
            assert delete_document(own.pop(path), reg) is True
            counts["delete"] += 1
        elif op == "list":
            rows = list_documents(reg)
            assert all(r["doc_id"] and r["total_sections"] >= 1 for r in rows)
            counts["list"] += 1
        else:
            doc = get_document_by_id(own[rng.choice(sorted(own))], reg)
            assert len(doc["flat_nodes"]) == doc["total_sections"]
            counts["get"] += 1
    return own, counts


def test_eight_processes_fifty_operations_each(tmp_path, any_registry):
    reg = any_registry.url
    (tmp_path / "shared").mkdir()
    for i in range(SHARED_FILES):
        (tmp_path / "shared" / f"s{i}.md").write_text(_doc_text(f"s{i}", 0))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(WORKERS) as pool:
        results = pool.map(_worker, [(str(tmp_path), reg, w) for w in range(WORKERS)])
    expected = {doc_id for own, _ in results for doc_id in own.values()}
    total_ops = sum(sum(counts.values()) for _, counts in results)
    assert total_ops == WORKERS * OPS

    rows = list_documents(reg)
    shared_rows = [r for r in rows if "/shared/" in r["file_path"]]
    own_rows = [r for r in rows if "/shared/" not in r["file_path"]]
    assert {r["doc_id"] for r in own_rows} == expected
    # Every worker that touched a shared file replaced the same entry: one per source.
    assert len(shared_rows) == len({r["file_path"] for r in shared_rows}) <= SHARED_FILES
    # Every surviving document is complete; no file is half-written or orphaned.
    for row in rows:
        doc = get_document_by_id(row["doc_id"], reg)
        assert len(doc["flat_nodes"]) == doc["total_sections"] == 2
    if any_registry.is_file:
        docs_dir = tmp_path / "reg.docs"
        assert sorted(os.listdir(docs_dir)) == sorted(f"{r['doc_id']}.json.gz" for r in rows)
        for row in rows:
            json.loads(gzip.decompress((docs_dir / f"{row['doc_id']}.json.gz").read_bytes()))
    else:  # one row per source, its body whole
        assert query(reg, "SELECT count(*), count(DISTINCT file_path) FROM documents") == [
            (len(rows), len(rows))
        ]
        assert query(reg, "SELECT count(*) FROM documents WHERE body ? 'flat_nodes'") == [
            (len(rows),)
        ]
    deleted = sum(c["delete"] for _, c in results)
    indexed = sum(c["index"] for _, c in results)
    assert len(own_rows) == indexed - deleted
    with pytest.raises(DocumentNotFoundError):
        get_document_by_id("00000000-0000-0000-0000-000000000000", reg)
