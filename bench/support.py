"""``python -m bench.support``: does the support check catch wrong answers, and leave right
ones alone?

For each question (the FinanceBench development set and our printed-answer questions, on
the filings indexed by ``python -m bench.financebench --index-only``) the offline engine
navigates and prepares the sections as ``ask`` does; then answers of six kinds are checked
against those sections with :func:`treerag_core.answer.support.check_support`:

(a) the offline engine's own answer; (b) a model's right answer: the gold answer in a fluent
sentence citing the section that holds a gold page (only questions whose gold page was
read, since otherwise the sources do not hold it); (c) that answer with its figure changed
(times 1.1, printed the same way); (d) with the company swapped for another's; (e) an
unrelated fluent answer (another question's right answer, or a generic sentence);
(f) garbled replies (the prompt's markup leaking, a loop, a repeated answer, another
language). Besides FinanceBench and the printed-answer sets, ``questions/
support_computed.jsonl``, ``support_computed2.jsonl`` and ``support_computed3.jsonl``: right
answers computed from a filing's cells (a margin's change in points, a three-year mean,
ratios, CAGR, DSO, sums over line items). Recall: the share of (c)-(f) flagged; false alarms: the share of (a)-(b)
flagged; time: the check's milliseconds per answer.

Every set is split in two halves by a hash of the question's id: the rules were tuned
looking at the first half only; both are reported. A last table runs a few questions end
to end through the real ChatOpenAI client against ``testkit.fake_llm.FakeLLM`` answering
(b) or (e): how often the model's answer is set aside, and whether the answer shown holds
the gold figure. Results: ``bench/results/support.{json,md}``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from bench.financebench import DEV_SET, OUT, OWN_SETS, RESULTS
from bench.record import write_results
from bench.support_answers import ARMS, Case, answers_for, gold_figure

# Right answers computed from a filing's cells in one or two steps (a margin's change in
# points, a ratio of a sum, a three-year average), written for the support check after its
# two-step rules (see bench/README.md): whether the rules reach past the cases they were
# made on.
COMPUTED_KINDS = Path(__file__).parent / "questions" / "support_computed.jsonl"
# 30 more, written 2026-12-05 for issue 38's false alarms on right computed answers (CAGR,
# DSO, DIO, turnover, sums over a line item, payout, coverage, a change in points, answers
# that show their working and answers that do not, a model's other rounding) on five filings
# the set above does not use; only the tuning half's rows were looked at.
COMPUTED_MORE = Path(__file__).parent / "questions" / "support_computed2.jsonl"
# 30 more, written 2026-12-05 after the rules made for the set above still flagged 14-23% of
# a new set's held-out half: the same kinds (margins and their change in points, CAGR,
# current, quick and debt-to-equity ratios, coverage, DSO, DIO, payout, free cash flow in
# billions, sums of line items, a per-share figure; some showing their working, some rounded
# another way) on five filings neither set above uses; only the tuning half's rows were
# looked at.
COMPUTED_THIRD = Path(__file__).parent / "questions" / "support_computed3.jsonl"
SETS = {"FinanceBench dev": DEV_SET, **OWN_SETS, "ours, computed kinds": COMPUTED_KINDS,
        "ours, computed kinds 2": COMPUTED_MORE,
        "ours, computed kinds 3": COMPUTED_THIRD}  # fmt: skip


def half(question_id: str) -> str:
    """ "tuned" or "held out": a fixed split by the id's hash, the same on every machine."""
    digest = hashlib.sha256(question_id.encode()).digest()[0]
    return "tuned" if digest % 2 == 0 else "held out"


def prepared_for(item: dict[str, Any], load: Any, retriever: Any) -> Any:
    """The sections ``ask`` would read for the question, offline."""
    from treerag_core.answer.context import prepare_answer

    document = load(item)
    nav = retriever.navigate(item["question"], document)
    return prepare_answer(item["question"], [document], [nav], retriever, "")


