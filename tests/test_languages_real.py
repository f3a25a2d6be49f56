"""Real documents in other languages: Debian's FAQ in German (PDF with bookmarks),
Japanese and Chinese (plain text), as Debian ships them (tests/run.sh installs them).
Questions written in each language are answered from the section that answers them."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from bench.languages import QUESTIONS, gold_titles, right_section
from testkit.needs import debian_faq
from treerag_core import ask, index_document, make_retriever, make_summarizer

pytestmark = pytest.mark.usefixtures("shared_data")  # Debian's FAQ: the full tier only

# Questions every edition here answers from the right section (the benchmark's full figures
# are bench.languages'): the codenames' films, a file's package, the paper size.
ASKED = ("faq-02", "faq-12", "faq-16")


def _unpacked(name: str, tmp: Path) -> Path:
    packed = debian_faq(f"{name}.gz")
    target = tmp / name
    with gzip.open(packed) as src, target.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return target


@pytest.fixture(scope="module")
def questions() -> dict[str, dict]:
    return {q["id"]: q for q in map(json.loads, QUESTIONS.read_text().splitlines()) if q}


@pytest.mark.parametrize(
    ("edition", "language", "text_edition"),
    [
        ("debian-faq.de.pdf", "de", "debian-faq.de.txt"),
        ("debian-faq.ja.txt", "ja", "debian-faq.ja.txt"),
        ("debian-faq.zh-cn.txt", "zh", "debian-faq.zh-cn.txt"),
    ],
)
def test_a_translated_manual_is_read_and_answered_in_its_language(
    edition, language, text_edition, questions, tmp_path
) -> None:
    source = _unpacked(edition, tmp_path)
    golds = gold_titles(_unpacked(text_edition, tmp_path) if text_edition != edition else source)
    document = index_document(str(source), make_summarizer(), persist=False, verbose=False)
    assert document["language"] == language
    assert document["total_sections"] >= 100  # its numbered questions, not its wrapped lines
    retriever = make_retriever()
    for qid in ASKED:
        item = questions[qid]
        result = ask(item["questions"][language], document, retriever, return_raw=False)
        assert right_section(result["references"], golds[item["gold"]]), (qid, edition)
        assert result["answer"].strip()


def test_a_translated_manual_without_bookmarks_reads_its_printed_contents(tmp_path) -> None:
    """The German FAQ with its bookmarks removed: chapters and numbered questions from its
    contents pages, each at its number's level; its running heads ("KAPITEL 3. EINE
    DEBIAN-DISTRIBUTION … 3.1. WELCHE …") are not sections."""
    from pypdf import PdfReader, PdfWriter

    source = _unpacked("debian-faq.de.pdf", tmp_path)
    writer = PdfWriter(clone_from=PdfReader(source))
    writer._root_object.pop("/Outlines", None)  # noqa: SLF001 - pypdf's way to drop them
    bare = tmp_path / "bare.pdf"
    writer.write(bare)
    document = index_document(str(bare), persist=False, verbose=False)
    assert document["structure_source"] == "printed contents"
    nodes = list(document["flat_nodes"].values())
    assert not [n for n in nodes if n["title"].upper().startswith("KAPITEL")]
    levels = {n.get("number"): n["level"] for n in nodes if n.get("number")}
    assert levels["1.7"] == levels["1.1"] == levels["3.1"] == levels["1"] + 1
    assert levels["3.1.5"] == levels["3.1"] + 1
    texts = {n.get("number"): n["text"] for n in nodes}
    assert "Virtuelle Pakete" in texts["7.8"]  # 7.9's title wraps over three lines
