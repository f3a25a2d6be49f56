"""Every benchmark in one table: its name for ``python -m bench NAME``, its module, what it
measures, the results file it writes and the headline ``bench/README.md`` shows from it.

A benchmark is added here and nowhere else: ``python -m bench list``, ``python -m bench
NAME`` and ``python -m bench readme`` read this table (``tests/test_bench_catalog.py``
checks that each module exists and that the README is current).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .record import RESULTS

Headline = Callable[[dict[str, Any], str], str]  # (the JSON, the Markdown) -> one line


def pct(value: float) -> str:
    return f"{value:.1%}"


def first_row(_: dict[str, Any], markdown: str) -> str:
    """The first row of the first table, its first cells each with its column's name."""
    rows = [line for line in markdown.splitlines() if line.startswith("|")]
    if len(rows) < 3:
        return "(no table)"

    def cells(line: str) -> list[str]:
        return [c.strip().replace("**", "") for c in line.strip().strip("|").split("|")]

    head, first = cells(rows[0]), cells(rows[2])
    pairs = [f"{h} {v}" for h, v in zip(head[1:], first[1:], strict=False) if v]
    return f"{first[0]}: " + "; ".join(pairs[:4])


def _eval(d: dict[str, Any], _: str) -> str:
    nav, chunks = d["summary"]["navigation"], d["summary"]["chunks"]
    return (
        f"page hit {pct(nav['page_hit_rate'])} of {nav['questions']} questions "
        f"(BM25 chunks {pct(chunks['page_hit_rate'])}); answer has the figure "
        f"{pct(nav['answer_hit_rate'])} of {nav['answer_questions']}"
    )


def _library(d: dict[str, Any], _: str) -> str:
    given = d["rows"]["document given"]["summary"]
    largest = list(d["rows"].values())[-1]["summary"]
    return (
        f"page hit {pct(largest['page_hit_rate'])} asking the library of 1,037 "
        f"({pct(given['page_hit_rate'])} with the document given); right filing cited "
        f"{pct(largest['right_document_cited'])}"
    )


def _structure(d: dict[str, Any], _: str) -> str:
    ours, peer = d["summary"]["ours"], d["summary"]["pymupdf4llm"]
    return f"heading F1 {pct(ours['f1'])} (pymupdf4llm {pct(peer['f1'])})"


def _structure_fresh(d: dict[str, Any], _: str) -> str:
    held, tuning = d["totals"]["held-out"], d["totals"]["tuning"]
    return (
        f"heading F1 on documents nobody tuned on: held-out {pct(held['after']['f1'])} "
        f"(before {pct(held['before']['f1'])}), tuning {pct(tuning['after']['f1'])}"
    )


def _languages(d: dict[str, Any], _: str) -> str:
    texts = [e for e in d["editions"] if e["edition"] == "text"]
    hits = sorted(e["right_section"] for e in texts)
    return (
        f"right section for {pct(hits[len(hits) // 2])} of {d['questions']} questions "
        f"(median over {len(texts)} languages, plain text; lowest {pct(hits[0])})"
    )


def _ocr(d: dict[str, Any], _: str) -> str:
    fb = d["financebench"]
    return (
        f"OCR word recall {pct(d['word_recall'])}, precision {pct(d['word_precision'])}; "
        f"page hit on scanned filings {pct(fb['page_hit_scanned'])} "
        f"(born-digital {pct(fb['page_hit_original'])})"
    )


def _speed(d: dict[str, Any], _: str) -> str:
    targets = [f for f in d["figures"] if f.get("met") is not None]
    met = sum(1 for f in targets if f["met"])
    return f"{met} of {len(targets)} targets met; {len(d['figures'])} figures against treerag 0.1.5"


def _agent_tools(d: dict[str, Any], _: str) -> str:
    s = d["summary"]
    return (
        f"median tokens: ask {s['ask']['median']:,}, search {s['search']['median']:,}, "
        f"whole outline {s['outline']['median']:,}"
    )


def _local_model(d: dict[str, Any], _: str) -> str:
    rows = [f"{way}: page hit {pct(w['summary']['page_hit_rate'])}" for way, w in d["ways"].items()]
    return f"{d['model']}, {d['questions']} questions; " + "; ".join(rows[:2])


def _formats(d: dict[str, Any], _: str) -> str:
    cases = d["cases"]
    found = sum(c["sections_found"] for c in cases), sum(c["sections_expected"] for c in cases)
    values = sum(c["has_value"] for c in cases), sum(c["questions"] for c in cases)
    return (
        f"{len(cases)} files: sections {found[0]}/{found[1]}, answer has the value "
        f"{values[0]}/{values[1]}"
    )


def _tree_quality(d: dict[str, Any], _: str) -> str:
    held = d["totals"]["filings, held-out"]

    def share(side: dict[str, Any]) -> str:
        return pct(side["repeat_parent"] / side["sections"])

    return (
        f"held-out filings: sections repeating their parent's title {share(held['before'])} "
        f"before, {share(held['after'])} after ({held['after']['sections']:,} sections)"
    )


@dataclass(frozen=True)
class Benchmark:
    name: str
    module: str  # run as ``python -m bench NAME`` (or ``python -m MODULE``)
    measures: str
    results: str | None  # bench/results/<results>.{json,md}; None: writes no results file
    headline: Headline = first_row

    def latest(self, folder: Path = RESULTS) -> str:
        """The headline of the latest run, read from its results files."""
        if self.results is None:
            return "prints its figures (no results file)"
        import json

        json_path, md_path = folder / f"{self.results}.json", folder / f"{self.results}.md"
        if not json_path.exists():
            return "not run yet"
        data = json.loads(json_path.read_text(encoding="utf-8"))
        return self.headline(data, md_path.read_text(encoding="utf-8"))


