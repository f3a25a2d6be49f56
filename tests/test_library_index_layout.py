"""The library index's on-disk layout: packed postings, and an older layout given back."""

from __future__ import annotations

import sqlite3

import pytest

from treerag_core.store import postings
from treerag_core.store.library_index import INDEX_VERSION, SqliteLibraryIndex


def test_packed_integers_read_back_as_written() -> None:
    values = [0, 1, -1, 2**31 - 1, -(2**31), 4095, 7]
    assert list(postings.unpack(postings.pack(values))) == values
    assert list(postings.unpack(postings.pack([]))) == []


@pytest.mark.parametrize("blob", [b"not zlib", postings.zlib.compress(b"abc")])
def test_bytes_that_are_not_packed_integers_are_refused(blob: bytes) -> None:
    with pytest.raises(ValueError):
        postings.unpack(blob)


def _entry(doc_id: str, terms: int) -> dict:
    return {
        "doc_id": doc_id, "stamp": "h@t", "collection": "", "card": {"title": doc_id},
        "sections": {
            "postings": {f"term{i}": [0, 1, 0, 2, -1, 1, 0, 0] for i in range(terms)},
            "lengths": [3, 0, 40], "totals": {"sections": 1}, "nodes": ["n0"], "titles": ["A"],
        },
    }  # fmt: skip


def test_an_older_layout_is_dropped_and_its_pages_given_back(tmp_path) -> None:
    """An index written by an older treerag is derived data: the first open drops it, and
    the file shrinks (SQLite keeps freed pages otherwise, which had left a rebuilt index at
    its old layout's size)."""
    path = str(tmp_path / "reg.library.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE section_terms (term TEXT, doc_id TEXT, postings TEXT)")
        db.executemany("INSERT INTO section_terms VALUES (?, ?, ?)",
                       ((f"t{i}", "d", "[[1,0,0,1,13,0,92]]" * 20) for i in range(5000)))  # fmt: skip
        db.execute(f"PRAGMA user_version = {INDEX_VERSION - 1}")
    old = (tmp_path / "reg.library.sqlite").stat().st_size
    index = SqliteLibraryIndex(path)
    index.put(_entry("doc", 50))
    assert (tmp_path / "reg.library.sqlite").stat().st_size < old / 10
    found = index.postings({"term3"}, None)
    assert list(found["term3"]["doc"]) == [0, 1, 0, 2, -1, 1, 0, 0]
    assert list(index.lengths(["doc"])["doc"]) == [3, 0, 40]


def test_a_document_put_again_replaces_its_rows_under_a_new_key(tmp_path) -> None:
    index = SqliteLibraryIndex(str(tmp_path / "reg.library.sqlite"))
    index.put(_entry("a", 3))
    index.put(_entry("b", 2))
    index.put(_entry("a", 1))
    assert set(index.postings({"term0", "term2"}, None)["term0"]) == {"a", "b"}
    assert "term2" not in index.postings({"term2"}, None)
    index.remove("b")
    assert index.postings({"term1"}, None) == {}
