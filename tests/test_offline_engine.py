"""The offline engine: the seed's quickstart flow end to end with no model and no network."""

from __future__ import annotations

import dataclasses

import pytest

from testkit.async_helpers import run_coroutine
from treerag_core import (
    aask,
    ask,
    ask_multi,
    get_document_by_id,
    index_document,
    make_retriever,
    make_summarizer,
)
from treerag_core.answer.offline.extractive import OFFLINE_NOTE
from treerag_core.navigate.ranking import rank_nodes
from treerag_core.summarize.keyterms import extract_tags, leading_summary

GUIDE = """# Acme Widget Guide

The Acme Widget is a small sensor made by Acme Corp in Lyon.

## Installation

Mount the widget at least 2 m above the floor. It needs a 12 V power supply.
The installation takes about 15 minutes.

## Warranty

The warranty lasts 24 months from the date of purchase. Claims go to the
Customer Care team in Dublin, who answer within 5 days.

# Troubleshooting

## Blinking light

A blinking red light means the battery is low. Replace the CR2032 battery.

## No signal

If the widget shows no signal, move it closer to the WLAN access point.
"""


@pytest.fixture
def guide(tmp_path):
    path = tmp_path / "widget_guide.md"
    path.write_text(GUIDE)
    registry = str(tmp_path / "indexed_docs.json")
    doc = index_document(
        str(path), summarizer=make_summarizer(None), registry_path=registry, verbose=False
    )
    return doc, registry


def test_quickstart_flow_offline(guide) -> None:
    doc, registry = guide
    retriever = make_retriever(None)
    result = ask("How long does the warranty last?", doc, retriever)
    assert "24 months" in result.content
    assert OFFLINE_NOTE in result.content  # honest about being extractive
    assert result.references[0]["title"] == "Warranty"
    assert result.references[0]["path"] == "Acme Widget Guide > Warranty"
    assert result.references[0]["file_name"] == "widget_guide.md"
    assert result.references[0]["doc_id"] == doc["doc_id"]
    # the first line answers and cites its section (the reference list carries the path)
    assert result.content.splitlines()[0] == (
        "The warranty lasts 24 months from the date of purchase. [S1]"
    )
    assert result.references[0]["ref"] == "S1" and result.references[0]["cited"] is True
    assert result.response_metadata["llm_calls"] == 0
    # reload from the registry: same answer, no model
    again = ask(
        "How long does the warranty last?", get_document_by_id(doc["doc_id"], registry), retriever
    )
    assert again.content == result.content


def test_offline_summaries_and_tags_are_in_the_outline(guide) -> None:
    doc, _ = guide
    warranty = next(n for n in doc["flat_nodes"].values() if n["title"] == "Warranty")
    assert warranty["summary"].startswith("The warranty lasts 24 months")
    assert "Dublin" in warranty["tags"]  # a name, said mid-sentence
    assert "Customer Care" in " ".join(warranty["tags"])
    assert not any(tag[0].isdigit() for tag in warranty["tags"])  # topics, not amounts
    assert "Dublin" in doc["tree_outline"]


@pytest.mark.parametrize(
    "question, title",
    [
        ("What does a blinking red light mean?", "Blinking light"),
        ("Which battery does it use?", "Blinking light"),
        ("What voltage does the power supply need?", "Installation"),
        ("WLAN access point", "No signal"),
        ("Who makes the widget?", "Acme Widget Guide"),
    ],
)
def test_offline_navigation_finds_the_section(guide, question: str, title: str) -> None:
    doc, _ = guide
    ranked = rank_nodes(question, doc["flat_nodes"], k=1)
    assert doc["flat_nodes"][ranked[0][0]]["title"] == title


def test_stream_and_dict_modes_offline(guide) -> None:
    doc, _ = guide
    chunks = list(ask("blinking red light", doc, make_retriever(None), stream=True))
    assert (
        isinstance(chunks[-1], dict)
        and chunks[-1]["__references__"][0]["title"] == "Blinking light"
    )
    assert "battery is low" in "".join(c for c in chunks if isinstance(c, str))
    plain = ask("blinking red light", doc, make_retriever(None), return_raw=False)
    assert plain["references"] == chunks[-1]["__references__"]


