"""Worker of ``bench.tree_quality``: index PDFs with the ``treerag_core`` found under ROOT.

Run as a script (``PYTHONPATH=ROOT python -P bench/tree_quality_worker.py``) so that ROOT,
not this checkout, supplies the package: the bench starts one worker on the code at the branch point
and one on the working tree, and feeds them the same files in turn. Reads one path a line
on stdin and answers each with one JSON line: the indexed document (offline summaries, not
stored) and the seconds it took.
"""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    from treerag_core.library.indexing import index_document
    from treerag_core.summarize.summarizers import offline_summarizer

    for line in sys.stdin:
        path = line.strip()
        if not path:
            continue
        started = time.perf_counter()
        try:
            doc = index_document(path, offline_summarizer, persist=False, verbose=False)
        except Exception as exc:  # noqa: BLE001 - one file's failure is a row, not a crash
            print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
            continue
        seconds = time.perf_counter() - started
        doc.pop("tree", None)
        doc.pop("tree_outline", None)
        print(json.dumps({"seconds": seconds, "document": doc}, default=str), flush=True)


if __name__ == "__main__":
    main()