def gold_ref(prepared: Any, pages: list[int], item: dict[str, Any]) -> str:
    """The ref a right answer cites: a section read that holds a gold page, the one whose
    text prints the gold figure's digits if any does (a model cites where it read the
    figure); "" when no gold page was read."""
    figure = gold_figure(item)
    digits = "".join(ch for ch in figure.text if ch.isdigit()) if figure else ""
    holding = []
    for ref, section in zip(prepared.references, prepared.sections, strict=True):
        start, end = ref.get("page_start"), ref.get("page_end") or ref.get("page_start")
        if start and any(start <= p <= end for p in pages):
            holding.append((bool(digits) and digits in section["text"].replace(",", ""),
                            str(ref["ref"])))  # fmt: skip
    printed = [ref for prints, ref in holding if prints]
    return (printed or [ref for _, ref in holding] or [""])[0]


def run_checks(cases: list[Case]) -> list[dict[str, Any]]:
    """Every answer of every case checked; one row per answer. Each is checked twice: as a
    first question on its sections (nothing cut before), and as the app checks an offline
    answer (``ms_cut``: the retriever's memory holds the sentences the offline engine cut
    for its answer from the same sections; a fresh memory for each answer, so no answer
    reads what another's check cut). The verdicts must agree (``same``)."""
    from treerag_core.answer.support import check_support

    rows = []
    for case in cases:
        for arm, text, model in case.answers:
            engine = _Timed(case.engine) if case.engine else None
            started = time.perf_counter()
            support = check_support(text, case.sections, case.question, model=model,
                                    known=case.known, engine=engine,
                                    whole=case.whole)  # fmt: skip
            ms = round(1000 * (time.perf_counter() - started), 2)
            ms_cut, again = _after_engine(case, text, model, check_support)
            alone = ms - (engine.ms if engine else 0.0)
            rows.append({"id": case.id, "set": case.set, "half": case.half, "arm": arm,
                         "printed": case.printed,
                         "flagged": support["flagged"], "set_aside": support["set_aside"],
                         "verdict": support["verdict"], "score": support["score"],
                         "ms": ms, "engine_ms": engine.ms if engine and engine.calls else None,
                         "ms_alone": round(alone, 2), "ms_cut": ms_cut,
                         "same": again["sentences"] == support["sentences"],
                         "text": text[:300]})  # fmt: skip
    return rows


def _after_engine(case: Case, text: str, model: bool, check: Any) -> tuple[float, dict]:
    """The check's milliseconds (and its result) after the offline engine answered from the
    case's sections with a memory of its own, as the app checks an offline answer; the
    engine's computation it asks for is not counted (its table index is warm by now: the
    first check built it), nor in ``ms_alone``, the first check's time it is compared with."""
    from treerag_core.answer.offline.extractive import extractive_answer
    from treerag_core.navigate.ranking import RankingMemory

    memory = RankingMemory()
    extractive_answer(case.question, case.sections, memory=memory)  # not timed: the answer's
    engine = _Timed(case.engine) if case.engine else None
    started = time.perf_counter()
    support = check(text, case.sections, case.question, model=model, known=case.known,
                    engine=engine, whole=case.whole, memory=memory)  # fmt: skip
    ms = 1000 * (time.perf_counter() - started) - (engine.ms if engine else 0.0)
    return round(ms, 2), support


def run_restated(cases: list[Case]) -> list[dict[str, Any]]:
    """Each restated right answer and its changed figure checked: one row per pair."""
    from treerag_core.answer.support import check_support

    rows = []
    for case in cases:
        for kind, text, wrong in case.restated:
            flagged = [
                check_support(t, case.sections, case.question, model=True, known=case.known,
                              engine=case.engine, whole=case.whole)["flagged"]
                if t else None
                for t in (text, wrong)
            ]  # fmt: skip
            rows.append({"id": case.id, "set": case.set, "half": case.half, "kind": kind,
                         "flagged": flagged[0], "changed_caught": flagged[1]})  # fmt: skip
    return rows


