"""Asking the whole library: the index kept in step with the documents, routing among many
look-alikes, and access (both stores)."""

from __future__ import annotations

import json
import re

import pytest
from conftest import RegistryUnderTest

from treerag_core import delete_document, list_documents, make_retriever
from treerag_core.access.collections import set_collection_access
from treerag_core.access.principal import Principal
from treerag_core.answer.library import ask_library
from treerag_core.cli.main import main
from treerag_core.library.catalog import check_library_index, library_entry, rebuild_library_index
from treerag_core.library.documents import move_document
from treerag_core.library.indexing import index_upload
from treerag_core.library.transfer import export_registry, import_documents
from treerag_core.store import open_store

COMPANIES = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne"]
TOPICS = ["travel", "security", "leave", "expenses", "onboarding", "equipment"]


def look_alike(i: int) -> tuple[str, bytes]:
    """A policy like hundreds of others: same headings, other company, year and figures."""
    company, topic, year = COMPANIES[i % 8], TOPICS[i // 8 % 6], 1990 + i // 48  # one each
    text = (
        f"# {company} {topic} policy {year}\n\n## Scope\nThis policy applies to every "
        f"employee of {company} in {year}.\n\n## Rules\nRequests are approved by a manager "
        f"within {i % 9 + 2} days. The budget is {100 + i} euros per person.\n"
    )
    return f"{company.lower()}_{topic}_{year}_{i}.md", text.encode()


PLANTED = (
    b"# Zephyr Labs wifi and rooms\n\n## Meeting rooms\nThe Aurora room seats twelve people."
    b"\n\n## Wifi\nThe guest wifi password is tangerine-42, renewed every quarter.\n"
)


def _index(registry: str, name: str, data: bytes, **kw) -> dict:
    return index_upload(name, data, registry_path=registry, **kw)


@pytest.fixture(scope="module")
def thousand(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """1,000 look-alike policies and one document that holds the wifi password, indexed
    once for the tests that only read it."""
    registry = str(tmp_path_factory.mktemp("library") / "lib.json")
    for i in range(1000):
        _index(registry, *look_alike(i))
    return {"registry": registry, "planted": _index(registry, "zephyr_office.md", PLANTED)}


def test_the_right_document_among_1000_look_alikes(thousand: dict) -> None:
    registry, planted = thousand["registry"], thousand["planted"]
    result = ask_library(
        "What is the guest wifi password?", make_retriever(), registry_path=registry
    )
    assert "tangerine-42" in result.content
    assert {r["doc_id"] for r in result.references} == {planted["doc_id"]}
    assert result.references[0]["file_name"] == "zephyr_office.md"
    library = result.response_metadata["trace"]["library"]
    assert library["searched"] == 1001 and library["opened"] == [planted["doc_id"]]
    assert library["documents"][0]["kept"] and library["documents"][0]["why"] == "the best match"
    # A question naming a company and a year goes to that company's policy of that year.
    wanted = [r for r in list_documents(registry) if r["file_name"] == "hooli_travel_1992_100.md"]
    answer = ask_library(
        "How many days does Hooli take to approve travel requests in 1992?",
        make_retriever(),
        registry_path=registry,
    )
    assert answer.response_metadata["trace"]["library"]["opened"][0] == wanted[0]["doc_id"]
    assert "3 days" in answer.content


def test_nothing_matches_says_so(tmp_path) -> None:
    registry = str(tmp_path / "lib.json")
    _index(registry, "rooms.md", PLANTED)
    result = ask_library("Xylophone tariffs?", make_retriever(), registry_path=registry)
    assert result.references == [] and "No document you can read matches" in result.content


def test_streamed_library_answer_ends_with_its_routing(tmp_path) -> None:
    registry = str(tmp_path / "lib.json")
    doc = _index(registry, "rooms.md", PLANTED)
    chunks = list(
        ask_library("Aurora room seats?", make_retriever(), registry_path=registry, stream=True)
    )
    assert "twelve" in "".join(c for c in chunks if isinstance(c, str))
    assert chunks[-1]["trace"]["library"]["opened"] == [doc["doc_id"]]


def test_a_reader_never_sees_another_collections_cards(any_registry: RegistryUnderTest) -> None:
    url = any_registry.url
    set_collection_access("hr", readers=["hr"], editors=["hr"], registry_path=url)
    set_collection_access("eng", readers=["eng"], editors=["eng"], registry_path=url)
    _index(url, "salaries.md", b"# Salaries\n\nLevel 3 earns 90,000 euros a year.\n",
           collection="hr")  # fmt: skip
    secret = _index(url, "gateway.md", b"# Gateway salaries\n\nThe gateway earns its keep: "
                    b"level 3 of the token bucket drops 90,000 requests.\n", collection="eng")  # fmt: skip
    hana = Principal("hana@example.com", groups=frozenset({"hr"}))
    result = ask_library("What does level 3 earn?", make_retriever(), registry_path=url,
                         principal=hana, return_raw=False)  # fmt: skip
    seen = json.dumps(result)
    assert secret["doc_id"] not in seen and "gateway" not in seen.lower()
    assert "90,000" in result["answer"]
    assert result["trace"]["library"]["searched"] == 1
    # Narrowed to a collection the person may not read: nothing, not the other one's card.
    empty = ask_library("level 3", make_retriever(), registry_path=url, principal=hana,
                        collection="eng", return_raw=False)  # fmt: skip
    assert empty["references"] == [] and empty["trace"]["library"]["searched"] == 0


def test_the_index_follows_every_change(any_registry: RegistryUnderTest) -> None:
    url = any_registry.url
    retriever = make_retriever()
    doc = _index(url, "notes.md", b"# Notes\n\nThe launch is on Tuesday.\n")

    def opened(question: str) -> list[str]:
        answer = ask_library(question, retriever, registry_path=url, return_raw=False)
        return answer["trace"]["library"]["opened"]

    assert opened("When is the launch?") == [doc["doc_id"]]
    # Re-indexed with other text: the old words no longer route here, the new ones do.
    _index(url, "notes.md", b"# Notes\n\nThe retrospective is on Friday.\n")
    assert opened("When is the launch?") == []
    assert opened("When is the retrospective?") == [doc["doc_id"]]
    # Moved: the card names its new collection.
    move_document(doc["doc_id"], "archive", url)
    store = open_store(url)
    assert store.library_index().cards([doc["doc_id"]])[doc["doc_id"]]["collection"] == "archive"
    # Exported, deleted (its entry goes with it), imported (indexed again).
    exported = export_registry(None, url)
    delete_document(doc["doc_id"], url)
    assert store.library_index().stamps() == {}
    assert opened("When is the retrospective?") == []
    import_documents(exported, url)
    assert opened("When is the retrospective?") == [doc["doc_id"]]
    assert check_library_index(url)["missing"] == []


def test_a_writer_killed_between_document_and_entry(any_registry: RegistryUnderTest) -> None:
    """The document saved, its entry never written (and an entry left of a document that is
    gone): the next question repairs both and answers from what is there."""
    url = any_registry.url
    store = open_store(url)
    kept = _index(url, "kept.md", b"# Kept\n\nThe archive code is 7781.\n")
    store.library_index().remove(kept["doc_id"])  # as if killed before the entry
    ghost = _index(url, "ghost.md", b"# Ghost\n\nThe archive code is 1234.\n")
    if any_registry.is_file:  # the file store: the row gone, the entry left behind
        entry = library_entry(store.get(ghost["doc_id"]))
        delete_document(ghost["doc_id"], url)
        store.library_index().put(entry)
    else:  # the database cascades: an orphan entry cannot exist there
        delete_document(ghost["doc_id"], url)
    report = check_library_index(url)
    assert report["missing"] == [kept["doc_id"]]
    answer = ask_library("What is the archive code?", make_retriever(), registry_path=url,
                         return_raw=False)  # fmt: skip
    assert answer["trace"]["library"]["opened"] == [kept["doc_id"]]
    assert "7781" in answer["answer"] and "1234" not in answer["answer"]
    assert check_library_index(url)["missing"] == []
    assert rebuild_library_index(url)["indexed"] == 1
    assert check_library_index(url) == {
        "documents": 1, "entries": 1, "missing": [], "stale": [], "orphans": [],
    }  # fmt: skip


def test_cli_checks_rebuilds_and_asks_the_library(tmp_path, capsys) -> None:
    registry = str(tmp_path / "lib.json")
    doc = _index(registry, "rooms.md", PLANTED)
    open_store(registry).library_index().clear()
    assert main(["--registry", registry, "library", "check"]) == 1
    assert f"missing: {doc['doc_id']}" in capsys.readouterr().out
    assert main(["--registry", registry, "library", "rebuild"]) == 0
    assert main(["--registry", registry, "library", "check"]) == 0
    assert main(["--registry", registry, "ask", "What is the guest wifi password?"]) == 0
    out = capsys.readouterr().out
    assert "tangerine-42" in out and "Searched 1 documents, opened 1." in out


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("ACME_2023_10K.pdf", "FORM 10-K annual report", "annual report"),
        ("acme_q2.pdf", "FORM 10-Q quarterly report", "quarterly report"),
        ("handbook.docx", "Employee handbook", "policy"),
        ("deck.pptx", "Roadmap", "slide deck"),
        ("notes.txt", "Some notes", "document"),
    ],
)
def test_a_card_says_what_kind_of_document_it_is(name: str, text: str, kind: str) -> None:
    from treerag_core.summarize.card import document_kind

    assert document_kind(name, text) == kind


