"""Conversations in the registry's store: per person, surviving a new process, safe under
concurrent turns, readable after their documents are deleted; feedback into the regression
set, and the regression set into an evaluation."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_seams import MemoryStore

from testkit.pg_server import query
from treerag_core import (
    AccessDeniedError,
    RegistryError,
    ask,
    delete_document,
    index_document,
    make_retriever,
    make_summarizer,
)
from treerag_core.access.collections import set_collection_access
from treerag_core.access.principal import Principal
from treerag_core.chat.export import thread_markdown
from treerag_core.chat.regression import (
    delete_regression_question,
    parse_pages,
    questions_jsonl,
    regression_questions,
    save_regression_question,
    thumbs_down,
)
from treerag_core.chat.threads import (
    add_turn,
    create_thread,
    delete_thread,
    get_thread,
    history_of,
    list_threads,
    make_turn,
    rename_thread,
    replace_answer,
    set_feedback,
)
from treerag_core.errors import InvalidThreadError, ThreadNotFoundError
from treerag_core.evaluation.loader import registry_loader
from treerag_core.evaluation.questions import InvalidQuestionsError
from treerag_core.evaluation.run import evaluate
from treerag_core.store import is_database_url, open_store

DOC = "# Sales\nNet sales were $280 billion in 2019 and $232 billion in 2018.\n\n# Staff\nWe employ 40 people.\n"
ANA = Principal("ana@example.com", groups=frozenset({"team"}))
BEN = Principal("ben@example.com", groups=frozenset({"team"}))


@pytest.fixture
def registry(any_registry) -> str:  # noqa: ANN001 - conftest's RegistryUnderTest
    """Every test here runs against the registry file and a PostgreSQL database."""
    return any_registry.url


@pytest.fixture
def doc(registry: str, tmp_path: Path) -> dict:
    source = tmp_path / "sales.md"
    source.write_text(DOC)
    return index_document(
        str(source), summarizer=make_summarizer(None), registry_path=registry, verbose=False
    )


def answered(question: str, doc: dict, history=None) -> dict:  # noqa: ANN001
    result = ask(question, doc, make_retriever(), return_raw=False, history=history)
    return make_turn(question, result["answer"], result)


def test_a_thread_keeps_its_turns_across_processes(registry: str, doc: dict) -> None:
    thread = create_thread([doc["doc_id"]], "What were net sales in 2019?", registry)
    add_turn(thread["thread_id"], answered("What were net sales in 2019?", doc), registry)
    history = history_of(get_thread(thread["thread_id"], registry))
    add_turn(thread["thread_id"], answered("And in 2018?", doc, history), registry)
    fresh = open_store(registry)  # what a restarted server opens
    [row] = list_threads(fresh)
    assert row["title"] == "What were net sales in 2019?" and row["turns"] == 2
    stored = get_thread(thread["thread_id"], fresh)
    assert [t["question"] for t in stored["turns"]] == [
        "What were net sales in 2019?",
        "And in 2018?",
    ]
    second = stored["turns"][1]
    assert "$232 billion in 2018" in second["answer"]
    assert second["trace"]["searched_as"] == "And in 2018? net sales"
    assert second["references"][0]["node_id"] == "0000" and second["usage"]["llm_calls"] == 0
    if not is_database_url(registry):
        assert os.path.isdir(registry.replace(".json", ".threads"))
    else:  # one row per thread, the list read from its columns
        assert query(registry, "SELECT turns, jsonb_array_length(body->'turns') FROM threads") == [
            (2, 2)
        ]


def test_rename_delete_and_order(registry: str, doc: dict) -> None:
    first = create_thread([doc["doc_id"]], "first", registry)
    second = create_thread([doc["doc_id"]], "second", registry)
    add_turn(first["thread_id"], answered("Staff?", doc), registry)  # updated last: listed first
    assert [r["title"] for r in list_threads(registry)] == ["first", "second"]
    rename_thread(second["thread_id"], "  Staff   numbers ", registry)
    assert get_thread(second["thread_id"], registry)["title"] == "Staff numbers"
    with pytest.raises(InvalidThreadError):
        rename_thread(second["thread_id"], "   ", registry)
    assert delete_thread(second["thread_id"], registry) is True
    assert delete_thread(second["thread_id"], registry) is False
    with pytest.raises(ThreadNotFoundError):
        get_thread(second["thread_id"], registry)
    assert [r["title"] for r in list_threads(registry)] == ["first"]


def test_threads_belong_to_one_person(registry: str, doc: dict) -> None:
    thread = create_thread([doc["doc_id"]], "Ana's question", registry, ANA)
    assert list_threads(registry, BEN) == [] and list_threads(registry) == []
    for attempt in (
        lambda: get_thread(thread["thread_id"], registry, BEN),
        lambda: add_turn(thread["thread_id"], answered("x?", doc), registry, BEN),
        lambda: rename_thread(thread["thread_id"], "mine now", registry, BEN),
        lambda: set_feedback(thread["thread_id"], 0, "down", "", registry, BEN),
    ):
        with pytest.raises(ThreadNotFoundError, match="no conversation"):
            attempt()
    assert delete_thread(thread["thread_id"], registry, BEN) is False
    same_person = Principal("ANA@example.com")  # names compare case-folded
    assert [r["title"] for r in list_threads(registry, same_person)] == ["Ana's question"]


def test_bad_thread_ids_are_not_found(registry: str) -> None:
    for bad in ("../../etc/passwd", "", "a/b", "x" * 100):
        with pytest.raises(ThreadNotFoundError):
            get_thread(bad, registry)
        assert delete_thread(bad, registry) is False


def test_concurrent_turns_in_one_thread_are_all_kept(registry: str, doc: dict) -> None:
    thread = create_thread([doc["doc_id"]], "busy", registry)
    turn = answered("Net sales?", doc)

    def ask_one(n: int) -> None:
        add_turn(thread["thread_id"], {**turn, "question": f"q{n}"}, registry)

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(ask_one, range(24)))
    stored = get_thread(thread["thread_id"], registry)
    assert sorted(t["question"] for t in stored["turns"]) == sorted(f"q{n}" for n in range(24))
    assert list_threads(registry)[0]["turns"] == 24


def test_deleted_document_leaves_answers_readable_and_marks_references(
    registry: str, doc: dict
) -> None:
    thread = create_thread([doc["doc_id"]], "sales", registry)
    add_turn(thread["thread_id"], answered("What were net sales in 2019?", doc), registry)
    assert not get_thread(thread["thread_id"], registry)["turns"][0]["references"][0]["gone"]
    assert delete_document(doc["doc_id"], registry)
    stored = get_thread(thread["thread_id"], registry)
    turn = stored["turns"][0]
    assert "$280 billion in 2019" in turn["answer"]
    assert turn["references"] and all(r["gone"] for r in turn["references"])
    assert stored["doc_ids_gone"] == [doc["doc_id"]]
    markdown = thread_markdown(stored)
    assert "# sales" in markdown and "**You:**" in markdown and "$280 billion" in markdown
    assert "[S1] Sales (p. 1) · sales.md (document deleted)" not in markdown  # no pages: md
    assert "[S1] Sales · sales.md (document deleted)" in markdown


def test_regenerate_replaces_the_answer_and_clears_the_verdict(registry: str, doc: dict) -> None:
    thread = create_thread([doc["doc_id"]], "staff", registry)
    add_turn(thread["thread_id"], make_turn("How many staff?", "old answer"), registry)
    set_feedback(thread["thread_id"], 0, "down", "wrong", registry)
    replace_answer(thread["thread_id"], 0, answered("ignored", doc), registry)
    [turn] = get_thread(thread["thread_id"], registry)["turns"]
    assert turn["question"] == "How many staff?" and turn["answer"] != "old answer"
    assert turn["regenerated"] == 1 and "feedback" not in turn
    with pytest.raises(InvalidThreadError):
        replace_answer(thread["thread_id"], 3, turn, registry)


def test_feedback_and_the_regression_set(registry: str, doc: dict) -> None:
    thread = create_thread([doc["doc_id"]], "sales", registry)
    add_turn(thread["thread_id"], answered("What were net sales in 2019?", doc), registry)
    add_turn(thread["thread_id"], make_turn("And in 2018?", "I do not know."), registry)
    set_feedback(thread["thread_id"], 0, "up", "", registry)
    with pytest.raises(InvalidThreadError):
        set_feedback(thread["thread_id"], 1, "sideways", "", registry)
    set_feedback(thread["thread_id"], 1, "down", "It is on the sales page", registry)
    [pending] = thumbs_down(registry)
    assert pending["question"] == "And in 2018?" and pending["comment"] == "It is on the sales page"
    assert pending["documents"] == [{"doc_id": doc["doc_id"], "file_name": "sales.md"}]
    with pytest.raises(InvalidThreadError):  # a thumbs-up is not a regression
        save_regression_question(thread["thread_id"], 0, doc["doc_id"], "1", registry)
    with pytest.raises(InvalidQuestionsError):  # no gold at all
        save_regression_question(thread["thread_id"], 1, doc["doc_id"], "", registry)
    row = save_regression_question(
        thread["thread_id"], 1, doc["doc_id"], "", registry, sections=["Sales"]
    )  # a Markdown file has no pages: its sections are the gold
    assert row["history"] == ["What were net sales in 2019?"] and row["gold_sections"] == ["Sales"]
    assert thumbs_down(registry) == []  # saved: not offered again
    assert regression_questions(registry) == [row]
    assert questions_jsonl([row]).decode().count("\n") == 1
    result = evaluate(regression_questions(registry), registry_loader(registry), baseline=False)
    assert result.navigation[0].section_hit is True and not result.errors


def test_regression_rows_follow_the_access_rules(registry: str, doc: dict) -> None:
    set_collection_access("default", readers=["team"], registry_path=registry)
    thread = create_thread([doc["doc_id"]], "q", registry, ANA)
    add_turn(thread["thread_id"], make_turn("Staff?", "no idea"), registry, ANA)
    set_feedback(thread["thread_id"], 0, "down", "", registry, ANA)
    row = save_regression_question(thread["thread_id"], 0, doc["doc_id"], [1], registry, ANA)
    assert regression_questions(registry, BEN) == [row]  # a reader of the same collection
    assert regression_questions(registry, Principal("eve@example.com")) == []
    with pytest.raises(AccessDeniedError):
        delete_regression_question(row["id"], registry, BEN)
    assert delete_regression_question(row["id"], registry, ANA) is True


@pytest.mark.parametrize(
    ("text", "pages"), [("12", [12]), ("12, 14-15", [12, 14, 15]), ("p. 3; pp.4", [3, 4])]
)
def test_parse_pages(text: str, pages: list[int]) -> None:
    assert parse_pages(text) == pages


@pytest.mark.parametrize("text", ["", "twelve", "0", "5-2", "1-500"])
def test_parse_pages_refuses(text: str) -> None:
    with pytest.raises(InvalidQuestionsError):
        parse_pages(text)


def test_a_corrupt_thread_file_is_an_error_and_spares_the_others(registry: str, doc: dict) -> None:
    good = create_thread([doc["doc_id"]], "good", registry)
    bad = create_thread([doc["doc_id"]], "bad", registry)
    if is_database_url(registry):  # JSONB is always JSON: a value that is not a thread
        query(registry, "UPDATE threads SET body = '\"not a thread\"' WHERE thread_id = %s",
              (bad["thread_id"],))  # fmt: skip
    else:
        folder = Path(registry.replace(".json", ".threads"))
        [path] = list(folder.glob(f"*/{bad['thread_id']}.json"))
        path.write_text("{not json")
    with pytest.raises(RegistryError, match="unreadable"):
        get_thread(bad["thread_id"], registry)
    assert get_thread(good["thread_id"], registry)["title"] == "good"


def test_threads_work_on_any_store() -> None:
    store = MemoryStore()
    thread = create_thread(["d1"], "in memory", store, ANA)
    add_turn(thread["thread_id"], make_turn("q?", "a."), store, ANA)
    set_feedback(thread["thread_id"], 0, "up", "", store, ANA)
    assert list_threads(store, ANA)[0]["turns"] == 1
    assert get_thread(thread["thread_id"], store, ANA)["turns"][0]["feedback"]["verdict"] == "up"
    assert delete_thread(thread["thread_id"], store, ANA)


def test_a_database_at_schema_2_gains_the_thread_tables_and_keeps_its_documents(
    pg_url: str,
) -> None:
    """A database written before threads existed is migrated on first open (version 3)."""
    from treerag_core.store.postgres.schema import SCHEMA_VERSION, ensure_schema

    old = open_store(pg_url)
    with old.db.transaction() as conn:  # what the previous release created
        ensure_schema(conn, old.location, upto=2)
    old.close()
    assert query(pg_url, "SELECT max(version) FROM treerag_schema") == [(2,)]
    assert query(pg_url, "SELECT to_regclass('threads') IS NULL") == [(True,)]
    query(  # a document stored by the old schema's tables
        pg_url,
        "INSERT INTO documents (doc_id, file_path, meta, body, size_bytes) VALUES "
        """('d1', 'x.md', '{"doc_id": "d1"}', '{}', 2)""",
    )
    thread = create_thread(["d1"], "after the upgrade", pg_url, ANA)
    assert query(pg_url, "SELECT max(version) FROM treerag_schema") == [(SCHEMA_VERSION,)]
    assert [r["doc_id"] for r in open_store(pg_url).list()] == ["d1"]
    assert get_thread(thread["thread_id"], pg_url, ANA)["title"] == "after the upgrade"


def test_two_replicas_share_threads_and_the_regression_set(pg_url: str, tmp_path: Path) -> None:
    """Two store objects (two app replicas) on one database: one's thread is the other's."""
    one, two = open_store(pg_url), open_store(pg_url)
    source = tmp_path / "sales.md"
    source.write_text(DOC)
    doc = index_document(str(source), summarizer=make_summarizer(None), registry_path=one)
    set_collection_access("default", readers=["team"], registry_path=one)
    thread = create_thread([doc["doc_id"]], "sales", one, ANA)
    add_turn(thread["thread_id"], make_turn("Staff?", "no idea"), two, ANA)
    set_feedback(thread["thread_id"], 0, "down", "on the staff page", one, ANA)
    assert [r["turns"] for r in list_threads(two, ANA)] == [1]
    row = save_regression_question(thread["thread_id"], 0, doc["doc_id"], [1], two, ANA)
    assert regression_questions(one, ANA) == [row] and thumbs_down(one, ANA) == []
    with pytest.raises(InvalidThreadError):  # a refused change leaves the row as it was
        set_feedback(thread["thread_id"], 0, "sideways", "", two, ANA)
    assert get_thread(thread["thread_id"], one, ANA)["turns"][0]["feedback"]["verdict"] == "down"
    assert delete_thread(thread["thread_id"], two, ANA) and list_threads(one, ANA) == []
    one.close()
    two.close()
