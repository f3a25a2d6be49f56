"""``python -m bench.tree_quality``: the tree a person sees, before and after, in one run.

Over the 37 shared filings, the structure set's manuals (without their bookmarks, and two
with them) and a few generated documents: per document and in total, the share of sections
that repeat their parent's title, sibling titles that repeat, top-level count and depth, and
for 10-K/10-Q files whether each primary statement, the auditor's report and each numbered
note is a section of its own; index time (offline summaries, not stored). When part L's
``bench.tree_quality_text`` exists, the shares of junk summaries and junk tags too.

*Before* is the code at ``--ref`` (default: where this branch left ``layout``), exported
with ``git archive`` into a temporary folder; *after* is the working tree. Each runs in its
own worker process (``tree_quality_worker.py``) and the two index every file in turn, so
both see the same machine load. The filings are split in two halves by a fixed rule
(:func:`halves`: by kind, then by a hash of the file name): the tuning half, and a held-out half that nobody looks at while tuning
(``--half tuning`` leaves it out of the run; a full run reports both, side by side).
Writes ``bench/results/tree_quality.{json,md}`` (full runs only).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .record import write_results
from .report import median
from .tree_quality_docs import ensure_generated
from .tree_quality_score import STATEMENT_KINDS, filing_parts, tree_shape

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
FILINGS = ROOT.parent / "shared" / "bench" / "financebench" / "pdfs"
STRUCTURE_SET = BENCH / "out" / "structure"
MANUALS = ("gnuplot.pdf", "octave.pdf", "liboctave.pdf")
ORIGINAL_MANUALS = (Path("/usr/share/doc/gnuplot/gnuplot.pdf"),
                    Path("/usr/share/doc/octave/liboctave.pdf"))  # fmt: skip
GENERATED_DIR = BENCH / "out" / "tree_quality"
STATEMENTS = tuple(STATEMENT_KINDS)
TEXT_CHECKS = "bench.tree_quality_text"
AUDIT = "auditor's report"
FINANCIAL = "10-K/10-Q or annual report"  # the documents whose statements and notes count


def log(message: str) -> None:
    print(f"[tree_quality {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def filing_kind(name: str) -> str:
    upper = name.upper()
    return "10-K" if "10K" in upper else "10-Q" if "10Q" in upper else "other"


def halves(names: list[str]) -> dict[str, str]:
    """The fixed split, made before any result was seen: within each kind of filing (10-K,
    10-Q, other), names in order of their SHA-256, alternately tuning and held out."""
    split = {}
    for kind in ("10-K", "10-Q", "other"):
        ours = sorted((n for n in names if filing_kind(n) == kind),
                      key=lambda n: hashlib.sha256(n.encode()).hexdigest())  # fmt: skip
        split.update({n: "tuning" if i % 2 == 0 else "held-out" for i, n in enumerate(ours)})
    return split


def documents(half: str) -> list[dict[str, Any]]:
    docs = []
    paths = sorted(FILINGS.glob("*.pdf"))
    split = halves([p.name for p in paths])
    for path in paths:
        group = f"filings, {split[path.name]}"
        if half == "all" or split[path.name] == half:
            kind = "other" if filing_kind(path.name) == "other" else FINANCIAL
            docs.append({"name": path.name, "path": path, "group": group, "kind": kind})
    if not (STRUCTURE_SET / "gold.jsonl").exists():
        from .structure import ensure_set

        ensure_set(STRUCTURE_SET)
    for name in MANUALS:
        docs.append({"name": f"{name} (no bookmarks)", "path": STRUCTURE_SET / name,
                     "group": "manuals", "kind": "manual"})  # fmt: skip
    for path in ORIGINAL_MANUALS:
        if path.exists():
            docs.append({"name": f"{path.name} (bookmarks)", "path": path, "group": "manuals",
                         "kind": "manual"})  # fmt: skip
    for path, kind in ensure_generated(GENERATED_DIR):
        docs.append({"name": path.name, "path": path, "group": "generated",
                     "kind": FINANCIAL if kind in ("10-K", "IFRS") else kind})  # fmt: skip
    return docs


class Worker:
    """One long-lived worker process indexing with the package under ``root``."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            # -P: the script's folder (this checkout) is not put before PYTHONPATH's root.
            ["nice", "-n", "10", sys.executable, "-P", str(BENCH / "tree_quality_worker.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root,
            env={**os.environ, "PYTHONPATH": str(root)},
        )  # fmt: skip

    def index(self, path: Path) -> dict[str, Any]:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        return json.loads(line) if line else {"error": "worker died"}

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def export(ref: str, into: Path) -> str:
    """The package at ``ref`` under ``into``; returns the commit's short name."""
    commit = git("rev-parse", "--short", ref)
    archive = subprocess.run(["git", "archive", ref, "treerag_core"], cwd=ROOT,
                             capture_output=True, check=True).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return commit


def git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def measure(doc: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any]:
    if "error" in reply:
        return {"error": reply["error"]}
    document = reply["document"]
    flat = document["flat_nodes"]
    row = {**tree_shape(flat), "seconds": reply["seconds"],
           "source": str(document.get("structure_source") or "")}  # fmt: skip
    if doc["kind"] == FINANCIAL:
        row["filing"] = filing_parts(flat)
    row.update(junk_shares(document))
    return row


def junk_shares(document: dict[str, Any]) -> dict[str, Any]:
    """Part L's checks of summaries and tags, when that module exists."""
    if importlib.util.find_spec(TEXT_CHECKS) is None:
        return {}
    checks = importlib.import_module(TEXT_CHECKS)
    nodes = list(document["flat_nodes"].values())
    tags = [(tag, node) for node in nodes for tag in node.get("tags") or []]
    return {
        "junk_summaries": sum(1 for node in nodes if checks.summary_is_junk(node)),
        "summaries": len(nodes),
        "junk_tags": sum(1 for tag, node in tags if checks.tag_is_junk(tag, node, document)),
        "tags": len(tags),
    }


def run(docs: list[dict[str, Any]], ref: str | None) -> tuple[list[dict[str, Any]], str]:
    with tempfile.TemporaryDirectory(prefix="tree_quality_ref_") as tmp:
        commit = export(ref, Path(tmp)) if ref else ""
        sides = {"after": Worker(ROOT)}
        if ref:
            sides["before"] = Worker(Path(tmp))
        warm = GENERATED_DIR / "generated_long_report.pdf"
        for worker in sides.values():
            worker.index(warm)  # imports and first-use costs are not any document's
        rows = []
        for i, doc in enumerate(docs):
            log(f"{doc['name']}")
            order = sorted(sides) if i % 2 else sorted(sides, reverse=True)
            replies = {name: sides[name].index(doc["path"]) for name in order}
            rows.append({**{k: v for k, v in doc.items() if k != "path"},
                         **{name: measure(doc, reply) for name, reply in replies.items()}})  # fmt: skip
        for worker in sides.values():
            worker.close()
    return rows, commit


def pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


def totals(rows: list[dict[str, Any]], side: str) -> dict[str, Any]:
    ok = [r[side] for r in rows if side in r and "error" not in r[side]]
    total: dict[str, Any] = {"documents": len(ok)}
    for key in ("sections", "top_level", "repeat_parent", "repeat_sibling",
                "repeat_sibling_apart", "generated",
                "junk_summaries", "summaries", "junk_tags", "tags", "seconds"):  # fmt: skip
        total[key] = sum(r.get(key, 0) for r in ok)
    total["has_junk"] = any("summaries" in r for r in ok)
    total["depth_median"] = median([r["depth"] for r in ok])
    total["top_level_median"] = median([r["top_level"] for r in ok])
    filings = [r["filing"] for r in ok if "filing" in r]
    for kind in (*STATEMENTS, "auditor's report"):
        total[f"held:{kind}"] = sum(kind in f["held"] for f in filings)
        total[f"sectioned:{kind}"] = sum(kind in f["sectioned"] for f in filings)
    total["statements_held"] = sum(total[f"held:{k}"] for k in STATEMENTS)
    total["statements_sectioned"] = sum(total[f"sectioned:{k}"] for k in STATEMENTS)
    total["filings_all_statements"] = sum(
        1 for f in filings if f["held"] and set(f["sectioned"]) >= set(f["held"])
    )
    # issue 37's target: the auditor's report is no statement
    primary = [set(f["held"]) & set(STATEMENTS) for f in filings]
    total["filings_primary"] = sum(1 for held in primary if held)
    total["filings_all_primary"] = sum(
        1 for f, held in zip(filings, primary, strict=True) if held and set(f["sectioned"]) >= held
    )
    total["filings"] = len(filings)
    total["statement_sections"] = sum(f.get("statement_sections", 0) for f in filings)
    total["statements_under_prose"] = sum(f.get("statements_under_prose", 0) for f in filings)
    total["note_sections"] = sum(f.get("note_sections", 0) for f in filings)
    total["notes_out_of_line"] = sum(f.get("notes_out_of_line", 0) for f in filings)
    total["report_parts"] = sum(f.get("report_parts", 0) for f in filings)
    total["report_parts_outside"] = sum(f.get("report_parts_outside", 0) for f in filings)
    total["reports"] = sum(f.get("reports", 0) for f in filings)
    total["reports_inside_reports"] = sum(f.get("reports_inside_reports", 0) for f in filings)
    total["notes_held"] = sum(len(f["notes_held"]) for f in filings)
    total["notes_sectioned"] = sum(len(f["notes_sectioned"]) for f in filings)
    return total


FIGURES = (
    ("sections", lambda t: str(t["sections"])),
    ("repeat parent's title", lambda t: f"{pct(t['repeat_parent'], t['sections'])} "
     f"({t['repeat_parent']})"),
    ("sibling titles repeated", lambda t: f"{pct(t['repeat_sibling'], t['sections'])} "
     f"({t['repeat_sibling']})"),
    ("… printed apart (distinct sections, one heading)",
     lambda t: f"{pct(t['repeat_sibling_apart'], t['sections'])} ({t['repeat_sibling_apart']})"),
    ("… in a row or generated (ours, or printed twice in a row)",
     lambda t: f"{pct(t['repeat_sibling'] - t['repeat_sibling_apart'], t['sections'])} "
     f"({t['repeat_sibling'] - t['repeat_sibling_apart']})"),
    ("generated pieces", lambda t: pct(t["generated"], t["sections"])),
    ("top level, median", lambda t: str(t["top_level_median"])),
    ("depth, median", lambda t: str(t["depth_median"])),
    ("statements as sections", lambda t: f"{pct(t['statements_sectioned'], t['statements_held'])}"
     f" ({t['statements_sectioned']}/{t['statements_held']})"),
    ("financial reports with every statement a section", lambda t: f"{t['filings_all_statements']}/"
     f"{t['filings']}"),
    ("… every primary statement (the auditor's report apart)",
     lambda t: f"{t['filings_all_primary']}/{t['filings_primary']}"),
    ("… statement sections under a prose heading (the auditor's report, a subheading)",
     lambda t: f"{pct(t['statements_under_prose'], t['statement_sections'])} "
     f"({t['statements_under_prose']}/{t['statement_sections']})"),
    ("auditor's report as a section", lambda t: f"{t[f'sectioned:{AUDIT}']}/{t[f'held:{AUDIT}']}"),
    ("… its parts (opinion, basis, audit matters) outside the report's section",
     lambda t: f"{pct(t['report_parts_outside'], t['report_parts'])} "
     f"({t['report_parts_outside']}/{t['report_parts']})"),
    ("… inside another report (management's or an auditor's)",
     lambda t: f"{t['reports_inside_reports']}/{t['reports']}"),
    ("numbered notes as sections", lambda t: f"{pct(t['notes_sectioned'], t['notes_held'])} "
     f"({t['notes_sectioned']}/{t['notes_held']})"),
    ("… numbered notes out of line (not under the parent most notes share)",
     lambda t: f"{pct(t['notes_out_of_line'], t['note_sections'])} "
     f"({t['notes_out_of_line']}/{t['note_sections']})"),
    ("junk summaries", lambda t: pct(t["junk_summaries"], t["summaries"]) if t["has_junk"]
     else "n/a"),
    ("junk tags", lambda t: pct(t["junk_tags"], t["tags"]) if t["has_junk"] else "n/a"),
    ("index seconds, total", lambda t: f"{t['seconds']:.1f}"),
)  # fmt: skip


def summary_table(groups: dict[str, list[dict[str, Any]]], sides: list[str]) -> list[str]:
    heads = [f"{g}: {s}" for g in groups for s in sides]
    lines = ["| figure | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(heads)]
    sums = {(g, s): totals(rows, s) for g, rows in groups.items() for s in sides}
    for name, show in FIGURES:
        lines.append(f"| {name} | " + " | ".join(show(sums[g, s]) for g in groups
                                                   for s in sides) + " |")  # fmt: skip
    if "before" in sides:
        cells = []
        for g in groups:
            before, after = sums[g, "before"]["seconds"], sums[g, "after"]["seconds"]
            cells += ["" if s == "before" else f"{after / before:.2f}×" if before else "–"
                      for s in sides]  # fmt: skip
        lines.append("| index time, after / before | " + " | ".join(cells) + " |")
        cells = []
        for g in groups:
            ratio = median_ratio(groups[g])
            cells += ["" if s == "before" else f"{ratio:.2f}×" if ratio else "–" for s in sides]
        lines.append("| index time, median of per-document ratios | " + " | ".join(cells) + " |")
    return lines


def median_ratio(rows: list[dict[str, Any]]) -> float | None:
    """The median of after/before per document: one document caught by a busy moment of a
    shared machine moves it less than it moves the totals."""
    ratios = [
        r["after"]["seconds"] / r["before"]["seconds"]
        for r in rows
        if "seconds" in r.get("after", {}) and r.get("before", {}).get("seconds")
    ]
    return median(ratios)


def statement_table(groups: dict[str, list[dict[str, Any]]], sides: list[str]) -> list[str]:
    lines = ["| statement | " + " | ".join(f"{g}: {s}" for g in groups for s in sides) + " |",
             "|---|" + "---:|" * (len(groups) * len(sides))]  # fmt: skip
    sums = {(g, s): totals(rows, s) for g, rows in groups.items() for s in sides}
    for kind in (*STATEMENTS, "auditor's report"):
        cells = [f"{sums[g, s]['sectioned:' + kind]}/{sums[g, s]['held:' + kind]}"
                 for g in groups for s in sides]  # fmt: skip
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return lines


def document_table(rows: list[dict[str, Any]], sides: list[str]) -> list[str]:
    lines = ["| document | side | source | sections | top | depth | repeat parent | repeat "
             "sibling | statements | notes | s |", "|---|---|---|---:|---:|---:|---:|---:|---:|"
             "---:|---:|"]  # fmt: skip
    for r in rows:
        for s in sides:
            m = r.get(s, {})
            if "error" in m:
                lines.append(f"| {r['name']} | {s} | error: {m['error'][:80]} |" + " |" * 8)
                continue
            f = m.get("filing")
            held = [k for k in f["held"] if k in STATEMENTS] if f else []
            done = [k for k in f["sectioned"] if k in STATEMENTS] if f else []
            stmts = f"{len(done)}/{len(held)}" if f else ""
            notes = f"{len(f['notes_sectioned'])}/{len(f['notes_held'])}" if f else ""
            lines.append(
                f"| {r['name']} | {s} | {m['source']} | {m['sections']} | {m['top_level']} | "
                f"{m['depth']} | {pct(m['repeat_parent'], m['sections'])} | "
                f"{pct(m['repeat_sibling'], m['sections'])} | {stmts} | {notes} | "
                f"{m['seconds']:.2f} |"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tree_quality", description=__doc__)
    parser.add_argument("--ref", help="the code before (default: merge-base of HEAD and layout)")
    parser.add_argument("--no-before", action="store_true", help="measure the working tree only")
    parser.add_argument("--half", choices=("all", "tuning", "held-out"), default="all")
    parser.add_argument("--only", help="documents whose name matches this regular expression")
    args = parser.parse_args(argv)
    ref = None if args.no_before else (args.ref or git("merge-base", "HEAD", "layout"))
    docs = documents(args.half)
    if args.only:
        docs = [d for d in docs if re.search(args.only, d["name"])]
    rows, commit = run(docs, ref)
    sides = ["before", "after"] if ref else ["after"]
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(r["group"], []).append(r)
    groups = dict(sorted(groups.items()))
    head = git("rev-parse", "--short", "HEAD")
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "treerag_core") else ""
    md = [
        "# Tree quality: the structure of the tree, before and after",
        "",
        f"Generated {time.strftime('%Y-%m-%d %H:%M:%S %Z')} by `python -m bench.tree_quality`;"
        f" after = {head}{dirty}" + (f", before = {commit} (`--ref`)" if ref else "") + ". "
        "Filings split by kind (10-K, 10-Q, other), then alternately in order of "
        "SHA-256(file name): tuning, held out. Offline summaries, nothing stored; index seconds per document include them.",
        "",
        *summary_table(groups, sides),
        "",
        "Primary statements, auditor's report: sections of their own / filings that print "
        "them (10-K/10-Q files, and the generated IFRS annual report).",
        "",
        *statement_table(groups, sides),
        "",
        *document_table(rows, sides),
        "",
    ]
    report = {"generated_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "after": head + dirty,
              "before": commit, "half": args.half,
              "totals": {g: {s: totals(rs, s) for s in sides} for g, rs in groups.items()},
              "documents": rows}  # fmt: skip
    if args.half == "all" and not args.only:
        write_results("tree_quality", report, md)
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
