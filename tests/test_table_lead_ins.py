"""A table's rows under the lines that lead into them: a vote's results ("(3) The
shareholders approved … executive compensation:" over "For 901,248,622"), and a cash-flow
statement's "Adjustments to reconcile net income …:" over its adjustments."""

from __future__ import annotations

from treerag_core.text.table_data import document_tables, row_path
from treerag_core.text.tables import split_row

VOTES = """Below are the final voting results.
(2) The shareholders ratified the appointment of KPMG LLP as the independent registered public accounting firm for fiscal year 2023:
For 1,125,448,378
Against 65,112,424
Abstain 2,556,412
(3) The shareholders approved, on an advisory basis, the company's executive compensation:
For 901,248,622
Against 110,102,370
Abstain 8,796,897
(4) The shareholders approved, on an advisory basis, the holding of an advisory vote every
year:
One Year 994,856,204
Two Years 4,331,004
"""


def _paths(text: str) -> dict[str, float]:
    flat = {"0001": {"node_id": "0001", "title": "Item 5.07. Votes", "text": text}}
    return {
        row_path(row): row["cells"][0]["value"]
        for table in document_tables(flat)
        for row in table["rows"]
    }


def test_a_capitalised_connector_alone_is_a_row_label_but_prose_keeps_its_cells() -> None:
    assert split_row("For 901,248,622") == ("For", split_row("Votes 901,248,622")[1])
    assert split_row("for 5") is None  # a wrapped sentence's tail
    assert split_row("In 2022") is None  # a year is no row's figure
    label, cells = split_row("net of tax of $5, $6, and $(5) 533 (538) 78")
    assert label == "net of tax of $5, $6, and $(5)" and len(cells) == 3


def test_each_vote_s_rows_sit_under_the_proposal_that_leads_into_them() -> None:
    paths = _paths(VOTES)
    compensation = (
        "The shareholders approved, on an advisory basis, the company's executive compensation"
    )
    assert paths[f"{compensation} › For"] == 901_248_622
    assert paths[f"{compensation} › Against"] == 110_102_370
    assert any(p.startswith("The shareholders ratified") and p.endswith("› For") for p in paths)
    wrapped = "The shareholders approved, on an advisory basis, the holding of an advisory vote every year"
    assert paths[f"{wrapped} › One Year"] == 994_856_204  # the lead-in wrapped over two lines
    assert not any(path.startswith("(") for path in paths)  # the numbering is not the heading


def test_a_statement_s_colon_lead_in_heads_its_rows() -> None:
    text = (
        "CONSOLIDATED STATEMENTS OF CASH FLOWS\n"
        "(In millions) 2023 2022\n"
        "Net income $ 5,070 $ 6,046\n"
        "Adjustments to reconcile net income to net cash provided by operations:\n"
        "Depreciation 703 717\n"
        "Stock-based compensation 755 638\n"
    )
    paths = _paths(text)
    lead = "Adjustments to reconcile net income to net cash provided by operations"
    assert paths[f"{lead} › Depreciation"] == 703
    assert paths["Net income"] == 5070


def test_the_offline_answer_reads_a_vote_s_count_under_its_proposal() -> None:
    from treerag_core.answer.offline.extractive import extractive_answer

    section = {"label": "S1 · Item 5.07. Votes", "text": VOTES, "ref": "S1"}
    answer, _ = extractive_answer(
        "How many votes were cast for the advisory approval of executive compensation?",
        [section],
    )
    assert "901,248,622" in answer.splitlines()[0]
