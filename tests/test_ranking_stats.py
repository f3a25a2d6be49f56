"""A document's ranking statistics, built once at indexing and kept in the store's cache:
read back (by another process, after a restart, by the first question) they rank exactly as
statistics built from the text."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

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


def _waiting_in_get(thread: threading.Thread) -> bool:
    """Whether ``thread`` is blocked in the memory's ``get``, waiting for another thread's
    build (its stack: ``_Lru.get`` calling ``Event.wait``)."""
    frame = sys._current_frames().get(thread.ident or -1)
    names = []
    while frame is not None:
        names.append((Path(frame.f_code.co_filename).name, frame.f_code.co_name))
        frame = frame.f_back
    return ("threading.py", "wait") in names and ("ranking.py", "get") in names


def test_a_piece_asked_by_two_threads_at_once_is_built_once() -> None:
    """The first asker builds; one asking meanwhile waits for it: the second build never
    runs and both get the same object. The build is held until the second asker is seen
    waiting in ``get`` (its stack, polled), so the waiting path is the one exercised, not
    the later "found kept" one."""
    memory, started, release, got = RankingMemory(), threading.Event(), threading.Event(), {}

    def slow() -> list[str]:
        started.set()
        release.wait()
        return ["built once"]

    def second() -> list[str]:
        raise AssertionError("built twice")

    first = threading.Thread(target=lambda: got.update(a=memory.piece("key", slow)), daemon=True)
    first.start()
    started.wait()
    other = threading.Thread(target=lambda: got.update(b=memory.piece("key", second)), daemon=True)
    other.start()
    try:
        deadline = time.monotonic() + 30
        while not _waiting_in_get(other):
            assert time.monotonic() < deadline, "the second asker never waited for the build"
            assert other.is_alive(), "the second asker did not wait for the first's build"
            time.sleep(0.001)  # a poll's pause: correctness does not depend on its length
    finally:
        release.set()  # a failing check must not leave the first asker blocked
    first.join(30)
    other.join(30)
    assert got["a"] is got["b"]


def test_a_failed_build_leaves_the_piece_to_the_next_asker() -> None:
    from treerag_core.navigate.ranking import RankingMemory

    memory = RankingMemory()

    def failing() -> list[str]:
        raise ValueError("no")

    with pytest.raises(ValueError):
        memory.piece("key", failing)
    assert memory.piece("key", lambda: ["made"]) == ["made"]
