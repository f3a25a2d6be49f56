"""A question naming a line item reaches the statement printing it (offline navigation).

On a generated filing, prose sections repeat the company's name, the fiscal year and the
item's words ("long-term debt") while the balance sheet prints the item once, as a row: the
BM25 ranking alone leaves the statement out of the few sections read, and the row's label,
kept with the document's tables, brings it in (see ``treerag_core/navigate/line_items.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from treerag_core import index_document, make_summarizer
from treerag_core.navigate.base import NavigationConfig
from treerag_core.navigate.line_items import LINE_ITEM_SECTIONS, row_labels
from treerag_core.navigate.offline import offline_pick
from treerag_core.navigate.plan import navigate
from treerag_core.text.language import Languages

NAME = "Northwind Corporation"
# Prose the ranking prefers: the question's words repeated, the item's among them.
DEBT_PROSE = [
    (
        "Liquidity and Capital Resources",
        f"In fiscal 2023 {NAME} refinanced part of its long-term debt. {NAME} expects its "
        f"cash and credit lines to cover the long-term debt due in fiscal 2024.",
    ),
    (
        "Debt Covenants",
        f"The credit agreements of {NAME} require {NAME} to keep its long-term debt under "
        f"three times earnings; {NAME} met every covenant in fiscal 2023.",
    ),
]
# Sections naming the company and the year, and others naming the company alone (as a
# filing's running header does on every page): a filing's mix.
NAMED = [
    (
        f"{part} of {NAME}",
        f"The {part.lower()} of {NAME} for fiscal 2023 is set out here. In fiscal 2023 "
        f"{NAME}'s {part.lower()} followed the policies {NAME} adopted before.",
    )
    for part in (
        "Certification",
        "Code of Ethics",
        "Executive Officers",
        "Governance",
        "Audit Committee",
        "Compensation",
        "Internal Control",
    )
] + [
    (
        "Stock Performance Graph",
        f"The graph compares {NAME}'s cumulative return with a peer index.",
        "Cumulative total return 2019 2023",
        f"{NAME} 100 180",
        "Peer index 100 150",
    )
]
OTHER = [
    (topic, f"{NAME}: our {topic.lower()} are described here; nothing in them changed.")
    for topic in (
        "Properties", "Legal Proceedings", "Seasonality", "Competition", "Raw Materials",
        "Trademarks", "Environmental Matters", "Research Programs", "Distribution", "Suppliers",
    )
]  # fmt: skip
BALANCE_SHEET = (
    "Consolidated Balance Sheets",
    "The notes that follow are an integral part of these statements.",
    "(In millions) 2023 2022",
    "Current assets:",
    "Cash and cash equivalents 210 180",
    "Inventories 90 70",
    "Total current assets 400 350",
    "Total assets $ 1,500 $ 1,300",
    "Current portion of long-term debt 50 40",
    "Long-term debt 620 700",
    "Total liabilities 900 880",
)
QUESTION = f"What was {NAME}'s long-term debt at the end of fiscal 2023?"
READ = len(DEBT_PROSE)  # sections read: as many as the prose outscoring the statement


def _write_pdf(path: Path, pages: list[tuple[str, ...]]) -> None:
    """One page a section: its title as a heading, then its lines."""
    pdf = FPDF()
    for title, *lines in pages:
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 16)
        pdf.cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        for line in lines:
            pdf.multi_cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


@pytest.fixture(scope="module")
def filing(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("line_items")
    path = folder / "northwind_10k.pdf"
    _write_pdf(path, [*DEBT_PROSE, *NAMED, BALANCE_SHEET, *OTHER])
    return index_document(
        str(path),
        summarizer=make_summarizer(None),
        registry_path=str(folder / "indexed_docs.json"),
        verbose=False,
    )


def _statement(doc: dict) -> str:
    return next(nid for nid, n in doc["flat_nodes"].items() if n["title"] == BALANCE_SHEET[0])


def test_the_statement_printing_the_named_line_item_is_read(filing: dict) -> None:
    flat, statement = filing["flat_nodes"], _statement(filing)
    labels = row_labels(filing, Languages("en"))
    assert ("Long-term debt", frozenset({"long-term", "debt"})) in labels[statement]
    ranked, _ = offline_pick(QUESTION, flat, READ)
    assert statement not in ranked  # the ranking alone: the prose repeating the words wins
    picked, how = offline_pick(QUESTION, flat, READ, labels=labels)
    assert statement in picked and len(picked) == READ
    assert picked[: READ - 1] == ranked[: READ - 1]  # it takes the last-ranked's place
    assert "'Long-term debt'" in how
    # as navigation runs it: the document's stored tables give the labels
    result = navigate(QUESTION, filing, None, NavigationConfig(offline_sections=READ))
    assert statement in result.node_ids
    assert "Long-term debt" in result.trace[0]["reasoning"]


def test_labels_of_the_documents_own_words_or_not_named_add_nothing(filing: dict) -> None:
    flat = filing["flat_nodes"]
    labels = row_labels(filing, Languages("en"))
    graph = next(nid for nid, n in flat.items() if n["title"] == "Stock Performance Graph")
    assert any(label == NAME for label, _ in labels[graph])  # a row named like the company
    # The company's name is in most passages: its row says nothing of what is asked.
    question = f"How did {NAME} manage liquidity in fiscal 2023?"
    assert offline_pick(question, flat, READ, labels=labels) == offline_pick(question, flat, READ)
    # "Current portion of long-term debt" is not named by a question about long-term debt
    # (its whole label is not), and at most LINE_ITEM_SECTIONS sections are added.
    picked, _ = offline_pick(QUESTION, flat, READ, labels=labels)
    assert sum(1 for nid in picked if nid in labels) <= LINE_ITEM_SECTIONS


def test_a_row_labelled_in_the_plural_is_named_in_the_singular(filing: dict) -> None:
    """ "How much inventory …" names the row "Inventories" (English's plural strip leaves
    "inventorie" of it): the statement is read, and quoted around that row."""
    from treerag_core.answer.context import _rows_named
    from treerag_core.navigate.line_items import named_labels, one_forms

    assert one_forms({"inventory", "day", "debt"}) == {"inventorie", "day", "debt"}
    rows = [("Inventories", frozenset({"inventorie"})), ("Long-term debt", frozenset({"debt"}))]
    assert named_labels({"inventory", "fiscal"}, rows) == ["Inventories"]
    flat, statement = filing["flat_nodes"], _statement(filing)
    question = f"How much inventory did {NAME} hold at the end of fiscal 2023?"
    labels = row_labels(filing, Languages("en"))
    picked, how = offline_pick(question, flat, READ, labels=labels)
    assert statement in picked and "'Inventories'" in how
    assert _rows_named(filing, question, None)[statement] == ["Inventories"]
    assert statement not in _rows_named(filing, f"Who audits {NAME}?", None)


def test_an_abbreviation_names_the_row_it_abbreviates() -> None:
    """ "R&D" is read as the "Research and development" row a statement prints (as "capex"
    is read as the purchases of property and equipment): the row's whole label is named."""
    from treerag_core.navigate.line_items import named_labels
    from treerag_core.navigate.ranking import question_terms
    from treerag_core.text.tokens import tokenize

    rows = [(label, frozenset(tokenize(label))) for label in
            ("Research and development", "Selling, general and administrative", "Revenue")]  # fmt: skip
    asked = set(
        question_terms(f"How much did {NAME} spend on R&D in fiscal 2023?", Languages("en"))
    )
    assert named_labels(asked, rows) == ["Research and development"]
    asked = set(question_terms("What were SG&A expenses in 2023?", Languages("en")))
    assert named_labels(asked, rows) == ["Selling, general and administrative"]


