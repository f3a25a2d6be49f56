"""Fit a long section into its share of the answer context by its most relevant passage.

Cutting every section to its opening would send the heading and miss the table the question
is about; the excerpt is instead the window of the section that best matches the question,
and the reference cites the pages of that window, not of the whole section.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ingest.tree import excerpt_pages
from ..text.bm25 import BM25
from ..text.ranking import RankingMemory, remembered
from ..text.tokens import tokenize
from ..types import FlatNode

_STEPS_PER_WINDOW = 4  # windows overlap by three quarters
# The text just before an excerpt that travels with it (never quoted): enough for the
# header and units lines of a table the window starts inside.
LEAD_CHARS = 1500


@dataclass
class Excerpt:
    """A quoted passage of a section: its text, its pages, where each later page begins in
    it, the text just before it (a cut-off table's header, for the offline answer), and the
    exact slices of section text it quotes (so evidence can be found on the page)."""

    text: str
    page_start: int | None
    page_end: int | None
    page_marks: list[list[int]] = field(default_factory=list)  # [[offset in text, page], …]
    lead: str = ""
    spans: list[tuple[str, int, int]] = field(default_factory=list)  # (node_id, start, end)


def best_window(
    text: str, query: str, max_chars: int, memory: RankingMemory | None = None
) -> tuple[int, int]:
    """``(start, end)`` of the at most ``max_chars`` characters that best match ``query``."""
    if len(text) <= max_chars:
        return 0, len(text)
    step = max(1, max_chars // _STEPS_PER_WINDOW)
    starts = list(range(0, len(text) - max_chars + step, step))

    def windows() -> BM25:
        return BM25({str(i): tokenize(text[s : s + max_chars]) for i, s in enumerate(starts)})

    scores = remembered(memory, ("windows", text, max_chars), windows).scores(tokenize(query))
    top = max(scores.values(), default=0.0)
    # Several windows hold the same match: the middle one centres it.
    tied = sorted(int(key) for key, score in scores.items() if score >= top - 1e-9) or [0]
    start = starts[tied[len(tied) // 2]]
    # Begin and end on line boundaries so a table row or sentence is not cut in half.
    if start:
        line_start = text.rfind("\n", 0, start)
        start = line_start + 1 if line_start >= start - step else start
    end = min(len(text), start + max_chars)
    if end < len(text):
        line_end = text.rfind("\n", start, end)
        end = line_end if line_end > start + max_chars // 2 else end
    return start, end


def section_excerpt(
    node: FlatNode, query: str, max_chars: int, memory: RankingMemory | None = None
) -> Excerpt:
    """The node's text fitted to ``max_chars`` around the question, with its pages."""
    text = str(node.get("text") or "")
    start, end = best_window(text, query, max_chars, memory)
    first, last = excerpt_pages(node, start, end)
    body = text[start:end]
    shift = len(body) - len(body.lstrip())  # what strip() removes before the quote
    quoted = body.strip()
    head = f"[… {start:,} characters before]\n" if start > 0 else ""
    tail = f"\n[… {len(text) - end:,} characters after]" if end < len(text) else ""
    marks = [
        [offset - start - shift + len(head), page]
        for offset, page in node.get("page_marks") or []
        if start + shift < offset < end
    ]
    lead = text[max(0, start - LEAD_CHARS) : start]
    spans = [(str(node["node_id"]), start, end)]
    return Excerpt(f"{head}{quoted}{tail}", first, last, marks, lead, spans)
