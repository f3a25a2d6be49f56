"""The thing users would pick instead of a tree: fixed-size chunks ranked by BM25.

Why it lives here: a retrieval number means little without the obvious alternative run on
the same questions with the same token budget. Chunks are ~500 tokens (4 characters a
token) with ~50 tokens of overlap, cut at whitespace; each chunk keeps the pages (and, when
built from sections, the section titles) its characters span, so the same hit metrics
apply. The chunks are ranked by the offline engine's own BM25, with its tokenizer, query
expansion and other word forms, so the comparison is about tree vs chunks, not about word
splitting or scoring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..navigate.ranking import expand_query
from ..text.bm25 import BM25
from ..text.inflections import other_forms
from ..text.tokens import CHARS_PER_TOKEN, estimate_tokens, tokenize
from ..tree.outline import heading_label


@dataclass(frozen=True)
class Segment:
    """A piece of source text with where it sits: one page, or one section."""

    text: str
    page_start: int | None = None
    page_end: int | None = None
    title: str | None = None


@dataclass
class Chunk:
    index: int
    text: str
    pages: list[int] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)


def segments_from_pages(pages: Sequence[str]) -> list[Segment]:
    """1-based page numbers, as pypdf counts them (``pages[n - 1]`` is page ``n``)."""
    return [Segment(text, n, n) for n, text in enumerate(pages, 1)]


def segments_from_nodes(flat_nodes: dict) -> list[Segment]:
    """A document without page texts: its sections in order, each with its page range."""
    out = []
    for node in flat_nodes.values():
        text = f"{heading_label(node)}\n{node.get('text') or ''}".strip()
        out.append(Segment(text, node.get("page_start"), node.get("page_end"), node.get("title")))
    return out


def make_chunks(
    segments: Sequence[Segment], chunk_tokens: int = 500, overlap_tokens: int = 50
) -> list[Chunk]:
    """Fixed windows over the concatenated segments, snapped back to a whitespace."""
    size = max(1, chunk_tokens) * CHARS_PER_TOKEN
    overlap = max(0, min(overlap_tokens * CHARS_PER_TOKEN, size // 2))
    texts, spans = [], []  # spans: (start, end, segment) in the joined text
    pos = 0
    for seg in segments:
        texts.append(seg.text)
        spans.append((pos, pos + len(seg.text), seg))
        pos += len(seg.text) + 1  # the joining newline
    joined = "\n".join(texts)
    chunks: list[Chunk] = []
    start = 0
    while start < len(joined):
        end = min(len(joined), start + size)
        if end < len(joined):
            cut = joined.rfind(" ", start + size // 2, end)
            cut = max(cut, joined.rfind("\n", start + size // 2, end))
            if cut > start:
                end = cut
        text = joined[start:end].strip()
        if text:
            chunks.append(_chunk(len(chunks), text, start, end, spans))
        if end >= len(joined):
            break
        start = max(start + 1, end - overlap)
    return chunks


def _chunk(index: int, text: str, start: int, end: int, spans: list) -> Chunk:
    pages: list[int] = []
    titles: list[str] = []
    for s_start, s_end, seg in spans:
        if s_end <= start or s_start >= end:
            continue
        if seg.page_start is not None:
            for page in range(seg.page_start, (seg.page_end or seg.page_start) + 1):
                if page not in pages:
                    pages.append(page)
        if seg.title and seg.title not in titles:
            titles.append(seg.title)
    return Chunk(index, text, pages, titles)


class ChunkIndex:
    """Chunks of one document plus their BM25 index, built once per document."""

    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks = chunks
        # the ranking's own BM25 (Okapi, k1 1.5, b 0.75), over chunks instead of passages:
        # the two arms differ by what they rank, not by how they score or match words
        self.bm25 = BM25({i: tokenize(c.text) for i, c in enumerate(chunks)})

    def rank(self, query: str) -> list[Chunk]:
        """Every chunk with a positive score, best first (ties in document order)."""
        asked = tokenize(expand_query(query))
        scores: dict[Any, float] = self.bm25.scores(asked, other_forms(asked))
        order = sorted(scores, key=lambda i: (-scores[i], i))
        return [self.chunks[i] for i in order]

    def top_for_budget(self, query: str, token_budget: int, min_k: int = 1) -> list[Chunk]:
        """The best chunks whose total tokens come closest to ``token_budget``.

        Adds chunks in rank order and stops before the one that would overshoot by more
        than it would undershoot, so both methods send about the same amount of text.
        """
        picked: list[Chunk] = []
        total = 0
        for chunk in self.rank(query):
            if len(picked) >= min_k and total + chunk.tokens - token_budget > token_budget - total:
                break
            picked.append(chunk)
            total += chunk.tokens
        return picked