def _card_numbers(request: dict) -> dict[str, str]:
    from testkit.fake_llm_servers import messages_text

    _, user = messages_text(request)
    return dict(re.findall(r"^\[(\d+)\] (\S+) —", user, re.M))


@pytest.mark.parametrize("protocol", ["openai", "ollama"])
def test_a_search_model_routes_a_library_of_1000_in_one_bounded_call(thousand, protocol) -> None:
    """Through the real ChatOpenAI / ChatOllama client: one routing call over a shortlist of
    cards (its size does not grow with the library), then the picked document only."""
    from testkit.fake_llm_servers import (
        FakeLLMServer,
        kind_of,
        ollama_chat,
        openai_chat,
        outline_ids,
    )

    registry, planted = thousand["registry"], thousand["planted"]
    server = FakeLLMServer(protocol).start()
    try:

        def reply(request: dict) -> str:
            kind = kind_of(request)
            if kind == "routing":
                numbers = {name: n for n, name in _card_numbers(request).items()}
                return json.dumps({"reasoning": "the office card", "documents":
                                   [int(numbers["zephyr_office.md"])]})  # fmt: skip
            if kind == "search":
                return json.dumps({"node_list": outline_ids(request)[-1:]})
            return "The guest wifi password is tangerine-42 [S1]."

        server.reply = reply
        chat = openai_chat(server) if protocol == "openai" else ollama_chat(server)
        result = ask_library("What is the guest wifi password?",
                             make_retriever(chat, search_llm=chat), registry_path=registry)  # fmt: skip
        kinds = server.kinds()
        assert kinds.count("routing") == 1 and kinds.count("search") == 1
        routing_request = server.chat_requests()[kinds.index("routing")]
        assert len(_card_numbers(routing_request)) <= 40  # the shortlist, not 1,001 cards
        schema = (
            routing_request.get("format")
            or routing_request["response_format"]["json_schema"]["schema"]
        )  # the reply can only name a card that was shown
        shown = sorted(int(n) for n in _card_numbers(routing_request))
        assert schema["properties"]["documents"]["items"]["enum"] == shown
        assert len(json.dumps(routing_request)) < 20_000
        library = result.response_metadata["trace"]["library"]
        assert library["engine"] == "model" and library["opened"] == [planted["doc_id"]]
        assert library["usage"]["calls"] == 1
        assert {r["doc_id"] for r in result.references} == {planted["doc_id"]}
        assert result.response_metadata["llm_calls"] == 3  # routing, search, answer
    finally:
        server.stop()


