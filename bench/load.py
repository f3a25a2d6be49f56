"""``python -m bench.load``: the chat page under load, in real browsers, against one server.

For each N (default 1, 4, 8), N Playwright browser contexts open the chat page at once
(Debian's Chromium, headless) and each asks its questions in turn, all N at the same time:
a question about one of three 10-Ks, then a follow-up, then another question. One
``streamlit run app.py`` serves them all with the offline engine. Measured per N:

- answer time: from pressing Enter to the answer shown complete (the page idle again);
- page-open time: from navigating to the chat page to its chat box ready (all N at once);
- server CPU-seconds per question: the server process's user+system CPU time over the
  asking phase (``/proc/<pid>/stat``; everyone has opened the page and picked a document
  before anyone asks), divided by the questions answered;
- browser CPU-seconds per question: the same for the Chromium processes (the people's side
  runs on the same cores, so it explains how much of an answer's time is the server's);
- errors: timeouts, error boxes or exceptions on a page, answers missing, turns not stored.

``--baseline REF`` runs the same load against the app as it was at git ``REF`` (its files
extracted to ``bench/out/load/baseline-src``) in the same run, for ratios. ``--floor`` runs
it against a bare chat page (``bench/bare_chat.py``: the picker, the question box and the
messages over the same engine), to show what Streamlit's own frontend costs here. Writes
``bench/results/load.{json,md}``. The figures need a quiet machine: say how busy it was.

``--engine model`` asks a model instead: a local fake OpenAI server (``testkit.fake_llm``,
127.0.0.1) picks sections and streams a 150-word answer word by word, ``--token-s`` apart,
through the app's real OpenAI client. It measures what a streamed answer costs the page
(answer times then include the model's own pace). Writes ``load-model.{json,md}``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bench.load_server import (
    DOCS,
    Server,
    browser_cpu_seconds,
    cpu_seconds,
    prepare_registry,
    stored_turns,
)
from testkit.fake_llm import ANSWER, FakeLLM
from testkit.fake_llm import ANSWER_END as MODEL_ANSWER_END

from .record import write_results

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out" / "load"
RESULTS = ROOT / "bench" / "results"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
ANSWER_TIMEOUT_MS = 120_000  # a question not answered in two minutes counts as an error
ANSWER_END = "(Extractive answer from the offline engine"  # every offline answer ends so
PICK_TRIES = 3  # a person clicks the picker again when its list does not open
PICK_TIMEOUT_MS = 15_000
CHECK_TIMEOUT_MS = 5_000  # a shown answer that lacks its figure this long after is wrong
# --engine model: the fake model answers after this long, then streams a word every --token-s
# (50 words a second by default, about a hosted model's pace).
MODEL_DELAY_S = 0.2
TOKEN_S = 0.02


async def wait_idle(page) -> None:  # noqa: ANN001
    """Streamlit shows its status widget ("Running…") while a script or fragment runs."""
    await page.wait_for_timeout(100)
    await page.get_by_test_id("stStatusWidget").wait_for(
        state="detached", timeout=ANSWER_TIMEOUT_MS
    )


async def open_chat(page, url: str):  # noqa: ANN001, ANN201 - Playwright's page and locator
    """Open the chat page and wait until its question box is ready; the box."""
    await page.goto(f"{url}/chat")
    box = page.get_by_test_id("stChatInputTextArea")
    await box.wait_for(state="visible", timeout=ANSWER_TIMEOUT_MS)
    await wait_idle(page)
    return box


async def pick_option(page, picker, file_name: str, record: dict) -> None:  # noqa: ANN001
    for attempt in range(PICK_TRIES):
        await picker.locator("input").fill(file_name)  # filters the options to that one file
        try:
            option = page.get_by_role("option").filter(has_text=file_name).first
            await option.wait_for(timeout=PICK_TIMEOUT_MS)
            break
        except Exception:  # noqa: BLE001 - Playwright's TimeoutError: retry, then give up
            if attempt == PICK_TRIES - 1:
                raise
            record["picker_retries"] = record.get("picker_retries", 0) + 1
            await page.keyboard.press("Escape")
            await wait_idle(page)
    await picker.locator("input").press("Enter")  # picks it (a click can miss under load)
    await page.keyboard.press("Escape")


async def choose_document(page, file_name: str, record: dict) -> None:  # noqa: ANN001
    """Make ``file_name`` the one document in the chat's picker. The picker starts empty
    (the whole library, routed per question) or with a chosen document kept (then not in the
    list of options); another is typed into the filter and picked, trying again if its
    option does not show (up to PICK_TRIES, counted in ``picker_retries``), then every
    other chip is removed."""
    picker = page.get_by_test_id("stMultiSelect")
    # Until the picker's input is drawn it is not ready (a loaded machine can show the chat
    # box first).
    await picker.locator("input").wait_for(timeout=ANSWER_TIMEOUT_MS)
    chosen = picker.locator(f"button[aria-label^='Remove {file_name}']")
    if not await chosen.count():  # not the preselected one: pick it
        await pick_option(page, picker, file_name, record)
    await wait_idle(page)
    others = picker.locator(
        f"button[aria-label^='Remove ']:not([aria-label^='Remove {file_name}'])"
    )
    while await others.count():
        await others.first.click()
        await wait_idle(page)


async def user(browser, url: str, doc: dict, gates: dict, record: dict, answer_end: str) -> None:  # noqa: ANN001
    """One person: open the chat page, pick their document, then (when everyone has) ask
    each question in turn."""
    from playwright.async_api import expect

    context = await browser.new_context(viewport={"width": 1300, "height": 900})
    page = await context.new_page()
    page.on("pageerror", lambda exc: record["errors"].append(f"page error: {exc}"))
    try:
        await gates["open"].wait()
        started = time.perf_counter()
        box = await open_chat(page, url)
        record["open_s"] = time.perf_counter() - started
        await choose_document(page, doc["file"], record)
    except Exception as exc:  # counted; this person asks nothing
        record["errors"].append(f"opening: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
        OUT.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(OUT / f"error-opening-{id(record)}.png"), full_page=True)
        gates["opened"]()
        gates["answered"]()
        await context.close()
        return
    gates["opened"]()
    try:
        await gates["ask"].wait()
        for number, (question, expected) in enumerate(doc["questions"], 1):
            asked = time.perf_counter()
            await box.fill(question, timeout=ANSWER_TIMEOUT_MS)  # the box waits for the last answer
            await box.press("Enter")
            answer = page.get_by_test_id("stChatMessage").nth(2 * number - 1)
            done = answer.get_by_text(answer_end)  # the answer's last line
            await done.wait_for(state="attached", timeout=ANSWER_TIMEOUT_MS)
            await wait_idle(page)
            try:  # the answer as shown once the page is idle (retried: never a mid-draw read)
                await expect(answer).to_contain_text(expected, timeout=CHECK_TIMEOUT_MS)
            except AssertionError:
                shown = " ".join((await answer.inner_text()).split())[:160]
                record["errors"].append(f"answer {number} lacks {expected!r}: {shown}")
            record["answers_s"].append(time.perf_counter() - asked)
        if await page.get_by_test_id("stException").count():
            record["errors"].append("an exception is shown on the page")
        if await page.get_by_test_id("stAlertContentError").count():
            record["errors"].append("an error box is shown on the page")
        gates["answered"]()
        await gates["close"].wait()  # the browsers' CPU is read before any page closes
    except Exception as exc:  # a timeout or a closed page: counted, the others go on
        record["errors"].append(f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
        OUT.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(OUT / f"error-{id(record)}.png"), full_page=True)
        gates["answered"]()
    finally:
        await context.close()


async def level(
    server: Server,
    docs: list[dict],
    n: int,
    answer_end: str = ANSWER_END,
    indexer: Callable[..., Awaitable[dict]] | None = None,
) -> dict:
    """N people open the page at once, then ask at once; the server's CPU per phase.

    ``indexer`` (``bench.load_cold``): one more person, who uploads a document when the
    others open the page; the whole-run CPU then runs until it is indexed too."""
    from playwright.async_api import async_playwright

    records = [{"answers_s": [], "errors": [], "open_s": None} for _ in range(n)]
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        opened: list[int] = []
        answered: list[int] = []
        gates = {"open": asyncio.Event(), "ask": asyncio.Event(), "all_answered": asyncio.Event(),
                 "close": asyncio.Event()}  # fmt: skip
        gates["opened"] = lambda: (opened.append(1), len(opened) == n and gates["ask"].set())
        gates["answered"] = lambda: (
            answered.append(1),
            len(answered) == n and gates["all_answered"].set(),
        )
        tasks = [
            asyncio.create_task(
                user(browser, server.url, docs[i % len(docs)], gates, records[i], answer_end)
            )
            for i in range(n)
        ]
        await asyncio.sleep(0.5)  # every context is created before anyone starts
        cpu_start, wall_start = cpu_seconds(server.pid), time.perf_counter()
        gates["open"].set()
        indexing = asyncio.create_task(indexer(browser, server.url, gates)) if indexer else None
        await gates["ask"].wait()
        await asyncio.sleep(0.2)  # the last picker change settles
        cpu_open = cpu_seconds(server.pid) - cpu_start
        cpu_before, wall_before = cpu_seconds(server.pid), time.perf_counter()
        browser_before = browser_cpu_seconds()
        done = asyncio.gather(*tasks)
        await asyncio.wait(
            [done, asyncio.ensure_future(gates["all_answered"].wait())],
            return_when=asyncio.FIRST_COMPLETED,
        )  # everyone answered (or someone gave up: then their page is already closed)
        cpu, wall = cpu_seconds(server.pid) - cpu_before, time.perf_counter() - wall_before
        browser_after = browser_cpu_seconds()
        browser_cpu = sum(t - browser_before.get(pid, 0.0) for pid, t in browser_after.items())
        gates["close"].set()
        await done
        indexed = await indexing if indexing else {"errors": []}
        cpu_total = cpu_seconds(server.pid) - cpu_start  # opening, asking and any indexing
        wall_total = time.perf_counter() - wall_start
        await browser.close()
    answers = [a for r in records for a in r["answers_s"]]
    opens = [r["open_s"] for r in records if r["open_s"] is not None]
    errors = [e for r in records for e in r["errors"]] + indexed["errors"]
    expected_turns = sum(len(docs[i % len(docs)]["questions"]) for i in range(n))
    if server.threads_dir is not None and server.threads_dir.exists():
        stored = stored_turns(server.threads_dir)
        if stored - server.turns_before != expected_turns:
            errors.append(f"{expected_turns} turns asked, {stored - server.turns_before} stored")
        server.turns_before = stored
    elif server.keeps_threads:
        errors.append("no conversation was stored")
    return {
        "n": n,
        "questions": len(answers),
        "answer_p50_s": round(statistics.median(answers), 2) if answers else None,
        "answer_p95_s": round(percentile(answers, 95), 2) if answers else None,
        "answer_p50_by_turn_s": [
            round(statistics.median([t for t in turn if t is not None]), 2)
            for turn in itertools.zip_longest(*(r["answers_s"] for r in records))
        ],  # the first question also opens the conversation (the sidebar lists it)
        "open_p50_s": round(statistics.median(opens), 2) if opens else None,
        "open_max_s": round(max(opens), 2) if opens else None,
        "server_cpu_open_s": round(cpu_open, 2),
        "server_cpu_asking_s": round(cpu, 2),
        "cpu_per_question_s": round(cpu / max(1, len(answers)), 3),
        "server_cpu_total_s": round(cpu_total, 2),
        "cpu_total_per_question_s": round(cpu_total / max(1, len(answers)), 3),
        "wall_total_s": round(wall_total, 1),
        "indexed_s": indexed.get("seconds"),
        "browser_cpu_per_question_s": round(browser_cpu / max(1, len(answers)), 3),
        "wall_asking_s": round(wall, 1),
        "picker_retries": sum(r.get("picker_retries", 0) for r in records),
        "errors": len(errors),
        "error_examples": errors[:5],
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def run_app(
    root: Path, label: str, ns: list[int], keeps_threads: bool, model: FakeLLM | None = None
) -> list[dict]:
    workdir = OUT / label.split()[0]
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    docs = prepare_registry(root, workdir / "indexed_docs.json")
    env, answer_end = {}, ANSWER_END
    if model is not None:  # every answer is the fake model's: check for its words instead
        env = {"TREERAG_PROVIDER": "openai", "OPENAI_BASE_URL": model.url,
               "OPENAI_API_KEY": "bench-fake-key"}  # fmt: skip
        answer_end, shown = MODEL_ANSWER_END, " ".join(ANSWER.split()[:6])
        docs = [{**d, "questions": [(q, shown) for q, _ in d["questions"]]} for d in docs]
    rows = []
    with Server(root, workdir, env) as server:
        server.keeps_threads = keeps_threads
        # Warm-up, one person per document: imports, each document's first load and its
        # ranking statistics (once per process; the figures are for a server in use).
        asyncio.run(level(server, docs, len(docs), answer_end))
        for n in ns:
            row = asyncio.run(level(server, docs, n, answer_end))
            row["app"] = label
            rows.append(row)
            print(table([row], header=not rows[:-1]), flush=True)
    return rows


def extract(ref: str, name: str = "baseline-src") -> Path:
    """The app as it was at ``ref``, in ``bench/out/load/<name>``."""
    target = OUT / name
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def bare_app() -> Path:
    """The app at HEAD with ``bench/bare_chat.py`` as its chat page (see that file)."""
    target = extract("HEAD", "bare-src")
    shutil.copy(ROOT / "bench" / "bare_chat.py", target / "pages" / "chat.py")
    return target


def table(rows: list[dict], header: bool = True) -> str:
    lines = (
        [
            "| app | N | questions | answer p50 | answer p95 | page open p50 | page open max "
            "| server CPU-s / question | server CPU-s / question, whole run "
            "| browser CPU-s / question | errors |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        if header
        else []
    )
    for r in rows:
        lines.append(
            f"| {r['app']} | {r['n']} | {r['questions']} | {r['answer_p50_s']} s | "
            f"{r['answer_p95_s']} s | {r['open_p50_s']} s | {r['open_max_s']} s | "
            f"{r['cpu_per_question_s']} | {r.get('cpu_total_per_question_s')} | "
            f"{r.get('browser_cpu_per_question_s')} | {r['errors']} |"
        )
    return "\n".join(lines)


def head_commit() -> str:
    return subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__)
    parser.add_argument("--n", type=int, nargs="*", default=[1, 4, 8], help="none: --cold only")
    parser.add_argument("--baseline", help="also measure the app at this git ref (e.g. main)")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--engine", choices=["offline", "model"], default="offline")
    parser.add_argument("--token-s", type=float, default=TOKEN_S)
    parser.add_argument(
        "--floor", action="store_true",
        help="also measure a bare chat page (bench/bare_chat.py) over the same engine",
    )  # fmt: skip
    parser.add_argument(
        "--cold", action="store_true",
        help="also the cold-start arm (bench/load_cold.py): a fresh server, --people asking "
        "while a fourth filing is indexed, then warm, then fresh without the indexing",
    )  # fmt: skip
    parser.add_argument("--people", type=int, default=8, help="people in the --cold arm")
    args = parser.parse_args(argv)
    before = load_average()
    started = time.time()
    with contextlib.ExitStack() as stack:
        model = None
        if args.engine == "model":
            model = stack.enter_context(FakeLLM(delay=MODEL_DELAY_S, token_s=args.token_s))
        rows = run_app(ROOT, "this branch", args.n, True, model) if args.n else []
        if args.baseline:
            baseline = extract(args.baseline)
            rows += run_app(baseline, f"baseline ({args.baseline})", args.n, False, model)
        if args.floor:
            rows += run_app(bare_app(), "bare chat page (floor)", args.n, False, model)
        if args.cold:
            from bench.load_cold import run_cold

            rows += run_cold(args.people)
    after = load_average()
    commit = head_commit()
    report = {
        "generated_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "commit": commit,
        "machine": f"{os.cpu_count()} cores; load average before {before}, after {after}",
        "setup": (
            "one `streamlit run app.py`, "
            + (
                "the offline engine"
                if args.engine == "offline"
                else f"a fake model on 127.0.0.1 streaming 150 words {args.token_s} s apart"
            )
            + ", three 10-Ks "
            f"({', '.join(d['file'] for d in DOCS)}); each person asks "
            f"{len(DOCS[0]['questions'])} questions (a question, a follow-up, another) about "
            "one of them; N people at once in Chromium contexts of one browser"
        ),
        "seconds": round(time.time() - started),
        "rows": rows,
    }
    name = "load" if args.engine == "offline" else "load-model"
    md = [
        "# The chat page under load" + (", answers streamed by a model" if model else ""),
        "",
        f"Generated {report['generated_at']} at commit {commit} by `python -m bench.load"
        f"{' --engine model' if model else ''}` "
        f"({report['seconds']} s). Machine: {report['machine']}. Setup: {report['setup']}.",
        "",
        table(rows),
        "",
    ]
    if args.cold:
        md += [
            "Cold arm (`--cold`, bench/load_cold.py): a fresh server; the people open the page "
            "and ask while one more person uploads a fourth filing, indexed by the server "
            '("whole run": opening, asking and the indexing, children included); then the '
            "same people on the warm server; then another fresh server, nobody uploading.",
            "",
        ]
    for row in rows:
        if row["error_examples"]:
            md.append(f"- {row['app']}, N={row['n']}: " + "; ".join(row["error_examples"]))
    write_results(name, report, md, args.results)
    print(f"wrote {args.results / name}.json and .md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
