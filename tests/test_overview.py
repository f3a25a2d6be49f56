"""Questions about a document as a whole are answered from its card and top-level parts,
not from a few leaf sections; a question about one section is still searched."""

from __future__ import annotations

import pytest

from treerag_core import ask, make_retriever
from treerag_core.answer.library import ask_library
from treerag_core.answer.overview import asks_about_whole
from treerag_core.library.indexing import index_upload

HANDBOOK = b"""# Acme Employee Handbook

Welcome to Acme. This handbook explains how we work.

## Leave Policy

Employees get 25 days of annual leave. Sick leave is paid from day one.

## Expenses

Travel must be approved by a manager. Receipts are required for claims over 20 euros.

## Security

Laptops must be encrypted. Report lost devices within 24 hours.
"""
REPORT = b"""# Globex annual report 2022

## Results

Revenue grew to 410 million euros in 2022.

## Outlook

We expect modest growth in 2023.
"""


@pytest.fixture
def library(tmp_path) -> dict:
    registry = str(tmp_path / "reg.json")
    handbook = index_upload("acme_handbook.md", HANDBOOK, registry_path=registry)
    report = index_upload("globex_2022_annual_report.md", REPORT, registry_path=registry)
    return {"registry": registry, "handbook": handbook, "report": report}


@pytest.mark.parametrize(
    ("question", "whole"),
    [
        ("What is this handbook about?", True),
        ("Summarise the Acme employee handbook", True),
        ("Give me an overview of this document.", True),
        ("What does the handbook cover?", True),
        ("tl;dr", True),
        ("Summarise the leave policy", False),  # a section, not the document
        ("What is the leave policy?", False),
        ("Describe the security rules", False),
        ("What is in the 2019 report?", False),  # another period than the document's
    ],
)
def test_which_questions_are_about_the_whole_document(library, question, whole) -> None:
    assert asks_about_whole(question, library["handbook"]) is whole


def test_an_overview_cites_every_top_level_part_and_searches_nothing(library) -> None:
    result = ask("What is this handbook about?", library["handbook"], make_retriever(),
                 return_raw=False)  # fmt: skip
    lines = result["answer"].splitlines()
    # what the document is and covers, then its opening
    assert lines[0].startswith(
        "Acme Employee Handbook (policy): A policy: Leave Policy, "
        "Expenses, Security. This handbook explains how we work."
    )
    assert "Extractive answer from the offline engine" in result["answer"]
    assert [r["title"] for r in result["references"]] == ["Leave Policy", "Expenses", "Security"]
    assert "[S1]" in result["answer"] and "[S3]" in result["answer"]
    assert "25 days of annual leave" in result["answer"]  # each part by its summary
    assert result["trace"]["documents"][0]["mode"] == "overview"


def test_a_section_question_is_still_searched(library) -> None:
    result = ask("What is the leave policy?", library["handbook"], make_retriever(),
                 return_raw=False)  # fmt: skip
    assert [r["title"] for r in result["references"]] == ["Leave Policy"]
    assert result["trace"]["documents"][0]["mode"] == "offline"


def test_the_library_summarises_the_document_a_question_names(library) -> None:
    result = ask_library("Summarise the Globex 2022 annual report", make_retriever(),
                         registry_path=library["registry"], return_raw=False)  # fmt: skip
    assert {r["doc_id"] for r in result["references"]} == {library["report"]["doc_id"]}
    assert result["answer"].startswith("Globex annual report 2022 (annual report, 2022)")
    assert [r["title"] for r in result["references"]] == ["Results", "Outlook"]


def test_with_a_model_the_answer_model_reads_the_card_and_parts(library) -> None:
    """One answer call, no search call; the parts are quoted by their summaries."""
    from testkit.fake_llm_servers import FakeLLMServer, messages_text, openai_chat

    server = FakeLLMServer("openai").start()
    try:
        server.reply = lambda r: "A handbook on leave, expenses and security [S1][S2][S3]."
        chat = openai_chat(server)
        result = ask("Summarise this handbook", library["handbook"],
                     make_retriever(chat, search_llm=chat))  # fmt: skip
        assert server.kinds() == ["answer"]
        _, user = messages_text(server.chat_requests()[0])
        assert "About the document: Acme Employee Handbook (policy)" in user
        assert "Employees get 25 days of annual leave" in user
        assert result.content.startswith("A handbook on leave")
        assert len(result.references) == 3
    finally:
        server.stop()
