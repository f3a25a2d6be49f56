"""Other inflections of a question's English words: what library routing also reads, at a
discount, where a section lacks the question's own form."""

from __future__ import annotations

from treerag_core import index_document
from treerag_core.library.indexing import index_upload
from treerag_core.navigate.offline import offline_pick
from treerag_core.navigate.ranking import rank_nodes
from treerag_core.route.routing import route
from treerag_core.route.scoring import Statistics, score_documents
from treerag_core.store import open_store
from treerag_core.text.bm25 import BM25
from treerag_core.text.inflections import FORM_WEIGHT, inflected_forms, other_forms
from treerag_core.text.tokens import tokenize

HARDWARE = b"""# Hardware policy

## Leavers
An employee who leaves hands in the laptop on the last day.

## Phones
Phones are set up by the service desk.
"""
TRAVEL = b"""# Travel policy

## Trips
An employee leaving for a trip books it with the travel desk.

## Equipment
A laptop taken on a trip stays in the cabin.
"""


def test_a_words_inflections_as_the_index_keeps_them() -> None:
    assert {"leave", "leaving"} & inflected_forms("leaving") == {"leave"}
    assert {"include", "including"} <= inflected_forms("included")
    assert "capped" in inflected_forms("cap")
    assert "applied" in inflected_forms("apply")
    # the plural is as the tokenizer cuts it: "reports" is kept as "report"
    assert tokenize("reports") == ["report"] and "report" not in inflected_forms("report")


def test_derived_words_numbers_and_short_words_are_not_forms() -> None:
    assert "configuration" not in inflected_forms("configure")
    assert inflected_forms("2023") == inflected_forms("q2") == inflected_forms("it") == frozenset()


def _score(postings: dict[str, dict[str, list[int]]], forms: dict[str, str]) -> dict[str, float]:
    terms = {"a": set(postings), "b": set(postings)}
    lengths = {"a": [2, 2, 10], "b": [2, 2, 10]}
    totals = {d: {"card": [1, 1, 1]} for d in terms}
    stats = Statistics(2, 2, (2.0, 2.0, 10.0), (1.0, 1.0, 1.0))
    scored = score_documents(terms, postings, lengths, totals, stats, forms)
    return {d: s.sections for d, s in scored.items()}


def test_another_form_counts_at_a_discount_and_only_where_the_own_form_is_missing() -> None:
    own = {"leaving": {"a": [0, 1, 0, 1]}}
    other = {"leave": {"b": [0, 1, 0, 1]}}
    both = {"leaving": {"a": [0, 1, 0, 1]}, "leave": {"a": [0, 1, 0, 1], "b": [0, 1, 0, 1]}}
    forms = {"leave": "leaving"}
    exact = _score(own, forms)["a"]
    assert _score(other, forms)["b"] > 0
    assert abs(_score({**own, **other}, forms)["b"] - FORM_WEIGHT * exact) < 1e-9
    scores = _score(both, forms)  # "a" holds both forms: the word is counted once
    assert abs(scores["a"] - _score({"leaving": both["leaving"]}, forms)["a"]) < 1e-9


def test_a_question_reaches_the_section_that_writes_its_word_another_way(tmp_path) -> None:
    """ "leaving" meets the hardware policy's "leaves": the travel policy holds "leaving"
    itself, in a section on something else, while the hardware policy's one section holds
    the question's other words too (without the other form, the travel policy's section
    holds more of the question)."""
    registry = str(tmp_path / "lib.json")
    hardware = index_upload("hardware.md", HARDWARE, registry_path=registry)
    index_upload("travel.md", TRAVEL, registry_path=registry)
    routing = route("What happens to the laptop of an employee leaving?", open_store(registry))
    assert routing.doc_ids == [hardware["doc_id"]]


def test_the_ranking_and_the_chunk_baseline_read_other_forms_alike(tmp_path) -> None:
    """Within a document, the section that writes the question's word another way ranks
    first too; the chunk baseline matches words the same way, so the two arms of the
    FinanceBench benchmark differ by what they rank, not by how they match (the chunk
    baseline ranks with the same BM25)."""
    path = tmp_path / "policies.md"
    path.write_bytes(HARDWARE + b"\n" + TRAVEL.replace(b"# Travel policy", b"# Travel"))
    document = index_document(str(path), persist=False, verbose=False)
    question = "What happens to the laptop of an employee leaving?"
    best, _ = rank_nodes(question, document["flat_nodes"], k=1)[0]
    assert document["flat_nodes"][best]["title"] == "Leavers"
    asked = tokenize(question)
    chunks = BM25({0: tokenize("who leaves hands in the laptop"), 1: tokenize("leaving laptop")})
    assert chunks.scores(asked, other_forms(asked))[0] > chunks.scores(asked)[0]
    assert chunks.scores(asked, other_forms(asked))[1] == chunks.scores(asked)[1]


def test_other_forms_reorder_the_sections_read_but_do_not_add_to_them(tmp_path) -> None:
    """Which sections are near enough the best to be read is decided on the question's own
    words: a section holding only another form of one ("ended" for "end") is not read too,
    which would thin every other section's share of the answer (a head count's sentence
    fell out of a 10-K's excerpt that way)."""
    path = tmp_path / "notes.md"
    path.write_text(
        "# Notes\n\n## Staff\nAt the end of the year the company had 120 staff.\n\n"
        "## Results\nThe quarter ended with results above plan.\n"
    )
    document = index_document(str(path), persist=False, verbose=False)
    flat = document["flat_nodes"]
    picked, _ = offline_pick("What came at the end?", flat, k=5)
    assert [flat[nid]["title"] for nid in picked] == ["Staff"]
    ranked = rank_nodes("What came at the end?", flat, k=5)
    assert [flat[nid]["title"] for nid, _ in ranked] == ["Staff", "Results"]
