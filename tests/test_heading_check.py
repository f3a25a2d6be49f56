"""With a model, the headings found only by their look get one batched check per document:
through the real OpenAI client against the local fake server, the lines it sets aside leave
the tree, the sure headings (numbered, keywords) are never asked about, and any failure
keeps the tree exactly as the deterministic reader built it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from testkit.builders import make_formatted_docx, make_typeset_pdf
from testkit.fake_llm_servers import (
    FakeLLMServer,
    default_reply,
    kind_of,
    messages_text,
    openai_chat,
)
from treerag_core import index_document, make_summarizer
from treerag_core.structure.confirm import parse_rejected
from treerag_core.tree.labels import heading_label
from ui.tree_logic import structure_note

BODY = (
    "The plant runs three shifts and every shift keeps a written log of what it did, "
    "what it measured and what it left for the next shift to finish before noon."
)
NAME = "Jane Smith, Director of Operations"  # bold and alone: found as a heading by its look


def _report(tmp_path: Path) -> Path:
    """Numbered chapters, two unnumbered bold headings, and a bold name in a list of
    officers that only looks like one."""
    return make_typeset_pdf(
        tmp_path / "report.pdf",
        [
            [
                ("h", "1 Operations", "Helvetica", "B", 16),
                ("p", BODY),
                ("h", "Safety Rules", "Helvetica", "B", 12),
                ("p", BODY),
                ("h", "Officers", "Helvetica", "B", 12),
                ("p", BODY),
                ("h", NAME, "Helvetica", "B", 12),
                ("p", BODY),
            ],
            [
                ("h", "2 Maintenance", "Helvetica", "B", 16),
                ("p", BODY),
                ("h", "Spare Parts", "Helvetica", "B", 12),
                ("p", BODY),
            ],
        ],
    )


def _headings(doc: dict[str, Any]) -> list[str]:
    return [heading_label(n) for n in doc["flat_nodes"].values() if not n.get("generated")]


def _rejecting(title: str):  # noqa: ANN202
    """A model that sets aside the line showing ``title``, and answers all else as usual."""

    def reply(request: dict[str, Any]) -> str:
        if kind_of(request) != "heading_check":
            return default_reply(request)
        _, user = messages_text(request)
        lines = re.findall(r"^(\d+)\. \(p\. \d+\) (.*?)  —", user, re.M)
        return json.dumps({"not_headings": [int(n) for n, t in lines if t == title]})

    return reply


@pytest.fixture
def server():  # noqa: ANN201
    fake = FakeLLMServer("openai").start()
    yield fake
    fake.stop()


def test_the_model_sets_aside_a_line_that_only_looks_like_a_heading(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    pdf = _report(tmp_path)
    offline = index_document(str(pdf), persist=False, verbose=False)
    assert NAME in _headings(offline)  # the deterministic reader takes it: it looks the part

    server.reply = _rejecting(NAME)
    said: list[str] = []
    doc = index_document(
        str(pdf), summarizer=make_summarizer(openai_chat(server)), persist=False, verbose=False,
        progress=lambda done, total, message: said.append(message),
    )  # fmt: skip
    assert _headings(doc) == [h for h in _headings(offline) if h != NAME]
    assert "Checking 4 headings found by their look with the model" in said
    checks = [r for r in server.chat_requests() if kind_of(r) == "heading_check"]
    assert len(checks) == 1  # one batched call per document
    _, asked = messages_text(checks[0])
    assert "<section_data" in asked  # the document's lines reach the model as quoted data
    assert "Safety Rules" in asked and NAME in asked
    assert "1 Operations" not in asked and "2 Maintenance" not in asked  # numbered: sure
    assert doc["structure_check"]["set_aside"] == [NAME]
    assert "1 of 4 headings found by their look set aside" in structure_note(doc)
    # the name's text stays in the document: it joins the section above it
    officers = next(n for n in doc["flat_nodes"].values() if n["title"] == "Officers")
    assert NAME in officers["text"]


@pytest.mark.parametrize(
    "reply",
    [
        lambda request: "Sure! These all look like headings to me.",  # not the JSON asked for
        lambda request: json.dumps({"headings": "all"}),
    ],
)
def test_a_failed_check_keeps_the_tree_as_read(
    tmp_path: Path, server: FakeLLMServer, reply: Any
) -> None:
    pdf = _report(tmp_path)
    offline = index_document(str(pdf), persist=False, verbose=False)
    server.reply = lambda r: reply(r) if kind_of(r) == "heading_check" else default_reply(r)
    doc = index_document(
        str(pdf), summarizer=make_summarizer(openai_chat(server)), persist=False, verbose=False
    )
    assert _headings(doc) == _headings(offline)
    assert doc["structure_check"]["error"]
    assert "heading check failed" in structure_note(doc)


def test_the_check_can_be_turned_off(tmp_path: Path, server: FakeLLMServer) -> None:
    pdf = _report(tmp_path)
    summarizer = make_summarizer(openai_chat(server), check_headings=False)
    doc = index_document(str(pdf), summarizer=summarizer, persist=False, verbose=False)
    assert "heading_check" not in server.kinds()
    assert NAME in _headings(doc) and "structure_check" not in doc


def test_reading_the_reply() -> None:
    assert parse_rejected('{"not_headings": [2, "3"]}', 5) == {1, 2}
    assert parse_rejected('```json\n{"not_headings": []}\n```', 5) == set()
    assert parse_rejected('{"not_headings": [0, 9, true, "x"]}', 5) == set()  # out of range
    assert parse_rejected("all headings", 5) is None
    assert parse_rejected('{"not_headings": "2"}', 5) is None


def test_a_word_file_typed_with_manual_formatting_is_checked_too(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    """A Word file without heading styles gets its headings by the same typography, so the
    same check applies to the paragraphs that only look like headings."""
    path = make_formatted_docx(
        tmp_path / "handbook.docx",
        [("Employee Handbook", True, 20), BODY, ("1. Working Hours", True, 14), BODY,
         ("Remote Work", True, None), BODY, (NAME, True, None), BODY],
    )  # fmt: skip
    server.reply = _rejecting(NAME)
    doc = index_document(
        str(path), summarizer=make_summarizer(openai_chat(server)), persist=False, verbose=False
    )
    assert NAME not in _headings(doc) and "Remote Work" in _headings(doc)
    assert doc["structure_check"]["set_aside"] == [NAME]
