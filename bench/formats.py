"""``python -m bench.formats``: every office format on real-world-like files, and the long
ones against a PDF of the same text.

Per file of :data:`bench.format_cases.CASES` (built for real in ``bench/out/formats/``):
the share of its author's sections found among the tree's titles, the questions whose
first reference is on the right page (slide, sheet), the answers (offline engine) that
contain the value, and index time per MB of file (median of ``--runs`` fresh indexings).
Then a 200-slide deck and a 50,000-row sheet are indexed against a PDF (fpdf2) of the same
text (the text the deck or sheet was indexed as), in the same run; target: within 2x.
Files that need LibreOffice are said skipped without it. Prints a table and writes
``bench/results/formats.{json,md}``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from treerag_core import index_document, make_retriever
from treerag_core.answer.ask import ask

from .format_cases import CASES, FormatCase, big_deck, big_sheet
from .record import write_results

OUT = Path(__file__).resolve().parent / "out" / "formats"
TARGET_RATIO = 2.0


def timed_index(path: Path, runs: int) -> tuple[dict[str, Any], list[float]]:
    """The document and the wall time of each of ``runs`` indexings into a fresh registry."""
    times, doc = [], {}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            doc = index_document(str(path), registry_path=f"{folder}/reg.json", verbose=False)
            times.append(time.perf_counter() - start)
    return doc, times


def measure_case(case: FormatCase, folder: Path, runs: int) -> dict[str, Any]:
    """One file: sections found, page hits, answers holding the value, index time per MB."""
    missing = [p for p in case.needs if shutil.which(p) is None]
    if missing:
        return {"name": case.name, "kind": case.kind, "skipped": f"needs {', '.join(missing)}"}
    path = case.build(folder)
    doc, times = timed_index(path, runs)
    titles = {str(n.get("title", "")).lower() for n in doc["flat_nodes"].values()}
    found = [t for t in case.sections if t.lower() in titles]
    answers = []
    for question in case.questions:
        answer = ask(question.text, doc, make_retriever(None))
        ref = answer.references[0] if answer.references else {}
        start, end = ref.get("page_start"), ref.get("page_end") or ref.get("page_start")
        answers.append(
            {
                "question": question.text,
                "page_hit": None
                if question.page is None
                else start is not None and start <= question.page <= end,
                "has_value": question.value in answer.content,
                "first_line": answer.content.splitlines()[0][:200],
            }
        )
    size_mb = path.stat().st_size / 1e6
    seconds = statistics.median(times)
    return {
        "name": case.name, "kind": case.kind, "bytes": path.stat().st_size,
        "sections_expected": len(case.sections), "sections_found": len(found),
        "missing_sections": [t for t in case.sections if t not in found],
        "page_hits": sum(bool(a["page_hit"]) for a in answers),
        "paged_questions": sum(a["page_hit"] is not None for a in answers),
        "has_value": sum(a["has_value"] for a in answers), "questions": len(answers),
        "index_s": round(seconds, 3), "s_per_mb": round(seconds / max(size_mb, 1e-6), 3),
        "page_unit": doc.get("page_unit"), "answers": answers,
    }  # fmt: skip


def same_text_pdf(doc: dict[str, Any], path: Path) -> Path:
    """A PDF holding the text a document was indexed as (its sections' titles and text)."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(True, margin=15)
    pdf.set_font("Helvetica", size=9)
    for node in doc["flat_nodes"].values():
        pdf.add_page() if node.get("level") == 1 or pdf.page == 0 else None
        text = f"{node.get('title', '')}\n{node.get('text', '')}"
        safe = text.encode("latin-1", "replace").decode("latin-1")
        pdf.multi_cell(0, 4, safe, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def measure_scale(name: str, path: Path, runs: int) -> dict[str, Any]:
    """Index time of a long deck or sheet against a PDF of the same text, same run."""
    doc, ours = timed_index(path, runs)
    pdf = same_text_pdf(doc, path.with_suffix(".same-text.pdf"))
    pdf_doc, theirs = timed_index(pdf, runs)
    ratio = statistics.median(ours) / statistics.median(theirs)
    return {
        "name": name, "bytes": path.stat().st_size, "chars": doc.get("source_chars"),
        "pdf_chars": pdf_doc.get("source_chars"), "pdf_pages": pdf_doc.get("total_pages"),
        "sections": doc.get("total_sections"), "index_s": round(statistics.median(ours), 3),
        "pdf_index_s": round(statistics.median(theirs), 3), "ratio": round(ratio, 3),
        "runs": [round(t, 3) for t in ours], "pdf_runs": [round(t, 3) for t in theirs],
        "met": ratio <= TARGET_RATIO,
    }  # fmt: skip


def _hits(row: dict[str, Any]) -> str:
    """``3/3``, or ``n/a`` for a file without pages (a text document's sections)."""
    paged = row["paged_questions"]
    return f"{row['page_hits']}/{paged}" if paged else "n/a (no pages)"


def markdown(cases: list[dict[str, Any]], scale: list[dict[str, Any]], runs: int) -> list[str]:
    lines = [
        "# bench.formats", "",
        f"Offline engine; index time = median of {runs} fresh indexings (read, sections, "
        "summaries, outline; into an empty registry file).", "",
        "| file | format | sections found / author's | page hit | answer has the value "
        "| index s | s per MB |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]  # fmt: skip
    for r in cases:
        if "skipped" in r:
            lines.append(f"| {r['name']} | {r['kind']} | skipped: {r['skipped']} | | | | |")
            continue
        lines.append(
            f"| {r['name']} | {r['kind']} | {r['sections_found']}/{r['sections_expected']} "
            f"| {_hits(r)} | {r['has_value']}/{r['questions']} "
            f"| {r['index_s']:.2f} | {r['s_per_mb']:.2f} |"
        )
    lines += [
        "", f"## Long files against a PDF of the same text (target: within {TARGET_RATIO:g}x)", "",
        "| file | MB | characters (ours / PDF) | sections | index s | PDF index s (pages) "
        "| ratio | met |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]  # fmt: skip
    for r in scale:
        lines.append(
            f"| {r['name']} | {r['bytes'] / 1e6:.2f} | {r['chars']:,} / {r['pdf_chars']:,} "
            f"| {r['sections']} | {r['index_s']:.2f} | {r['pdf_index_s']:.2f} ({r['pdf_pages']}) "
            f"| {r['ratio']:.2f}x | {'yes' if r['met'] else 'no'} |"
        )
    missed = [(r["name"], a) for r in cases for a in r.get("answers", []) if not a["has_value"]]
    if missed:
        lines += ["", "## Answers without the value", ""]
        lines += [f"- {name}: {a['question']} → {a['first_line']}" for name, a in missed]
    return lines + [""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--slides", type=int, default=200)
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--office-only", action="store_true", help="not e-books and e-mail")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    cases = [measure_case(case, OUT, args.runs) for case in CASES]
    scale = [
        measure_scale(
            f"{args.slides}-slide deck", big_deck(OUT / "long.pptx", args.slides), args.runs
        ),
        measure_scale(
            f"{args.rows:,}-row sheet", big_sheet(OUT / "long.xlsx", args.rows), args.runs
        ),
    ]
    lines = markdown(cases, scale, args.runs)
    print("\n".join(lines))
    write_results("formats", {"runs": args.runs, "cases": cases, "scale": scale}, lines)
    if not args.office_only:  # e-books and e-mail: their own cases, scored by section
        from . import formats_mail

        formats_mail.main(["--runs", str(args.runs)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
