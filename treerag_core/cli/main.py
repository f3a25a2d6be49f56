"""Command line on the same core as the app: index, list, show, ask (some documents, or the
whole library), delete, eval, mcp, library (rebuild or check the library index), source and
sync (folders and buckets the library follows), and for a PostgreSQL registry: worker,
enqueue, migrate.

Every setting comes from :class:`~treerag_core.settings.Settings` (the environment and
``.env``) exactly as in the app: models (OPENAI_API_KEY, OPENAI_BASE_URL, OLLAMA_HOST,
TREERAG_PROVIDER; none set, the offline engine), limits, sign-in. The registry is
``--registry``, else ``TREERAG_REGISTRY``, else ``indexed_docs.json``. One
:class:`~treerag_core.client.Library` is opened for the command and closed after it.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from collections.abc import Sequence

from ..client import Library, TextDelta
from ..errors import TreeragError
from ..library.catalog import check_library_index, rebuild_library_index
from ..read.formats import supported_types
from ..settings import SECRETS, env_name, load
from ..summarize.summarizers import make_summarizer, null_summarizer
from ..tree.labels import page_label
from ..types import SummarizerFn


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m treerag_core", description=__doc__)
    parser.add_argument(
        "--registry",
        default=None,
        help="registry file (JSON) or postgresql:// URL (default: $TREERAG_REGISTRY)",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    _document_parsers(commands)
    _service_parsers(commands)
    _source_parsers(commands)
    return parser


def _document_parsers(commands: argparse._SubParsersAction) -> None:
    index = commands.add_parser("index", help="index a file or URL")
    index.add_argument("source", help=f"path or http(s) URL: {supported_types()}")
    index.add_argument("--overwrite", action="store_true", help="re-index even if unchanged")
    index.add_argument("--no-summaries", action="store_true", help="titles only, no summarizer")
    index.add_argument("--workers", type=int, default=10, help="parallel summary calls")
    index.add_argument("--collection", help="collection to put it in (default: 'default')")
    commands.add_parser("list", help="list indexed documents")
    show = commands.add_parser("show", help="print a document's outline")
    show.add_argument("doc_id")
    ask_cmd = commands.add_parser(
        "ask", help="ask a question of the documents named, or of the whole library"
    )
    ask_cmd.add_argument("question")
    ask_cmd.add_argument("doc_ids", nargs="*", metavar="DOC_ID", help="none: the library")
    ask_cmd.add_argument("--collection", help="with no DOC_ID: only this collection")
    delete = commands.add_parser("delete", help="delete a document")
    delete.add_argument("doc_id")


def _service_parsers(commands: argparse._SubParsersAction) -> None:
    shown = commands.add_parser("settings", help="the settings in effect (secrets hidden)")
    shown.add_argument("--markdown", action="store_true", help="docs/configuration.md instead")
    evaluate = commands.add_parser("eval", help="score retrieval on questions with gold evidence")
    evaluate.add_argument("questions", help="JSONL: question, document, gold pages/sections")
    evaluate.add_argument("--registry", default=argparse.SUPPRESS, help="registry file (JSON)")
    evaluate.add_argument("--pdf-root", help="folder the questions' files are relative to")
    evaluate.add_argument("--baseline", choices=["chunks", "none"], default="chunks")
    evaluate.add_argument("--json", help="also write the full results here")
    mcp = commands.add_parser("mcp", help="serve the documents to MCP clients (stdio or HTTP)")
    mcp.add_argument("--registry", default=argparse.SUPPRESS, help="registry file (JSON)")
    mcp.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    mcp.add_argument("--host", default="127.0.0.1", help="HTTP: address to listen on")
    mcp.add_argument("--port", type=int, default=8765, help="HTTP: port (default 8765)")
    mcp.add_argument("--token-file", help="HTTP: JSON file mapping bearer tokens to users")
    mcp.add_argument(
        "--allowed-host", action="append", default=[], help="HTTP: a Host name clients use"
    )
    mcp.add_argument(
        "--allowed-origin", action="append", default=[], help="HTTP: a browser Origin to allow"
    )
    worker = commands.add_parser("worker", help="index queued uploads (PostgreSQL registry)")
    worker.add_argument("--registry", default=argparse.SUPPRESS, help="postgresql:// URL")
    worker.add_argument("--drain", action="store_true", help="exit when no job is waiting")
    worker.add_argument("--lease", type=float, default=None, help="seconds before takeover")
    worker.add_argument("--name", help="worker name in the job rows (default host-pid)")
    enqueue = commands.add_parser("enqueue", help="queue files for the workers")
    enqueue.add_argument("files", nargs="+", metavar="FILE")
    enqueue.add_argument("--registry", default=argparse.SUPPRESS, help="postgresql:// URL")
    enqueue.add_argument("--collection", help="collection to put them in")
    enqueue.add_argument("--overwrite", action="store_true", help="re-index even if unchanged")
    migrate = commands.add_parser("migrate", help="copy a whole registry into another store")
    migrate.add_argument("--from", dest="source", required=True, help="registry file or URL")
    migrate.add_argument("--to", dest="target", required=True, help="registry file or URL")
    library = commands.add_parser("library", help="the library index questions are routed by")
    library.add_argument("action", choices=["rebuild", "check"])
    worker.add_argument("--sync-every", type=float, help="seconds between syncs of every source")


def _source_parsers(commands: argparse._SubParsersAction) -> None:
    source = commands.add_parser("source", help="folders and buckets the library follows")
    actions = source.add_subparsers(dest="source_command", required=True)
    add = actions.add_parser("add", help="follow a folder or an S3 bucket")
    add.add_argument("kind", choices=["folder", "s3"])
    add.add_argument("location", help="a folder path, or s3://bucket/prefix")
    add.add_argument("--collection", default="default", help="where its documents go")
    add.add_argument("--include", action="append", default=[], help="e.g. '*.pdf' (repeat)")
    add.add_argument("--exclude", action="append", default=[], help="e.g. 'archive/*'")
    add.add_argument("--endpoint", help="S3: the endpoint URL (MinIO, Ceph, R2, …)")
    add.add_argument("--region", help="S3: the region (default us-east-1)")
    add.add_argument("--credentials-env", help="S3: variable holding KEY_ID:SECRET")
    add.add_argument("--credentials-file", help="S3: an AWS credentials file")
    actions.add_parser("list", help="every source and its last sync")
    remove = actions.add_parser("remove", help="stop following a source")
    remove.add_argument("source_id")
    remove.add_argument("--keep-documents", action="store_true", help="keep its documents")
    sync = commands.add_parser("sync", help="bring the library in step with its sources")
    sync.add_argument("source_id", nargs="?", help="one source (default: every one)")
    sync.add_argument("--watch", action="store_true", help="then sync again on every change")
    sync.add_argument("--quiet", type=float, default=2.0, help="--watch: seconds of calm first")
    sync.add_argument("--poll", type=float, default=300.0, help="--watch: S3 every N seconds")
    sync.add_argument("--queue", action="store_true", help="queue the files for the workers")
    sync.add_argument("--no-summaries", action="store_true", help="titles only, no summarizer")


def _worker(args: argparse.Namespace, library: Library) -> int:
    """Run jobs until SIGTERM/SIGINT (the job in hand is finished first) or, with
    ``--drain``, until none is waiting."""
    from ..worker import DEFAULT_LEASE_S, Worker

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    worker = Worker(
        library.store, name=args.name, lease_s=args.lease or DEFAULT_LEASE_S,
        sync_every_s=args.sync_every,
    )  # fmt: skip
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: worker.stop())
    done = worker.run(drain=args.drain)
    print(f"{worker.name}: {done} job(s) run", file=sys.stderr)
    return 0


def _enqueue(args: argparse.Namespace, library: Library) -> int:
    from ..jobs.api import enqueue_upload

    for path in args.files:
        with open(path, "rb") as fh:
            data = fh.read()
        job = enqueue_upload(os.path.basename(path), data, library.store,
                             overwrite=args.overwrite, collection=args.collection)  # fmt: skip
        print(f"job {job['id']}  {job['name']}  {job['status']}")
    return 0


def _migrate(args: argparse.Namespace, library: Library) -> int:
    from ..library.migrate import migrate_registry

    counts = migrate_registry(
        args.source, args.target, lambda done, total, name: print(f"{done}/{total}  {name}")
    )
    print(", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in counts.items()) + " copied")
    return 0


def _mcp(args: argparse.Namespace, library: Library) -> int:
    """Serve until the client (stdio) or an interrupt (HTTP) ends it; stdout is the
    protocol's over stdio, so nothing else is printed there."""
    from ..tools.mcp_auth import load_tokens
    from ..tools.mcp_server import serve_http, serve_stdio

    if args.transport == "stdio":
        serve_stdio(library)
        return 0
    tokens = load_tokens(args.token_file, library.settings)
    serve_http(library, args.host, args.port, tokens, args.allowed_host, args.allowed_origin)
    return 0