def restated_summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per half and kind: right answers restated flagged, and their changed figures caught."""
    out = []
    for part in ("tuned", "held out"):
        for kind in ("notation", "name", "date", "sentence", "all"):
            got = [r for r in rows if r["half"] == part and kind in (r["kind"], "all")]
            changed = [r for r in got if r["changed_caught"] is not None]
            out.append({"half": part, "kind": kind,
                        "flagged": (sum(r["flagged"] for r in got), len(got)),
                        "caught": (sum(r["changed_caught"] for r in changed), len(changed))})  # fmt: skip
    return out


def summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per set and half: false alarms on (a)-(b), recall on (c)-(f), the check's time."""
    out = []
    keys = sorted({(r["set"], r["half"]) for r in rows}, key=lambda k: (k[0], k[1] != "tuned"))
    for name, part in [*keys, ("all", "both")]:
        mine = [r for r in rows if name == "all" or (r["set"] == name and r["half"] == part)]
        line: dict[str, Any] = {"set": name, "half": part,
                                "questions": len({r["id"] for r in mine})}  # fmt: skip
        for arm in ARMS:
            got = [r for r in mine if r["arm"] == arm]
            line[arm] = (sum(r["flagged"] for r in got), len(got))
        good = [r for r in mine if r["arm"] in ARMS[:2]]
        bad = [r for r in mine if r["arm"] in ARMS[2:]]
        line["false_alarms"] = _share(sum(r["flagged"] for r in good), len(good))
        printed = [r for r in good if r["arm"] == ARMS[0] or r["printed"]]
        line["false_alarms_printed"] = _share(sum(r["flagged"] for r in printed), len(printed))
        computed_b = [r for r in good if r["arm"] == ARMS[1] and not r["printed"]]
        line["b_computed"] = (sum(r["flagged"] for r in computed_b), len(computed_b))
        line["recall"] = _share(sum(r["flagged"] for r in bad), len(bad))
        times = [r["ms"] for r in mine]
        line["ms_median"] = round(statistics.median(times), 2) if times else None
        line["ms_p95"] = _p95(times) if times else None
        engine = sorted(r["engine_ms"] for r in mine if r.get("engine_ms") is not None)
        line["engine_asked"] = len(engine)
        line["engine_ms_median"] = round(statistics.median(engine), 2) if engine else None
        line["engine_ms_p95"] = _p95(engine) if engine else None
        out.append(line)
    return out


