"""Smoke tests of the benchmark's pure parts: no heavy runs, no timing assertions."""

from __future__ import annotations

import json
import random
import urllib.request

from bench.fake_llm import FakeLLM
from bench.inputs import make_markdown, outline_plan, sentence
from bench.navigation_tokens import chars_to_tokens, scripted_reply
from bench.report import Figure, check, field_of, fmt, median, parallel_efficiency, ratio, table
from bench.runner import tree_size
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
