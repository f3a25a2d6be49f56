"""What ``bench.pg`` measures, one function per figure, each on a store it is handed.

Kept apart from the runner so the same operation runs against the TinyDB file and the
PostgreSQL database in the same run, on the same documents.
"""

from __future__ import annotations

import copy
import json
import multiprocessing
import random
import statistics
import time
import uuid
from pathlib import Path
from typing import Any

from treerag_core import get_document_by_id, index_document, list_documents
from treerag_core.store import open_store
from treerag_core.types import Document


def timed(fn: Any, runs: int) -> list[float]:
    """Seconds of ``runs`` calls of ``fn()``."""
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out


def clone(template: Document, index: int) -> Document:
    """The template as another document (its own id and source), same size."""
    doc = copy.deepcopy(template)
    doc["doc_id"] = str(uuid.uuid4())
    doc["file_path"] = f"/bench/docs/doc_{index:04d}.md"
    doc["file_name"] = f"doc_{index:04d}.md"
    doc["indexed_at"] = f"2026-12-01 00:{index // 60 % 60:02d}:{index % 60:02d} UTC"
    return doc


def prefill(registry: str, template: Document, start: int, count: int) -> list[str]:
    store = open_store(registry)
    return [store.save(clone(template, start + i))["doc_id"] for i in range(count)]


def registry_ops(
    registry: str, large: Document, small: Document, source: Path, runs: int
) -> dict[str, Any]:
    """49 large documents, then: the 50th insert (save; and index_document end to end),
    list and get with 50 documents; then 950 small ones more, list and get with 1,000."""
    store = open_store(registry)
    ids = prefill(registry, large, 0, 49)
    out: dict[str, Any] = {}

    def insert_50th() -> None:
        doc = store.save(clone(large, 49))
        store.delete(doc["doc_id"])  # back to 49 for the next run

    out["save_50th_s"] = timed(insert_50th, runs)

    def index_50th() -> None:
        doc = index_document(str(source), registry_path=store, overwrite=True, verbose=False)
        store.delete(doc["doc_id"])

    out["index_50th_s"] = timed(index_50th, runs)
    store.save(clone(large, 49))
    out["list_50_s"] = timed(lambda: list_documents(store), runs)
    out["get_50_s"] = timed(lambda: get_document_by_id(ids[0], store), runs)
    prefill(registry, small, 50, 950)
    assert len(store.list()) == 1000
    out["list_1000_s"] = timed(lambda: list_documents(store), runs)
    out["get_1000_s"] = timed(lambda: get_document_by_id(ids[0], store), runs)
    close = getattr(store, "close", None)
    if close:
        close()
    return out


# -- 8 processes x 50 mixed operations ----------------------------------------------------
MIXED_OPS = ("index", "index", "overwrite", "delete", "list", "get")


def _doc_text(tag: str, version: int) -> str:
    return f"# {tag} v{version}\nintro {version}\n## Detail\n" + f"{tag} body " * 50 + "\n"


def mixed_worker(args: tuple[str, str, int, int]) -> dict[str, Any]:
    """One process's operations on one store it opens itself; errors are counted, not raised."""
    registry, folder, worker, ops = args
    rng = random.Random(worker)
    store = open_store(registry)
    own: dict[str, str] = {}
    errors: list[str] = []
    started = time.perf_counter()
    for op_no in range(ops):
        op = rng.choice(MIXED_OPS)
        try:
            if op == "index" or not own:
                path = Path(folder) / f"w{worker}" / f"doc{op_no}.md"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(_doc_text(f"w{worker}-{op_no}", 0))
                own[str(path)] = index_document(str(path), registry_path=store, verbose=False)[
                    "doc_id"
                ]
            elif op == "overwrite":
                path = rng.choice(sorted(own))
                Path(path).write_text(_doc_text(Path(path).stem, op_no))
                index_document(path, registry_path=store, overwrite=True, verbose=False)
            elif op == "delete":
                store.delete(own.pop(rng.choice(sorted(own))))
            elif op == "list":
                list_documents(store)
            else:
                doc = get_document_by_id(own[rng.choice(sorted(own))], store)
                assert len(doc["flat_nodes"]) == doc["total_sections"]
        except Exception as exc:  # noqa: BLE001 - the figure is the error count
            errors.append(f"{op}: {type(exc).__name__}: {exc}"[:200])
    return {"seconds": time.perf_counter() - started, "errors": errors, "kept": len(own)}


