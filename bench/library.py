"""``python -m bench.library``: the FinanceBench development questions asked of a whole
library (no document named) beside the same questions asked of their own document, in the
same run, offline; and what a library question costs as the library grows.

The library: the 37 shared filings plus up to 1,000 generated documents of other kinds
(policies, manuals, minutes of made-up companies, years and products), indexed once into
``bench/out/library/`` (later runs reuse it). Sizes measured: 37 (the filings alone), 100
and 1,037 documents, each its own collection, so one registry serves all three: a question
at size N is asked in the collections that make up N documents. A registry that holds the 37
filings alone is asked too: its index's term statistics are its own, and they differ.

For each question: the page hit (a gold evidence page among the pages the answer's
references cover, for references into the question's own filing), whether the right filing
is cited at all, and the time. Writes ``bench/results/library.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import time
from pathlib import Path
from typing import Any

from bench import library_arms as arms
from bench import library_second as second

from .record import write_results

BENCH = Path(__file__).resolve().parent
DEV_SET = BENCH.parents[1] / "shared" / "bench" / "financebench" / "questions.jsonl"
OUT = BENCH / "out" / "library"
RESULTS = BENCH / "results"
GENERATED = 1000
ALONE_COLD = "a registry of the 37 filings alone (each filing's statistics built)"
ALONE_WARM = "a registry of the 37 filings alone (statistics read back)"
# The three sizes and the collections that make each: the filings, then generated documents
# in two collections (63 of them make 100, all 1,000 make 1,037).
SIZES = {37: ("filings",), 100: ("filings", "generated-63"), 1037: ("filings", "generated-63",
                                                                     "generated-rest")}  # fmt: skip
KINDS = ("travel policy", "security policy", "expense policy", "user manual", "board minutes",
         "onboarding handbook", "product specification", "incident report")  # fmt: skip
COMPANIES = ("Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne",
             "Soylent", "Tyrell", "Cyberdyne", "Wonka", "Gringotts", "Oscorp", "Aperture")  # fmt: skip


def generated(i: int) -> tuple[str, bytes]:
    """A generated document of another kind: a few sections with figures of its own."""
    company, kind = COMPANIES[i % len(COMPANIES)], KINDS[i // len(COMPANIES) % len(KINDS)]
    year = 2005 + i % 19
    body = [f"# {company} {kind} {year}", "", "## Purpose",
            f"This {kind} of {company} describes how the team works in {year}.", "",
            "## Rules", f"Approval takes {i % 9 + 2} days and the limit is {100 + i} euros.",
            f"Requests go to the {['finance', 'security', 'facilities'][i % 3]} desk.", "",
            "## Figures", f"In {year} the team handled {1000 + 7 * i} requests, "
            f"{i % 40 + 10} percent of them remotely.", ""]  # fmt: skip
    return f"{company.lower()}_{kind.replace(' ', '_')}_{year}_{i}.md", "\n".join(body).encode()


def build(registry: str, log: Any = print, generated_too: bool = True) -> None:
    """Index what the registry does not hold yet: the filings, then the generated ones;
    then make its library index whole (every arm is asked with the same statistics)."""
    from treerag_core import index_document, list_documents, make_summarizer
    from treerag_core.library.catalog import check_library_index, rebuild_library_index
    from treerag_core.library.indexing import index_upload

    have = {row["file_name"] for row in list_documents(registry)}
    summarizer = make_summarizer()
    for path in sorted((DEV_SET.parent / "pdfs").glob("*.pdf")):
        if path.name not in have:
            index_document(str(path), summarizer=summarizer, registry_path=registry,
                           verbose=False, collection="filings")  # fmt: skip
            log(f"indexed {path.name}")
    started = time.perf_counter()
    for i in range(GENERATED if generated_too else 0):
        name, data = generated(i)
        if name not in have:
            collection = "generated-63" if i < 63 else "generated-rest"
            index_upload(name, data, summarizer=summarizer, registry_path=registry,
                         collection=collection)  # fmt: skip
    log(f"generated documents ready in {time.perf_counter() - started:.1f} s")
    report = check_library_index(registry)
    if report["missing"] or report["stale"] or report["orphans"]:
        log(f"library index: {rebuild_library_index(registry)}")


def _pages(refs: list[dict[str, Any]], file_name: str) -> set[int]:
    pages: set[int] = set()
    for ref in refs:
        if ref.get("file_name") == file_name and ref.get("page_start"):
            pages.update(range(ref["page_start"], (ref.get("page_end") or ref["page_start"]) + 1))
    return pages


def _score(item: dict[str, Any], result: dict[str, Any], seconds: float) -> dict[str, Any]:
    name = item["file"].split("/")[-1]
    refs = result.get("references") or []
    library = (result.get("trace") or {}).get("library") or {}
    return {
        "id": item["id"],
        "page_hit": bool(_pages(refs, name) & set(item.get("evidence_pages") or [])),
        "right_document": any(r.get("file_name") == name for r in refs),
        "opened": [d["file_name"] for d in library.get("documents", []) if d.get("kept")],
        "context_tokens": int((result.get("trace") or {}).get("context_chars") or 0) // 4,
        "seconds": round(seconds, 4),
    }


def run_questions(registry: str, questions: list[dict], collections: tuple[str, ...] | None,
                  by_name: dict[str, str]) -> list[dict[str, Any]]:  # fmt: skip
    """Each question asked of its own document (``collections`` None), of the library the
    collections make (a reader of those alone), or of the whole registry (``()``)."""
    from treerag_core import ask, get_document_by_id, make_retriever
    from treerag_core.access.principal import Principal
    from treerag_core.answer.library import ask_library

    retriever = make_retriever()
    rows = []
    for item in questions:
        started = time.perf_counter()
        if collections is None:
            document = get_document_by_id(by_name[item["file"].split("/")[-1]], registry)
            result = ask(item["question"], document, retriever, return_raw=False)
        else:
            reader = Principal("bench", groups=frozenset(collections)) if collections else None
            result = ask_library(item["question"], retriever, registry_path=registry,
                                 principal=reader, return_raw=False)  # fmt: skip
        rows.append(_score(item, result, time.perf_counter() - started))
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    times = sorted(r["seconds"] for r in rows)
    return {
        "questions": len(rows),
        "page_hit_rate": round(sum(r["page_hit"] for r in rows) / len(rows), 4),
        "right_document_cited": round(sum(r["right_document"] for r in rows) / len(rows), 4),
        "opened_median": statistics.median(len(r["opened"]) for r in rows),
        "median_s": round(statistics.median(times), 4),
        "p90_s": round(times[int(0.9 * (len(times) - 1))], 4),
    }


def main(argv: list[str] | None = None) -> int:
    from treerag_core import list_documents
    from treerag_core.access.collections import set_collection_access

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--registry", default=str(OUT / "registry.json"))
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions")
    parser.add_argument("--sizes", default="37,100,1037", help="library sizes to ask at")
    parser.add_argument("--no-write", action="store_true", help="print, write no results")
    parser.add_argument(
        "--only",
        choices=("", "financebench", "second"),
        default="",
        help="one library only (implies --no-write)",
    )
    parser.add_argument(
        "--half",
        choices=("", "tuning"),
        default="",
        help="the second library's tuning half only (while tuning)",
    )
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    build(args.registry)
    if args.only == "second":
        report = run_second(args.registry, args.half)
        for name, rows in (("second", report["rows"]), ("fresh", report["fresh"])):
            print(name, json.dumps({k: v["summary"] for k, v in rows.items()}, indent=1))
        return 0
    missing = arms.build_extras(args.registry)
    # The second library too, before any question: our own questions are asked of the whole
    # registry, which must be the same on a fresh registry's first run as on any later one
    # (built after them, its policies were missing from the first run's whole registry).
    second.build(args.registry, OUT / "second")
    alone = str(OUT / "filings-alone.json")  # a registry that holds the 37 filings only
    build(alone, generated_too=False)
    for registry in (args.registry, alone):  # each document's first question builds them
        shutil.rmtree(Path(registry).with_suffix(".cache") / "ranking", ignore_errors=True)
    for name in ("filings", "generated-63", "generated-rest"):
        set_collection_access(name, readers=[name], registry_path=args.registry)
    questions = [json.loads(line) for line in DEV_SET.open() if line.strip()]
    questions = questions[: args.limit] if args.limit else questions
    by_name = {r["file_name"]: r["doc_id"] for r in list_documents(args.registry)}
    started = time.perf_counter()
    report: dict[str, Any] = {"generated_at": time.strftime("%Y-%m-%d %H:%M:%S UTC",
                                                            time.gmtime()),
                              "questions": len(questions), "rows": {}, "chunks": {},
                              "model": {}}  # fmt: skip
    sizes = [int(n) for n in args.sizes.split(",") if n]
    runs = {"document given": (args.registry, None),
            ALONE_COLD: (alone, ()), ALONE_WARM: (alone, ()),
            **{size_label(n): (args.registry, SIZES[n]) for n in sizes}}  # fmt: skip
    names_in = {alone: {r["file_name"]: r["doc_id"] for r in list_documents(alone)}}
    for label, (registry, collections) in runs.items():
        rows = run_questions(registry, questions, collections, names_in.get(registry, by_name))
        report["rows"][label] = {"summary": summary(rows), "per_question": rows}
        print(label, report["rows"][label]["summary"], flush=True)
    for n in sizes:
        asked = report["rows"][size_label(n)]["per_question"]
        budgets = {r["id"]: r["context_tokens"] for r in asked}
        rows, built = arms.chunk_arm(args.registry, SIZES[n], questions, budgets)
        report["chunks"][str(n)] = {"summary": summary(rows), "build_s": round(built, 2),
                                    "per_question": rows}  # fmt: skip
        report["model"][str(n)] = arms.model_arm(args.registry, SIZES[n], questions)
        print(n, "chunks", report["chunks"][str(n)]["summary"], "model", report["model"][str(n)])
    if args.only == "financebench":
        return 0
    own = arms.run_own(args.registry, arms.own_questions(missing))
    report["own"] = {"summary": arms.own_summary(own), "missing_manuals": missing,
                     "per_question": own}  # fmt: skip
    print("own", report["own"]["summary"], flush=True)
    report["second"] = run_second(args.registry, args.half)
    report["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    report["seconds"] = round(time.perf_counter() - started, 1)
    if not args.no_write:
        _write(report)
    return 0


SECOND_OWN = ("filings", "debian", "policies")  # the second library beside the filings
SECOND_MID = (*SECOND_OWN, "generated-63")  # about 100 documents


def run_second(registry: str, only_half: str = "") -> dict[str, Any]:
    """The second library's questions, in the registry of the 1,037: with the document
    given; asked of the filings, the manuals and the policies (a reader of those: the
    statistics are theirs alone); of about 100 documents; of the whole registry."""
    from treerag_core import list_documents
    from treerag_core.access.collections import set_collection_access

    missing = second.build(registry, OUT / "second")
    for name in ("filings", "debian", "policies"):
        set_collection_access(name, readers=[name], registry_path=registry)
    asked = {name: second.questions(missing, only_half, path) for name, path in second.SETS.items()}
    rows = list_documents(registry)
    own = sum(r.get("collection") in SECOND_OWN for r in rows)
    mid = sum(r.get("collection") in SECOND_MID for r in rows)
    arms_run = {"document given": (None, True),
                f"{own} documents: the filings, the manuals, the policies": (SECOND_OWN, False),
                f"{mid} documents (and 63 generated)": (SECOND_MID, False),
                f"{len(rows)} documents (the whole registry)": ((), False)}  # fmt: skip
    out: dict[str, Any] = {"missing_manuals": missing, "rows": {}, "fresh": {}}
    for label, (collections, given) in arms_run.items():
        for name, items in asked.items():  # "second" rows under "rows", the fresh set apart
            got = second.run(registry, items, collections or None, given)
            where = out["rows"] if name == "second" else out[name]
            where[label] = {"summary": second.summary(got), "per_question": got}
            print(f"{name}:", label, where[label]["summary"], flush=True)
    return out


def size_label(n: int) -> str:
    return f"library of {n} (collections of one registry of 1,037)"


def _write(report: dict[str, Any]) -> None:
    lines = [
        "# Asking the whole library: FinanceBench dev questions, no document named",
        "",
        f"Generated {report['generated_at']} by `python -m bench.library` (offline engine; "
        f"{report['questions']} questions; peak RSS {report['peak_rss_mb']} MB). Each "
        "document's ranking statistics are built by its first question and read back by the "
        "later ones (the registries' ranking caches are emptied at the start): the first "
        "row of the 37 filings alone builds them, the second reads them.",
        "",
        "| asked of | page hit rate | right filing cited | opened (median) | median s | p90 s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label, row in report["rows"].items():
        lines.append(_row(label, row["summary"]))
    for n, row in report["chunks"].items():
        lines.append(_row(f"chunk BM25 over every chunk of the library of {n}, same token "
                          f"budget (index built in {row['build_s']} s)", row["summary"]))  # fmt: skip
    lines += ["", "With a model (the real ChatOpenAI client against the fake server of "
              "`testkit/fake_llm.py`; first questions of the set):", "",
              "| library size | questions | calls per question (median, max) | search-model "
              "tokens per question (median) | of which routing |", "|---:|---:|---:|---:|---:|"]  # fmt: skip
    for n, m in report["model"].items():
        lines.append(f"| {n} | {m['questions']} | {m['median_calls']}, {m['max_calls']} | "
                     f"{m['median_search_tokens']:,.0f} | {m['median_routing_tokens']:,.0f} |")  # fmt: skip
    own = report["own"]
    lines += ["", "Our own questions that name no document (`bench/questions/library_own.jsonl`), "
              "asked of the whole registry" + (f"; manuals missing on this machine: "
              f"{', '.join(own['missing_manuals'])}" if own["missing_manuals"] else "") + ":",
              "", "| questions on | asked | section or page hit | right document cited | "
              "median s |", "|---|---:|---:|---:|---:|"]  # fmt: skip
    for source, s in own["summary"].items():
        lines.append(f"| {source} | {s['questions']} | {s['hit_rate']:.1%} | "
                     f"{s['right_document_cited']:.1%} | {s['median_s']:.3f} |")  # fmt: skip
    lines += _second_lines(report["second"])
    write_results("library", report, lines)


def _second_lines(second_report: dict[str, Any]) -> list[str]:
    missing = second_report["missing_manuals"]
    lines = ["", "The second library (`bench/library_second.py`): Debian's manuals (one its FAQ) "
             "and six generated team policies, 52 questions that name no document, split "
             "by a hash of their id into a tuning half and a held-out half (not looked at "
             "while tuning)" + (f"; manuals missing: {', '.join(missing)}" if missing else "")
             + ". A hit: a reference into the gold document covers a gold page or is the gold "
             "section.", "",
             "| asked of | half | questions | hit | right document | opened (median) | "
             "median s |", "|---|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    lines += _half_rows(second_report["rows"])
    fresh = second_report.get("fresh") or {}
    if fresh:
        lines += ["", "Fresh questions over the same second library "
                  "(`bench/questions/library_fresh.jsonl`), written before routing was changed "
                  "again for #41, split by the same hash; their held-out half was not looked "
                  "at.", "", "| fresh questions, asked of | half | questions | hit | "
                  "right document | opened (median) | median s |",
                  "|---|---|---:|---:|---:|---:|---:|"]  # fmt: skip
        lines += _half_rows(fresh)
    return lines


def _half_rows(rows: dict[str, Any]) -> list[str]:
    lines = []
    for label, row in rows.items():
        for part, s in row["summary"].items():
            lines.append(f"| {label} | {part} | {s['questions']} | {s['hit_rate']:.1%} | "
                         f"{s['right_document_cited']:.1%} | {s['opened_median']} | "
                         f"{s['median_s']:.3f} |")  # fmt: skip
    return lines


def _row(label: str, s: dict[str, Any]) -> str:
    return (f"| {label} | {s['page_hit_rate']:.1%} | {s['right_document_cited']:.1%} "
            f"| {s.get('opened_median', '')} | {s['median_s']:.3f} | {s['p90_s']:.3f} |")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
