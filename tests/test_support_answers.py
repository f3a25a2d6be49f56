"""The support check in every way of asking: a fluent wrong model answer set aside for the
offline one (through the real ChatOpenAI client against the fake server, blocking and
streamed), a right one kept, a wrong sentence marked, citations numbered in the order used
(the same in the answer, its references and the exported Markdown), and a question about
another document asked on its own while "And the year before?" still follows up."""

from __future__ import annotations

import json

import pytest

from testkit.fake_llm_servers import FakeLLMServer, kind_of, openai_chat
from testkit.llm_test_docs import make_doc
from treerag_core import Library, ask, make_retriever
from treerag_core.answer.checked import SET_ASIDE_NOTE
from treerag_core.answer.library import ask_library
from treerag_core.chat import make_turn
from treerag_core.chat.export import thread_markdown
from treerag_core.library.indexing import index_upload
from treerag_core.navigate.history import conversation

QUESTION = "How much does the Enterprise plan cost?"
WRONG = "The Enterprise plan costs $900 per month and includes a dedicated account manager [S1]."
RIGHT = "The Enterprise plan costs $500 per month [S1]."


def scripted(answer: str, ids: tuple[str, ...] = ("0001",)):
    def reply(request):
        if kind_of(request) == "search":
            return json.dumps({"reasoning": "pricing", "node_list": list(ids)})
        return answer

    return reply


@pytest.fixture
def server():
    fake = FakeLLMServer("openai").start()
    yield fake
    fake.stop()


def test_a_fluent_wrong_answer_is_set_aside_for_the_offline_one(server) -> None:
    server.reply = scripted(WRONG)
    result = ask(QUESTION, make_doc(), make_retriever(openai_chat(server)), return_raw=False)
    first_line = result["answer"].splitlines()[0]
    assert first_line.startswith(SET_ASIDE_NOTE.split("(")[0])
    assert "$500 per month" in result["answer"] and "$900" not in result["answer"]
    assert result["model_answer"] == WRONG  # kept: a person may see it anyway
    assert result["support"]["verdict"] == "supported"  # the offline answer shown
    assert result["support"]["model"]["verdict"] == "unsupported"
    assert "not in it" in result["trace"]["answer_set_aside"]


def test_a_streamed_wrong_answer_ends_with_the_offline_one(server) -> None:
    server.reply = scripted(WRONG)
    chunks = list(ask(QUESTION, make_doc(), make_retriever(openai_chat(server)), stream=True))
    streamed, final = "".join(c for c in chunks if isinstance(c, str)), chunks[-1]
    assert streamed == WRONG  # what the model wrote, as it wrote it
    assert "$500 per month" in final["answer"] and final["model_answer"] == WRONG
    turn = make_turn(QUESTION, streamed, final)  # what the chat keeps: the answer shown
    assert turn["answer"] == final["answer"] and turn["model_answer"] == WRONG


def test_the_library_client_gives_the_support_and_the_set_aside_reply(tmp_path, server) -> None:
    server.reply = scripted(WRONG)
    with Library.open(tmp_path / "reg.json", retriever=make_retriever(openai_chat(server))) as lib:
        events = list(lib.stream(QUESTION, [make_doc()]))
        answer = lib.ask(QUESTION, [make_doc()])
    assert events[-1].model_answer == WRONG and "$500" in events[-1].text
    assert answer.model_answer == WRONG and answer.support["model"]["verdict"] == "unsupported"


def test_a_right_answer_is_kept_and_supported(server) -> None:
    server.reply = scripted(RIGHT)
    result = ask(QUESTION, make_doc(), make_retriever(openai_chat(server)), return_raw=False)
    assert result["answer"] == RIGHT and result["model_answer"] == ""
    (sentence,) = result["support"]["sentences"]
    assert sentence["verdict"] == "supported" and sentence["support"]["ref"] == "S1"
    assert sentence["support"]["page"] == 2


def test_one_wrong_sentence_is_marked_and_the_answer_kept(server) -> None:
    answer = RIGHT + " Every plan includes free hardware worth $2,000 [S1]."
    server.reply = scripted(answer)
    result = ask(QUESTION, make_doc(), make_retriever(openai_chat(server)), return_raw=False)
    assert result["answer"] == answer and result["support"]["verdict"] == "partly"
    right, wrong = result["support"]["sentences"]
    assert (right["verdict"], wrong["verdict"]) == ("supported", "unsupported")
    assert answer[wrong["start"] : wrong["end"]] == wrong["text"]


