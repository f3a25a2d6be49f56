"""What the access rules cost: the same registry operations with and without a principal.

``python -m bench.access`` builds a registry of 50 documents in 5 collections (in
``bench/out/access/``), then times in this process, median of 15 runs each, every
operation without a principal (the single-user baseline) and with a reader of one
collection, and the cost of one audit-log append. Prints a table and writes
``bench/results/access.{json,md}``. Ratios are against the baseline measured in the same run.
"""

from __future__ import annotations

import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from treerag_core import get_document_by_id, list_documents, make_retriever
from treerag_core.access.audit import record
from treerag_core.access.collections import set_collection_access
from treerag_core.access.principal import Principal
from treerag_core.answer.ask import ask
from treerag_core.library.indexing import index_upload
from treerag_core.store import open_store

from .record import write_results

OUT = Path(__file__).resolve().parent / "out" / "access"
RESULTS = Path(__file__).resolve().parent / "results"
DOCS, COLLECTIONS, RUNS = 50, 5, 15


def median_ms(fn: Callable[[], object], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def build() -> tuple[str, str]:
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    registry = str(OUT / "reg.json")
    for c in range(COLLECTIONS):
        set_collection_access(f"team{c}", readers=[f"group{c}"], registry_path=registry)
    doc_id = ""
    for n in range(DOCS):
        text = "".join(
            f"# Part {s}\nTeam {n % COLLECTIONS} note {n}.{s} on budgets.\n" for s in range(40)
        )
        doc = index_upload(f"doc{n}.md", text.encode(), registry_path=registry,
                           collection=f"team{n % COLLECTIONS}")  # fmt: skip
        doc_id = doc_id or doc["doc_id"]
    return registry, doc_id


def main() -> None:
    registry, doc_id = build()
    reader = Principal("ana@example.com", frozenset({"group0"}))
    retriever = make_retriever()
    store = open_store(registry)
    rows = []
    pairs = {
        "list_documents (50 docs)": (
            lambda: list_documents(registry),
            lambda: list_documents(registry, reader),
        ),
        "get_document_by_id (40 sections)": (
            lambda: get_document_by_id(doc_id, registry),
            lambda: get_document_by_id(doc_id, registry, reader),
        ),
        "ask by id, offline engine": (
            lambda: ask("budgets note", doc_id, retriever, registry_path=registry),
            lambda: ask(
                "budgets note", doc_id, retriever, principal=reader, registry_path=registry
            ),
        ),
    }
    for name, (plain, guarded) in pairs.items():
        base, with_rules = median_ms(plain), median_ms(guarded)
        rows.append({"operation": name, "no principal ms": round(base, 2),
                     "reader ms": round(with_rules, 2), "ratio": round(with_rules / base, 2)})  # fmt: skip
    append = median_ms(lambda: record(store, reader, "export", doc_id=doc_id), runs=50)
    rows.append({"operation": "one audit-log append (lock + O_APPEND + fsync)",
                 "no principal ms": None, "reader ms": round(append, 2), "ratio": None})  # fmt: skip
    lines = ["| operation | no principal (ms) | reader of one collection (ms) | ratio |",
             "|---|---:|---:|---:|"]  # fmt: skip
    for r in rows:
        base = "—" if r["no principal ms"] is None else f"{r['no principal ms']:.2f}"
        ratio = "—" if r["ratio"] is None else f"{r['ratio']:.2f}"
        lines.append(f"| {r['operation']} | {base} | {r['reader ms']:.2f} | {ratio} |")
    table = "\n".join(lines)
    print(table)
    write_results(
        "access",
        {"runs": RUNS, "rows": rows},
        f"Access rules' cost: median of {RUNS} runs, {DOCS} documents in {COLLECTIONS} "
        "collections, one process.\n\n" + table,
    )


if __name__ == "__main__":
    main()
