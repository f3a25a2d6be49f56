"""A question in another language than its document, and a document in two languages.

Offline, an English question about a German handbook cannot be matched by its words: the
person is told so instead of being answered from unrelated sections. With a model (the
real ChatOpenAI and ChatOllama clients against the loopback fake servers) the same
question navigates and is answered, the prompts asking for an answer in the question's
language. A bilingual document ranks each half in its own language's stems.
"""

from __future__ import annotations

import json

from testkit.fake_llm_servers import FakeLLMServer, either_server, kind_of, messages_text
from testkit.fake_llm_servers import models_from_settings as _models
from testkit.llm_test_docs import make_doc
from treerag_core import ask, index_document, make_retriever, make_summarizer
from treerag_core.summarize.card import build_card
from treerag_core.text.language import Languages, section_languages
from treerag_core.text.messages import message

server = either_server

GERMAN = (
    "# Mitarbeiterhandbuch\n"
    "Dieses Handbuch beschreibt, wie die Firma arbeitet und was für alle Mitarbeiter gilt.\n\n"
    "## Urlaub\n"
    "Jeder Mitarbeiter hat im Jahr dreißig Tage Urlaub. Der Urlaub wird im Personalportal "
    "beantragt und von der Teamleitung genehmigt, bevor er angetreten wird.\n\n"
    "## Reisekosten\n"
    "Reisekosten werden innerhalb von vier Wochen nach der Reise mit allen Belegen über das "
    "Abrechnungssystem eingereicht. Bahnfahrten werden in der zweiten Klasse erstattet.\n\n"
    "## Sicherheit\n"
    "Alle Laptops sind verschlüsselt. Sicherheitsvorfälle werden sofort dem Sicherheitsteam "
    "gemeldet, auch am Wochenende und an Feiertagen.\n"
)

ENGLISH_HALF = (
    "## Working from home\n"
    "Every employee may work from home on two days of the week. The days are agreed with the "
    "team lead in advance, and the employee stays reachable by phone and chat during the "
    "working hours that apply to the office, so that meetings can still be held on time. "
    "Equipment for the home office is ordered through the service desk and stays the "
    "property of the company while it is used at home by the employee.\n\n"
    "## Expenses\n"
    "Expenses are claimed within four weeks of the trip, with every receipt attached, through "
    "the expenses system. Train journeys are refunded in second class, and a taxi only when "
    "no public transport runs at that hour or the employee carries heavy equipment for work.\n"
)

GERMAN_HALF = (
    "## Arbeiten von zu Hause\n"
    "Jeder Mitarbeiter darf an zwei Tagen der Woche von zu Hause arbeiten. Die Tage werden "
    "vorher mit der Teamleitung abgesprochen, und der Mitarbeiter bleibt während der "
    "Arbeitszeiten des Büros telefonisch und im Chat erreichbar, damit Besprechungen "
    "pünktlich stattfinden können. Die Ausstattung für das Homeoffice wird über den "
    "Servicedesk bestellt und bleibt Eigentum der Firma, solange sie zu Hause genutzt wird.\n\n"
    "## Spesen\n"
    "Spesen werden innerhalb von vier Wochen nach der Reise mit allen Belegen über das "
    "Spesensystem abgerechnet. Bahnfahrten werden in der zweiten Klasse erstattet, ein Taxi "
    "nur, wenn zu dieser Stunde kein öffentlicher Verkehr fährt oder schweres Gerät getragen "
    "werden muss.\n"
)


def _german_doc(tmp_path) -> dict:
    path = tmp_path / "handbuch.md"
    path.write_text(GERMAN, encoding="utf-8")
    return index_document(str(path), make_summarizer(), persist=False, verbose=False)


def test_an_english_question_about_a_german_document_is_told_it_cannot_match(tmp_path) -> None:
    document = _german_doc(tmp_path)
    assert document["language"] == "de"
    result = ask("How many days of holiday does an employee get?", document, make_retriever())
    assert result.references == []
    assert "The question is in English and the document is in German" in result.content
    assert "ask in German, or set up a model" in result.content
    asked = ask("Wie viele Tage Urlaub hat ein Mitarbeiter?", document, make_retriever())
    assert asked.references and asked.references[0]["title"] == "Urlaub"
    assert "dreißig Tage" in asked.content


def test_a_question_in_another_language_that_names_what_the_document_holds_goes_on() -> None:
    """Names are the same in every language: a question the document's words can match
    is answered, whatever its language."""
    document = make_doc()  # the English handbook
    result = ask("Wieviel kostet der Pro plan bei Acme?", document, make_retriever())
    assert result.references and result.references[0]["title"] == "Pricing"


