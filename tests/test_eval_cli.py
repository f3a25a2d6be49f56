"""``python -m treerag_core eval`` on a tiny synthetic question set and small documents."""

from __future__ import annotations

import json

from treerag_core.cli.main import main
from treerag_core.evaluation.loader import registry_loader
from treerag_core.evaluation.questions import load_questions
from treerag_core.evaluation.report import format_report
from treerag_core.evaluation.run import evaluate

DOC = """# Revenue

Net revenue grew to $4.2 billion on strong retail demand.

# Leases

## Operating leases

Operating lease liabilities were $310 million, mostly for stores and warehouses.

# Pensions

The pension plan obligation fell as discount rates rose.
"""


def _setup(tmp_path):
    (tmp_path / "report.md").write_text(DOC, encoding="utf-8")
    questions = [
        {
            "id": "q1",
            "file": "report.md",
            "question": "What were the operating lease liabilities?",
            "gold_sections": ["Operating leases"],
        },
        {
            "id": "q2",
            "file": "report.md",
            "question": "How did net revenue change?",
            "gold_sections": ["Pensions"],  # deliberately wrong gold: must be a miss
        },
        {"id": "q3", "file": "missing.md", "question": "Anything?", "gold_sections": ["X"]},
    ]
    path = tmp_path / "questions.jsonl"
    path.write_text("\n".join(json.dumps(q) for q in questions) + "\n", encoding="utf-8")
    return path


def test_evaluate_scores_hits_misses_and_errors(tmp_path):
    path = _setup(tmp_path)
    registry = str(tmp_path / "reg.json")
    result = evaluate(
        load_questions(str(path)), registry_loader(registry, str(tmp_path), index_missing=True)
    )
    summary = result.summary()
    assert summary["navigation"]["questions"] == 2
    assert summary["navigation"]["section_hit_rate"] == 0.5
    assert summary["navigation"]["page_hit_rate"] is None  # no gold pages in this set
    assert [m.id for m in result.misses()] == ["q2"]
    assert result.errors and result.errors[0]["id"] == "q3"
    assert summary["chunks"]["questions"] == 2
    assert all(r.tokens > 0 for r in result.navigation)


def test_eval_cli_prints_table_and_misses_and_writes_json(tmp_path, capsys):
    path = _setup(tmp_path)
    out = tmp_path / "out.json"
    code = main(["eval", str(path), "--registry", str(tmp_path / "reg.json"), "--json", str(out)])
    printed = capsys.readouterr().out
    assert code == 1  # q3's document is missing: reported, and the exit code says so
    assert "| tree navigation |" in printed and "| chunk baseline (BM25) |" in printed
    assert "q2" in printed and "missing.md" in printed
    data = json.loads(out.read_text())
    assert data["summary"]["navigation"]["section_hit_rate"] == 0.5
    assert len(data["navigation"]) == 2 and data["chunks"] is not None


def test_eval_cli_without_baseline(tmp_path, capsys):
    path = _setup(tmp_path)
    main(["--registry", str(tmp_path / "r.json"), "eval", str(path), "--baseline", "none"])
    printed = capsys.readouterr().out
    assert "| tree navigation |" in printed and "chunk baseline" not in printed


def _pdf(path):
    from fpdf import FPDF

    pdf = FPDF()
    pages = [
        ("1 Overview", "The company sells widgets in many markets around the world."),
        ("2 Leases", "Operating lease liabilities were 310 million dollars at year end."),
        ("3 Pensions", "The pension plan obligation fell as discount rates rose sharply."),
    ]
    for title, body in pages:
        pdf.add_page()
        pdf.set_font("helvetica", "B", 14)
        pdf.cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", "", 11)
        pdf.multi_cell(0, 6, body)
    pdf.output(str(path))


def test_pdf_gold_pages_and_the_page_cache(tmp_path):
    from treerag_core.evaluation.page_texts import registry_page_texts
    from treerag_core.store import open_store

    _pdf(tmp_path / "filing.pdf")
    questions = [
        {
            "id": "p1",
            "file": "filing.pdf",
            "question": "Operating lease liabilities?",
            "evidence_pages": [2],
        },
        {
            "id": "p2",
            "file": "filing.pdf",
            "question": "Operating lease liabilities?",
            "evidence_pages": [3],
        },
    ]
    store = open_store(str(tmp_path / "reg.json"))
    result = evaluate(
        questions,
        registry_loader(store, str(tmp_path), index_missing=True),
        page_texts=registry_page_texts(store),
    )
    nav = {r.id: r for r in result.navigation}
    assert nav["p1"].page_hit is True
    assert nav["p2"].page_hit is False  # gold page 3 lies outside every retrieved range
    chunk = {r.id: r for r in result.baseline}
    assert chunk["p1"].retrieved and all(r.pages for r in chunk["p1"].retrieved)
    cached = list((tmp_path / "reg.cache" / "page_texts").rglob("*.json"))
    assert len(cached) == 1  # one extraction, cached by content hash


def test_evaluate_grades_the_offline_answer(tmp_path):
    _pdf(tmp_path / "filing.pdf")  # page 2 prints "310 million dollars"
    question = {
        "id": "a1",
        "file": "filing.pdf",
        "question": "What were the operating lease liabilities at year end?",
        "answer": "$310 million",
        "evidence_pages": [2],
    }
    ungraded = {**question, "id": "a2", "answer": "Yes"}
    registry = str(tmp_path / "reg.json")
    result = evaluate(
        [question, ungraded], registry_loader(registry, str(tmp_path), index_missing=True)
    )
    graded = {r.id: r for r in result.navigation}
    assert graded["a1"].answer_figures == ["310"] and graded["a1"].answer_hit is True
    assert graded["a1"].first_line_hit is True and "310 million" in graded["a1"].answer
    assert graded["a2"].answer_hit is None and graded["a2"].answer is None
    chunk = {r.id: r for r in result.baseline}["a1"]
    assert chunk.answer_hit is True  # the chunk baseline is answered by the same engine
    summary = result.summary()["navigation"]
    assert summary["answer_hit_rate"] == 1.0 and summary["answer_questions"] == 1
    assert "answer has the figure" in format_report(result)
