"""``python -m bench.structure_fresh``: structure without bookmarks on PDFs nobody tuned on,
the code before and after in one run.

The shared structure set (``bench.structure``) is seven PDFs the reader was tuned on. This
one is Debian's packaged documentation, built by five different tool chains (Sphinx,
DocBook with dblatex or FOP, Texinfo, LaTeX): each PDF's own bookmarks are removed and kept
as gold, and the documents are scored as the shared set's README defines (micro-averaged).
The files split alternately in order of their names' SHA-256 into a tuning half, which may be looked at to
find what goes wrong, and a held-out half, which is only ever counted. The Debian FAQ
(English, German, French) is a third group: it is what the running-head and contents rules
were written against, so it is reported apart, never as held out.

*Before* is the package at ``--ref`` (default ``HEAD~1``), exported and indexed by its own
worker process beside one on the working tree (as ``bench.tree_quality`` does). Packages
missing here are fetched with ``apt-get download`` into ``bench/out/structure_fresh``.
Writes ``bench/results/structure_fresh.{json,md}``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .record import write_results
from .structure import nodes_of
from .structure_score import micro, score, titles_alone
from .tree_quality import Worker, export, git

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "out" / "structure_fresh"
STRIP = BENCH.parent.parent / "shared" / "bench" / "structure" / "strip_outlines.py"
# (package, installed path): the PDFs of Debian's documentation that carry bookmarks.
SOURCES = (
    ("debian-policy", "/usr/share/doc/debian-policy/policy.pdf.gz"),
    ("developers-reference", "/usr/share/developers-reference/developers-reference.pdf"),
    ("debian-reference-en", "/usr/share/debian-reference/debian-reference.en.pdf"),
    ("maint-guide", "/usr/share/doc/maint-guide/maint-guide.en.pdf"),
    ("valgrind", "/usr/share/doc/valgrind/valgrind_manual.pdf.gz"),
    ("nettle-dev", "/usr/share/doc/nettle-dev/nettle.pdf.gz"),
    ("libtasn1-doc", "/usr/share/doc/libtasn1-doc/libtasn1.pdf"),
    ("fontconfig", "/usr/share/doc/fontconfig/fontconfig-user.pdf.gz"),
    ("shared-mime-info", "/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf"),
    ("debian-faq", "/usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz"),
    ("debian-faq-de", "/usr/share/doc/debian/FAQ/debian-faq.de.pdf.gz"),
    ("debian-faq-fr", "/usr/share/doc/debian/FAQ/debian-faq.fr.pdf.gz"),
)
SEEN = "seen while writing the rules (Debian FAQ)"


def log(message: str) -> None:
    print(f"[structure_fresh {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def halves(names: list[str]) -> dict[str, str]:
    """Tuning or held-out: alternately in order of the file names' SHA-256, fixed before any
    figure was seen; the FAQ apart."""
    fresh = sorted((n for n in names if not n.startswith("debian-faq")),
                   key=lambda n: hashlib.sha256(n.encode()).hexdigest())  # fmt: skip
    split = {n: "tuning" if i % 2 == 0 else "held-out" for i, n in enumerate(fresh)}
    return {n: split.get(n, SEEN) for n in names}


def installed(package: str, path: str) -> Path:
    """The installed file, or the package's copy unpacked under ``OUT/root``."""
    if Path(path).exists():
        return Path(path)
    unpacked = OUT / "root" / path.lstrip("/")
    if not unpacked.exists():
        log(f"fetching {package} (apt-get download)")
        debs = OUT / "debs"
        debs.mkdir(parents=True, exist_ok=True)
        subprocess.run(["apt-get", "download", package], cwd=debs, check=True,
                       capture_output=True)  # fmt: skip
        for deb in debs.glob(f"{package}_*.deb"):
            subprocess.run(["dpkg", "-x", str(deb), str(OUT / "root")], check=True)
    return unpacked


def build_set() -> list[dict[str, Any]]:
    """The PDFs without their bookmarks, and the bookmarks as gold (once)."""
    folder = OUT / "set"
    gold = folder / "gold.jsonl"
    if not gold.exists():
        plain = OUT / "plain"
        plain.mkdir(parents=True, exist_ok=True)
        files = []
        for package, path in SOURCES:
            source = installed(package, path)
            target = plain / source.name.removesuffix(".gz")
            data = source.read_bytes()
            target.write_bytes(gzip.decompress(data) if source.suffix == ".gz" else data)
            files.append(str(target))
        subprocess.run([sys.executable, str(STRIP), str(folder), *files], check=True,
                       capture_output=True)  # fmt: skip
    return [json.loads(line) for line in gold.read_text().splitlines() if line.strip()]