CATALOG: tuple[Benchmark, ...] = (
    Benchmark("financebench", "bench.financebench",
              "retrieval and answers on FinanceBench (65 questions, 37 filings) vs BM25 chunks",
              "eval", _eval),
    Benchmark("library", "bench.library",
              "the same questions asked of a whole library, no document named", "library",
              _library),
    Benchmark("computed", "bench.computed",
              "figures that need arithmetic (FinanceBench dev and our own, held-out half "
              "apart), ours against another checkout's (--code DIR)", "computed"),
    Benchmark("metric_pages", "bench.metric_pages",
              "navigation on questions asking for a computation: the pages of its cells "
              "read, against a base commit (held-out halves apart)", "metric_pages"),
    Benchmark("compared", "bench.compared",
              "comparisons across filings, each cell of the table scored (held-out half "
              "apart)", "compared"),
    Benchmark("sheet_aggregate", "bench.sheet_aggregate",
              "sums, averages and counts over a 50,000-row sheet", "sheet_aggregate"),
    Benchmark("support", "bench.support",
              "the support check: right answers wrongly flagged, wrong answers caught, ms "
              "per answer (held-out halves apart)", "support"),
    Benchmark("self_check", "bench.self_check",
              "the offline engine's answers to questions about the filings' own table rows: "
              "right or not, and checked by the support check (held-out half apart)",
              "self_check"),
    Benchmark("structure", "bench.structure",
              "PDF headings without bookmarks vs pymupdf4llm", "structure", _structure),
    Benchmark("structure_fresh", "bench.structure_fresh",
              "PDF headings without bookmarks on Debian's documentation, before and after, "
              "held-out half apart", "structure_fresh", _structure_fresh),
    Benchmark("tree_quality", "bench.tree_quality",
              "the tree a person sees, before and after, held-out half apart", "tree_quality",
              _tree_quality),
    Benchmark("formats", "bench.formats", "office formats: sections, answers, index time",
              "formats", _formats),
    Benchmark("formats_mail", "bench.formats_mail", "e-books and e-mail", "formats_mail"),
    Benchmark("languages", "bench.languages", "one manual in ten languages", "languages",
              _languages),
    Benchmark("ocr", "bench.ocr", "scans made from born-digital pages (--evidence-only: "
              "highlights on scans, ocr_evidence)", "ocr", _ocr),
    Benchmark("ocr_languages", "bench.ocr_languages", "scans read in their own language",
              "ocr_languages"),
    Benchmark("evidence", "bench.evidence", "locating and drawing a cited passage", "evidence"),
    Benchmark("speed", "bench.speed", "speed and scale against treerag 0.1.5", "speed",
              _speed),
    Benchmark("index_time", "bench.index_time", "index time against a base commit "
              "(--inserts: the first and the 50th insert, index_time_inserts)", "index_time"),
    Benchmark("pg", "bench.pg", "the PostgreSQL store against the file; indexing workers",
              "pg"),
    Benchmark("sources", "bench.sources", "a synced folder and bucket of 500 files",
              "sources"),
    Benchmark("access", "bench.access", "what the access rules cost", "access"),
    Benchmark("agent_tools", "bench.agent_tools", "the agent tools' results in tokens",
              "agent_tools", _agent_tools),
    Benchmark("load", "bench.load", "the chat page under N browsers (--cold: a fresh "
              "server while a filing is indexed; --engine model: load-model)", "load"),
    Benchmark("load_turns", "bench.load_turns", "one more question in a long conversation",
              "load_turns"),
    Benchmark("local_model", "bench.local_model", "a small local model through llama.cpp",
              "local_model", _local_model),
    Benchmark("llm_measure", "bench.llm_measure",
              "indexing with a model at 1, 5 and 10 workers; outline vs document tokens", None),
    Benchmark("walkthrough", "bench.walkthrough",
              "a newcomer's first minutes in Chromium (time to first answer, clicks, no "
              "sideways scroll); writes the README's screenshots", "walkthrough"),
    Benchmark("tree_screenshots", "bench.tree_screenshots",
              "screenshots of the tree browser (docs/screenshots/structure-*.png)", None),
)  # fmt: skip
BY_NAME = {b.name: b for b in CATALOG}


def readme(folder: Path = RESULTS) -> str:
    """``bench/README.md``: every benchmark with its command and its latest headline."""
    lines = [
        "# Benchmarks",
        "",
        "<!-- Written by `python -m bench readme` from bench/catalog.py and bench/results/; "
        "do not edit by hand. -->",
        "",
        "`python -m bench NAME` runs one (`python -m bench` alone: `speed`); `python -m bench "
        "list` lists them. Each writes its latest run to `bench/results/NAME.json` and "
        "`.md` through `bench/record.py`; what the figures mean: "
        "[docs/benchmarks.md](../docs/benchmarks.md). Run anything longer than a minute "
        "under `flock /tmp/treerag-heavy.lock` on a shared machine.",
        "",
        "| name | measures | results | latest headline |",
        "|---|---|---|---|",
    ]
    for b in CATALOG:
        where = f"[{b.results}.md](results/{b.results}.md)" if b.results else "—"
        latest = re.sub(r"\s+", " ", b.latest(folder)).replace("|", "/")
        lines.append(f"| `{b.name}` | {b.measures} | {where} | {latest} |")
    return "\n".join(lines) + "\n"
