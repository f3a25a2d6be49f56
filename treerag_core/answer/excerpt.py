"""Fit a long section into its share of the answer context by its most relevant passage.

Cutting every section to its opening would send the heading and miss the table the question
is about; the excerpt is instead the window of the section that best matches the question,
and the reference cites the pages of that window, not of the whole section.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass, field

from ..navigate.ranking import RankingMemory, remembered
from ..text.bm25 import BM25_B, BM25_K1
from ..text.tokens import tokenize
from ..tree.nodes import excerpt_pages
from ..types import FlatNode

_STEPS_PER_WINDOW = 4  # windows overlap by three quarters
# Windows that hold the same match score alike but for a word more or less of length (they
# are cut at spaces): within this share of the best they count as tied.
TIED_SHARE = 0.02
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
    cuts = remembered(memory, ("window cuts", text, step), lambda: _cuts(text, step))
    windows = max(1, len(cuts) - _STEPS_PER_WINDOW)  # each begins at a cut, spans four pieces
    pieces = remembered(memory, ("window pieces", text, step), lambda: [
        tokenize(text[a:b]) for a, b in itertools.pairwise(cuts)])  # fmt: skip
    scores = window_scores(pieces, windows, set(tokenize(query)))
    top = max(scores.values(), default=0.0)
    # Several windows hold the same match: the middle one centres it.
    tied = sorted(key for key, score in scores.items() if score >= top * (1 - TIED_SHARE)) or [0]
    start = cuts[tied[len(tied) // 2]]
    # Begin and end on line boundaries so a table row or sentence is not cut in half.
    if start:
        line_start = text.rfind("\n", 0, start)
        start = line_start + 1 if line_start >= start - step else start
    end = min(len(text), start + max_chars)
    if end < len(text):
        line_end = text.rfind("\n", start, end)
        end = line_end if line_end > start + max_chars // 2 else end
    return start, end


def _cuts(text: str, step: int) -> list[int]:
    """Where the text's pieces begin (about ``step`` apart, at a space so no word is cut in
    two), and its end."""
    cuts, at = [0], step
    while at < len(text):
        space = text.find(" ", at, at + step // 4 + 1)
        at = space + 1 if space >= 0 else at
        if at > cuts[-1] and at < len(text):
            cuts.append(at)
        at += step
    return [*cuts, len(text)]


def window_scores(pieces: list[list[str]], windows: int, terms: set[str]) -> dict[int, float]:
    """BM25 of each window (``_STEPS_PER_WINDOW`` consecutive pieces) for ``terms``, from
    each piece's counts: the text is cut into words once, not once per window it is in."""
    span = _STEPS_PER_WINDOW
    counts = [Counter(t for t in piece if t in terms) for piece in pieces]
    sizes = [len(piece) for piece in pieces]
    tf = [sum((counts[i + j] for j in range(span) if i + j < len(pieces)), Counter())
          for i in range(windows)]  # fmt: skip
    length = [sum(sizes[i : i + span]) for i in range(windows)]
    avg = (sum(length) / windows) or 1.0
    scores: dict[int, float] = {}
    for term in terms:
        df = sum(1 for c in tf if c[term])
        if not df:
            continue
        idf = math.log(1 + (windows - df + 0.5) / (df + 0.5))
        for i, c in enumerate(tf):
            f = c[term]
            if f:
                norm = BM25_K1 * (1 - BM25_B + BM25_B * length[i] / avg)
                scores[i] = scores.get(i, 0.0) + idf * f * (BM25_K1 + 1) / (f + norm)
    return scores


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
