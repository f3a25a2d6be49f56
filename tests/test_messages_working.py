"""Our words inside an answer follow the answer's language: the working of a computed
answer ("average X", "change in X", the headline's label and period), the model's
calculations (their note, a cell never sent, an unknown letter, a division by zero, an
amount added to a percentage) and how the sections were found (the trace's notes). The
document's row labels and the names a question or a model gives stay as written; English
reads as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ask as ask_in_app
from conftest import texts

from testkit.builders import statements_pdf
from testkit.fake_llm_servers import kind_of, openai_chat, openai_server
from treerag_core import ask, index_document, make_retriever, make_summarizer
from treerag_core.library.indexing import index_upload
from treerag_core.text.messages import EN, message
from treerag_core.text.metrics import METRICS, metric_key
from ui import state

openai = openai_server  # the fixture
HANDBUCH = """# Mitarbeiterhandbuch

Dieses Handbuch beschreibt die Regeln für alle Mitarbeiter der Firma.

# Urlaub

Jeder Mitarbeiter hat 30 Tage bezahlten Urlaub im Jahr. Nicht genommene Tage verfallen am
31. März des Folgejahres.

# Arbeitszeit

Die Wochenarbeitszeit beträgt 38 Stunden. Die Kernzeit liegt zwischen 10 und 15 Uhr.
"""
URLAUB = "Wie viele Tage Urlaub hat ein Mitarbeiter?"


@pytest.fixture(scope="module")
def filing(tmp_path_factory) -> dict:  # noqa: ANN001
    """The generated filing of the computed-answer tests, and the same with its card's
    language corrected to German (the answer's language is the document's)."""
    folder = tmp_path_factory.mktemp("filing")
    statements_pdf(folder / "acme_10k.pdf")
    return index_document(
        str(folder / "acme_10k.pdf"), summarizer=make_summarizer(None),
        registry_path=str(folder / "indexed_docs.json"), verbose=False,
    )  # fmt: skip


def _german(document: dict) -> dict:
    return {**document, "card_edits": {"language": "de"}}


def test_every_metric_has_its_name_in_the_catalogue() -> None:
    """English names a metric as the headline always did (its first name, capitalised)."""
    for metric in METRICS:
        name = metric.names[0]
        assert EN[metric_key(metric)] == name[:1].upper() + name[1:]
        assert message(metric_key(metric), "de") != EN[metric_key(metric)] or name == "ebitda"


COMPUTED = [
    ("What is the days payable outstanding in 2023?",
     "Days payable outstanding, FY2023: 35.49 days = 365 × average accounts payable ((60 + 80) "
     "/ 2) / (cost of goods sold 700 + change in inventory (90 − 70)) [S1, p. 2; S2, p. 1]",
     "Verbindlichkeitenlaufzeit in Tagen (DPO), GJ 2023: 35.49 Tage = 365 × accounts payable "
     "im Durchschnitt ((60 + 80) / 2) / (cost of goods sold 700 + Veränderung bei inventory "
     "(90 − 70)) [S1, S. 2; S2, S. 1]"),
    ("What was the net sales CAGR from 2021 to 2023?",
     "Net sales CAGR, FY2021–FY2023: 22.5% = (net sales 1,200 / net sales 800)^(1/2) − 1 "
     "[S1, p. 1]",
     "Net sales, jährliche Wachstumsrate (CAGR), GJ 2021–GJ 2023: 22.5% = (net sales 1,200 / "
     "net sales 800)^(1/2) − 1 [S1, S. 1]"),
    ("What was the change in net sales from 2022 to 2023?",
     "Net sales, FY2022–FY2023: $200 million = net sales 1,200 − net sales 1,000 [S1, p. 1]",
     "Net sales, GJ 2022–GJ 2023: $200 million = net sales 1,200 − net sales 1,000 [S1, S. 1]"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "english", "german"), COMPUTED)
def test_a_computed_answer_s_working_follows_its_language(
    filing: dict, question: str, english: str, german: str
) -> None:
    """Through the offline engine: the headline's label (a metric's name, "… CAGR"), its
    period, "days" and the working's "average X" / "change in X" are German in a German
    answer; the cells' own labels and the question's names stay as printed and asked."""
    first = ask(question, filing, make_retriever(None)).content
    assert first.splitlines()[0] == english
    said = ask(question, _german(filing), make_retriever(None)).content
    assert said.splitlines()[0] == german
    assert said.endswith(message("note.computed", "de"))
    assert "- Net sales, 2023: $1,200 million [S1, S. 1]" in said or "Accounts payable" in said


def test_an_average_over_years_is_labelled_in_german(filing: dict) -> None:
    question = "What was the 3-year average net income from 2021 to 2023?"
    working = "$117 million = (net income 80 + net income 120 + net income 150) / 3"
    english = ask(question, filing, make_retriever(None)).content.splitlines()[0]
    assert english == f"3-year average Net income, FY2021–FY2023: {working} [S1, p. 1]"
    german = ask(question, _german(filing), make_retriever(None)).content.splitlines()[0]
    assert german == f"Net income, Durchschnitt über 3 Jahre, GJ 2021–GJ 2023: {working} [S1, S. 1]"


def _cell(user: str, label: str, column: int) -> str:
    """The name the answer prompt gives the cell of the row ``label`` in ``column``."""
    import re

    for block in re.findall(r"\[(T\d+)\][^\n]*\n((?:\|[^\n]*\n?)+)", user):
        row = re.search(rf"^\| (r\d+) (?:[^|\n]* › )?{re.escape(label)} \|", block[1], re.M)
        if row:
            return f"{block[0]}.{row.group(1)}.c{column}"
    raise AssertionError(f"no row {label!r} in the prompt's tables")


def _scripted(calculation) -> object:  # noqa: ANN001
    """A model that picks both statements and asks for one calculation."""
    from testkit.fake_llm_servers import messages_text

    def reply(request):  # noqa: ANN001, ANN202
        if kind_of(request) == "search":
            return json.dumps({"reasoning": "statements", "node_list": ["0000", "0001"]})
        block = json.dumps(calculation(messages_text(request)[1]))
        return f"Siehe unten.\n\n```json\n{block}\n```\n"

    return reply


CALCULATIONS = [
    (lambda user: {"compute": "a / b", "label": "Current ratio",
                   "operands": {"a": "T9.r1.c1", "b": _cell(user, "Inventories", 1)}},
     "Current ratio: nicht berechenbar: Die Tabellen des Dokuments nennen Zelle T9.r1.c1 (nicht "
     "unter den Tabellen, die das Modell erhielt) nicht."),
    (lambda user: {"compute": "a / b", "label": "Zinsdeckung",
                   "operands": {"a": _cell(user, "Operating income", 1),
                                "b": _cell(user, "Interest expense", 1)}},
     "Zinsdeckung: nicht berechenbar: es würde durch null geteilt (interest expense 0 ist 0)."),
    (lambda user: {"compute": "a / z", "operands": {"a": _cell(user, "Net income", 1)}},
     "Berechnet: nicht berechenbar: „z“ ist keine der Zellen, die das Modell genannt hat."),
    (lambda user: {"compute": "(a", "label": "Marge", "operands": {"a": _cell(user, "Net income", 1)}},
     "Marge: nicht berechenbar: Eine Klammer in der Formel wird nicht geschlossen."),
]  # fmt: skip


@pytest.mark.parametrize(("calculation", "german"), CALCULATIONS)
def test_a_model_s_calculation_says_why_it_cannot_be_done_in_german(
    filing: dict, openai, calculation, german: str
) -> None:  # noqa: ANN001
    """Through the real ChatOpenAI client and the fake server: a German document's answer
    says why a calculation cannot be done, and the app's note under it, in German."""
    openai.reply = _scripted(calculation)
    question = "Wie hoch war die Kennzahl 2023?"
    result = ask(question, _german(filing), make_retriever(openai_chat(openai)), return_raw=False)
    assert result["answer"].startswith(german), result["answer"]
    assert result["answer"].endswith(message("note.model_computed", "de"))
    assert message("note.model_computed", "en") not in result["answer"]