def test_async_and_multi_offline(guide, tmp_path) -> None:
    doc, registry = guide
    other_path = tmp_path / "pricing.md"
    other_path.write_text(
        "# Prices\n\nThe Acme Widget costs 49 EUR.\n\n# Shipping\n\nShipping is free.\n"
    )
    other = index_document(
        str(other_path), summarizer=make_summarizer(None), registry_path=registry, verbose=False
    )
    result = ask_multi(
        "How much does the widget cost and how long is the warranty?",
        [doc, other],
        make_retriever(None),
    )
    files = {r["file_name"] for r in result.references}
    assert files == {"widget_guide.md", "pricing.md"}
    assert "49 EUR" in result.content and "24 months" in result.content
    chunks = run_coroutine(_collect(aask("warranty", doc, make_retriever(None), stream=True)))
    assert chunks[-1]["__references__"][0]["title"] == "Warranty"


async def _collect(awaitable):
    return [c async for c in await awaitable]


def test_unanswerable_question_says_so(guide) -> None:
    doc, _ = guide
    result = ask("zebra quantum flux", doc, make_retriever(None))
    assert "may not contain the answer" in result.content


def test_empty_document_answers_without_crashing() -> None:
    doc = {"doc_id": "e", "file_name": "empty.md", "flat_nodes": {}, "tree_outline": ""}
    result = ask("anything?", doc, make_retriever(None))
    assert "nothing to answer from" in result.content and result.references == []


def test_tag_extraction() -> None:
    tags = extract_tags(
        "The Bank of England raised rates by 0.25% in 2023. The FDA approved 50 mg doses. "
        "Ada Lovelace met Charles Babbage in London.",
        "Rates",
    )
    for expected in (
        "Bank of England",
        "0.25%",
        "2023",
        "FDA",
        "50 mg",
        "Ada Lovelace",
        "Charles Babbage",
        "London",
    ):
        assert expected in tags, (expected, tags)
    assert "The" not in tags


def test_leading_summary_is_bounded() -> None:
    three = "The first sentence is here. The second one follows it. The third one ends it."
    assert leading_summary(three) == three
    assert len(leading_summary("word " * 1000)) <= 200


def test_sentences_wrapped_by_a_pdf_are_rejoined_but_table_rows_are_not():
    from treerag_core.text.sentences import split_sentences

    text = "Revenue grew in fiscal 2023. The\nindependent auditor was Deloitte.\nNet sales 10 20\nTotal 30"
    assert split_sentences(text) == [
        "Revenue grew in fiscal 2023.",
        "The independent auditor was Deloitte.",
        "Net sales 10 20",
        "Total 30",
    ]


def test_sentence_stops_with_closing_quotes_repeated_stops_and_wide_stops():
    """The stop opens the match (issue 42's speed-up): where a sentence ends, and that the
    closing quote stays with it, is as it was with the stop looked back at."""
    from treerag_core.text.sentences import sentence_spans

    text = 'He said "no." Then left.. After that? (Yes.) 2023 was fine.'
    assert sentence_spans(text) == [
        ('He said "no."', 0),
        ("Then left..", 14),
        ("After that?", 26),
        ("(Yes.)", 38),
        ("2023 was fine.", 45),
    ]
    assert sentence_spans("はい。。「次」。終わり！") == [
        ("はい。", 0), ("。", 3), ("「次」。", 4), ("終わり！", 8)
    ]  # fmt: skip
    assert sentence_spans("U.S. sales rose. e.g. not here") == [
        ("U.S. sales rose. e.g. not here", 0)
    ]