def test_a_failed_routing_call_falls_back_on_the_offline_choice(tmp_path) -> None:
    from testkit.fake_llm_servers import FakeLLMServer, Status, kind_of, openai_chat

    registry = str(tmp_path / "lib.json")
    planted = _index(registry, "zephyr_office.md", PLANTED)
    _index(registry, *look_alike(1))
    server = FakeLLMServer("openai").start()
    try:
        server.reply = lambda r: Status(500, "down") if kind_of(r) == "routing" else "ok [S1]"
        chat = openai_chat(server)
        result = ask_library("What is the guest wifi password?",
                             make_retriever(chat, search_llm=chat), registry_path=registry)  # fmt: skip
        library = result.response_metadata["trace"]["library"]
        assert library["engine"] == "offline" and "search model" in library["note"]
        assert library["opened"] == [planted["doc_id"]]
    finally:
        server.stop()


@pytest.mark.parametrize("mode", ["checked", "model", "offline"])
def test_a_model_routing_to_the_wrong_document_is_checked(tmp_path, mode: str) -> None:
    """A weak model names a document the question's words do not find: by default (checked)
    the offline ranking's best is opened beside it, with a note; 'model' takes the model's
    choice as it is; 'offline' makes no routing call. Through the real ChatOpenAI client."""
    from testkit.fake_llm_servers import FakeLLMServer, kind_of, openai_chat
    from treerag_core.navigate.base import NavigationConfig

    registry = str(tmp_path / "lib.json")
    planted = _index(registry, "zephyr_office.md", PLANTED)
    wrong = _index(registry, *look_alike(1))
    server = FakeLLMServer("openai").start()
    try:

        def reply(request: dict) -> str:
            if kind_of(request) == "routing":
                numbers = {name: n for n, name in _card_numbers(request).items()}
                return json.dumps({"reasoning": "", "documents":
                                   [int(numbers[wrong["file_name"]])]})  # fmt: skip
            return "ok [S1]"

        server.reply = reply
        chat = openai_chat(server)
        retriever = make_retriever(chat, search_llm=chat,
                                   navigation=NavigationConfig(search_mode=mode))  # fmt: skip
        result = ask_library("What is the guest wifi password?", retriever,
                             registry_path=registry)  # fmt: skip
        library = result.response_metadata["trace"]["library"]
        if mode == "checked":
            assert library["opened"] == [wrong["doc_id"], planted["doc_id"]]
            assert library["note"].startswith("offline check")
        elif mode == "model":
            assert library["opened"] == [wrong["doc_id"]] and "note" not in library
        else:
            assert "routing" not in server.kinds()
            assert library["engine"] == "offline" and library["opened"] == [planted["doc_id"]]
    finally:
        server.stop()


