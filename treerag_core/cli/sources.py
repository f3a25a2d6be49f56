"""The command line's ``source`` and ``sync``: follow folders and buckets, sync them once or
on every change (``--watch``), in this process or through the workers (``--queue``)."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any

from ..client import Library
from ..errors import SyncBusyError, TreeragError
from ..summarize.summarizers import null_summarizer
from ..sync.queue import queue_sync
from ..sync.run import sync_summary


def run_source(args: argparse.Namespace, library: Library) -> int:
    if args.source_command == "add":
        source = library.sources.add(
            args.kind, args.location, collection=args.collection, include=args.include,
            exclude=args.exclude, endpoint=args.endpoint, region=args.region,
            credentials_env=args.credentials_env, credentials_file=args.credentials_file,
        )  # fmt: skip
        print(f"{source['source_id']}  {source['where']}  [{source['collection']}]")
        print(f"Sync it: python -m treerag_core --registry {args.registry} sync "
              f"{source['source_id']}")  # fmt: skip
    elif args.source_command == "list":
        for source in library.sources.list():
            last = (source["state"].get("last_sync") or {}).get("finished_at") or "never synced"
            patterns = ", ".join(source.get("include") or []) or "every readable file"
            print(f"{source['source_id']}  {source['kind']}  {source['where']}  "
                  f"[{source['collection']}]  {patterns}  last sync: {last}"
                  + ("  (syncing now)" if source["running"] else ""))  # fmt: skip
            for path, message in (source["state"].get("errors") or {}).items():
                print(f"    failed {path}: {message}")
    else:
        done = library.sources.remove(args.source_id, args.keep_documents)
        print(f"Removed {args.source_id}: {done['removed']} documents deleted, "
              f"{done['kept']} kept.")  # fmt: skip
    return 0


def run_sync(args: argparse.Namespace, library: Library) -> int:
    """Sync the named source or every one; with ``--watch``, again after every change."""
    summarizer = null_summarizer if args.no_summaries else library.summarizer
    sources = {s["source_id"]: s for s in library.sources.list()}
    chosen = [args.source_id] if args.source_id else list(sources)
    if args.source_id and args.source_id not in sources:
        print(f"error: there is no source {args.source_id}", file=sys.stderr)
        return 2

    def once(source_id: str) -> bool:
        try:
            if args.queue:
                report = queue_sync(source_id, library.store)
            else:
                report = library.sources.sync(source_id, summarizer=summarizer)
        except SyncBusyError as exc:
            print(f"{source_id}: {exc}", file=sys.stderr)
            return True
        except TreeragError as exc:
            print(f"{source_id}: error: {exc}", file=sys.stderr)
            return False
        _print_report(source_id, report)
        return True

    ok = all([once(source_id) for source_id in chosen])
    if args.watch:
        _watch({sid: sources[sid] for sid in chosen}, once, args.quiet, args.poll)
    return 0 if ok else 1


def _print_report(source_id: str, report: dict[str, Any]) -> None:
    print(f"{source_id}: {sync_summary(report)} in {report['seconds']:.1f} s "
          f"({report['bytes_read']:,} bytes read)", flush=True)  # fmt: skip
    for path, message in (report.get("errors") or {}).items():
        print(f"  failed {path}: {message}", flush=True)
    for path, why in (report.get("skipped") or {}).items():
        print(f"  skipped {path}: {why}", flush=True)


def _watch(sources: dict[str, dict[str, Any]], once: Any, quiet_s: float, poll_s: float) -> None:
    """Folders: a sync after each burst of changes; buckets: every ``poll_s`` seconds.
    Until SIGTERM or Ctrl-C."""
    from ..sync.watch import watch_folders

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    buckets = [sid for sid, s in sources.items() if s["kind"] != "folder"]
    if buckets:

        def poll() -> None:
            while not stop.wait(poll_s):
                for source_id in buckets:
                    once(source_id)

        threading.Thread(target=poll, name="sync-poll", daemon=True).start()
    folders = {sid: s for sid, s in sources.items() if s["kind"] == "folder"}

    def ready() -> None:
        print(f"Watching {len(folders)} folder(s) and {len(buckets)} bucket(s); Ctrl-C "
              "stops.", flush=True)  # fmt: skip

    if folders:
        watch_folders(folders, once, stop, quiet_s, on_ready=ready)
    else:
        ready()
        stop.wait()