def test_a_bilingual_document_ranks_each_half_in_its_own_language(tmp_path) -> None:
    path = tmp_path / "contract.md"
    path.write_text(f"# Vertrag / Contract\n\n{GERMAN_HALF}\n{ENGLISH_HALF}", encoding="utf-8")
    document = index_document(str(path), make_summarizer(), persist=False, verbose=False)
    titles = {nid: n["title"] for nid, n in document["flat_nodes"].items()}
    others = {titles[nid]: lang for nid, lang in document["section_languages"].items()}
    main = document["language"]
    assert main in ("de", "en")
    assert set(others.values()) == {"en", "de"} - {main}
    assert len(others) == 2
    assert build_card(document)["other_languages"] == {({"en", "de"} - {main}).pop(): 2}
    retriever = make_retriever()
    german = ask("Wie werden Spesen erstattet?", document, retriever)
    assert german.references[0]["title"] == "Spesen"
    english = ask("How are expenses refunded?", document, retriever)
    assert english.references[0]["title"] == "Expenses"


def test_section_languages_leave_short_and_quoting_sections_alone() -> None:
    nodes = {
        "0001": {"title": "Intro", "text": "A short note in English about de la Rue."},
        "0002": {"title": "Notes", "text": "The supplier " * 40 + "de la Rue et Cie. " * 2},
        "0003": {
            "title": "Anhang",
            "text": "Der Vertrag gilt ab dem ersten Tag, und er wird von beiden Seiten "
            "unterschrieben, bevor die Arbeit beginnt. " * 6,
        },
    }
    assert section_languages(nodes, "en") == {"0003": "de"}
    languages = Languages("en", {"0003": "de"})
    assert languages.for_question("Wann gilt der Vertrag und für wen?") == "de"
    assert languages.for_question("When does the contract apply?") == "en"
    assert languages.foreign("Quand le contrat est-il applicable et pour qui?") == "fr"
    assert languages.foreign("Wann gilt der Vertrag und für wen?") == ""


def _script(server: FakeLLMServer, node_id: str) -> None:
    def reply(request):
        if kind_of(request) == "search":
            return json.dumps({"reasoning": "holiday is Urlaub", "node_list": [node_id]})
        return "An employee gets thirty days of holiday a year [S1]."

    server.reply = reply


def test_with_a_model_an_english_question_about_a_german_document_is_answered(
    server, tmp_path
) -> None:
    document = _german_doc(tmp_path)
    holiday = next(nid for nid, n in document["flat_nodes"].items() if n["title"] == "Urlaub")
    search, answer = _models(server)
    _script(server, holiday)
    result = ask(
        "How many days of holiday does an employee get?",
        document,
        make_retriever(answer, search_llm=search),
    )
    assert result.content == "An employee gets thirty days of holiday a year [S1]."
    assert [r["title"] for r in result.references] == ["Urlaub"]
    steps = result.response_metadata["trace"]["documents"][0]["steps"]
    # the trace's notes are in the answer's language: the document's (German) here
    assert steps[-1]["mode"] == "offline check"
    assert steps[-1]["note"] == message("nav.check_foreign", "de")
    by_kind = {kind_of(r): messages_text(r)[0] for r in server.chat_requests()}
    assert "match by meaning" in by_kind["search"]
    assert "language the question is written in" in by_kind["answer"]


def test_a_section_in_another_script_keeps_the_documents_stems_for_its_own_words() -> None:
    """A Russian manual's untranslated section: its Russian title is stemmed as Russian,
    its English text as English, so a question in either finds it."""
    from treerag_core.text.tokens import tokenize

    text = "Что такое конфигурационные файлы? Conffiles is a list of configuration files"
    tokens = tokenize(text, "en", "ru")
    assert set(tokenize("конфигурационных файлов", "ru")) <= set(tokens)
    assert {"conffile", "configuration", "file"} <= set(tokens)
    assert "что" not in tokens  # a Russian stopword


def test_a_list_of_foreign_names_is_no_section_in_another_language() -> None:
    """A filing's list of subsidiaries is English, whatever initials its names carry."""
    names = ("Noble Leasing LLC United States, Delaware Quadrant - Amroq Beverages S.R.L. "
             "Romania Quaker Development B.V. Netherlands Sea Eagle International SRL Barbados "
             "NIKE de Mexico, S. de R.L. de C.V. Mexico NIKE CR d.o.o Croatia ") * 4  # fmt: skip
    nodes = {"0001": {"title": "Exhibit 21", "text": names}}
    assert section_languages(nodes, "en") == {}


def test_stemmers_are_safe_in_threads() -> None:
    """A Snowball stemmer holds the word it works on: one shared by threads gave wrong
    stems and IndexErrors (a filing's section stemmed as Romanian in ask_library)."""
    import threading

    from treerag_core.text.tokens import tokenize

    text = "companiilor statelor americane dezvoltarea produselor calculatoarelor " * 300
    expected = tokenize(text, "ro")
    results: list[list[str]] = []
    threads = [threading.Thread(target=lambda: results.append(tokenize(text, "ro")))
               for _ in range(4)]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4