def test_a_line_item_the_document_is_about_is_still_read(tmp_path: Path) -> None:
    """A filing after a year of impairments speaks of goodwill in a third of its sections:
    the word is common in it, yet what a question about goodwill asks; the balance sheet
    printing the row is read (a word left out only when most passages hold it)."""
    prose = [(f"Goodwill {topic}", f"In fiscal 2023 {NAME} tested goodwill for {topic.lower()}; "
              f"the goodwill of {NAME} in fiscal 2023 was reviewed again.")
             for topic in ("Impairment", "Allocation", "Valuation", "Reporting Units",
                           "Sensitivity", "Acquisitions", "Disposals")]  # fmt: skip
    sheet = (*BALANCE_SHEET[:3], "Goodwill 300 280", *BALANCE_SHEET[3:])
    _write_pdf(tmp_path / "goodwill_10k.pdf", [*prose, *NAMED, sheet, *OTHER])
    doc = index_document(str(tmp_path / "goodwill_10k.pdf"), summarizer=make_summarizer(None),
                         registry_path=str(tmp_path / "indexed_docs.json"), verbose=False)  # fmt: skip
    flat = doc["flat_nodes"]
    statement = next(nid for nid, n in flat.items() if n["title"] == BALANCE_SHEET[0])
    question = f"What was {NAME}'s goodwill at the end of fiscal 2023?"
    labels = row_labels(doc, Languages("en"))
    assert statement not in offline_pick(question, flat, 3)[0]  # the ranking alone: not read
    picked, how = offline_pick(question, flat, 3, labels=labels)
    assert statement in picked and "'Goodwill'" in how


