"""Evaluation results as people read them: Markdown tables, misses, rows for the app."""

from __future__ import annotations

from typing import Any

from .answers import first_line
from .metrics import QuestionResult, Retrieved
from .run import Evaluation

METHODS = {
    "navigation": "tree navigation",
    "chunks": "chunk baseline (BM25)",
    # the benchmark's labelled extra row: the same baseline over pypdf's page text
    "chunks_pypdf_text": "chunk baseline (BM25), pypdf text",
}


def pct(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.1f}%"


def summary_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per method: the hit rates and the mean costs (the app's table)."""
    rows = []
    for key, label in METHODS.items():
        s = summary.get(key)
        if not s:
            continue
        rows.append(
            {
                "method": label,
                "questions": s["questions"],
                "page hit rate": pct(s["page_hit_rate"]),
                "page-graded questions": s["page_questions"],
                "section hit rate": pct(s["section_hit_rate"]),
                "section-graded questions": s["section_questions"],
                "answer has the figure": pct(s.get("answer_hit_rate")),
                "in its first line": pct(s.get("first_line_hit_rate")),
                "answer-graded questions": s.get("answer_questions", 0),
                "sentences supported": pct(s.get("sentences_supported_rate")),
                "answers flagged": s.get("flagged_answers", 0),
                "mean sections": s["mean_sections_retrieved"],
                "mean pages": s["mean_pages_retrieved"],
                "mean tokens": round(s["mean_tokens"]),
            }
        )
    return rows


def summary_columns(rows: list[dict[str, Any]]) -> list[dict[str, str]]:
    """:func:`summary_rows` turned on its side: one row per measure, one column per method,
    so the table stays narrow however many measures there are (values as text, "–" for
    none)."""
    if not rows:
        return []
    measures = [key for key in rows[0] if key != "method"]
    return [
        {"measure": measure, **{row["method"]: _shown(row.get(measure)) for row in rows}}
        for measure in measures
    ]


def _shown(value: Any) -> str:
    return "–" if value is None or value == "" else str(value)


def summary_table(summary: dict[str, Any]) -> str:
    """The same rows as a Markdown table (console and result files)."""
    lines = [
        "| method | page hit rate | section hit rate | answer has the figure | in its first line "
        "| sentences supported | answers flagged | mean sections | mean pages | mean tokens |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in summary_rows(summary):
        lines.append(
            f"| {row['method']} | {row['page hit rate']} ({row['page-graded questions']} q) | "
            f"{row['section hit rate']} ({row['section-graded questions']} q) | "
            f"{row['answer has the figure']} ({row['answer-graded questions']} q) | "
            f"{row['in its first line']} | {row['sentences supported']} | "
            f"{row['answers flagged']} | {row['mean sections']} | {row['mean pages']} | {row['mean tokens']:,} |"
        )
    return "\n".join(lines)


def missed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows (plain-dict question results) that missed their gold pages or sections."""
    return [r for r in rows if r.get("page_hit") is False or r.get("section_hit") is False]


def gold_label(row: dict[str, Any]) -> str:
    parts = []
    if row.get("gold_pages"):
        parts.append("pages " + ", ".join(str(p) for p in row["gold_pages"]))
    if row.get("gold_sections"):
        parts.append("sections " + "; ".join(str(t) for t in row["gold_sections"]))
    return " / ".join(parts) or "none"


def retrieved_rows(row: dict[str, Any]) -> list[dict[str, Any]]:
    """What a question retrieved, one row per node or chunk."""
    out = []
    for item in row.get("retrieved") or []:
        retrieved = Retrieved(**item)
        out.append(
            {
                "retrieved": retrieved.label,
                "pages": range_label(retrieved).strip("()"),
                "section": (retrieved.titles or [""])[0],
                "tokens": retrieved.tokens,
            }
        )
    return out


def describe_miss(result: QuestionResult) -> str:
    got = ", ".join(
        f"{r.label} {range_label(r)}" + (f" “{r.titles[0][:40]}”" if r.titles else "")
        for r in result.retrieved
    )
    gold = f"pages {result.gold_pages}" if result.gold_pages else ""
    if result.gold_sections:
        gold += (" / " if gold else "") + f"sections {result.gold_sections}"
    return f"- {result.id} [{result.document}] {result.question[:90]} — gold {gold}; got {got or 'nothing'}"


def describe_answer_miss(result: QuestionResult) -> str:
    """A graded answer without its figure: the figures wanted and the answer's first line."""
    wanted = ", ".join(result.answer_figures)
    said = first_line(result.answer or "") or "(no answer)"
    return (
        f"- {result.id} [{result.document}] {result.question[:90]} — wanted {wanted}; "
        f"page {'hit' if result.page_hit else 'missed'}; first line: {said[:200]}"
    )


def range_label(r: Retrieved) -> str:
    if r.pages is not None:
        return f"(pp. {_compact(r.pages)})" if r.pages else "(no pages)"
    if r.page_start is None:
        return "(no pages)"
    if r.page_end in (None, r.page_start):
        return f"(p. {r.page_start})"
    return f"(pp. {r.page_start}–{r.page_end})"


def _compact(pages: list[int]) -> str:
    pages = sorted(set(pages))
    start: int | None
    runs, start = [], pages[0]
    for prev, cur in zip(pages, pages[1:] + [None], strict=True):
        if cur != (prev + 1 if prev is not None else None):
            runs.append(f"{start}" if start == prev else f"{start}–{prev}")
            start = cur
    return ",".join(runs)


def format_report(evaluation: Evaluation, max_misses: int | None = None) -> str:
    """The console/Markdown report: the table, then every miss of each method."""
    out = [summary_table(evaluation.summary())]
    for method in ("navigation", "chunks"):
        label = METHODS[method]
        if method == "chunks" and evaluation.baseline is None:
            continue
        misses = evaluation.misses(method)
        out.append(f"\nMisses, {label} ({len(misses)}):")
        out.extend(describe_miss(m) for m in misses[:max_misses])
        wrong = evaluation.answer_misses(method)
        if wrong:
            out.append(f"\nAnswers without the printed figure, {label} ({len(wrong)}):")
            out.extend(describe_answer_miss(m) for m in wrong[:max_misses])
    for err in evaluation.errors:
        out.append(f"- error {err['id']} [{err['document']}]: {err['error']}")
    return "\n".join(out)