def _library(args: argparse.Namespace, library: Library) -> int:
    """Rebuild the library index from the documents, or check it against them."""
    if args.action == "rebuild":
        done = rebuild_library_index(library.store)
        print(f"Indexed {done['indexed']} of {done['documents']} documents.")
        return 0
    report = check_library_index(library.store)
    problems = {k: report[k] for k in ("missing", "stale", "orphans") if report[k]}
    print(f"{report['entries']} entries for {report['documents']} documents.")
    for kind, doc_ids in problems.items():
        print(f"{kind}: {', '.join(doc_ids)}")
    return 1 if problems else 0


def _ask(args: argparse.Namespace, library: Library) -> int:
    """Stream the answer to stdout, then list the references with their pages."""
    for event in library.stream(args.question, args.doc_ids or None, collection=args.collection):
        if isinstance(event, TextDelta):
            print(event.text, end="", flush=True)
            continue
        if event.model_answer:  # the reply streamed could not be checked: what to read instead
            print(f"\n\n{event.text}")
        doubtful = [s for s in (event.support or {}).get("sentences") or []
                    if s["verdict"] in ("unsupported", "partly")]  # fmt: skip
        if doubtful and not event.model_answer:
            print("\n\nNot (fully) found in its sources:")
            for sentence in doubtful:
                print(f"  - {sentence['text']} ({sentence['why']})")
        routed = event.trace.get("library")
        if routed:
            print(f"\n\nSearched {routed['searched']} documents, opened "
                  f"{len(routed['opened'])}.")  # fmt: skip
        print("\n\nReferences:")
        for ref in event.references:
            pages = page_label(ref.get("page_start"), ref.get("page_end"), ref.get("page_unit"))
            print(f"  [{ref['node_id']}] {ref['file_name']}: {ref['path']} {pages}")
    return 0


