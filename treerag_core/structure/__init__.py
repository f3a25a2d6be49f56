"""Structure detection: a list of strategies tried in order, each one small module.

A format's reader hands over pages (and a PDF its bookmarks); each strategy either turns
them into Markdown-style text with headings or declines (returns ``None``), and the first
that accepts wins. The winner's name is recorded on the document as ``structure_source``,
so the app can say where a tree came from. A new source of structure (a printed table of
contents, typography) is one more strategy in a format's list.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..limits import Limits
from ..tree.sections import join_pages
from .pages import ReadResult

log = logging.getLogger("treerag.structure")


@dataclass(frozen=True)
class Structured:
    """Structured text, what gave it its headings, and how many headings each source gave
    (``{"bookmarks": 43, "typography": 120}``): which parts of the tree came from where."""

    text: str
    source: str
    parts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Strategy:
    """``run(result, limits)`` returns structured text, or ``None`` to let the next try; a
    strategy that mixes sources returns :class:`Structured` to name what it used."""

    name: str
    run: Callable[[ReadResult, Limits], str | Structured | None]


def apply_strategies(
    result: ReadResult, strategies: Sequence[Strategy], limits: Limits
) -> Structured:
    """The first strategy that accepts; the reader's own text when it needs none."""
    if result.pages is None:
        return Structured(result.text, result.structure_source or "headings")
    for strategy in strategies:
        try:
            text = strategy.run(result, limits)
        except MemoryError:
            raise
        except Exception:  # noqa: BLE001 - a heuristic tripping on a strange file must not
            # lose the document: the next source of structure tries instead
            log.exception("structure strategy %r failed; trying the next one", strategy.name)
            continue
        if isinstance(text, Structured):
            return text
        if text is not None:
            return Structured(text, strategy.name, {strategy.name: count_headings(text)})
    return Structured(join_pages([page.text for page in result.pages]), "none")


def count_headings(text: str) -> int:
    """ATX headings in a strategy's text (body lines that look like one are escaped)."""
    return sum(1 for line in text.split("\n") if line.startswith("#"))