def test_a_model_s_calculation_in_english_reads_as_before(filing: dict, openai) -> None:  # noqa: ANN001
    """The English note and wording are unchanged (the catalogue's English is the old text)."""
    from treerag_core.answer.calculations import MODEL_NOTE

    assert MODEL_NOTE == (
        "_(Computed by the app from the table cells cited above, as the model asked; the model "
        "did no arithmetic. Check the working against the cited pages.)_"
    )
    openai.reply = _scripted(CALCULATIONS[0][0])
    result = ask("What was the ratio in 2023?", filing, make_retriever(openai_chat(openai)),
                 return_raw=False)  # fmt: skip
    assert result["answer"].startswith(
        "Current ratio: cannot be computed: the document's tables do not print cell T9.r1.c1 "
        "(not among the tables the model was sent)."
    )
    assert result["answer"].endswith(MODEL_NOTE)


def test_a_ratio_added_to_an_amount_is_refused_in_german(filing: dict, openai) -> None:  # noqa: ANN001
    """A model adding an amount to a ratio (a margin) is told so in German, never given a
    number."""

    def mixed(user: str) -> dict:
        return {"compute": "a / b + c", "label": "Summe",
                "operands": {"a": _cell(user, "Net income", 1), "b": _cell(user, "Net sales", 1),
                             "c": _cell(user, "Inventories", 1)}}  # fmt: skip

    openai.reply = _scripted(mixed)
    result = ask("Wie hoch war die Summe 2023?", _german(filing),
                 make_retriever(openai_chat(openai)), return_raw=False)  # fmt: skip
    assert result["answer"].splitlines()[0] == (
        "Summe: nicht berechenbar: net income 150 / net sales 1,200 und inventories 90 haben "
        "nicht dieselbe Einheit."
    )