def _index(args: argparse.Namespace, library: Library) -> int:
    summarizer: SummarizerFn = null_summarizer
    if not args.no_summaries:
        summarizer = make_summarizer(library.retriever.search_llm, max_workers=args.workers)
    doc = library.index(
        args.source, summarizer=summarizer, overwrite=args.overwrite, collection=args.collection
    )
    print(f"{doc['doc_id']}  {doc['file_name']}  {doc['total_sections']} sections")
    return 0


def _list(args: argparse.Namespace, library: Library) -> int:
    for row in library.documents.list():
        pages = f"{row['total_pages']} pages" if row.get("total_pages") else "-"
        print(
            f"{row['doc_id']}  {row['file_name']}  {row['total_sections']} sections  "
            f"{pages}  {row['indexed_at']}  [{row.get('collection') or 'default'}]"
        )
    return 0


def _show(args: argparse.Namespace, library: Library) -> int:
    doc = library.documents.get(args.doc_id)
    print(f"{doc['file_name']} ({doc['total_sections']} sections)")
    print(doc["tree_outline"])
    return 0


def _delete(args: argparse.Namespace, library: Library) -> int:
    if not library.documents.delete(args.doc_id):
        print(f"No document {args.doc_id}.", file=sys.stderr)
        return 1
    print(f"Deleted {args.doc_id}.")
    return 0


def _settings(args: argparse.Namespace, library: Library) -> int:
    """Each setting's variable and the value in effect here (secrets as set / unset)."""
    from .configuration import markdown

    if args.markdown:
        print(markdown(), end="")
        return 0
    for field in type(library.settings).model_fields:
        value = getattr(library.settings, field)
        if field in SECRETS:
            value = "(set)" if library.settings.secret(field) else "(unset)"
        print(f"{env_name(field)}={'' if value is None else value}")
    return 0


def _eval(args: argparse.Namespace, library: Library) -> int:
    from .evaluate import run_cli

    return run_cli(args.questions, library.store, args.pdf_root, args.baseline, args.json)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # pypdf logs what it repairs ("EOF marker not found") before the reader turns a file it
    # cannot read into a typed error; the person reads that error, not pypdf's log.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    from .sources import run_source, run_sync

    commands = {
        "index": _index, "ask": _ask, "list": _list, "show": _show, "delete": _delete,
        "eval": _eval, "mcp": _mcp, "worker": _worker, "enqueue": _enqueue,
        "migrate": _migrate, "library": _library, "source": run_source, "sync": run_sync,
        "settings": _settings,
    }  # fmt: skip
    try:
        settings = load() if args.registry is None else load(registry=args.registry)
        args.registry = settings.registry  # what the messages name
        with Library.open(settings) as library:
            return commands[args.command](args, library)
    except OSError as exc:
        print(f"error: {exc.strerror or exc}: {exc.filename or ''}", file=sys.stderr)
        return 2
    except TreeragError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