def test_query_expansion_maps_question_words_to_filing_words():
    from treerag_core.navigate.ranking import expand_query, rank_nodes

    assert "operations" in expand_query("What does the income statement say?")
    assert expand_query("Who audits the company?") == "Who audits the company?"
    # a metric's name brings the rows its formula is computed from, a nested one's too
    assert "total current liabilities" in expand_query("What was the quick ratio in 2022?")
    ccc = expand_query("What was the cash conversion cycle?")
    assert all(w in ccc for w in ("inventory", "accounts receivable", "accounts payable"))
    # initials count only written as initials: Spanish "dio" (gave) is no DIO
    assert expand_query("¿Qué dio la empresa?") == "¿Qué dio la empresa?"
    assert "inventory" in expand_query("What was the DIO in 2022?")
    flat = {
        "0000": {
            "node_id": "0000",
            "title": "Consolidated Statements of Operations",
            "text": "Net sales 100 Operating income 20",
        },
        "0001": {"node_id": "0001", "title": "Risk factors", "text": "Competition is intense."},
    }
    assert rank_nodes("net income in the income statement", flat, k=1)[0][0] == "0000"


def test_ranking_memory_gives_the_same_ranking_and_builds_each_set_once() -> None:
    from treerag_core.navigate import ranking
    from treerag_core.navigate.ranking import RankingMemory
    from treerag_core.tree import passages  # where the statistics are built

    flat = {
        "0000": {"title": "Revenue", "summary": "", "tags": [], "text": "Net sales rose to 9 billion."},
        "0001": {"title": "Staff", "summary": "", "tags": [], "text": "We employ 40 people."},
    }  # fmt: skip
    memory = RankingMemory(max_sets=2)
    built = []
    real = passages.BM25

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, docs, **kw) -> None:  # noqa: ANN001, ANN003
            built.append(1)
            super().__init__(docs, **kw)

    passages.BM25 = Counting
    try:
        plain = ranking.rank_nodes("how many people", flat, k=2)
        assert ranking.rank_nodes("how many people", flat, k=2, memory=memory) == plain
        assert ranking.rank_nodes("net sales", flat, k=2, memory=memory)[0][0] == "0000"
        assert len(built) == 2  # once without memory, once for the two questions with it
        changed = {**flat, "0001": {**flat["0001"], "text": "We employ 41 people."}}
        ranking.rank_nodes("how many people", changed, k=2, memory=memory)
        assert len(built) == 3  # changed text is a new set, never a stale hit
    finally:
        passages.BM25 = real


def test_ranking_memory_keeps_quoted_sections_pieces_and_answers_the_same(tmp_path) -> None:
    """The second question over the same sections reuses their windows, rows and sentences
    (the app's per-process memory) and answers exactly as without a memory."""
    from treerag_core.answer.offline import extractive
    from treerag_core.navigate.ranking import RankingMemory

    rows = "\n".join(f"Region {i} net sales {1000 + i:,} {900 + i:,}" for i in range(900))
    path = tmp_path / "report.md"
    path.write_text(
        f"# Report\n\n## Results\n\nIn millions 2019 2018\n{rows}\n\n## Staff\n\nWe employ 40 people.\n"
    )
    registry = str(tmp_path / "indexed_docs.json")
    doc = index_document(
        str(path), summarizer=make_summarizer(None), registry_path=registry, verbose=False
    )
    question = "What were the net sales of Region 412 in 2019?"
    plain = ask(question, doc, make_retriever(None), return_raw=False)
    assert "Region" in plain["answer"]  # read from the long section's best window
    memory = RankingMemory()
    remembering = dataclasses.replace(make_retriever(None), ranking_memory=memory)
    parsed = []
    real = extractive.table_rows

    def counting(text, lead=""):  # noqa: ANN001, ANN202
        parsed.append(1)
        return real(text, lead)

    extractive.table_rows = counting
    try:
        first = ask(question, doc, remembering, return_raw=False)
        made = len(parsed)
        again = ask(question, doc, remembering, return_raw=False)
    finally:
        extractive.table_rows = real
    assert first["answer"] == again["answer"] == plain["answer"]
    assert first["references"] == plain["references"]
    assert made >= 1 and len(parsed) == made  # the second answer parsed nothing again