def test_a_question_naming_a_year_goes_to_the_document_of_that_year(tmp_path) -> None:
    """Last year's report quotes this year's outlook and a quarterly release compares with
    the year before: the document whose own period is asked comes first, and the trace
    says why."""
    registry = str(tmp_path / "lib.json")
    older = _index(registry, "northwind_2019_annual_report.md", (
        b"# Northwind annual report 2019\n\n## Results\nFor the year ended December 31, 2019, "
        b"revenue was 90 million euros and Northwind's free cash flow was 11 million euros."
        b"\n\n## Outlook\nWe expect a free cash flow of 15 million euros in fiscal 2020.\n"))  # fmt: skip
    newer = _index(registry, "northwind_2020_annual_report.md", (
        b"# Northwind annual report 2020\n\n## Results\nFor the year ended December 31, 2020, "
        b"revenue was 95 million euros and the free cash flow was 14 million euros.\n"))  # fmt: skip
    result = ask_library("What was Northwind's free cash flow in FY2020?", make_retriever(),
                         registry_path=registry, return_raw=False)  # fmt: skip
    documents = result["trace"]["library"]["documents"]
    assert documents[0]["doc_id"] == newer["doc_id"]
    assert "its own period, 2020" in documents[0]["period"]
    by_id = {d["doc_id"]: d for d in documents}  # without the rule, the older came first
    assert by_id[older["doc_id"]]["period"].startswith("its own period is 2019")
    assert not by_id[older["doc_id"]]["kept"]
    assert "14 million" in result["answer"]


def test_a_new_tokenizer_or_card_makes_each_entry_again_once(tmp_path, monkeypatch) -> None:
    """An entry's terms are cut by the tokenizer of its day: after a new one, a question
    cut the new way could miss them, so every entry is stale until it is made again."""
    from treerag_core.library import catalog

    registry = str(tmp_path / "lib.json")
    doc = _index(registry, "rooms.md", PLANTED)
    assert check_library_index(registry)["stale"] == []
    monkeypatch.setattr(catalog, "TOKENS_VERSION", catalog.TOKENS_VERSION + 1)
    assert check_library_index(registry)["stale"] == [doc["doc_id"]]
    ask_library("Which room holds the archive?", make_retriever(), registry_path=registry,
                return_raw=False)  # fmt: skip
    assert check_library_index(registry)["stale"] == []
    # so does a new card: what routing and the library page read of a document
    monkeypatch.setattr(catalog, "CARD_VERSION", catalog.CARD_VERSION + 1)
    assert check_library_index(registry)["stale"] == [doc["doc_id"]]
    ask_library("Which room holds the archive?", make_retriever(), registry_path=registry,
                return_raw=False)  # fmt: skip
    assert check_library_index(registry)["stale"] == []