def times_by_arm(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The check's milliseconds by kind of answer, every set: a garbled reply is looked up
    nowhere, so the p95 over all answers mixes cheap and full checks. ``alone``: without
    the engine's share; ``cut``: that, after the offline engine cut the same sections'
    sentences (``run_checks``)."""
    groups = {arm: [r for r in rows if r["arm"] == arm] for arm in ARMS}
    groups["all but garbled"] = [r for arm in ARMS[:-1] for r in groups[arm]]
    out = []
    for arm, got in groups.items():
        if not got:
            continue
        line: dict[str, Any] = {"arm": arm, "answers": len(got)}
        for key, name in (("ms", ""), ("ms_alone", "_alone"), ("ms_cut", "_cut")):
            times = sorted(r[key] for r in got)
            line[f"ms_median{name}"] = round(statistics.median(times), 2)
            line[f"ms_p95{name}"] = _p95(times)
        line["differ"] = sum(not r["same"] for r in got)
        out.append(line)
    return out


def _p95(values: list[float]) -> float:
    """The 95th percentile as these tables have always given it: the value at that rank."""
    return round(sorted(values)[int(0.95 * (len(values) - 1))], 2)


class _Timed:
    """The engine's results for the check, with the time they took (its share of ``ms``)."""

    def __init__(self, engine: Any) -> None:
        self.engine, self.ms, self.calls = engine, 0.0, 0

    def __call__(self) -> Any:
        started = time.perf_counter()
        try:
            return self.engine()
        finally:
            self.calls += 1
            self.ms += round(1000 * (time.perf_counter() - started), 2)


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def end_to_end(cases: list[Case], load: Any, limit: int) -> list[dict[str, Any]]:
    """A few questions through ``ask`` with the real ChatOpenAI client and the fake server
    answering right (b) or fluently wrong (e): set aside, and the gold figure shown."""
    from langchain_openai import ChatOpenAI

    from testkit.fake_llm import FakeLLM
    from treerag_core.answer.ask import ask
    from treerag_core.answer.retriever import make_retriever
    from treerag_core.navigate.base import NavigationConfig
    from treerag_core.text.figures import figures_in

    rows = []
    with FakeLLM(delay=0.0) as server:
        llm = ChatOpenAI(model="fake", api_key="test", base_url=server.url, max_retries=0)
        retriever = make_retriever(llm, navigation=NavigationConfig(search_mode="offline"))
        runnable = [c for c in cases if any(arm == "b right" for arm, _, _ in c.answers)]
        for case in runnable[:limit]:
            texts = {arm: text for arm, text, _ in case.answers}
            for arm in ("b right", "e unrelated"):
                server.answer = lambda _prompt, t=texts[arm]: t
                result = ask(case.question, load(case.item), retriever, return_raw=False)
                gold = gold_figure(case.item)
                shown = figures_in(result["answer"])
                rows.append({"id": case.id, "arm": arm,
                             "set_aside": bool(result.get("model_answer")),
                             "gold_shown": bool(gold and any(gold.agrees(f) for f in shown)),
                             "verdict": result["support"]["verdict"]})  # fmt: skip
    return rows


def markdown(
    table: list[dict[str, Any]], e2e: list[dict[str, Any]], meta: dict,
    restated: list[dict[str, Any]] | None = None, by_arm: list[dict[str, Any]] | None = None,
) -> str:  # fmt: skip
    lines = [
        "# Support check: wrong answers caught, right ones left alone",
        "",
        f"`python -m bench.support` at {meta['commit']}, {meta['when']}. Answers checked "
        "against the sections the offline engine read for each question; (a) offline "
        "engine, (b) right answer, (c) one figure changed, (d) company swapped, (e) "
        "unrelated fluent answer, (f) garbled (markup, loop, repeat, other language). "
        "Cells: answers flagged / answers. Halves split by a hash of the question id; the "
        "rules were tuned looking at the first half only. 'Gold figure printed': (a) and "
        "those (b) whose gold figure's digits are printed in a section read; the others' "
        "gold answers are computed (a ratio, a margin, a multi-year growth rate) in more "
        "steps than the check reproduces (one operation on two printed figures, a mean "
        "of two or three neighbouring cells of a table row, or, only when the question's "
        "words ask for them, a margin's change in points between the years it names, its "
        "mean over them, or a ratio times a figure it states); a figure found nowhere is "
        "compared with what the offline engine computes for the question from the filing's "
        "tables (to the digits the answer prints). The engine was developed on the "
        "FinanceBench dev arithmetic questions, so its figures there are not fully "
        "independent of these. A figure a cited excerpt does not print is looked for in the "
        "rest of the section it cites (what the citation opens). 'ours, computed kinds': "
        "15 right answers computed by hand from filings in the registry (margins, their "
        "change in points and three-year means, ratios, free cash flow, payout, coverage), "
        "written after the two-step rules to see whether they reach past the cases they "
        "were made on. 'ours, computed kinds 2': 30 more on five other filings (CAGR, DSO, "
        "DIO, turnover, net debt, payout, coverage, a change in points; some showing their "
        "working, some not, some rounded a model's way), written for issue 38; 'ours, computed "
        "kinds 3': 30 more of the same kinds on five further filings, written after the "
        "rules for the second set. A figure "
        "found nowhere is also computed from the rows the question names wherever they were "
        "read (their cells of the asked year: one step, or a sum of up to four rows), and a "
        "result its sentence's own arithmetic does not give is unsupported.",
        "",
        "| set | half | questions | " + " | ".join(ARMS) + " | false alarms (a-b) | "
        "recall (c-f) | false alarms, gold figure printed | (b) computed gold flagged | "
        "ms median | ms p95 |",
        "|---|---|---:|" + "---:|" * (len(ARMS) + 6),
    ]
    for row in table:
        cells = [f"{row[a][0]}/{row[a][1]}" for a in ARMS]
        lines.append(
            f"| {row['set']} | {row['half']} | {row['questions']} | " + " | ".join(cells)
            + f" | {_pct(row['false_alarms'])} | {_pct(row['recall'])} | "
            f"{_pct(row['false_alarms_printed'])} | {row['b_computed'][0]}/{row['b_computed'][1]} "
            f"| {row['ms_median']} | {row['ms_p95']} |"
        )  # fmt: skip
    lines += ["", "The offline engine asked by the check (answers stating a figure found "
              "nowhere else); its milliseconds are part of the check's above (the first answer "
              "on a filing builds that filing's table index, kept for the next):", "",
              "| set | half | answers asking | engine ms median | engine ms p95 |",
              "|---|---|---:|---:|---:|"]  # fmt: skip
    lines += [f"| {r['set']} | {r['half']} | {r['engine_asked']} | {r['engine_ms_median']} | "
              f"{r['engine_ms_p95']} |" for r in table]  # fmt: skip
    lines += [
        "",
        "The check's milliseconds by kind of answer (every set). 'Check alone': without "
        "the engine's share. 'First on its sections': nothing was cut before (a model's "
        "answer to a first question on them); 'after the engine's cut': the retriever's "
        "memory holds the sentences the offline engine cut from the same sections for its "
        "answer (an offline answer as the app checks it, or a later question citing them; "
        "a fresh memory for each answer). 'Verdicts that differ': between the two, every "
        "sentence's.",
        "",
        "| answers | checked | ms median | ms p95 | check alone, first on its sections: ms "
        "median | ms p95 | after the engine's cut: ms median | ms p95 | verdicts that differ |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [f"| {r['arm']} | {r['answers']} | {r['ms_median']} | {r['ms_p95']} | "
              f"{r['ms_median_alone']} | {r['ms_p95_alone']} | "
              f"{r['ms_median_cut']} | {r['ms_p95_cut']} | {r['differ']} |"
              for r in by_arm or []]  # fmt: skip
    lines += _restated_lines(restated or [])
    if e2e:
        lines += ["", "End to end (`ask` through the real ChatOpenAI client against the fake "
                  "server; offline navigation):", "",
                  "| model answers | questions | set aside | answer shown holds the gold figure |",
                  "|---|---:|---:|---:|"]  # fmt: skip
        for arm in ("b right", "e unrelated"):
            got = [r for r in e2e if r["arm"] == arm]
            lines.append(f"| {arm} | {len(got)} | {sum(r['set_aside'] for r in got)} | "
                         f"{sum(r['gold_shown'] for r in got)} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def _restated_lines(restated: list[dict[str, Any]]) -> list[str]:
    """The restated right answers' table (none without them)."""
    if not restated:
        return []
    lines = ["", "Right answers (b) restated the ways people write them, every set: the "
             "figure at another scale or notation ($51.2 billion, $51.2bn, US$51.2B for "
             "51,217 million; 0.68x; 18.3 percent, 18%), the company by its full name "
             "(Nike, Inc., Nike Corporation), the year as FY22 or in fiscal year 2022, "
             "the citation after the stop; each also with its figure changed (times "
             "1.1), which must be caught:", "",
             "| half | restated | right answers flagged | changed figure caught |",
             "|---|---|---:|---:|"]  # fmt: skip
    return lines + [f"| {r['half']} | {r['kind']} | {r['flagged'][0]}/{r['flagged'][1]} | "
                    f"{r['caught'][0]}/{r['caught'][1]} |" for r in restated]  # fmt: skip


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.support", description=__doc__)
    parser.add_argument("--registry", type=Path, default=OUT / "registry.json")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--half", choices=("tuned", "held out", "both"), default="both")
    parser.add_argument("--e2e", type=int, default=8, help="questions run end to end")
    parser.add_argument("--limit", type=int, default=0, help="first N questions (a dry run)")
    parser.add_argument(
        "--set",
        action="append",
        choices=list(SETS),
        dest="sets",
        help="only this set (repeatable; default: every set)",
    )
    parser.add_argument("--no-engine", action="store_true",
                        help="the check without the offline engine's computed figures "
                        "(the figures before it was asked)")  # fmt: skip
    args = parser.parse_args(argv)
    from treerag_core.answer.library import lasting_ranking_memory
    from treerag_core.answer.retriever import make_retriever
    from treerag_core.evaluation.loader import registry_loader
    from treerag_core.store import open_store

    store = open_store(str(args.registry))
    load = registry_loader(store, str(DEV_SET.parent))
    retriever = make_retriever(None, ranking_memory=lasting_ranking_memory(store))
    items = []
    for name, path in SETS.items():
        if args.sets and name not in args.sets:
            continue
        for line in path.read_text().splitlines():
            if line.strip():
                item = json.loads(line)
                if args.half in ("both", half(item["id"])):
                    items.append((name, item))
    items = items[: args.limit] if args.limit else items
    companies = sorted({str(item.get("company") or "") for _, item in items})
    cases = []
    kept = _kept(args.registry.parent / "support-prepared.json")
    code = code_stamp()
    for at, (name, item) in enumerate(items):
        document = load(item)
        stamp = f"{document.get('doc_id')}@{document.get('indexed_at')}@{code}"
        prepared = kept(item["id"], stamp, lambda item=item: prepared_for(item, load, retriever))
        ref = gold_ref(prepared, list(item.get("evidence_pages") or []), item)
        donor = _donor(items, at)
        case = answers_for(name, half(item["id"]), item, prepared, ref, companies, donor)
        case.engine = None if args.no_engine else _engine(item, load, prepared, retriever)
        case.whole = _whole(item, load, prepared)
        cases.append(case)
    print(f"[support] {len(cases)} questions prepared", file=sys.stderr, flush=True)
    rows = run_checks(cases)
    table = summary(rows)
    restated = restated_summary(run_restated(cases))
    e2e = end_to_end(cases, load, args.e2e) if args.e2e else []
    meta = {"commit": _commit(), "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    by_arm = times_by_arm(rows)
    text = markdown(table, e2e, meta, restated, by_arm)
    print(text)
    data = {"meta": meta, "summary": table, "by_arm": by_arm, "restated": restated,
            "end_to_end": e2e, "rows": rows}  # fmt: skip
    write_results("support", data, text, folder=args.results)
    return 0


class _Sections:
    """What the offline answer and the check need of a prepared question."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.sections, self.references = data["sections"], data["references"]
        self.question = data["question"]
        self.searched_as, self.memory, self.overview = data["question"], None, ""
        self.navs: list[Any] = []
        self.documents: dict[str, Any] = {}
        self.computed: list[str] = []

    def language(self, query: str) -> str:
        """As ``Prepared.language`` with no documents kept: the question's language."""
        from treerag_core.text.language import detect_language

        return detect_language(query)


# The check's own modules: changing them keeps the sections kept (see :func:`code_stamp`).
CHECK_MODULES = ("answer/claims.py", "answer/garbled.py", "text/working.py")


CORE = Path(__file__).resolve().parents[1] / "treerag_core"


def code_stamp(root: Path = CORE) -> str:
    """A hash of the code that navigates and answers (``root``, ``treerag_core``, but the
    check's own modules, ``answer/support*.py`` and CHECK_MODULES): sections kept by other
    code are read again (a navigation change once left the bench checking answers against
    old sections)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name.startswith("answer/support") or name in CHECK_MODULES:
            continue
        digest.update(name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _kept(path: Path) -> Any:
    """The sections read for each question, kept in ``path`` (navigation is the slow part
    and does not change with the check). Each is stamped with its document's id and index
    time and the :func:`code_stamp`: read again once the registry holds a newer index of it
    (or the check would read old sections beside the engine's figures from the new tree),
    or once the code that navigated has changed."""
    store = json.loads(path.read_text()) if path.exists() else {}

    def get(question_id: str, stamp: str, make: Any) -> _Sections:
        if store.get(question_id, {}).get("stamp") != stamp:
            prepared = make()
            store[question_id] = {"question": prepared.trace.get("question", ""),
                                  "sections": prepared.sections,
                                  "references": prepared.references, "stamp": stamp}  # fmt: skip
            path.write_text(json.dumps(store))
        return _Sections(store[question_id])

    return get


def _engine(item: dict[str, Any], load: Any, prepared: Any, retriever: Any) -> Any:
    """What the check asks the offline engine for this question: its computation from the
    question's document's tables (each document's table index kept in the retriever's
    memory, built by the first answer that asks, as in the app)."""
    from treerag_core.answer.offline.computed import engine_figures

    document = load(item)
    documents = {str(document.get("doc_id", "")): document}
    return partial(engine_figures, item["question"], documents, prepared.references,
                   retriever.ranking_memory)  # fmt: skip


def _whole(item: dict[str, Any], load: Any, prepared: Any) -> Any:
    """The whole sections the excerpts read were cut from, as ``ask`` gives the check."""
    from treerag_core.answer.support_given import whole_sections

    document = load(item)
    return whole_sections(prepared.references, {str(document.get("doc_id", "")): document})


def _donor(items: list[tuple[str, dict[str, Any]]], at: int) -> dict[str, Any] | None:
    """The next question (round the list) about another company with a gold figure: its
    right answer is (e)'s fluent, unrelated answer for this one."""
    company = items[at][1].get("company")
    for step in range(1, len(items)):
        other = items[(at + step) % len(items)][1]
        if other.get("company") != company and gold_figure(other) is not None:
            return other
    return None


def _commit() -> str:
    import subprocess

    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


if __name__ == "__main__":
    raise SystemExit(main())
