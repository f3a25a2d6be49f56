"""Offline answers on real SEC filings from the shared bench (``../shared`` beside the
checkout; missing data fails, it is never skipped): the printed figure is in the first line,
and the page it cites prints it."""

from __future__ import annotations

import re

import pytest

from treerag_core import ask, index_document, make_retriever, make_summarizer
from treerag_core.evaluation.answers import node_page_text

FILINGS = ("AMAZON_2019_10K", "NIKE_2019_10K", "3M_2018_10K", "MICROSOFT_2023_10K")


@pytest.fixture(scope="module")
def filings(tmp_path_factory: pytest.TempPathFactory, shared_data) -> dict[str, dict]:  # noqa: ANN001
    registry = str(tmp_path_factory.mktemp("filings") / "indexed_docs.json")
    docs = {}
    for name in FILINGS:
        path = shared_data.filing(f"{name}.pdf")
        docs[name] = index_document(
            str(path), summarizer=make_summarizer(None), registry_path=registry, verbose=False
        )
    return docs


@pytest.mark.slow
@pytest.mark.parametrize(
    "filing, question, figure",
    [
        ("AMAZON_2019_10K", "What were Amazon's total net sales in 2019?", "280,522"),
        ("NIKE_2019_10K", "What was Nike's total revenue in fiscal 2019?", "39,117"),
        ("3M_2018_10K", "What were 3M's capital expenditures in 2018?", "1,577"),
        (
            "MICROSOFT_2023_10K",
            "How many people did Microsoft employ at the end of fiscal 2023?",
            "221,000",
        ),
    ],
)
def test_the_printed_figure_is_in_the_first_line(filings, filing, question, figure):
    document = filings[filing]
    result = ask(question, document, make_retriever(None))
    first = result.content.splitlines()[0]
    assert figure in first, result.content
    cite = re.search(r"\[S(\d+), p\. (\d+)\]$", first)
    assert cite, first  # labelled with its section and page
    ref = result.references[int(cite.group(1)) - 1]
    assert ref["cited"] is True
    page = int(cite.group(2))
    assert figure in node_page_text(document["flat_nodes"], page)  # the page prints it
    assert "Extractive answer" in result.content  # still says it is extractive
