"""One measurement of treerag 0.1.5 in a fresh process of its own venv; prints one JSON line.

Runs as a plain script under the throwaway venv's python, so it imports only the standard
library and treerag (never this project). Mirrors ``worker_ours.py`` op for op.
"""

import copy
import json
import sys
import time
import uuid


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


def op_index(path):
    from treerag import index_document

    started = time.perf_counter()
    doc = index_document(path, persist=False, verbose=False)
    seconds = time.perf_counter() - started
    return {
        "seconds": seconds,
        "sections": doc["total_sections"],
        "outline_chars": len(doc["tree_outline"]),
    }


def op_prefill(reg, *paths):
    """49 entries exactly as index_document would store them, written in ONE save.

    Inserting them one by one costs treerag ~10 minutes (each insert rewrites the whole
    file); only the 50th insert is measured, so the registry is built directly.
    """
    from treerag import index_document, save_registry

    base = index_document(paths[0], persist=False, verbose=False)
    registry = {}
    for path in paths:
        entry = copy.deepcopy(base)
        entry["doc_id"] = str(uuid.uuid4())
        entry["file_name"] = path.rsplit("/", 1)[-1]
        entry["file_path"] = path
        registry[entry["doc_id"]] = entry
    save_registry(registry, reg)
    return {"doc_ids": list(registry)}


def op_insert(path, reg):
    from treerag import index_document

    started = time.perf_counter()
    doc = index_document(path, registry_path=reg, verbose=False)
    return {"seconds": time.perf_counter() - started, "doc_id": doc["doc_id"]}


def op_list(reg):
    from treerag import list_documents

    started = time.perf_counter()
    rows = list_documents(reg)
    return {"seconds": time.perf_counter() - started, "count": len(rows)}


def op_get(reg, doc_id):
    from treerag import get_document_by_id

    started = time.perf_counter()
    doc = get_document_by_id(doc_id, reg)
    return {"seconds": time.perf_counter() - started, "sections": len(doc["flat_nodes"])}


def op_summarize(path, count, workers, url):
    from langchain_openai import ChatOpenAI
    from treerag import make_summarizer, parse_sections, read_file

    sections = parse_sections(read_file(path))[: int(count)]
    for i, sec in enumerate(sections):
        sec.setdefault("node_id", f"{i:04d}")
    llm = ChatOpenAI(model="fake", base_url=url, api_key="not-needed", max_retries=0, timeout=30)
    summarizer = make_summarizer(llm, max_workers=int(workers))
    import contextlib
    import io

    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):  # it prints one line per section
        summarizer(sections)
    return {"seconds": time.perf_counter() - started, "calls": len(sections)}


def op_tokens(path, question):
    """treerag sends the whole outline on every question (its only mode)."""
    from treerag import index_document
    from treerag.retriever import DEFAULT_SEARCH_SYSTEM_PROMPT, DEFAULT_SEARCH_USER_PROMPT

    doc = index_document(path, persist=False, verbose=False)
    prompt = DEFAULT_SEARCH_USER_PROMPT.format(query=question, tree_outline=doc["tree_outline"])
    chars = len(DEFAULT_SEARCH_SYSTEM_PROMPT) + len(prompt)
    return {
        "single_pass_tokens": chars // 4,
        "single_pass_calls": 1,
        "outline_chars": len(doc["tree_outline"]),
    }


OPS = {
    "index": op_index,
    "prefill": op_prefill,
    "insert": op_insert,
    "list": op_list,
    "get": op_get,
    "summarize": op_summarize,
    "tokens": op_tokens,
}


def main(argv):
    op, *args = argv
    if op not in OPS:
        result = {"error": f"not supported by treerag 0.1.5: {op}"}
    else:
        try:
            result = OPS[op](*args)
        except Exception as exc:  # noqa: BLE001
            result = {"error": f"{type(exc).__name__}: {exc}"[:300]}
    result["peak_rss_mb"] = peak_rss_mb()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
