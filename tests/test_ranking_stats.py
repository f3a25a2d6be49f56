"""A document's ranking statistics, built once at indexing and kept in the store's cache:
read back (by another process, after a restart, by the first question) they rank exactly as
statistics built from the text."""

from __future__ import annotations

import pytest
from conftest import RegistryUnderTest

from treerag_core import make_retriever
from treerag_core.answer.library import ask_library
from treerag_core.library.indexing import index_upload
from treerag_core.navigate.ranking import LASTING_MIN_PASSAGES, RankingMemory, rank_nodes
from treerag_core.text.bm25 import BM25


def _long_document(sections: int = LASTING_MIN_PASSAGES + 6) -> bytes:
    parts = ["# Operations manual\n"]
    for i in range(sections):
        parts.append(f"## Procedure {i}\nStep {i}: check valve {i * 7} and log pressure "
                     f"reading {i * 13} in the shift book.\n")  # fmt: skip
    parts.append("## Emergency stop\nThe red emergency stop button is beside door B.\n")
    return "\n".join(parts).encode()


class CountingCache(dict):
    """A Cache that counts its reads and writes."""

    puts = 0

    def put(self, key: str, value: dict) -> None:
        self.puts += 1
        self[key] = value


def test_stored_statistics_score_exactly_as_built_ones() -> None:
    docs = {("a", 0): ["valve", "pressure", "valve"], ("b", 0): ["door", "stop"], "c": ["x"]}
    built = BM25(docs)
    read = BM25.from_stored(built.stored())
    for query in (["valve"], ["door", "stop", "valve"], ["missing"], []):
        assert read.scores(query) == built.scores(query)
    with pytest.raises(ValueError):
        BM25.from_stored({"v": 1, "keys": ["a"], "lengths": [], "postings": "!"})


def test_a_document_is_tokenised_once_for_every_memory_sharing_the_cache(tmp_path) -> None:
    doc = index_upload("manual.md", _long_document(), registry_path=str(tmp_path / "r.json"))
    flat, question = doc["flat_nodes"], "Where is the emergency stop button?"
    cache = CountingCache()
    first = rank_nodes(question, flat, k=5, memory=RankingMemory(lasting=cache))
    assert cache.puts == 1  # the whole document's statistics, kept
    again = rank_nodes(question, flat, k=5, memory=RankingMemory(lasting=cache))  # a restart
    assert cache.puts == 1 and again == first == rank_nodes(question, flat, k=5)
    assert flat[first[0][0]]["title"] == "Emergency stop"
    (key,) = cache
    cache[key] = {"v": 1, "damaged": True}  # a damaged entry is built again and replaced
    assert rank_nodes(question, flat, k=5, memory=RankingMemory(lasting=cache)) == first
    assert cache.puts == 2
    small = {nid: flat[nid] for nid in list(flat)[:3]}  # a few sections: not worth keeping
    rank_nodes(question, small, k=2, memory=RankingMemory(lasting=cache))
    assert cache.puts == 2


def test_indexing_keeps_the_statistics_a_first_question_reads(
    any_registry: RegistryUnderTest,
) -> None:
    from treerag_core.store import open_store

    url = any_registry.url
    index_upload("manual.md", _long_document(), registry_path=url)
    index_upload("other.md", b"# Canteen\n\nLunch is served from noon.\n", registry_path=url)
    question = "Where is the emergency stop button?"
    kept = open_store(url).cache("ranking")
    assert len(kept) == 1  # kept at indexing: the manual's (the canteen note is too small)
    cold = ask_library(question, make_retriever(), registry_path=url, return_raw=False)
    assert len(kept) == 1  # the first question found them: nothing built, nothing added
    warm = ask_library(question, make_retriever(), registry_path=url, return_raw=False)
    assert len(kept) == 1
    assert warm["answer"] == cold["answer"] and "beside door B" in warm["answer"]
    assert [r["node_id"] for r in warm["references"]] == [r["node_id"] for r in cold["references"]]


def test_a_piece_asked_by_two_threads_at_once_is_built_once() -> None:
    """The first asker builds; one asking meanwhile waits for it (or, coming after, finds
    it kept): either way the second build never runs and both get the same object."""
    import threading

    from treerag_core.navigate.ranking import RankingMemory

    memory, started, release, got = RankingMemory(), threading.Event(), threading.Event(), {}

    def slow() -> list[str]:
        started.set()
        release.wait()
        return ["built once"]

    def second() -> list[str]:
        raise AssertionError("built twice")

    first = threading.Thread(target=lambda: got.update(a=memory.piece("key", slow)))
    first.start()
    started.wait()
    other = threading.Thread(target=lambda: got.update(b=memory.piece("key", second)))
    other.start()
    release.set()
    first.join()
    other.join()
    assert got["a"] is got["b"]


def test_a_failed_build_leaves_the_piece_to_the_next_asker() -> None:
    from treerag_core.navigate.ranking import RankingMemory

    memory = RankingMemory()

    def failing() -> list[str]:
        raise ValueError("no")

    with pytest.raises(ValueError):
        memory.piece("key", failing)
    assert memory.piece("key", lambda: ["made"]) == ["made"]
