"""Arithmetic of the retrieval metrics and the chunk baseline on tiny hand-made fixtures."""

from __future__ import annotations

from treerag_core.evaluation.chunks import (
    ChunkIndex,
    Segment,
    estimate_tokens,
    make_chunks,
    segments_from_pages,
)
from treerag_core.evaluation.metrics import (
    QuestionResult,
    Retrieved,
    page_hit,
    section_hit,
    summarize_results,
)


def node(start, end, titles=(), tokens=100):
    return Retrieved("n", start, end, tokens, list(titles))


def test_gold_page_inside_a_retrieved_range_counts():
    assert page_hit([node(3, 7)], [5]) is True
    assert page_hit([node(3, 7)], [3]) is True  # inclusive start
    assert page_hit([node(3, 7)], [7]) is True  # inclusive end
    assert page_hit([node(3, None)], [3]) is True  # single page


def test_gold_page_outside_every_range_does_not_count():
    assert page_hit([node(3, 7), node(10, 12)], [8]) is False
    assert page_hit([node(3, 7)], [2, 8]) is False
    assert page_hit([], [1]) is False
    assert page_hit([node(None, None)], [1]) is False  # no pages known: no hit


def test_no_gold_pages_is_not_scored():
    assert page_hit([node(1, 2)], []) is None


def test_explicit_chunk_pages_beat_the_range():
    chunk = Retrieved("chunk 0", 4, 9, 500, pages=[4, 9])  # spans pages 4 and 9 only
    assert page_hit([chunk], [9]) is True
    assert page_hit([chunk], [6]) is False


def test_section_hit_matches_own_or_ancestor_title_ignoring_case():
    item = node(1, 1, titles=["Note 3 Leases", "Item 8. Financial Statements"])
    assert section_hit([item], ["note 3  leases"]) is True
    assert section_hit([item], ["ITEM 8. FINANCIAL STATEMENTS"]) is True
    assert section_hit([item], ["Item 7"]) is False
    assert section_hit([item], []) is None


def test_summary_rates_means_and_token_counting():
    def result(hit, pages, tokens, retrieved):
        return QuestionResult("q", "?", "d", pages, [], retrieved, hit, None, tokens)

    results = [
        result(True, [2], 1000, [node(1, 3), node(5, 5)]),  # 4 distinct pages
        result(False, [9], 3000, [node(1, 2)]),  # 2 pages
        result(None, [], 2000, []),  # no gold: not in the rate, still in the means
    ]
    s = summarize_results(results)
    assert s["page_hit_rate"] == 0.5 and s["page_questions"] == 2
    assert s["section_hit_rate"] is None and s["section_questions"] == 0
    assert s["mean_sections_retrieved"] == 1.0
    assert s["mean_pages_retrieved"] == 2.0
    assert s["mean_tokens"] == 2000.0
    assert estimate_tokens("x" * 4000) == 1000


def test_chunks_overlap_and_keep_the_pages_they_span():
    pages = [("alpha " * 300).strip(), ("beta " * 300).strip(), ("gamma " * 300).strip()]
    chunks = make_chunks(segments_from_pages(pages), chunk_tokens=250, overlap_tokens=25)
    assert all(c.tokens <= 250 for c in chunks)
    assert chunks[0].pages == [1]
    assert any(c.pages == [1, 2] for c in chunks)  # a chunk across the page break
    assert chunks[-1].pages[-1] == 3
    # overlap: each chunk starts inside the previous one's last ~25 tokens
    assert chunks[1].text.split()[0] in chunks[0].text
    joined = " ".join(pages)
    assert sum(len(c.text) for c in chunks) >= len(joined)


def test_chunks_from_sections_keep_titles():
    segments = [
        Segment("Leases " + "lease " * 50, 2, 3, "Note 3 Leases"),
        Segment("Tax " * 20, None, None, "Tax"),
    ]
    chunks = make_chunks(segments, chunk_tokens=500)
    assert len(chunks) == 1
    assert chunks[0].pages == [2, 3] and chunks[0].titles == ["Note 3 Leases", "Tax"]


def test_bm25_budget_picks_the_matching_chunk_and_about_the_budget():
    pages = ["revenue " * 100, "goodwill impairment test " * 40, "pension plan " * 100]
    index = ChunkIndex(make_chunks(segments_from_pages(pages), chunk_tokens=100, overlap_tokens=0))
    ranked = index.rank("goodwill impairment")
    assert ranked and 2 in ranked[0].pages
    picked = index.top_for_budget("goodwill impairment", token_budget=150)
    assert 1 <= len(picked) <= 2
    assert abs(sum(c.tokens for c in picked) - 150) <= 100