def run(docs: list[dict[str, Any]], ref: str) -> tuple[list[dict[str, Any]], str]:
    with tempfile.TemporaryDirectory(prefix="structure_fresh_ref_") as tmp:
        commit = export(ref, Path(tmp))
        sides = {"before": Worker(Path(tmp)), "after": Worker(BENCH.parent)}
        rows = []
        half = halves([doc["file"] for doc in docs])
        for i, doc in enumerate(docs):
            log(doc["file"])
            row: dict[str, Any] = {"file": doc["file"], "pages": doc["pages"],
                                   "half": half[doc["file"]]}  # fmt: skip
            for side in sorted(sides, reverse=bool(i % 2)):
                reply = sides[side].index(OUT / "set" / doc["file"])
                if "error" in reply:
                    row[side] = {"error": reply["error"]}
                    continue
                document = reply["document"]
                nodes = nodes_of(document)
                row[f"{side}_titles_alone"] = score(titles_alone(nodes), doc["gold"])
                row[side] = {**score(nodes, doc["gold"]),
                             "source": str(document.get("structure_source") or ""),
                             "seconds": reply["seconds"]}  # fmt: skip
            rows.append(row)
        for worker in sides.values():
            worker.close()
    return rows, commit


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def report(rows: list[dict[str, Any]], commit: str, after: str) -> tuple[dict[str, Any], list[str]]:
    groups = ["tuning", "held-out", SEEN]
    sides = ("before", "after", "before_titles_alone", "after_titles_alone")
    totals = {
        group: {side: micro([r[side] for r in rows if r["half"] == group and side in r])
                for side in sides}
        for group in groups
    }  # fmt: skip
    lines = [
        "# Structure without bookmarks on documents nobody tuned on",
        "",
        f"Generated {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC by "
        f"`python -m bench.structure_fresh`; before = {commit}, after = {after} (working tree). "
        "Debian's packaged documentation, bookmarks removed and kept as gold, scored as "
        "`../shared/bench/structure/README.md` defines (micro-averaged). Split by SHA-256 of "
        "the file name; the held-out half is only counted. A node matches by its heading as "
        "shown (number and title) or its title alone; the rows marked *titles alone* score "
        "titles alone, as `bench.structure` did until 2026-12-04.",
        "",
        "| group | documents | bookmarks | before: recall / precision / F1 | after: recall / "
        "precision / F1 | parent before | parent after |",
        "|---|---:|---:|---|---|---:|---:|",
    ]
    for group, suffix in [(g, s) for s in ("", "_titles_alone") for g in groups]:
        b, a = totals[group]["before" + suffix], totals[group]["after" + suffix]
        count = sum(1 for r in rows if r["half"] == group)
        name = f"{group}, *titles alone*" if suffix else group
        lines.append(
            f"| {name} | {count} | {a['bookmarks']} | {pct(b['recall'])} / "
            f"{pct(b['precision'])} / **{pct(b['f1'])}** | {pct(a['recall'])} / "
            f"{pct(a['precision'])} / **{pct(a['f1'])}** | {b['parent_ok']}/{b['parent_total']} "
            f"| {a['parent_ok']}/{a['parent_total']} |"
        )
    lines += ["", "| document | half | pages | bookmarks | F1 before | F1 after | source after "
              "| s before | s after |", "|---|---|---:|---:|---:|---:|---|---:|---:|"]  # fmt: skip
    for r in rows:
        b, a = r["before"], r["after"]
        if "error" in b or "error" in a:
            lines.append(f"| {r['file']} | {r['half']} | {r['pages']} | error | "
                         f"{b.get('error', '')} | {a.get('error', '')} | | | |")  # fmt: skip
            continue
        lines.append(
            f"| {r['file']} | {r['half']} | {r['pages']} | {a['bookmarks']} | {pct(b['f1'])} | "
            f"**{pct(a['f1'])}** | {a['source']} | {b['seconds']:.2f} | {a['seconds']:.2f} |"
        )
    data = {"generated_at": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
            "before": commit, "after": after, "totals": totals, "documents": rows}  # fmt: skip
    return data, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.structure_fresh", description=__doc__)
    parser.add_argument("--ref", default="HEAD~1", help="the code before (default: HEAD~1)")
    args = parser.parse_args(argv)
    docs = build_set()
    rows, commit = run(docs, args.ref)
    data, lines = report(rows, commit, git("rev-parse", "--short", "HEAD"))
    write_results("structure_fresh", data, lines)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
