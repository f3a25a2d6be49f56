"""``python -m bench.sources``: a synced folder and a synced bucket of 500 files, first sync
and re-syncs, offline.

The 500 files: the 37 shared FinanceBench filings (PDF, ~50 MB) and 463 generated
documents (``bench.library.generated``: policies, manuals, minutes as Markdown). For each
kind of source (a folder on this disk; a bucket on moto's S3 server on 127.0.0.1, the
bytes going through boto3 and HTTP), into a fresh registry file:

1. the first sync (every file read and indexed);
2. a re-sync with nothing changed;
3. a re-sync after 1% of the files (5) changed.

Measured: wall time, files indexed, bytes read from the source. The re-sync must read only
the changed files' bytes (listing and fingerprints aside: a folder's sizes and modification
times, a bucket's ETags) and take under 10% of the first sync's time. Writes
``bench/results/sources.{json,md}``.
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import shutil
import socket
import time
from pathlib import Path
from typing import Any

from bench.library import generated

from .record import write_results

BENCH = Path(__file__).resolve().parent
FILINGS = BENCH.parents[1] / "shared" / "bench" / "financebench" / "pdfs"
OUT = BENCH / "out" / "sources"
RESULTS = BENCH / "results"
FILES = 500
CHANGED = 5  # 1% of the files
KEYS = "bench-key:bench-secret"


def build_folder(folder: Path) -> list[str]:
    """The 500 files; returns the paths of the ones the 1% change edits."""
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "filings").mkdir(parents=True)
    for pdf in sorted(FILINGS.glob("*.pdf")):
        shutil.copyfile(pdf, folder / "filings" / pdf.name)
    count = len(list((folder / "filings").iterdir()))
    for i in range(FILES - count):
        name, data = generated(i)
        team = ("finance", "security", "facilities")[i % 3]
        (folder / team).mkdir(exist_ok=True)
        (folder / team / name).write_bytes(data)
    docs = sorted(p for p in folder.rglob("*.md"))
    return [p.relative_to(folder).as_posix() for p in docs[:: len(docs) // CHANGED][:CHANGED]]


def change(folder: Path, paths: list[str]) -> int:
    """Edit the files (a new section each); returns their new total size."""
    for path in paths:
        with open(folder / path, "a", encoding="utf-8") as fh:
            fh.write("\n## Update\nThe limit was raised by 10 percent this quarter.\n")
    return sum((folder / p).stat().st_size for p in paths)


def timed_sync(source_id: str, registry: str, summarizer: Any) -> dict[str, Any]:
    from treerag_core.sync.run import sync_source

    started = time.perf_counter()
    report = sync_source(source_id, registry, summarizer=summarizer)
    wall = time.perf_counter() - started
    counts = report["counts"]
    return {
        "wall_s": round(wall, 2),
        "files_indexed": counts["added"] + counts["updated"],
        "counts": counts,
        "bytes_read": report["bytes_read"],
        "failed": report["errors"],
    }


def run_folder(summarizer: Any) -> dict[str, Any]:
    from treerag_core.sync.sources import add_source

    folder, registry = OUT / "folder", OUT / "folder-registry" / "reg.json"
    shutil.rmtree(registry.parent, ignore_errors=True)
    changed = build_folder(folder)
    total = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    sid = add_source("folder", str(folder), registry_path=str(registry))["source_id"]
    first = timed_sync(sid, str(registry), summarizer)
    print("folder first sync", first["wall_s"], "s", flush=True)
    same = timed_sync(sid, str(registry), summarizer)
    changed_bytes = change(folder, changed)
    again = timed_sync(sid, str(registry), summarizer)
    print("folder re-sync", again["wall_s"], "s", flush=True)
    return _arm("folder on this disk", total, changed, changed_bytes, first, same, again)


def run_bucket(summarizer: Any) -> dict[str, Any]:
    import boto3
    from moto.server import ThreadedMotoServer

    from treerag_core.sync.sources import add_source

    folder = OUT / "folder"
    changed = build_folder(folder)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto logs every request
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    os.environ["BENCH_S3_KEYS"] = KEYS
    os.environ["TREERAG_ALLOW_PRIVATE_URLS"] = "1"  # the loopback endpoint of this bench
    try:
        endpoint = f"http://127.0.0.1:{port}"
        client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                              aws_access_key_id="bench-key", aws_secret_access_key="bench-secret")  # fmt: skip
        client.create_bucket(Bucket="bench")

        def upload(paths: list[str]) -> int:
            for path in paths:
                client.put_object(Bucket="bench", Key=f"docs/{path}",
                                  Body=(folder / path).read_bytes())  # fmt: skip
            return sum((folder / p).stat().st_size for p in paths)

        every = [p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()]
        total = upload(every)
        registry = OUT / "bucket-registry" / "reg.json"
        shutil.rmtree(registry.parent, ignore_errors=True)
        sid = add_source("s3", "s3://bench/docs", endpoint=endpoint, credentials_env="BENCH_S3_KEYS",
                         registry_path=str(registry))["source_id"]  # fmt: skip
        first = timed_sync(sid, str(registry), summarizer)
        print("bucket first sync", first["wall_s"], "s", flush=True)
        same = timed_sync(sid, str(registry), summarizer)
        change(folder, changed)
        changed_bytes = upload(changed)
        again = timed_sync(sid, str(registry), summarizer)
        print("bucket re-sync", again["wall_s"], "s", flush=True)
    finally:
        server.stop()
    return _arm("S3 bucket (moto on 127.0.0.1)", total, changed, changed_bytes, first, same, again)


def _arm(label: str, total: int, changed: list[str], changed_bytes: int, first: dict,
         same: dict, again: dict) -> dict[str, Any]:  # fmt: skip
    return {
        "source": label,
        "files": FILES,
        "source_bytes": total,
        "first": first,
        "unchanged": same,
        "changed_files": changed,
        "changed_bytes": changed_bytes,
        "resync": again,
        "resync_reads_only_changed": again["bytes_read"] == changed_bytes,
        "resync_share_of_first": round(again["wall_s"] / first["wall_s"], 4),
        "target_met": again["bytes_read"] == changed_bytes
        and again["wall_s"] < 0.10 * first["wall_s"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--summaries", choices=["offline", "null"], default="offline",
                        help="the offline engine's summaries, or titles only")  # fmt: skip
    parser.add_argument("--no-bucket", action="store_true", help="the folder only")
    args = parser.parse_args(argv)
    from treerag_core import make_summarizer, null_summarizer

    summarizer = make_summarizer(None) if args.summaries == "offline" else null_summarizer
    started = time.perf_counter()
    report: dict[str, Any] = {
        "generated_at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "summaries": args.summaries,
        "machine": {
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "load_avg_at_start": os.getloadavg(),
        },  # fmt: skip
        "arms": [run_folder(summarizer)],
    }
    if not args.no_bucket:
        report["arms"].append(run_bucket(summarizer))
    report["seconds"] = round(time.perf_counter() - started, 1)
    write(report)
    print((RESULTS / "sources.md").read_text())
    return 0


def write(report: dict[str, Any]) -> None:
    lines = [
        "# Synced sources: first sync and re-syncs of 500 files",
        "",
        f"Generated {report['generated_at']} by `python -m bench.sources` (offline engine, "
        f"{report['summaries']} summaries; {report['machine']['cores']} cores, load "
        f"{report['machine']['load_avg_at_start'][0]:.1f} at the start). 500 files: the 37 "
        "FinanceBench filings and 463 generated Markdown documents; the re-sync follows an "
        "edit of 5 of them (1%).",
        "",
        "| source | sync | wall s | files indexed | bytes read | share of first sync |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for arm in report["arms"]:
        first = arm["first"]["wall_s"]
        for label, key in (("first", "first"), ("nothing changed", "unchanged"),
                           ("1% changed", "resync")):  # fmt: skip
            row = arm[key]
            share = "" if key == "first" else f"{row['wall_s'] / first:.1%}"
            lines.append(f"| {arm['source']} | {label} | {row['wall_s']:.2f} | "
                         f"{row['files_indexed']} | {row['bytes_read']:,} | {share} |")  # fmt: skip
    lines.append("")
    for arm in report["arms"]:
        lines.append(
            f"- {arm['source']}: the re-sync read {arm['resync']['bytes_read']:,} bytes, the "
            f"changed files hold {arm['changed_bytes']:,} (of {arm['source_bytes']:,}): "
            f"{'only the changed files' if arm['resync_reads_only_changed'] else 'MORE'}; "
            f"{arm['resync_share_of_first']:.1%} of the first sync's time; target "
            f"{'met' if arm['target_met'] else 'NOT met'}. Files that failed at the first "
            f"sync: {len(arm['first']['failed'])}."
        )
    write_results("sources", report, lines)


if __name__ == "__main__":
    raise SystemExit(main())