def test_a_reply_leaking_the_prompt_markup_is_set_aside(server) -> None:
    server.reply = scripted("SECTION\n\nThe company has implemented a new pricing policy.")
    result = ask(QUESTION, make_doc(), make_retriever(openai_chat(server)), return_raw=False)
    assert "markup" in result["trace"]["answer_set_aside"] and "$500" in result["answer"]


def test_citations_are_numbered_in_the_order_the_answer_uses_them(server) -> None:
    server.reply = scripted(
        "The Berlin office opens at 9:00 [S2]. The Pro plan costs $20 per month [S1].",
        ids=("0001", "0002", "0003"),
    )
    result = ask("When does the office open and what does Pro cost?", make_doc(),
                 make_retriever(openai_chat(server)), return_raw=False)  # fmt: skip
    assert result["answer"].startswith("The Berlin office opens at 9:00 [S1].")
    assert "costs $20 per month [S2]" in result["answer"]
    refs = [(r["ref"], r["title"], r["cited"]) for r in result["references"]]
    assert refs[:2] == [("S1", "Office Hours", True), ("S2", "Pricing", True)]
    assert all(not cited for *_, cited in refs[2:])  # read, not cited: after, "Also read"
    markdown = thread_markdown({"title": "t", "turns": [make_turn("q", "", result)]})
    assert "- [S1] Office Hours" in markdown and "- [S2] Pricing" in markdown
    assert markdown.index("References:") < markdown.index("Also read:")


def test_the_offline_answer_cites_s1_first() -> None:
    result = ask(QUESTION, make_doc(), make_retriever(None), return_raw=False)
    assert result["answer"].startswith("The Enterprise plan costs $500")
    assert "[S1" in result["answer"].splitlines()[0]
    assert result["support"]["verdict"] == "supported" and not result["support"]["flagged"]


SALES = b"""# Regional sales report

## North region
The North region had revenue of $4.2 million in 2023 and $3.9 million in 2022.

## South region
The South region had revenue of $2.1 million in 2023.
"""
NIKE = b"""# Nike annual report

## Revenue
Nike's revenue was $51,217 million in fiscal 2022 and $44,538 million in fiscal 2021.
"""


def test_a_question_about_another_document_is_asked_on_its_own(tmp_path) -> None:
    registry = str(tmp_path / "lib.json")
    index_upload("nike.md", NIKE, registry_path=registry)
    sales = index_upload("regional_sales.md", SALES, registry_path=registry)
    retriever = make_retriever(None)
    first = ask_library("What was Nike's revenue in fiscal 2022?", retriever,
                        registry_path=registry, return_raw=False)  # fmt: skip
    assert "$51,217 million" in first["answer"]
    history = [{"question": "What was Nike's revenue in fiscal 2022?", **first}]
    second = ask_library("What was the revenue of the North region?", retriever,
                         registry_path=registry, history=history, return_raw=False)  # fmt: skip
    assert second["trace"]["followup"]["asked_on_its_own"] is True
    assert "North" in second["trace"]["followup"]["why"]
    assert {r["doc_id"] for r in second["references"]} == {sales["doc_id"]}
    assert "$4.2 million" in second["answer"].splitlines()[0] and "51,217" not in second["answer"]
    history.append({"question": "What was the revenue of the North region?", **second})
    third = ask_library("And the year before?", retriever, registry_path=registry,
                        history=history, return_raw=False)  # fmt: skip
    assert third["trace"]["followup"]["followup"] is True
    assert not third["trace"]["followup"]["asked_on_its_own"]
    assert "$3.9 million" in third["answer"]


def test_the_follow_up_decision() -> None:
    turns = [{"question": "What was Nike's revenue in fiscal 2022?", "answer": "$51,217 million",
              "references": [{"file_name": "nike.md"}]}]  # fmt: skip
    assert conversation("What was the revenue of the North region?", turns).on_its_own
    assert conversation("How many employees work at the Berlin office?", turns).on_its_own
    for followup in ("And the year before?", "What about 2021?", "How did it change?",
                     "What were the operating expenses?"):  # fmt: skip
        talk = conversation(followup, turns)
        assert not talk.on_its_own and talk.turns, followup
