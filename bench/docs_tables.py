"""``python -m bench.docs_tables``: copy each benchmark table the docs show again from its
results file, so ``docs/benchmarks.md`` says what the latest runs measured.

A table in the docs is marked ``<!-- table from bench/results/X.md -->``; it is replaced by
the table of X whose header row is the same (``tests/test_docs.py`` checks they agree).
"""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARK = re.compile(r"<!-- table from (\S+) -->")


def tables(text: str) -> list[list[str]]:
    """Every Markdown table of a text, as its lines."""
    out: list[list[str]] = []
    for is_row, lines in itertools.groupby(text.splitlines(), lambda line: line.startswith("|")):
        if is_row:
            out.append(list(lines))
    return out


def refreshed(page: str) -> tuple[str, list[str]]:
    """The page with every marked table copied again; and the marks it could not match."""
    lines, out, missed = page.splitlines(), [], []
    number = 0
    while number < len(lines):
        out.append(lines[number])
        mark = MARK.search(lines[number])
        number += 1
        if not mark:
            continue
        old = list(itertools.takewhile(lambda row: row.startswith("|"), lines[number:]))
        source = (ROOT / mark.group(1)).read_text(encoding="utf-8")
        same = [t for t in tables(source) if old and t[0].strip() == old[0].strip()]
        out += same[0] if same else old
        if not same:
            missed.append(mark.group(1))
        number += len(old)
    return "\n".join(out) + "\n", missed


def main() -> int:
    page = ROOT / "docs" / "benchmarks.md"
    text, missed = refreshed(page.read_text(encoding="utf-8"))
    page.write_text(text, encoding="utf-8")
    for source in missed:
        print(f"no table with the same header in {source}: copy it by hand", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
