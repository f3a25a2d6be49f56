"""``bench.library``'s further arms: our own questions that name no document, the chunk-BM25
baseline over every document's chunks at the same token budget, and the calls and
search-model tokens a library question costs with a model (the fake OpenAI server of
:mod:`testkit.fake_llm`, so the count is the client's real traffic).

Our own questions (``bench/questions/library_own.jsonl``) are asked of the whole registry:
the 1,037 documents plus eight generated team documents (``bench/data/team/``, collection
``team``) and the Debian manuals of the structure set with their bookmarks (gnuplot,
octave, liboctave: collection ``manuals``, from ``gnuplot-doc`` and ``octave-doc``). A
question hits when a reference into one of its documents covers a gold page (filings) or
is the gold section (a title matching its pattern).
"""

from __future__ import annotations

import json
import re
import statistics
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
OWN_QUESTIONS = BENCH / "questions" / "library_own.jsonl"
TEAM = BENCH / "data" / "team"
MANUALS = (
    Path("/usr/share/doc/gnuplot/gnuplot.pdf"),
    Path("/usr/share/doc/octave/octave.pdf"),
    Path("/usr/share/doc/octave/liboctave.pdf"),
)
MODEL_QUESTIONS = 10  # questions asked through the fake model server at each size


def build_extras(registry: str, log: Any = print) -> list[str]:
    """Index the team documents and the manuals the registry lacks; the manuals missing
    from this machine (their Debian packages not installed), by name."""
    from treerag_core import index_document, list_documents

    have = {row["file_name"] for row in list_documents(registry)}
    for path in sorted(TEAM.glob("*.md")):
        if path.name not in have:
            index_document(str(path), registry_path=registry, verbose=False, collection="team")
    missing = []
    for path in MANUALS:
        if not path.exists():
            missing.append(path.name)
        elif path.name not in have:
            index_document(str(path), registry_path=registry, verbose=False,
                           collection="manuals")  # fmt: skip
            log(f"indexed {path.name}")
    return missing


def own_questions(missing: list[str]) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in OWN_QUESTIONS.open() if line.strip()]
    return [r for r in rows if not set(r["files"]) <= set(missing)]


def own_score(item: dict[str, Any], result: dict[str, Any], seconds: float) -> dict[str, Any]:
    refs = [r for r in result.get("references") or [] if r.get("file_name") in item["files"]]
    gold = set(item.get("evidence_pages") or [])
    pages = {p for r in refs if r.get("page_start")
             for p in range(r["page_start"], (r.get("page_end") or r["page_start"]) + 1)}  # fmt: skip
    pattern = re.compile(rf"^(?:{item['section']})$", re.I) if item.get("section") else None
    titled = (
        any(pattern.match(str(r.get("title") or "").strip()) for r in refs) if pattern else False
    )
    return {
        "id": item["id"],
        "source": item["source"],
        "hit": bool(pages & gold) or titled,
        "right_document": bool(refs),
        "seconds": round(seconds, 4),
    }


def run_own(registry: str, questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each own question asked of the whole registry, offline."""
    from treerag_core import make_retriever
    from treerag_core.answer.library import ask_library

    retriever = make_retriever()
    rows = []
    for item in questions:
        started = time.perf_counter()
        result = ask_library(item["question"], retriever, registry_path=registry,
                             return_raw=False)  # fmt: skip
        rows.append(own_score(item, result, time.perf_counter() - started))
    return rows


def own_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    by_source: dict[str, list[dict[str, Any]]] = {"all": rows}
    for row in rows:
        by_source.setdefault(row["source"], []).append(row)
    return {
        source: {
            "questions": len(items),
            "hit_rate": round(sum(r["hit"] for r in items) / len(items), 4),
            "right_document_cited": round(sum(r["right_document"] for r in items) / len(items), 4),
            "median_s": round(statistics.median(r["seconds"] for r in items), 4),
        }
        for source, items in by_source.items()
    }


def chunk_arm(
    registry: str, collections: tuple[str, ...], questions: list[dict[str, Any]],
    budgets: dict[str, int],
) -> tuple[list[dict[str, Any]], float]:  # fmt: skip
    """The chunk baseline: every document of the collections cut into 500-token chunks, one
    BM25 over them all, each question given the best chunks within the token budget its
    library answer used. Returns the rows and the seconds the index took to build."""
    from treerag_core import get_document_by_id, list_documents
    from treerag_core.evaluation.chunks import ChunkIndex, make_chunks, segments_from_nodes

    started = time.perf_counter()
    chunks, owner = [], {}
    for row in list_documents(registry):
        if row.get("collection") in collections:
            document = get_document_by_id(row["doc_id"], registry)
            for chunk in make_chunks(segments_from_nodes(document["flat_nodes"])):
                chunk.index = len(chunks)
                owner[chunk.index] = row["file_name"]
                chunks.append(chunk)
    index = ChunkIndex(chunks)
    built = time.perf_counter() - started
    rows = []
    for item in questions:
        name = item["file"].split("/")[-1]
        started = time.perf_counter()
        picked = index.top_for_budget(item["question"], budgets.get(item["id"], 3000))
        seconds = time.perf_counter() - started
        own = [c for c in picked if owner[c.index] == name]
        pages = {p for c in own for p in c.pages}
        rows.append({"id": item["id"], "page_hit": bool(pages & set(item.get("evidence_pages") or [])),
                     "right_document": bool(own), "opened": [], "seconds": round(seconds, 4)})  # fmt: skip
    return rows, built


def model_arm(
    registry: str, collections: tuple[str, ...], questions: list[dict[str, Any]]
) -> dict[str, Any]:
    """Calls and search-model tokens per library question through the real ChatOpenAI
    client against the fake server (it routes to the first card and reads the outline's
    first sections: the counts, not the answers, are measured)."""
    from langchain_openai import ChatOpenAI

    from testkit.fake_llm import FakeLLM
    from treerag_core import make_retriever
    from treerag_core.access.principal import Principal
    from treerag_core.answer.library import ask_library

    reader = Principal("bench", groups=frozenset(collections))
    calls, tokens, routing = [], [], []
    with FakeLLM(delay=0.0, token_s=0.0) as server:
        llm = ChatOpenAI(model="fake", base_url=server.url, api_key="not-needed",
                         max_retries=0, timeout=30)  # fmt: skip
        retriever = make_retriever(llm, search_llm=llm)
        for item in questions[:MODEL_QUESTIONS]:
            before = server.requests
            result = ask_library(item["question"], retriever, registry_path=registry,
                                 principal=reader, return_raw=False)  # fmt: skip
            use = result["usage"]
            search = use["search"]["input_tokens"] + use["search"]["output_tokens"]
            route = use.get("routing", {}).get("total_tokens", 0)
            calls.append(server.requests - before)
            tokens.append(search + route)
            routing.append(route)
    return {
        "questions": len(calls),
        "median_calls": statistics.median(calls),
        "max_calls": max(calls),
        "median_search_tokens": statistics.median(tokens),
        "median_routing_tokens": statistics.median(routing),
    }
