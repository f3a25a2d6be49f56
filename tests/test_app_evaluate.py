"""Evaluate page (AppTest): upload a questions file, see the table, misses and skips."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import texts as escaped_texts

from testkit.builders import make_pdf
from treerag_core import index_document
from treerag_core.errors import InvalidQuestionsError
from treerag_core.evaluation.questions import load_questions, parse_questions
from treerag_core.summarize.summarizers import make_summarizer
from ui import state

PAGE = "pages/evaluate.py"
PDF_PAGES = [
    "Annual report 2024\nRevenue\nNet revenue grew to $4.2 billion on strong retail demand.",
    "Leases\nOperating lease liabilities were $310 million, mostly for stores and warehouses.",
    "Pensions\nThe pension plan obligation fell as discount rates rose.",
]
NOTES_MD = "# Intro\nTreerag indexes documents.\n\n# Methods\nWe use BM25 ranking for navigation.\n"
QUESTIONS = [
    {  # a hit: navigation finds the Leases page
        "id": "q1",
        "question": "What were the operating lease liabilities?",
        "doc_name": "report.pdf",
        "evidence_pages": [2],
    },
    {  # a miss: the gold section is deliberately wrong
        "id": "q2",
        "question": "What ranking is used?",
        "file": "notes.md",
        "gold_sections": ["Intro"],
    },
    {  # skipped: not in the registry
        "id": "q3",
        "question": "Anything?",
        "doc_name": "missing.pdf",
        "evidence_pages": [1],
    },
]


@pytest.fixture
def two_docs(app_registry: Path, tmp_path: Path) -> dict[str, dict]:
    src = tmp_path / "src"
    src.mkdir()
    make_pdf(
        src / "report.pdf",
        PDF_PAGES,
        outline=[("Revenue", 1, 1), ("Leases", 1, 2), ("Pensions", 1, 3)],
    )
    (src / "notes.md").write_text(NOTES_MD, encoding="utf-8")
    return {
        name: index_document(
            str(src / name),
            summarizer=make_summarizer(None),
            registry_path=str(app_registry),
            verbose=False,
        )
        for name in ("report.pdf", "notes.md")
    }


def texts(at) -> str:  # noqa: ANN001
    """What the page shows, with Markdown escapes removed."""
    return escaped_texts(at).replace("\\", "")


def _jsonl(items: list[dict]) -> bytes:
    return ("\n".join(json.dumps(q) for q in items) + "\n").encode()


def _evaluate(make_app, data: bytes, baseline: bool = True):  # noqa: ANN001, ANN202
    at = make_app(PAGE)
    assert not at.exception
    at.file_uploader(key="eval_file").set_value(("questions.jsonl", data, "application/json"))
    at.run()
    if not baseline:
        at.checkbox(key="eval_baseline").uncheck().run()
    at.button(key="eval_run").click().run()
    assert not at.exception
    return at


def test_table_misses_and_skipped(make_app, two_docs, app_registry: Path) -> None:  # noqa: ANN001
    at = _evaluate(make_app, _jsonl(QUESTIONS))
    assert not at.error
    table = at.dataframe[0].value  # a measure a row, a method a column (stays narrow)
    assert list(table.columns) == ["measure", "tree navigation", "chunk baseline (BM25)"]
    nav = dict(zip(table["measure"], table["tree navigation"], strict=True))
    assert nav["questions"] == "2"
    assert nav["page hit rate"] == "100.0%" and nav["page-graded questions"] == "1"
    assert nav["section hit rate"] == "0.0%" and nav["section-graded questions"] == "1"
    assert {"mean sections retrieved", "mean pages retrieved", "mean tokens retrieved"} <= set(nav)
    shown = texts(at)
    # the skipped question, with a clear message
    assert "Skipped 1 question" in shown and "missing.pdf is not in the registry" in shown
    # the navigation miss: question, document, gold, and what was retrieved
    labels = [e.label for e in at.expander]
    assert "Misses, tree navigation (1)" in labels
    assert "What ranking is used?" in shown and "notes.md" in shown
    assert "Gold: sections Intro" in shown
    retrieved = at.dataframe[1].value
    assert list(retrieved["section"]) == ["Methods"]
    result = at.session_state[state.EVAL_RESULT]
    assert [r["id"] for r in result["navigation"]] == ["q1", "q2"]
    assert result["errors"][0]["id"] == "q3"
    assert json.loads(json.dumps(result))["summary"]["navigation"]["page_hit_rate"] == 1.0
    # page texts of the PDF were cached in the registry's store, as the CLI does
    cache = app_registry.parent / "indexed_docs.cache" / "page_texts"
    assert list(cache.rglob("*.json"))


def test_without_baseline_and_missing_source(make_app, two_docs) -> None:  # noqa: ANN001
    os.unlink(two_docs["report.pdf"]["file_path"])
    at = _evaluate(make_app, _jsonl(QUESTIONS[:1]), baseline=False)
    table = at.dataframe[0].value
    assert list(table.columns) == ["measure", "tree navigation"]
    assert "Misses, tree navigation (0)" in [e.label for e in at.expander]
    at.checkbox(key="eval_baseline").check().run()
    at.button(key="eval_run").click().run()
    assert not at.exception
    assert len(at.dataframe[0].value.columns) == 3  # both methods
    assert "source file is no longer on disk" in texts(at)


@pytest.mark.parametrize(
    "data, message",
    [
        (b'{"question": "ok", "doc_name": "x.pdf"}\n{not json\n', "line 2: not JSON"),
        (b'{"doc_name": "x.pdf", "evidence_pages": [1]}\n', "line 1: no 'question'"),
        (b'{"question": "q", "doc_name": "x.pdf", "evidence_pages": ["p1"]}', "page numbers"),
        (b"\xff\xfe\x00bad", "not UTF-8"),
        (b"\n\n", "holds no questions"),
    ],
)
def test_bad_file_is_an_error_not_a_traceback(make_app, two_docs, data, message) -> None:  # noqa: ANN001
    at = _evaluate(make_app, data)
    assert any(message in e.value and "questions.jsonl" in e.value for e in at.error)
    assert not at.exception and not at.dataframe
    assert at.session_state[state.EVAL_RESULT] is None


def test_nothing_in_registry_is_a_message(make_app, app_registry) -> None:  # noqa: ANN001
    at = _evaluate(make_app, _jsonl(QUESTIONS[2:]))
    assert "none of their documents is in the registry" in texts(at)
    assert "Skipped 1 question" in texts(at)


def test_load_questions_raises_typed_errors(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(InvalidQuestionsError, match="not UTF-8"):
        load_questions(str(path))
    with pytest.raises(InvalidQuestionsError, match="line 1"):
        parse_questions(['{"question": "q", "evidence_pages": 3}'], "x")
    assert parse_questions(['{"question": "q", "gold_pages": ["4"]}'], "x")[0]["id"] == "q1"
