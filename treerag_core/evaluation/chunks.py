"""The thing users would pick instead of a tree: fixed-size chunks ranked by BM25.

Why it lives here: a retrieval number means little without the obvious alternative run on
the same questions with the same token budget. Chunks are ~500 tokens (4 characters a
token) with ~50 tokens of overlap, cut at whitespace; each chunk keeps the pages (and, when
built from sections, the section titles) its characters span, so the same hit metrics
apply. The BM25 here is deliberately small and separate from the offline engine's; only the
tokenizer and query expansion are shared, so the comparison is about tree vs chunks, not
about word splitting.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..navigate.ranking import expand_query
from ..text.inflections import add_other_forms, other_forms
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


class ChunkBM25:
    """Okapi BM25 (k1 1.5, b 0.75) over chunk token lists, kept as each term's postings (a
    question visits only the chunks holding its words, and its words' other forms)."""

    def __init__(self, docs: Iterable[list[str]], k1: float = 1.5, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.lengths: list[int] = []
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, doc in enumerate(docs):
            counts = Counter(doc)
            self.lengths.append(sum(counts.values()))
            for term, f in counts.items():
                self.postings.setdefault(term, []).append((i, f))
        self.avg = sum(self.lengths) / len(self.lengths) if self.lengths else 0.0
        n = len(self.lengths)
        self.idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5))
                    for t, p in self.postings.items()}  # fmt: skip

    def score(self, query: list[str], forms: Mapping[str, str] | None = None) -> list[float]:
        """Each chunk's score; ``forms``: other inflections of the question's words, read
        as the tree's ranking reads them (:mod:`..text.inflections`), so the two arms
        differ by what they rank, not by how they match words."""
        scores: dict[int, float] = {}
        for term in set(query):
            for i, w in self._term_scores(term):
                scores[i] = scores.get(i, 0.0) + w
        if forms:
            add_other_forms(scores, forms, self._term_scores)
        return [scores.get(i, 0.0) for i in range(len(self.lengths))]

    def _term_scores(self, term: str) -> list[tuple[int, float]]:
        """Each chunk holding the term, with the term's weight in it."""
        k1, b, avg, lengths = self.k1, self.b, self.avg or 1, self.lengths
        idf = self.idf.get(term, 0.0)
        return [
            (i, idf * f * (k1 + 1) / (f + k1 * (1 - b + b * lengths[i] / avg)))
            for i, f in self.postings.get(term, ())
        ]


class ChunkIndex:
    """Chunks of one document plus their BM25 index, built once per document."""

    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks = chunks
        self.bm25 = ChunkBM25(tokenize(c.text) for c in chunks)

    def rank(self, query: str) -> list[Chunk]:
        """Every chunk with a positive score, best first (ties in document order)."""
        asked = tokenize(expand_query(query))
        scores = self.bm25.score(asked, other_forms(asked))
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        return [self.chunks[i] for i in order if scores[i] > 0]

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
