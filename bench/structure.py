"""``python -m bench.structure``: PDF structure recovery without bookmarks, ours vs
pymupdf4llm 0.2.9, scored as ``../shared/bench/structure/README.md`` defines.

Builds the open set with ``make_set.sh`` when it is missing (PDFs whose authors' bookmarks
were removed and kept as gold), indexes each PDF through ``index_document`` (offline, not
stored) and runs pymupdf4llm from a throwaway virtual environment under ``bench/out/`` on
the same files in the same run. Writes ``bench/results/structure.{json,md}`` (latest run).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from .record import write_results
from .runner import ensure_venv
from .structure_score import (
    below_gold_leaves,
    label_of,
    micro,
    nodes_from_headings,
    rates,
    score,
    titles_alone,
    without_numbers,
)

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
SET_SCRIPT = ROOT.parent / "shared" / "bench" / "structure" / "make_set.sh"
OUT = BENCH / "out"
SET_DIR = OUT / "structure"
PEER_VENV = OUT / "pymupdf4llm-venv"
PEER_SPEC = "pymupdf4llm==0.2.9"


def log(message: str) -> None:
    print(f"[structure {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def ensure_set(directory: Path) -> list[dict[str, Any]]:
    gold = directory / "gold.jsonl"
    if not gold.exists():
        log(f"building the open set into {directory}")
        env = {"PYTHON": sys.executable, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
        subprocess.run(["bash", str(SET_SCRIPT), str(directory)], check=True, cwd=ROOT, env=env)
    return [json.loads(line) for line in gold.read_text().splitlines() if line.strip()]


def ours(path: Path) -> tuple[list[dict[str, Any]], float, str]:
    """Our nodes for one PDF: (nodes, seconds, structure source)."""
    from treerag_core import index_document

    started = time.perf_counter()
    doc = index_document(str(path), persist=False, verbose=False)
    seconds = time.perf_counter() - started
    return nodes_of(doc), seconds, str(doc.get("structure_source") or "")


def nodes_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    """An indexed document's flat nodes as the scorer reads them, in document order."""
    flat = document["flat_nodes"]
    ids = list(flat)
    index = {nid: i for i, nid in enumerate(ids)}
    paged = document.get("structure_source") == "page groups"
    return [
        {
            "title": flat[nid]["title"],
            "label": label_of(flat[nid]),
            "page": flat[nid].get("page_start"),
            "parent": index.get(flat[nid].get("parent_id") or ""),
            "generated": paged or bool(flat[nid].get("generated")),
        }
        for nid in ids
    ]


