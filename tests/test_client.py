"""The Library client: one store, models, person and caches held for every call; typed
answers and streams; the seed's functions beside it unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit.async_helpers import run_coroutine
from testkit.fake_llm_servers import openai_server  # noqa: F401 - a fixture
from treerag_core import (
    AccessDeniedError,
    Answer,
    Library,
    Settings,
    TextDelta,
    ask,
    get_document_by_id,
    make_retriever,
)
from treerag_core.access import Principal, set_collection_access

HANDBOOK = (
    "# Staff handbook\n\n## Annual leave\nEmployees get 25 days of annual leave each year.\n\n"
    "## Lateness\nLateness is penalised with a written warning.\n"
)
ANA = Principal("ana@example.com", frozenset({"hr"}))
BOB = Principal("bob@example.com", frozenset({"sales"}))


@pytest.fixture
def library(tmp_path: Path):
    (tmp_path / "handbook.md").write_text(HANDBOOK)
    with Library.open(tmp_path / "reg.json") as opened:
        yield opened


def test_index_ask_and_stream_typed(library: Library, tmp_path: Path) -> None:
    doc = library.index(tmp_path / "handbook.md")
    answer = library.ask("How many days of annual leave do employees get?", [doc["doc_id"]])
    assert isinstance(answer, Answer) and "25 days" in answer.text
    assert answer.cited and answer.cited[0]["title"] == "Annual leave"
    events = list(library.stream("What is the penalty for lateness?", [doc["doc_id"]]))
    assert all(isinstance(e, TextDelta) for e in events[:-1]) and isinstance(events[-1], Answer)
    assert "written warning" in "".join(e.text for e in events[:-1])
    assert events[-1].text == "".join(e.text for e in events[:-1])


def test_no_document_named_asks_the_whole_library(library: Library, tmp_path: Path) -> None:
    library.index(tmp_path / "handbook.md")
    other = tmp_path / "menu.md"
    other.write_text("# Canteen menu\n\n## Monday\nSoup of the day and bread.\n")
    library.index(other)
    answer = library.ask("What penalty does lateness get?")
    assert "written warning" in answer.text
    assert {ref["file_name"] for ref in answer.cited} == {"handbook.md"}
    assert answer.trace["library"]["opened"]


def test_uploaded_bytes_and_the_documents_view(library: Library) -> None:
    doc = library.index(HANDBOOK.encode(), name="upload.md", collection="hr")
    assert [row["file_name"] for row in library.documents.list()] == ["upload.md"]
    assert library.documents.get(doc["doc_id"])["total_sections"] == doc["total_sections"]
    library.documents.move(doc["doc_id"], "archive")
    assert library.documents.list()[0]["collection"] == "archive"
    assert library.documents.delete(doc["doc_id"]) and library.documents.list() == []
    with pytest.raises(ValueError, match="name"):
        library.index(b"no name")


def test_a_person_sees_only_what_they_may_read(library: Library) -> None:
    doc = library.index(HANDBOOK.encode(), name="hr.md", collection="hr")
    set_collection_access("hr", readers=["hr"], registry_path=library.store)
    ana, bob = library.as_person(ANA), library.as_person(BOB)
    assert ana.store is bob.store is library.store  # one store, nothing opened again
    assert [r["doc_id"] for r in ana.documents.list()] == [doc["doc_id"]]
    assert bob.documents.list() == []
    with pytest.raises(AccessDeniedError):
        bob.ask("How many days of leave?", [doc["doc_id"]])
    bob.close()  # a view closes nothing: the shared library still works
    assert library.documents.list()


def test_conversations_are_the_persons_own(library: Library, tmp_path: Path) -> None:
    doc = library.index(tmp_path / "handbook.md")
    thread = library.conversations.create([doc["doc_id"]], "Leave")
    answer = library.ask("How many days of annual leave?", [doc["doc_id"]])
    turn = {"question": "How many days of annual leave?", "answer": answer.text,
            "references": answer.cited}  # fmt: skip
    library.conversations.add_turn(thread["thread_id"], turn)
    assert [t["title"] for t in library.conversations.list()] == ["Leave"]
    assert library.conversations.history(thread["thread_id"])[0]["answer"] == answer.text
    assert library.as_person(BOB).conversations.list() == []


def test_awaited_twins(library: Library, tmp_path: Path) -> None:
    doc = library.index(tmp_path / "handbook.md")

    async def both() -> tuple[Answer, list]:
        answer = await library.aask("How many days of annual leave?", [doc["doc_id"]])
        events = [e async for e in library.astream("Lateness penalty?", [doc["doc_id"]])]
        return answer, events

    answer, events = run_coroutine(both())
    assert "25 days" in answer.text and isinstance(events[-1], Answer)


def test_models_come_from_the_settings(tmp_path: Path, openai_server) -> None:  # noqa: F811
    settings = Settings(registry=str(tmp_path / "reg.json"), openai_base_url=openai_server.url,
                        llm_max_retries=0)  # fmt: skip
    (tmp_path / "handbook.md").write_text(HANDBOOK)
    with Library.open(settings) as library:
        doc = library.index(tmp_path / "handbook.md")
        answer = library.ask("How many days of annual leave?", [doc["doc_id"]])
    # the fake model's reply states no figure: set aside for the offline answer, kept
    assert answer.model_answer == "Answer from the sections."
    assert "25 days" in answer.text and answer.support["model"]["missing_figure"]
    assert {"summary", "search", "answer"} <= set(openai_server.kinds())
    assert doc["flat_nodes"]["0001"]["summary"].startswith("About ")


def test_the_seed_functions_still_work_beside_it(library: Library, tmp_path: Path) -> None:
    doc = library.index(tmp_path / "handbook.md")
    same = get_document_by_id(doc["doc_id"], library.store)
    result = ask("How many days of annual leave?", same, make_retriever(None))
    assert "25 days" in result.content and result.references


def test_one_pool_for_every_call_on_postgresql(pg_url: str) -> None:
    with Library.open(pg_url) as library:
        pool = library.store.db._open()
        doc = library.index(HANDBOOK.encode(), name="handbook.md")
        for _ in range(3):
            library.ask("How many days of annual leave?", [doc["doc_id"]])
            library.documents.list()
        assert library.store.db._open() is pool  # the same pool, never a new one
    assert library.store.db._pool is None  # closed with the library