def mixed_ops(registry: str, folder: Path, processes: int, ops: int) -> dict[str, Any]:
    ctx = multiprocessing.get_context("spawn")
    started = time.perf_counter()
    with ctx.Pool(processes) as pool:
        results = pool.map(
            mixed_worker, [(registry, str(folder), w, ops) for w in range(processes)]
        )
    wall = time.perf_counter() - started
    errors = [e for r in results for e in r["errors"]]
    kept = sum(r["kept"] for r in results)
    listed = len(open_store(registry).list())
    return {
        "wall_s": wall,
        "ops": processes * ops,
        "ops_per_s": processes * ops / wall,
        "errors": len(errors),
        "error_examples": errors[:3],
        "documents_kept": kept,
        "documents_listed": listed,
        "per_process_s": statistics.median(r["seconds"] for r in results),
    }


# -- layout: the whole document as one JSONB value vs one row per section ------------------
LAYOUT_TABLES = """
CREATE TABLE IF NOT EXISTS bench_whole (doc_id text PRIMARY KEY, body jsonb NOT NULL);
CREATE TABLE IF NOT EXISTS bench_nodes (doc_id text, node_id text, position int, node jsonb,
    PRIMARY KEY (doc_id, node_id));
CREATE TABLE IF NOT EXISTS bench_heads (doc_id text PRIMARY KEY, head jsonb);
"""


def layout_ops(url: str, document: Document, runs: int) -> dict[str, Any]:
    """Save and load one 2,000-section document both ways on the same server, the same way
    (raw SQL on one connection: serialise, write in one transaction; read, parse into one
    dict), so the layouts are compared and not the store's extra work. The store's own
    ``save``/``get`` (advisory lock, listed metadata; tree and outline rebuilt on load) are
    timed beside them."""
    import psycopg
    from psycopg.types.json import Jsonb

    store = open_store(url)
    body = {k: v for k, v in document.items() if k not in ("tree", "tree_outline")}
    doc_id = body["doc_id"]
    out: dict[str, Any] = {}
    out["store_save_s"] = timed(lambda: store.save(dict(body)), runs)
    out["store_get_s"] = timed(lambda: store.get(doc_id), runs)
    with psycopg.connect(url) as conn:
        conn.execute(LAYOUT_TABLES)
        conn.commit()
        head = {k: v for k, v in body.items() if k != "flat_nodes"}
        nodes = list(body["flat_nodes"].values())

        def save_whole() -> None:
            with conn.transaction():
                conn.execute(
                    "INSERT INTO bench_whole VALUES (%s, %s::jsonb) ON CONFLICT (doc_id) "
                    "DO UPDATE SET body = EXCLUDED.body",
                    (doc_id, json.dumps(body, ensure_ascii=False, separators=(",", ":"))),
                )

        def get_whole() -> None:
            row = conn.execute("SELECT body FROM bench_whole WHERE doc_id = %s", (doc_id,))
            doc = dict(row.fetchone()[0])
            assert len(doc["flat_nodes"]) == len(nodes)
            conn.commit()

        def save_nodes() -> None:
            with conn.transaction():
                conn.execute("DELETE FROM bench_nodes WHERE doc_id = %s", (doc_id,))
                conn.execute(
                    "INSERT INTO bench_heads VALUES (%s, %s) ON CONFLICT (doc_id) "
                    "DO UPDATE SET head = EXCLUDED.head",
                    (doc_id, Jsonb(head)),
                )
                with conn.cursor().copy(
                    "COPY bench_nodes (doc_id, node_id, position, node) FROM STDIN"
                ) as copy_in:
                    for i, node in enumerate(nodes):
                        copy_in.write_row((doc_id, node["node_id"], i, json.dumps(node)))

        def get_nodes() -> None:
            head_row = conn.execute(
                "SELECT head FROM bench_heads WHERE doc_id = %s", (doc_id,)
            ).fetchone()
            rows = conn.execute(
                "SELECT node_id, node FROM bench_nodes WHERE doc_id = %s ORDER BY position",
                (doc_id,),
            ).fetchall()
            doc = dict(head_row[0])
            doc["flat_nodes"] = {r[0]: r[1] for r in rows}
            assert len(doc["flat_nodes"]) == len(nodes)
            conn.commit()

        out["jsonb_save_s"] = timed(save_whole, runs)
        out["jsonb_get_s"] = timed(get_whole, runs)
        out["node_table_save_s"] = timed(save_nodes, runs)
        out["node_table_get_s"] = timed(get_nodes, runs)
        conn.commit()
        conn.autocommit = True  # VACUUM runs outside a transaction
        # Rewritten without the dead versions the repeated saves left: the live size only.
        conn.execute("VACUUM FULL bench_whole, bench_nodes, bench_heads")
        sizes = conn.execute(
            "SELECT pg_total_relation_size('bench_whole'), pg_total_relation_size('bench_nodes')"
            " + pg_total_relation_size('bench_heads')"
        ).fetchone()
        out["jsonb_bytes"], out["node_table_bytes"] = sizes
    store.close()
    return out