def peer(paths: list[Path]) -> dict[str, Any]:
    done = subprocess.run(
        [str(ensure_venv(PEER_VENV, PEER_SPEC, log)), str(BENCH / "structure_peer.py"),
         *map(str, paths)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(done.stdout)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def table(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| document | pages | bookmarks | ours: recall / precision / F1 | parent | source | "
        "pymupdf4llm: recall / precision / F1 | parent | ours s | pymupdf4llm s |",
        "|---|---:|---:|---|---:|---|---|---:|---:|---:|",
    ]
    for r in rows:
        o, p = r["ours"], r["pymupdf4llm"]
        lines.append(
            f"| {r['file']} | {r['pages']} | {o['bookmarks']} | {pct(o['recall'])} / "
            f"{pct(o['precision'])} / **{pct(o['f1'])}** | {o['parent_ok']}/{o['parent_total']} | "
            f"{r['source']} | {pct(p['recall'])} / {pct(p['precision'])} / {pct(p['f1'])} | "
            f"{p['parent_ok']}/{p['parent_total']} | {r['ours_s']:.2f} | {r['pymupdf4llm_s']:.2f} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.structure", description=__doc__)
    parser.add_argument("--set", type=Path, default=SET_DIR)
    parser.add_argument("--no-peer", action="store_true", help="skip pymupdf4llm")
    parser.add_argument("--only", help="one file name")
    args = parser.parse_args(argv)
    docs = ensure_set(args.set)
    if args.only:
        docs = [d for d in docs if d["file"] == args.only]
    theirs: dict[str, Any] = {}
    if not args.no_peer:
        log("pymupdf4llm …")
        theirs = peer([args.set / d["file"] for d in docs])
    rows = []
    for doc in docs:
        path = args.set / doc["file"]
        log(f"ours: {doc['file']}")
        nodes, seconds, source = ours(path)
        bare_gold = without_numbers(doc["gold"])
        row: dict[str, Any] = {
            "file": doc["file"],
            "pages": doc["pages"],
            "source": source,
            "ours": score(nodes, doc["gold"]),
            "ours_numbers_ignored": score(without_numbers(nodes), bare_gold),
            "ours_titles_alone": score(titles_alone(nodes), doc["gold"]),
            "ours_below_leaves": below_gold_leaves(nodes, doc["gold"]),
            "ours_s": seconds,
        }
        peer_doc = theirs.get(str(path))
        peer_nodes = nodes_from_headings(peer_doc["headings"]) if peer_doc else []
        row["pymupdf4llm"] = score(peer_nodes, doc["gold"])
        row["pymupdf4llm_numbers_ignored"] = score(without_numbers(peer_nodes), bare_gold)
        row["pymupdf4llm_s"] = peer_doc["seconds"] if peer_doc else 0.0
        rows.append(row)
    summary = {
        "ours": micro([r["ours"] for r in rows]),
        "pymupdf4llm": micro([r["pymupdf4llm"] for r in rows]),
        "ours, titles alone (the rule until 2026-12-04)": micro(
            [r["ours_titles_alone"] for r in rows]
        ),
    }
    diagnostic = {
        "ours": micro([r["ours_numbers_ignored"] for r in rows]),
        "pymupdf4llm": micro([r["pymupdf4llm_numbers_ignored"] for r in rows]),
    }
    o = summary["ours"]
    below = sum(r["ours_below_leaves"] for r in rows)
    diagnostic["ours_within_outline"] = rates(
        o["matched"], o["bookmarks"], o["named_nodes"] - below
    )
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    report = {"generated_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "commit": commit,
              "summary": summary, "numbers_ignored": diagnostic, "documents": rows}  # fmt: skip
    md = [
        "# Structure without bookmarks",
        "",
        f"Generated {report['generated_at']} at commit {commit} by `python -m bench.structure`; "
        "scored as `../shared/bench/structure/README.md` defines (micro-averaged). A node's "
        "title is its heading as shown, section number and title (`2.6. Debuginfod`), or its "
        "title alone, whichever matches the bookmark: the tree keeps the number apart from "
        "the title, and some bookmarks carry it while others drop it. The last row scores "
        "titles alone, as until 2026-12-04.",
        "",
        "| reader | recall | precision | F1 | parent |",
        "|---|---:|---:|---:|---:|",
        *[
            f"| {name} | {pct(s['recall'])} | {pct(s['precision'])} | **{pct(s['f1'])}** | "
            f"{s['parent_ok']}/{s['parent_total']} |"
            for name, s in summary.items()
        ],
        "",
        *table(rows),
        "",
        "Diagnostic, not the README's rule: the same scoring with leading section numbers "
        'removed from every title ("1.3.1 Fonts" → "Fonts"), for bookmarks that drop '
        "the numbers their printed headings carry (the Texinfo manuals):",
        "",
        "| reader | F1, numbers ignored | " + " | ".join(r["file"] for r in rows) + " |",
        "|---|---:|" + "---:|" * len(rows),
        *[
            f"| {name} | {pct(diagnostic[name]['f1'])} | "
            + " | ".join(pct(r[f"{name}_numbers_ignored"]["f1"]) for r in rows)
            + " |"
            for name in ("ours", "pymupdf4llm")
        ],
        "",
        "Diagnostic, not the README's rule: ours with the headings nested below a bookmark "
        "that has no bookmarks of its own left out of precision (the document's own "
        "headings deeper than its authors' outline: a 10-K's Items have subheadings its "
        "bookmarks do not list):",
        "",
        "| reader | headings below the outline's leaves | precision | F1 | "
        + " | ".join(r["file"] for r in rows)
        + " |",
        "|---|---:|---:|---:|" + "---:|" * len(rows),
        f"| ours | {below} | {pct(diagnostic['ours_within_outline']['precision'])} | "
        f"{pct(diagnostic['ours_within_outline']['f1'])} | "
        + " | ".join(
            pct(
                rates(
                    r["ours"]["matched"],
                    r["ours"]["bookmarks"],
                    r["ours"]["named_nodes"] - r["ours_below_leaves"],
                )["f1"]
            )
            for r in rows
        )
        + " |",  # fmt: skip
        "",
    ]
    if not args.only:
        write_results("structure", report, md)
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
