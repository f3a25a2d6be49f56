"""Strategy of last resort: one heading every few pages, titled by the group's first line.

A long PDF with no usable structure still gets a tree a person can walk and references
that cite pages; it never declines.
"""

from __future__ import annotations

from ..limits import Limits
from ..tree.sections import escape_line, heading, join_pages
from .pages import ReadResult

# A group is titled by its first line with at least this many characters (skips "3", "—").
MIN_TITLE_CHARS = 3
MAX_TITLE_CHARS = 80


def structure_by_page_groups(result: ReadResult, limits: Limits) -> str:
    return page_groups([page.text for page in result.pages or []], limits.pages_per_group)


def page_groups(pages: list[str], per_group: int) -> str:
    """One heading per ``per_group`` pages, titled by its first line."""
    per_group = max(1, per_group)
    out: list[str] = []
    for index, page in enumerate(pages):
        lines = [escape_line(ln.rstrip()) for ln in page.split("\n")]
        if index % per_group == 0:
            last = min(len(pages), index + per_group)
            first = _first_line(pages[index:last])
            span = f"Page {index + 1}" if last == index + 1 else f"Pages {index + 1}–{last}"
            lines.insert(0, heading(f"{span}: {first}" if first else span, 1))
        out.append("\n".join(lines))
    return join_pages(out)


def _first_line(pages: list[str]) -> str:
    for page in pages:
        for line in page.split("\n"):
            words = " ".join(line.split())
            if len(words) >= MIN_TITLE_CHARS:
                return words[:MAX_TITLE_CHARS]
    return ""
