"""The offline ranking searches a document without the document's own name (navigate/owner.py).

A report repeats its company's name in its boilerplate (certifications, signatures); a
question naming the company would climb those sections over the one that answers. A
possessive is read as the name it ends: "Converse's revenues" searches the segment the text
calls Converse.
"""

from __future__ import annotations

from pathlib import Path

from treerag_core import index_document
from treerag_core.navigate import navigate
from treerag_core.navigate.base import NavigationConfig
from treerag_core.navigate.owner import owner_names, without_owner
from treerag_core.summarize.summarizers import make_summarizer

COMPANY = "Northwind Corporation"
REPORT = f"""# Annual report 2023

## Cover

{COMPANY}
(Exact name of registrant as specified in its charter)

## Certifications

I certify that this annual report of {COMPANY} for 2023 fairly presents {COMPANY}'s
financial condition. {COMPANY} and the officers of {COMPANY} keep the controls of {COMPANY}.
{COMPANY}'s auditors reviewed how much cash {COMPANY} and the officers of {COMPANY} hold
at the end of 2023.

## Signatures

Signed on behalf of {COMPANY} by the officers of {COMPANY}, as {COMPANY} requires.

## Liquidity

Cash and cash equivalents were $412 million at the end of 2023. We hold cash in banks and
money-market funds.

## Segments

### Converse

Converse revenues were $1,886 million in 2023, down from $2,042 million.

### Jordan

Jordan revenues were $5,100 million in 2023.
"""


def _report(tmp_path: Path, name: str) -> dict:
    source = tmp_path / name
    source.write_text(REPORT)
    return index_document(str(source), summarizer=make_summarizer(None),
                          registry_path=str(tmp_path / "reg.json"), verbose=False)  # fmt: skip


def _first(question: str, document: dict) -> str:
    result = navigate(question, document, None, NavigationConfig(offline_sections=1))
    return document["flat_nodes"][result.node_ids[0]]["title"]


def test_the_owners_name_is_left_out_of_the_search(tmp_path: Path) -> None:
    document = _report(tmp_path, "report.md")  # the file says nothing: the cover names it
    assert "northwindcorporation" in owner_names("report.md", document["flat_nodes"])
    question = f"How much cash did {COMPANY} hold at the end of 2023?"
    assert _first(question, document) == "Liquidity"
    result = navigate(question, document, None, NavigationConfig(offline_sections=1))
    assert result.trace[0]["searched_as"] == "How much cash did hold at the end of 2023?"


def test_a_possessive_is_the_name_it_ends(tmp_path: Path) -> None:
    document = _report(tmp_path, "northwind_2023_annual_report.md")
    assert _first("What were Converse's revenues in 2023?", document) == "Converse"
    assert _first("What were Jordan’s revenues in 2023?", document) == "Jordan"


def test_only_capitalised_names_of_three_letters_or_more_are_the_owners() -> None:
    names = ["kraftheinz", "thekraftheinzcompany"]
    asked = "What was Kraft Heinz's goodwill, and the raft of art in Kraft's aft?"
    assert without_owner(asked, names) == "What was goodwill, and the raft of art in aft?"
    assert owner_names("KRAFTHEINZ_2019_10K.pdf", {}) == ["kraftheinz"]
    # a question naming only the owner is searched as asked
    document = {"file_name": "acme.md", "flat_nodes": {"0000": {"title": "Acme", "text": "Acme."}}}
    assert navigate("Acme?", document, None).node_ids == ["0000"]