def test_a_metric_is_read_from_the_statement_printing_its_formulas_rows(filing: dict) -> None:
    """No statement prints "quick ratio"; the rows it is computed from ("Cash and cash
    equivalents") are on the balance sheet, and navigation reads it for them."""
    question = f"What was {NAME}'s quick ratio at the end of fiscal 2023?"
    result = navigate(question, filing, None, NavigationConfig(offline_sections=READ))
    assert _statement(filing) in result.node_ids


def test_an_aside_in_a_rows_label_is_not_asked_for() -> None:
    """ "Capital expenditures (including capitalized software)" is named by a question on
    capital expenditures: the aside qualifies the line item, no question says it."""
    from treerag_core.navigate.line_items import named_labels
    from treerag_core.navigate.ranking import question_terms
    from treerag_core.text.tokens import tokenize

    capex = "Capital expenditures (including capitalized software)"
    doc = {"tables": [{"node_id": "cf", "rows": [{"label": capex}, {"label": "(In millions)"}]}]}
    rows = row_labels(doc, Languages("en"))["cf"]
    assert rows[0] == (capex, frozenset(tokenize("Capital expenditures")))
    assert rows[1] == ("(In millions)", frozenset(tokenize("In millions")))  # nothing else
    asked = set(
        question_terms(f"What were {NAME}'s capital expenditures in 2022?", Languages("en"))
    )
    assert named_labels(asked, rows) == [capex]


def test_a_statement_printing_a_named_line_item_comes_before_the_notes(filing: dict) -> None:
    """Notes breaking an item down print the more specific labels ("Total long-term debt")
    than the statement stating it ("Long-term debt"): they would take every place."""
    from treerag_core.navigate.line_items import line_item_sections
    from treerag_core.navigate.ranking import question_terms, ranking_statistics
    from treerag_core.navigate.statements import statement_ids
    from treerag_core.text.tokens import tokenize

    flat, statement = filing["flat_nodes"], _statement(filing)
    notes = [nid for nid in flat if nid != statement][:3]
    total, item = "Total long-term debt", "Long-term debt"
    labels = {nid: [(total, frozenset(tokenize(total)))] for nid in notes}
    labels[statement] = [(item, frozenset(tokenize(item)))]
    bm25, languages = ranking_statistics(flat)
    asked = set(question_terms(f"What was {NAME}'s total long-term debt?", languages))
    order = {nid: i for i, nid in enumerate(flat)}
    assert statement_ids(flat, list(flat)) >= {statement}
    without = line_item_sections(asked, labels, bm25, order)
    assert [nid for nid, _ in without] == notes  # the specific labels alone
    chosen = line_item_sections(asked, labels, bm25, order, statements={statement})
    assert chosen == [(statement, item), (notes[0], total), (notes[1], total)]
