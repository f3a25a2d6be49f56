"""Command line on the same core as the app: index, list, show, delete, eval."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .errors import TreeragError
from .indexer import index_document
from .registry import DEFAULT_REGISTRY, delete_document, get_document_by_id, list_documents


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m treerag_core", description=__doc__)
    parser.add_argument("--registry", default=DEFAULT_REGISTRY, help="registry file (JSON)")
    commands = parser.add_subparsers(dest="command", required=True)
    index = commands.add_parser("index", help="index a file or URL")
    index.add_argument("source", help="path or http(s) URL")
    index.add_argument("--overwrite", action="store_true", help="re-index even if unchanged")
    commands.add_parser("list", help="list indexed documents")
    show = commands.add_parser("show", help="print a document's outline")
    show.add_argument("doc_id")
    delete = commands.add_parser("delete", help="delete a document")
    delete.add_argument("doc_id")
    evaluate = commands.add_parser("eval", help="score retrieval on questions with gold evidence")
    evaluate.add_argument("questions", help="JSONL: question, document, gold pages/sections")
    evaluate.add_argument("--registry", default=argparse.SUPPRESS, help="registry file (JSON)")
    evaluate.add_argument("--pdf-root", help="folder the questions' files are relative to")
    evaluate.add_argument("--baseline", choices=["chunks", "none"], default="chunks")
    evaluate.add_argument("--json", help="also write the full results here")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "index":
            doc = index_document(
                args.source, registry_path=args.registry, overwrite=args.overwrite, verbose=False
            )
            print(f"{doc['doc_id']}  {doc['file_name']}  {doc['total_sections']} sections")
        elif args.command == "list":
            for row in list_documents(args.registry):
                pages = f"{row['total_pages']} pages" if row.get("total_pages") else "-"
                print(
                    f"{row['doc_id']}  {row['file_name']}  {row['total_sections']} sections  "
                    f"{pages}  {row['indexed_at']}"
                )
        elif args.command == "show":
            doc = get_document_by_id(args.doc_id, args.registry)
            print(f"{doc['file_name']} ({doc['total_sections']} sections)")
            print(doc["tree_outline"])
        elif args.command == "delete":
            if not delete_document(args.doc_id, args.registry):
                print(f"No document {args.doc_id}.", file=sys.stderr)
                return 1
            print(f"Deleted {args.doc_id}.")
        elif args.command == "eval":
            from .evaluate import run_cli

            return run_cli(args.questions, args.registry, args.pdf_root, args.baseline, args.json)
    except TreeragError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
