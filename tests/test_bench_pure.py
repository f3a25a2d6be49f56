"""Smoke tests of the benchmark's pure parts: no heavy runs, no timing assertions."""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path

from bench.inputs import make_markdown, outline_plan, sentence
from bench.load_turns import table as turns_table
from bench.navigation_tokens import chars_to_tokens, scripted_reply
from bench.report import Figure, check, field_of, fmt, median, parallel_efficiency, ratio, table
from bench.runner import tree_size
from testkit.fake_llm import FakeLLM
from treerag_core import parse_sections


def test_median_ratio_and_efficiency():
    assert median([3.0, None, 1.0, 2.0]) == 2.0
    assert median([None]) is None
    assert ratio(1.0, 4.0) == 0.25 and ratio(None, 1.0) is None and ratio(1.0, 0) is None
    assert parallel_efficiency(8.0, 10, 1.0) == 0.8
    assert parallel_efficiency(None, 10, 1.0) is None
    assert check(0.9, 0.85, higher_is_better=True) is True
    assert check(0.6, 0.5) is False


def test_field_of_skips_failed_runs():
    runs = [{"seconds": 1.5}, {"error": "boom", "seconds": 9}, {"peak_rss_mb": 3}]
    assert field_of(runs, "seconds") == [1.5, None, None]


def test_table_formats_units_and_marks_missed_targets():
    rows = [
        Figure("insert", "s", 0.2, 20.0, target="≤ 0.5 s", met=True),
        Figure("size", "x", 1.6, 2.8, target="≤ 1.5×", met=False),
        Figure("ask", "s", 0.01, None),
    ]
    text = table(rows)
    assert "200.0 ms" in text and "20.00 s" in text and "0.01" in text
    assert "**no**" in text and "—" in text
    assert fmt(1234, "tokens") == "1,234 tokens"
    assert rows[0].as_dict()["ratio_ours_over_treerag"] == 0.01


def test_inputs_are_deterministic_and_structured(tmp_path):
    assert sentence(random.Random(1)) == sentence(random.Random(1))
    plan = outline_plan(random.Random(1), 250)
    assert len(plan) == 250 and {d for d, _ in plan} == {1, 2, 3}
    path = make_markdown(tmp_path / "a.md", sections=120, target_bytes=60_000)
    again = make_markdown(tmp_path / "b.md", sections=120, target_bytes=60_000)
    assert path.read_bytes() == again.read_bytes()
    assert len(parse_sections(path.read_text())) == 120
    assert tree_size(tmp_path) == 2 * path.stat().st_size


def test_scripted_model_opens_then_reads():
    level = "Candidates ('+N' = number of sub-sections):\n- [0001] A +3\n- [0002] B\n- [0005] C +2"
    assert json.loads(scripted_reply(level))["open"] == ["0001", "0005"]
    leaves = "Candidates:\n- [0007] X\n- [0008] Y"
    assert json.loads(scripted_reply(leaves))["read"] == ["0007", "0008"]
    single = "Outline:\n- [0003] A\n  - [0004] B"
    assert json.loads(scripted_reply(single))["node_list"] == ["0003", "0004"]
    assert chars_to_tokens(4001) == 1000


