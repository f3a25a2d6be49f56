"""Headings found on pages, and the one way they are written out as Markdown-style text.

Every page-reading strategy (printed contents, typography, numbering and keywords) finds
:class:`Heading` objects where they stand — lines ``start`` to ``end`` of a page — and
:func:`render` writes the pages with those lines replaced by ATX headings, page furniture
left out and every other line escaped, so the sections keep their pages.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..tree.sections import escape_line, heading, join_pages

Position = tuple[int, int]  # (page index, line index)
Prominence = tuple[float, ...]  # sorts ascending from the most prominent style


@dataclass
class Heading:
    """A heading where it stands, with what decides its level."""

    page: int  # 0-based
    start: int  # first line on the page
    end: int  # after its last line
    title: str
    prominence: Prominence = ()  # its style, as a sort key (lower = more prominent)
    rank: float | None = None  # from numbering or keywords ("1.2" < "1.2.3"), if any
    level: int = 1
    rest: str = ""  # run-in body text on the heading's own line, kept as body
    known: bool = False  # named by numbering, a keyword or a standard title, not just its look

    @property
    def position(self) -> Position:
        return self.page, self.start


def render(texts: list[list[str]], headings: Iterable[Heading], dropped: set[Position]) -> str:
    """Pages with ``headings`` in place of their lines and ``dropped`` lines left out.

    A heading whose ``end`` is its ``start`` is inserted above that line, consuming none
    (an entry of a printed contents whose title was not found on its page).
    """
    at: dict[Position, list[Heading]] = {}
    for h in headings:
        at.setdefault(h.position, []).append(h)
    pages_out: list[str] = []
    for p, lines in enumerate(texts):
        out: list[str] = []
        i = 0
        while i < len(lines):
            consumed = i
            for h in at.get((p, i), ()):
                if out and out[-1].strip():
                    out.append("")
                out.append(heading(h.title, h.level))
                if h.rest:
                    out.append(escape_line(h.rest))
                consumed = max(consumed, h.end)
            if consumed > i:
                i = consumed
                continue
            if (p, i) not in dropped:
                out.append(escape_line(lines[i]))
            i += 1
        pages_out.append("\n".join(out))
    return join_pages(pages_out)


def summary(headings: Iterable[Heading]) -> tuple[tuple[str, int, int], ...]:
    """(title, level, 1-based page) of each heading: what tests and diagnostics compare."""
    return tuple((" ".join(h.title.split()), h.level, h.page + 1) for h in headings)
