"""Worker run with pymupdf4llm's own interpreter: headings of each PDF, as JSON on stdout.

pymupdf4llm 0.2.9 marks headings by font size; ``to_markdown(page_chunks=True)`` gives one
Markdown chunk per page, and every ``#`` line is a node at that page.
"""

import contextlib
import json
import re
import sys
import time

# pymupdf4llm prints advice ("Consider using the pymupdf_layout package…") to stdout on
# import; stdout carries only the JSON result, so everything else goes to stderr.
with contextlib.redirect_stdout(sys.stderr):
    import pymupdf4llm


def headings(path):
    chunks = pymupdf4llm.to_markdown(path, page_chunks=True, show_progress=False)
    out = []
    for number, chunk in enumerate(chunks, 1):
        page = (chunk.get("metadata") or {}).get("page") or number
        for line in chunk["text"].split("\n"):
            m = re.match(r"^(#{1,6})\s+(.*)$", line)
            if m:
                title = re.sub(r"[*_`]+", "", m.group(2)).strip()
                if title:
                    out.append([title, len(m.group(1)), int(page)])
    return out


if __name__ == "__main__":
    result = {}
    with contextlib.redirect_stdout(sys.stderr):
        for path in sys.argv[1:]:
            started = time.perf_counter()
            result[path] = {"headings": headings(path), "seconds": time.perf_counter() - started}
    print(json.dumps(result))
