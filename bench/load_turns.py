"""``python -m bench.load_turns``: what one more question costs in a long conversation.

One person (Debian's Chromium, headless) asks ``--turns`` questions in one conversation on
the chat page, cycling through a 10-K's question, follow-up and next question, against one
``streamlit run app.py`` with the offline engine. Per turn: the browser's and the server's
CPU-seconds for that question (``/proc``) and the answer time. A page that redraws the
whole conversation for every question costs more with every turn; ``--baseline REF`` runs
the app as it was at git ``REF`` in the same run. The first person only warms the server
up; the figures are the median of ``--people`` people after it, one after another. Writes
``bench/results/load_turns.{json,md}``.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import time
from pathlib import Path

from bench.load import (
    ANSWER_END,
    ANSWER_TIMEOUT_MS,
    CHROMIUM,
    CHROMIUM_ARGS,
    OUT,
    RESULTS,
    ROOT,
    choose_document,
    extract,
    head_commit,
    load_average,
    open_chat,
    wait_idle,
)
from bench.load_server import Server, browser_cpu_seconds, cpu_seconds, prepare_registry

from .record import write_results

SETTLE_MS = 300  # after the page is idle, late drawing still counts to the question


async def person(browser, server: Server, doc: dict, turns: int) -> list[dict]:  # noqa: ANN001
    context = await browser.new_context(viewport={"width": 1300, "height": 900})
    page = await context.new_page()
    box = await open_chat(page, server.url)
    await choose_document(page, doc["file"], {})
    rows = []
    for number in range(1, turns + 1):
        question, expected = doc["questions"][(number - 1) % len(doc["questions"])]
        browser_before, server_before = browser_cpu_seconds(), cpu_seconds(server.pid)
        asked = time.perf_counter()
        await box.fill(question)
        await box.press("Enter")
        answer = page.get_by_test_id("stChatMessage").nth(2 * number - 1)
        await answer.get_by_text(ANSWER_END).wait_for(state="attached", timeout=ANSWER_TIMEOUT_MS)
        await wait_idle(page)
        answered = time.perf_counter() - asked
        await page.wait_for_timeout(SETTLE_MS)
        browser_after = browser_cpu_seconds()
        shown = expected in await answer.inner_text()
        rows.append(
            {
                "browser_cpu_s": sum(
                    t - browser_before.get(p, 0.0) for p, t in browser_after.items()
                ),
                "server_cpu_s": cpu_seconds(server.pid) - server_before,
                "answer_s": answered,
                "right": shown,
            }
        )
    await context.close()
    return rows


def run_app(root: Path, label: str, turns: int, people: int) -> dict:
    from playwright.async_api import async_playwright

    workdir = OUT / f"turns-{label.split()[0]}"
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    docs = prepare_registry(root, workdir / "indexed_docs.json")

    async def everyone() -> list[list[dict]]:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            runs = [await person(browser, server, docs[i % len(docs)], turns)
                    for i in range(people + 1)]  # fmt: skip
            await browser.close()
        return runs[1:]  # the first warmed the server up

    with Server(root, workdir) as server:
        runs = asyncio.run(everyone())

    def median(key: str, turn: int) -> float:
        return round(statistics.median(run[turn][key] for run in runs), 3)

    return {
        "app": label,
        "browser_cpu_s": [median("browser_cpu_s", t) for t in range(turns)],
        "server_cpu_s": [median("server_cpu_s", t) for t in range(turns)],
        "answer_s": [median("answer_s", t) for t in range(turns)],
        "wrong": sum(not row["right"] for run in runs for row in run),
    }


def table(rows: list[dict]) -> str:
    turns = len(rows[0]["browser_cpu_s"])
    lines = [
        "| app | measure | " + " | ".join(f"turn {t + 1}" for t in range(turns)) + " |",
        "|---|---|" + "---:|" * turns,
    ]
    for row in rows:
        for key, name in (("browser_cpu_s", "browser CPU-s"), ("server_cpu_s", "server CPU-s"),
                          ("answer_s", "answer s")):  # fmt: skip
            lines.append(
                f"| {row['app']} | {name} | " + " | ".join(str(v) for v in row[key]) + " |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load_turns", description=__doc__)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--people", type=int, default=2)
    parser.add_argument("--baseline", help="also measure the app at this git ref")
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    before, started = load_average(), time.time()
    rows = [run_app(ROOT, "this branch", args.turns, args.people)]
    if args.baseline:
        rows.append(run_app(extract(args.baseline), f"baseline ({args.baseline})", args.turns,
                            args.people))  # fmt: skip
    commit = head_commit()
    report = {
        "generated_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "commit": commit,
        "machine": f"load average before {before}, after {load_average()}",
        "seconds": round(time.time() - started),
        "rows": rows,
    }
    text = table(rows)
    md = [
        "# One more question in a long conversation",
        "",
        f"Generated {report['generated_at']} at commit {commit} by `python -m bench.load_turns` "
        f"({report['seconds']} s); {report['machine']}. One person at a time asks "
        f"{args.turns} questions in one conversation (offline engine); medians of "
        f"{args.people} people after a warm-up one. Answers without their figure: "
        + ", ".join(f"{r['app']} {r['wrong']}" for r in rows)
        + ".",
        "",
        text,
        "",
    ]
    write_results("load_turns", report, md, args.results)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