@pytest.fixture
def handbuch(tmp_path: Path) -> tuple[dict, str]:
    """A German handbook, indexed offline, and its registry."""
    registry = str(tmp_path / "lib.json")
    return index_upload("handbuch.md", HANDBUCH.encode(), registry_path=registry), registry


def test_a_german_answer_s_trace_says_how_it_was_found_in_german(handbuch) -> None:  # noqa: ANN001
    """Offline, the trace's note names the ranking in German under a German answer, and
    in English under an English one."""
    document, _registry = handbuch
    result = ask(URLAUB, document, make_retriever(None), return_raw=False)
    [step] = result["trace"]["documents"][0]["steps"]
    assert step["reasoning"] == "Offline-Rangfolge (BM25)"
    english = ask(URLAUB, {**document, "card_edits": {"language": "en"}}, make_retriever(None))
    [step] = english.response_metadata["trace"]["documents"][0]["steps"]
    assert step["reasoning"] == "offline BM25 ranking"


def test_a_search_model_s_fallback_is_explained_in_german(handbuch, openai) -> None:  # noqa: ANN001
    """A search model whose reply names no section: the offline ranking reads instead, and
    the trace says so in the answer's language."""

    def reply(request):  # noqa: ANN001, ANN202
        return "Ich weiß es nicht." if kind_of(request) == "search" else "30 Tage [S1]."

    openai.reply = reply
    document, _registry = handbuch
    result = ask(URLAUB, document, make_retriever(openai_chat(openai)), return_raw=False)
    entry = result["trace"]["documents"][0]
    assert entry["fallback"] == (
        "das Suchmodell nannte keine brauchbaren Abschnittskennungen; stattdessen: "
        "Offline-Rangfolge (BM25)"
    )
    assert entry["steps"][0]["fallback"] == entry["fallback"]


def test_the_chat_shows_a_german_answer_s_trace_in_german(make_app, app_registry: Path) -> None:  # noqa: ANN001
    """In the app in German: the trace under the answer says how its sections were found,
    with German headers, mode and note."""
    index_upload("handbuch.md", HANDBUCH.encode(), registry_path=str(app_registry))
    at = make_app("pages/settings.py")
    at.selectbox(key="settings_language").set_value("de").run()
    at.switch_page("pages/chat.py").run()
    ask_in_app(at, URLAUB)
    assert not at.exception
    thread = at.session_state[state.CHAT_THREAD]
    at.session_state[f"trace_{thread['thread_id'][:12]}_0"] = True  # the trace opened
    at.run()
    assert "Modus: offline" in texts(at)
    steps, usage = (frame.value for frame in at.dataframe)
    assert list(steps.columns) == ["Schritt", "Modus", "Kandidaten", "gewählt", "Begründung"]
    assert steps["Begründung"].tolist() == ["Offline-Rangfolge (BM25)"]
    assert usage["Aufruf"].tolist() == ["Suche", "Antwort", "gesamt"]


def test_a_german_comparison_names_its_years_in_german(tmp_path: Path) -> None:
    """Several documents compared: the headline, the table's years and the conclusion are
    German in a German answer, and checked as the English one is."""
    from test_computed_answers import _company_pdf

    from treerag_core import ask_multi

    registry = str(tmp_path / "indexed_docs.json")
    docs = []
    for name, sales, cost in [("acme", [1200, 1000, 800], [700, 600, 500]),
                              ("initech", [500, 450, 400], [200, 190, 180])]:  # fmt: skip
        _company_pdf(tmp_path / f"{name}.pdf", sales, cost)
        docs.append(index_document(str(tmp_path / f"{name}.pdf"), registry_path=registry,
                                   summarizer=make_summarizer(None), verbose=False))  # fmt: skip
    # (the question names the rows: the card says German, the text is English)
    question = "Compare the gross margin of net sales and cost of sales for acme and initech in 2022 and 2023."
    english = ask_multi(question, docs, make_retriever(None), return_raw=False)
    german = ask_multi(question, [_german(d) for d in docs], make_retriever(None), return_raw=False)
    lines = german["answer"].splitlines()
    assert english["answer"].splitlines()[0] == (
        "Gross margin, FY2022–FY2023: highest in FY2023: initech (60.0%); lowest: acme (41.7%)."
    )
    assert lines[0] == (
        "Bruttomarge, GJ 2022–GJ 2023: am höchsten in GJ 2023: initech (60.0%); am niedrigsten: "
        "acme (41.7%)."
    )
    assert lines[2] == "| | GJ 2022 | GJ 2023 |"
    rank = {"supported": 0, "none": 0, "partly": 1, "unsupported": 2}
    said = [rank[s["verdict"]] for s in german["support"]["sentences"]]
    assert said[0] == 0  # the headline's German words are ours, not claims
    assert sum(said) <= sum(rank[s["verdict"]] for s in english["support"]["sentences"])