def test_fake_llm_speaks_chat_completions():
    with FakeLLM(delay=0.0) as server:
        request = urllib.request.Request(
            server.url + "/chat/completions",
            data=json.dumps({"model": "fake", "messages": []}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            body = json.loads(response.read())
    content = json.loads(body["choices"][0]["message"]["content"])
    assert content["summary"] and server.requests == 1


def test_answer_tables_list_first_line_misses_and_timings():
    from bench.answers import miss_lines, timing_lines

    rows = [
        {"id": "q1", "document": "a.pdf", "wanted": ["1577"], "page_hit": True,
         "answer_hit": True, "first_line_hit": True, "first_line": "Capex, 2018: -$1,577"},
        {"id": "q2", "document": "b.pdf", "wanted": ["982", "969"], "page_hit": True,
         "answer_hit": True, "first_line_hit": False, "first_line": "Stores | closed"},
    ]  # fmt: skip
    lines = miss_lines(rows)
    assert len(lines) == 3 and "q2 (b.pdf) | 982, 969 | yes | yes | Stores \\| closed" in lines[2]
    assert miss_lines(rows[:1]) == ["Every graded answer says its figure in the first line."]
    timed = {"all": {"questions": 2, "answer_ms_median": 20.0, "answer_ms_p90": 30.0,
                     "navigate_ms_median": 80.0, "answer_over_navigate": 0.25},
             "large": {"questions": 0}}  # fmt: skip
    table = timing_lines({"FinanceBench": timed})
    assert table[2] == "| FinanceBench | all | 2 | 20.0 | 30.0 | 80.0 | 0.25 |" and len(table) == 3


def test_structure_scorer_titles_pages_and_parents():
    from bench.structure_score import (
        bookmark_parents,
        match,
        micro,
        nodes_from_headings,
        score,
        titles_match,
    )

    assert titles_match("Item 7. Management’s Discussion", "ITEM 7 MANAGEMENT'S DISCUSSION")
    assert titles_match("Consolidated Balance Sheets", "Consolidated Balance Sheet")  # ratio
    assert titles_match("Notes to Consolidated Financial", "notes to consolidated financial st")
    assert not titles_match("1.3.1 Fonts", "Fonts")  # a short title is not a prefix match
    assert not titles_match("", "Fonts")
    gold = [
        {"title": "Part I", "page": 3, "level": 1},
        {"title": "Business", "page": 3, "level": 2},
        {"title": "Risk Factors", "page": 10, "level": 2},
        {"title": "Part II", "page": 20, "level": 1},
    ]
    assert bookmark_parents(gold) == [None, 0, 0, None]
    nodes = nodes_from_headings(
        [("Part I", 1, 3), ("Business", 2, 4), ("Risk Factors", 1, 12), ("Part II", 1, 20)]
    )
    assert [n["parent"] for n in nodes] == [None, 0, None, None]
    nodes.append({"title": "Part II (pp. 20-21)", "page": 20, "parent": 3, "generated": True})
    # "Business" is one page late (matches); "Risk Factors" is two pages late (does not)
    assert match(nodes, gold) == {0: 0, 1: 1, 3: 3}
    s = score(nodes, gold)
    assert (s["matched"], s["bookmarks"], s["named_nodes"]) == (3, 4, 4)  # generated: unnamed
    assert (s["parent_ok"], s["parent_total"]) == (1, 1)
    assert s["recall"] == 0.75 and s["precision"] == 0.75 and s["f1"] == 0.75
    wrong = [dict(n, parent=None) for n in nodes]  # "Business" no longer under "Part I"
    assert score(wrong, gold)["parent_ok"] == 0
    total = micro([s, score([], gold)])
    assert (total["matched"], total["bookmarks"], total["named_nodes"]) == (3, 8, 4)
    assert total["recall"] == 3 / 8 and total["precision"] == 0.75
    assert abs(total["f1"] - 2 * (3 / 8) * 0.75 / (3 / 8 + 0.75)) < 1e-12


def test_structure_scorer_matches_a_heading_by_its_label_or_its_title():
    """The tree keeps "2.6." apart from "Debuginfod"; a bookmark may carry it or drop it."""
    from bench.structure_score import label_of, match, titles_alone

    node = {"title": "Debuginfod", "number": "2.6.", "page": 21, "parent": None}
    nodes = [{**node, "label": label_of(node)}]
    assert nodes[0]["label"] == "2.6. Debuginfod"
    assert match(nodes, [{"title": "2.6. Debuginfod", "page": 21, "level": 1}]) == {0: 0}
    assert match(nodes, [{"title": "Debuginfod", "page": 21, "level": 1}]) == {0: 0}
    assert match(titles_alone(nodes), [{"title": "2.6. Debuginfod", "page": 21, "level": 1}]) == {}
    assert label_of({"title": "Overview"}) is None


def test_structure_scorer_takes_each_node_once_in_document_order():
    from bench.structure_score import match

    gold = [
        {"title": "Overview", "page": 5, "level": 1},
        {"title": "Overview", "page": 6, "level": 1},
    ]
    nodes = [
        {"title": "Overview", "page": 5, "parent": None},
        {"title": "Overview", "page": 6, "parent": None},
    ]
    assert match(nodes, gold) == {0: 0, 1: 1}
    assert match(nodes[:1], gold) == {0: 0}


def test_structure_scorer_numbers_ignored_diagnostic():
    from bench.structure_score import without_numbers

    got = without_numbers([{"title": t} for t in ["1.3.1 Fonts", "A.1 Build", "1 A Brief", "I Go"]])
    assert [g["title"] for g in got] == ["Fonts", "Build", "A Brief", "I Go"]


def test_turns_table_has_a_row_per_app_and_measure():
    row = {"app": "now", "browser_cpu_s": [0.5, 0.3], "server_cpu_s": [0.1, 0.1],
           "answer_s": [0.4, 0.3], "wrong": 0}  # fmt: skip
    lines = turns_table([row, {**row, "app": "before"}]).splitlines()
    assert lines[0] == "| app | measure | turn 1 | turn 2 |"
    assert "| now | browser CPU-s | 0.5 | 0.3 |" in lines and len(lines) == 8


def test_formats_mail_cases_hold_their_authors_sections() -> None:
    """Every e-book and e-mail case of ``bench.formats_mail`` reads into the sections it
    expects, and its gold sections are among them (no indexing, no timing)."""
    from bench.formats_mail import cases
    from treerag_core.read.source import read_bytes

    for case in cases():
        titles = {s["title"] for s in parse_sections(read_bytes(case.data, case.name).text)}
        assert set(case.sections) <= titles, case.name
        assert {gold for _, gold, _ in case.questions} <= titles, case.name


def test_support_bench_reads_a_question_again_once_its_document_is_reindexed(tmp_path):
    """Kept sections are stamped with their document's index: a registry re-indexed beside
    them would have the check read old sections with the new tree's figures."""
    from types import SimpleNamespace

    from bench.support import _kept

    made = []

    def make():
        made.append(1)
        return SimpleNamespace(trace={"question": "q"}, sections=[], references=[])

    kept = _kept(tmp_path / "prepared.json")
    kept("q1", "doc@10:00", make)
    kept("q1", "doc@10:00", make)
    assert len(made) == 1
    _kept(tmp_path / "prepared.json")("q1", "doc@11:00", make)  # indexed again
    assert len(made) == 2


def test_the_support_bench_reads_sections_again_when_the_code_that_navigated_changes(
    tmp_path: Path,
) -> None:
    """Its kept sections are stamped with a hash of ``treerag_core`` but the check's own
    modules: the check can be tuned on kept sections, a navigation change cannot hide."""
    from bench.support import CHECK_MODULES, code_stamp

    real = Path(__file__).resolve().parents[1] / "treerag_core"
    assert all((real / name).is_file() for name in CHECK_MODULES)
    for name in ("navigate/offline.py", "answer/support_named.py", *CHECK_MODULES):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    before = code_stamp(tmp_path)
    for name in ("answer/support_named.py", *CHECK_MODULES):  # the check changed: kept
        (tmp_path / name).write_text("x = 2\n")
    assert code_stamp(tmp_path) == before
    (tmp_path / "navigate/offline.py").write_text("x = 2\n")  # navigation changed: read again
    assert code_stamp(tmp_path) != before


def test_metric_pages_counts_each_kind_of_question_per_half_and_in_all():
    from bench.metric_pages import questions, table

    items = [
        {"id": "a", "set": "computed", "half": "tuning", "metric": True},
        {"id": "b", "set": "computed", "half": "tuning", "metric": False},
        {"id": "c", "set": "support computed2", "half": "tuning", "metric": True},
    ]
    rows = table(items, {"a": False, "b": True, "c": True}, {"a": True, "b": True, "c": True})
    as_tuples = [(r["set"], r["questions"], r["asked"], r["base"], r["ours"]) for r in rows]
    assert ("computed", "names a metric", 1, 0, 1) in as_tuples
    assert ("all", "names a metric", 2, 1, 2) in as_tuples
    assert rows[-1]["set"] == "all"  # the totals last
    # the shipped sets: every question has its pages, and most name a metric
    shipped = questions()
    assert len(shipped) > 100 and sum(q["metric"] for q in shipped) > len(shipped) / 2


def test_a_self_check_answer_is_right_by_its_headline_not_its_working() -> None:
    from bench.self_check_right import Asked, is_right

    table = {"id": "t1"}
    rows = [
        (table, {"label": "Inventories", "years": [2023], "cells": [{"value": 8454.0}]}, [2023]),
        (table, {"label": "Total assets", "years": [2023], "cells": [{"value": 37531.0}]}, [2023]),
    ]
    ratio = Asked("ratio", "Inventories", 2023, 0, "Total assets")
    assert is_right(
        "Ratio, FY2023: 0.23 = inventories 8,454 / total assets 37,531 [S1]", ratio, rows
    )
    assert not is_right(
        "Ratio, FY2023: 0.31 = inventories 8,454 / total assets 37,531", ratio, rows
    )
    value = Asked("value", "Inventories", 2023)
    assert is_right("Inventories, 2023: $8,454 million [S1, p. 61]", value, rows)
    # the figure only in the working, or a year that happens to match, is no answer
    assert not is_right("Total, 2023: 1 = inventories 8,454 / 8,454", value, rows)
    assert not is_right("Nothing for 2023 [S8454]", value, rows)
