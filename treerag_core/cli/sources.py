"""The command line's ``source`` and ``sync``: follow folders and buckets, sync them once or
on every change (``--watch``), in this process or through the workers (``--queue``)."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Any

from .. import (
    SyncBusyError,
    TreeragError,
    add_source,
    list_sources,
    make_llms,
    make_summarizer,
    null_summarizer,
    open_store,
    queue_sync,
    remove_source,
    sync_source,
    sync_summary,
)


def run_source(args: argparse.Namespace) -> int:
    if args.source_command == "add":
        source = add_source(
            args.kind, args.location, args.collection, include=args.include,
            exclude=args.exclude, endpoint=args.endpoint, region=args.region,
            credentials_env=args.credentials_env, credentials_file=args.credentials_file,
            registry_path=args.registry,
        )  # fmt: skip
        print(f"{source['source_id']}  {source['where']}  [{source['collection']}]")
        print(f"Sync it: python -m treerag_core --registry {args.registry} sync "
              f"{source['source_id']}")  # fmt: skip
    elif args.source_command == "list":
        for source in list_sources(args.registry):
            last = (source["state"].get("last_sync") or {}).get("finished_at") or "never synced"
            patterns = ", ".join(source.get("include") or []) or "every readable file"
            print(f"{source['source_id']}  {source['kind']}  {source['where']}  "
                  f"[{source['collection']}]  {patterns}  last sync: {last}"
                  + ("  (syncing now)" if source["running"] else ""))  # fmt: skip
            for path, message in (source["state"].get("errors") or {}).items():
                print(f"    failed {path}: {message}")
    else:
        done = remove_source(args.source_id, args.keep_documents, args.registry)
        print(f"Removed {args.source_id}: {done['removed']} documents deleted, "
              f"{done['kept']} kept.")  # fmt: skip
    return 0


def run_sync(args: argparse.Namespace) -> int:
    """Sync the named source or every one; with ``--watch``, again after every change."""
    store = open_store(args.registry)  # one store (and pool) for every sync of the run
    summarizer = null_summarizer
    if not args.no_summaries:
        summarizer = make_summarizer(make_llms()[0])
    sources = {s["source_id"]: s for s in list_sources(store)}
    chosen = [args.source_id] if args.source_id else list(sources)
    if args.source_id and args.source_id not in sources:
        print(f"error: there is no source {args.source_id}", file=sys.stderr)
        return 2

    def once(source_id: str) -> bool:
        try:
            if args.queue:
                report = queue_sync(source_id, store)
            else:
                report = sync_source(source_id, store, summarizer=summarizer)
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
