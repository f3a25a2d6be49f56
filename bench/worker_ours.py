"""One measurement of *our* library in a fresh process; prints one JSON line.

Why a fresh process per measurement: peak RSS (``ru_maxrss``) only ever grows, so each
figure needs its own process; and treerag is measured the same way (``worker_peer.py``).
Usage: ``python -m bench.worker_ours OP ARGS...`` (see :func:`main`).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any


def peak_rss_mb() -> float:
    """Peak resident set size of this process: VmHWM, which belongs to this process image.

    (``getrusage``'s ``ru_maxrss`` survives ``exec`` on Linux, so a worker started by a big
    parent would report the parent's peak.)
    """
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def op_index(path: str) -> dict[str, Any]:
    from treerag_core import index_document

    started = time.perf_counter()
    doc = index_document(path, persist=False, verbose=False)
    seconds = time.perf_counter() - started
    return {
        "seconds": seconds,
        "sections": doc["total_sections"],
        "pages": doc.get("total_pages"),
        "outline_chars": len(doc["tree_outline"]),
    }


def op_prefill(reg: str, *paths: str) -> dict[str, Any]:
    from treerag_core import index_document

    ids = [index_document(p, registry_path=reg, verbose=False)["doc_id"] for p in paths]
    return {"doc_ids": ids}


def op_insert(path: str, reg: str) -> dict[str, Any]:
    from treerag_core import index_document

    started = time.perf_counter()
    doc = index_document(path, registry_path=reg, verbose=False)
    return {"seconds": time.perf_counter() - started, "doc_id": doc["doc_id"]}


def op_list(reg: str) -> dict[str, Any]:
    from treerag_core import list_documents

    started = time.perf_counter()
    rows = list_documents(reg)
    return {"seconds": time.perf_counter() - started, "count": len(rows)}


def op_get(reg: str, doc_id: str) -> dict[str, Any]:
    from treerag_core import get_document_by_id

    started = time.perf_counter()
    doc = get_document_by_id(doc_id, reg)
    return {"seconds": time.perf_counter() - started, "sections": len(doc["flat_nodes"])}


def op_summarize(path: str, count: str, workers: str, url: str) -> dict[str, Any]:
    from langchain_openai import ChatOpenAI

    from treerag_core import index_document
    from treerag_core.summarize.summarizers import make_summarizer

    doc = index_document(path, persist=False, verbose=False)
    nodes = list(doc["flat_nodes"].values())[: int(count)]
    llm = ChatOpenAI(model="fake", base_url=url, api_key="not-needed", max_retries=0, timeout=30)
    summarizer = make_summarizer(llm, max_workers=int(workers))
    started = time.perf_counter()
    result = summarizer(nodes)
    seconds = time.perf_counter() - started
    stats = result.get("stats", {})
    return {"seconds": seconds, "calls": stats.get("calls"), "fallbacks": stats.get("fallbacks")}


def op_ask(path: str, *questions: str) -> dict[str, Any]:
    from treerag_core import ask, index_document, make_retriever

    doc = index_document(path, persist=False, verbose=False)
    retriever = make_retriever()  # no model: the offline engine
    times = []
    for question in questions:
        started = time.perf_counter()
        ask(question, doc, retriever, return_raw=False)
        times.append(time.perf_counter() - started)
    times.sort()
    return {"seconds": times[len(times) // 2], "questions": len(times)}


def op_tokens(path: str, question: str) -> dict[str, Any]:
    """Tokens one question sends to the search model: whole outline vs level by level."""
    from bench.navigation_tokens import navigation_tokens
    from treerag_core import index_document

    doc = index_document(path, persist=False, verbose=False)
    result = navigation_tokens(doc, question)
    # Worst case we expect: summaries on every outline line, the model opening the full beam.
    from treerag_core.navigate.base import NavigationConfig
    from treerag_core.summarize.summarizers import offline_summarizer

    rich = index_document(path, summarizer=offline_summarizer, persist=False, verbose=False)
    wide = navigation_tokens(rich, question, open_per_level=NavigationConfig().beam_width)
    result["summaries_outline_chars"] = wide["outline_chars"]
    result["summaries_wide_tokens"] = wide["default_tokens"]
    result["summaries_wide_calls"] = wide["default_calls"]
    return result


OPS = {
    "index": op_index,
    "prefill": op_prefill,
    "insert": op_insert,
    "list": op_list,
    "get": op_get,
    "summarize": op_summarize,
    "ask": op_ask,
    "tokens": op_tokens,
}


def main(argv: list[str]) -> int:
    op, *args = argv
    try:
        result = OPS[op](*args)
    except Exception as exc:  # noqa: BLE001 - reported as a figure, not a crash of the bench
        result = {"error": f"{type(exc).__name__}: {exc}"[:300]}
    result["peak_rss_mb"] = peak_rss_mb()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
