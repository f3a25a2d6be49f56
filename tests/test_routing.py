"""Routing a library question: the section that answers, not the biggest document; names
and periods as filters; statistics of the scope's own; the model's call reads the best
sections (through the real client)."""

from __future__ import annotations

import json

import pytest
from conftest import RegistryUnderTest

from treerag_core import make_retriever
from treerag_core.access.collections import set_collection_access
from treerag_core.access.principal import Principal
from treerag_core.answer.library import ask_library
from treerag_core.library.indexing import index_upload
from treerag_core.route.named import name_terms, read_question
from treerag_core.route.routing import route, routing_tokens
from treerag_core.store import open_store

FAQ = b"""# Frequently asked questions

## How do I report a bug in the software?
Use the reportbug tool: it collects the versions and sends the report to the tracker.

## How do I put a package on hold?
Run the hold command so the package is kept at its version.

## Where are the mailing lists?
The lists are on the lists server.
"""


def manual(topic: str, chapters: int) -> bytes:
    """A long manual that mentions every word of the questions somewhere, in passing."""
    body = [f"# The {topic} manual\n"]
    for i in range(chapters):
        body.append(
            f"## Chapter {i}: {topic} part {i}\nThis chapter of the software manual covers "
            f"{topic} item {i}. A bug may be found in part {i}; the tracker lists each report "
            f"and the tool that made it. How the package works, how to report progress and "
            f"how software is kept on hold are described in other chapters.\n"
        )
    return "\n".join(body).encode()


def _index(registry: str, name: str, data: bytes, **kw) -> dict:
    return index_upload(name, data, registry_path=registry, **kw)


def _opened(registry: str, question: str, **kw) -> list[str]:
    store = open_store(registry)
    return route(question, store, **kw).doc_ids


def test_a_faq_entry_beats_longer_manuals(tmp_path) -> None:
    registry = str(tmp_path / "lib.json")
    faq = _index(registry, "faq.md", FAQ)
    for topic, chapters in (("installation", 60), ("administration", 120)):
        _index(registry, f"{topic}.md", manual(topic, chapters))
    result = ask_library("How do I report a bug in the software?", make_retriever(),
                         registry_path=registry, return_raw=False)  # fmt: skip
    library = result["trace"]["library"]
    assert library["opened"] == [faq["doc_id"]]  # one document: nothing compares
    best = library["documents"][0]
    assert best["best_sections"][0] == "How do I report a bug in the software?"
    assert result["references"][0]["title"] == "How do I report a bug in the software?"


REPORTS = {
    "northwind_2021_10k.md": ("annual report for fiscal 2021", "2021", "410"),
    "northwind_2022_10k.md": ("annual report for fiscal 2022", "2022", "455"),
    "northwind_2023_10k.md": ("annual report for fiscal 2023", "2023", "502"),
    "northwind_2022q2_10q.md": ("quarterly report for the second quarter of 2022", "2022", "111"),
    "northwind_2023q2_10q.md": ("quarterly report for the second quarter of 2023", "2023", "123"),
}


def _reports(registry: str) -> dict[str, str]:
    ids = {}
    for name, (what, year, revenue) in REPORTS.items():
        text = (f"# Northwind {what}\n\n## Results\nNorthwind's revenue was {revenue} million "
                f"euros in {year}, compared with the year before ({int(year) - 1}).\n\n"
                f"## Outlook\nFor {int(year) + 1} we expect revenue to grow.\n")  # fmt: skip
        ids[name] = _index(registry, name, text.encode())["doc_id"]
    # Another company's report of the same years shares every word but the name.
    _index(registry, "southwind_2022_10k.md", b"# Southwind annual report for fiscal 2022\n\n"
           b"## Results\nSouthwind's revenue was 90 million euros in 2022.\n")  # fmt: skip
    return ids


def test_the_asked_period_wins_among_annual_and_quarterly_reports(tmp_path) -> None:
    registry = str(tmp_path / "lib.json")
    ids = _reports(registry)
    asked = {
        "What was Northwind's revenue in FY2022?": "northwind_2022_10k.md",
        "What was Northwind's revenue in fiscal 2023?": "northwind_2023_10k.md",
        "What was Northwind's revenue in Q2 2022?": "northwind_2022q2_10q.md",
        "What was Northwind's revenue in the second quarter of 2023?": "northwind_2023q2_10q.md",
    }
    for question, name in asked.items():
        assert _opened(registry, question) == [ids[name]], question
    routing = route("What was Northwind's revenue in Q2 2022?", open_store(registry))
    trace = routing.trace()
    assert any(f.startswith("period: Q2 2022") for f in trace["filters"])
    by_name = {d["file_name"]: d for d in trace["documents"]}
    assert (
        by_name["northwind_2022q2_10q.md"]["period"] == "its own period, Q2 2022, is the one asked"
    )
    assert by_name["northwind_2022_10k.md"]["period"].startswith("its own period is 2022, not")
    assert by_name["southwind_2022_10k.md"]["named"] == "its card does not name Northwind"
    assert by_name["southwind_2022_10k.md"]["why"].startswith("filtered out")
    # Nothing named: no filter, and a comparison opens each company's report.
    plain = route("What was the revenue?", open_store(registry)).trace()
    assert "filters" not in plain
    both = route("Compare Northwind and Southwind revenue in 2022", open_store(registry))
    assert {c.file_name for c in both.picked} == {"northwind_2022_10k.md", "southwind_2022_10k.md"}


@pytest.mark.parametrize(
    ("question", "wanted"),
    [("What did JnJ spend on research?", "johnson_johnson_2022_10k.md"),
     ("What did Johnson & Johnson spend on research?", "johnson_johnson_2022_10k.md"),
     ("What did MMM spend on research?", "3m_2022_10k.md"),
     ("What did 3M's research cost?", "3m_2022_10k.md")],
)  # fmt: skip
def test_aliases_name_the_same_company(tmp_path, question: str, wanted: str) -> None:
    registry = str(tmp_path / "lib.json")
    ids = {}
    for name, company in (("johnson_johnson_2022_10k.md", "Johnson & Johnson"),
                          ("3m_2022_10k.md", "3M"), ("pfizer_2022_10k.md", "Pfizer")):  # fmt: skip
        text = f"# {company} annual report 2022\n\n## Research\n{company} spent on research.\n"
        ids[name] = _index(registry, name, text.encode())["doc_id"]
    assert _opened(registry, question) == [ids[wanted]]


def test_a_collections_routing_is_not_moved_by_another(any_registry: RegistryUnderTest) -> None:
    """Statistics are summed over the documents a person may read: documents added to
    another collection (sharing the question's words, in bulk) change nothing here."""
    url = any_registry.url
    set_collection_access("hr", readers=["hr"], registry_path=url)
    set_collection_access("eng", readers=["eng"], registry_path=url)
    for i, (name, text) in enumerate((
        ("leave.md", "# Leave\n\n## Parental leave\nParental leave is 20 weeks.\n"),
        ("travel.md", "# Travel\n\n## Hotels\nThe hotel cap is 180 euros; leave early.\n"),
        ("security.md", "# Security\n\n## Laptops\nLaptops are encrypted. Weeks of leave: "
                        "ask HR.\n"),
    )):  # fmt: skip
        _index(url, name, text.encode(), collection="hr" if i < 2 else "eng")
    reader = Principal("hana", groups=frozenset({"hr"}))
    question = "How many weeks of parental leave?"

    def seen() -> list[tuple[str, float, float, float]]:
        routing = route(question, open_store(url), principal=reader)
        return [(c.file_name, round(c.score, 9), round(c.card, 9), round(c.passages, 9))
                for c in routing.considered]  # fmt: skip

    before = seen()
    assert before[0][0] == "leave.md"
    for i in range(6):
        _index(url, f"other_{i}.md", (f"# Parental leave weeks {i}\n\n## Parental leave\n"
               f"Parental leave weeks leave weeks parental {i}.\n").encode(), collection="eng")  # fmt: skip
    assert seen() == before
    everyone = route(question, open_store(url))  # the whole registry: other statistics
    assert len(everyone.considered) > len(before)


def test_the_model_reads_cards_and_best_sections_through_the_real_client(tmp_path) -> None:
    from testkit.fake_llm_servers import FakeLLMServer, kind_of, messages_text, openai_chat

    registry = str(tmp_path / "lib.json")
    faq = _index(registry, "faq.md", FAQ)
    _index(registry, "installation.md", manual("installation", 40))
    server = FakeLLMServer("openai").start()
    prompts: list[str] = []
    try:

        def reply(request: dict) -> str:
            if kind_of(request) == "routing":
                prompts.append(messages_text(request)[1])
                return json.dumps({"reasoning": "the FAQ entry", "documents": [1]})
            return "Use reportbug [S1]."

        server.reply = reply
        chat = openai_chat(server)
        result = ask_library("How do I report a bug in the software?",
                             make_retriever(chat, search_llm=chat), registry_path=registry,
                             return_raw=False)  # fmt: skip
    finally:
        server.stop()
    assert server.kinds().count("routing") == 1
    (prompt,) = prompts
    assert "[1] faq.md — " in prompt and "[2] installation.md — " in prompt
    assert "Best sections: How do I report a bug in the software?" in prompt
    assert "Chapter 1:" not in prompt.split("[2]")[0]  # the outline is not sent
    assert result["trace"]["library"]["opened"] == [faq["doc_id"]]


def test_section_statistics_are_built_at_indexing_and_kept_in_step(
    any_registry: RegistryUnderTest,
) -> None:
    """Written with the document (no question needed), replaced on re-index, gone on
    delete: in both stores."""
    from treerag_core import delete_document

    url = any_registry.url
    doc = _index(url, "notes.md", b"# Notes\n\n## Launch\nThe launch is on Tuesday.\n")
    index = open_store(url).library_index()
    assert set(index.postings({"launch"}, None)["launch"]) == {doc["doc_id"]}
    # flat, four numbers a posting: section 1 holds it in its title and once in its text
    # (then the card's, section -1)
    got = list(index.postings({"launch"}, None)["launch"][doc["doc_id"]])
    assert got[0] == 1 and got[1] >= 1 and got[3] == 1 and len(got) % 4 == 0
    lengths = list(index.lengths([doc["doc_id"]])[doc["doc_id"]])
    assert len(lengths) == 2 * 3 and lengths[3] >= 1 and lengths[5] == 2  # launch, tuesday
    assert index.totals(None)[doc["doc_id"]]["sections"] == 2
    assert index.sections([doc["doc_id"]])[doc["doc_id"]]["titles"] == ["Notes", "Launch"]
    _index(url, "notes.md", b"# Notes\n\n## Retro\nThe retrospective is on Friday.\n")
    assert index.postings({"launch"}, None) == {}
    assert set(index.postings({"retrospective"}, None)["retrospective"]) == {doc["doc_id"]}
    delete_document(doc["doc_id"], url)
    assert index.postings({"retrospective"}, None) == {} and index.totals(None) == {}


POLICY = b"""# Team hardware rules

## Laptops
Laptops are replaced every four years.

## Corporate cards
Corporate cards are issued to staff who spend more than 500 euros a month.

## Phones
A phone is given to people who travel.
"""


def report(sections: int) -> bytes:
    """A long report whose many long sections each share most words of the question."""
    body = ["# Card issuer annual report\n"]
    for i in range(sections):
        body.append(
            f"## Corporate card segment {i}\nIn segment {i} the company issued cards to "
            f"consumers and clients; fees in segment {i} rose. "
            + f"Revenue, costs and margins of segment {i} are discussed in the notes. "
            * 8
        )
    return "\n".join(body).encode()


def test_a_short_documents_one_answering_section_beats_a_long_ones_many(tmp_path) -> None:
    """A document is as good as its best section: a long report's second and third
    sections that share the question's words are not a bonus over a short policy whose
    one section answers (a short document answers in one place)."""
    registry = str(tmp_path / "lib.json")
    policy = _index(registry, "team_rules.md", POLICY)
    _index(registry, "issuer_report.md", report(40))
    assert _opened(registry, "Who is issued a corporate card?") == [policy["doc_id"]]


def test_separate_words_of_a_question_are_not_joined_into_a_rarer_term() -> None:
    """ "log file" is not also "logfile": the joined form would count the same words again,
    with the largest weight of all; a word written in parts is joined ("coca-cola"), and a
    name's words are joined where the question capitalises them (``name_terms``)."""
    assert "logfile" not in routing_tokens("Which process has a given log file open?")
    assert "cocacola" in routing_tokens("What did coca-cola earn?")
    named = read_question("What did Best Buy earn?")
    assert "bestbuy" in name_terms(named)


def test_a_name_inside_a_hyphenated_file_name_keeps_its_document(tmp_path) -> None:
    """The index keeps "debian-reference" whole; a question naming Debian still keeps the
    Debian reference (its file name's part), and drops the document that names it nowhere."""
    registry = str(tmp_path / "lib.json")
    reference = _index(
        registry,
        "debian-reference.md",
        b"# debian-reference\n\n## Limiting "
        b"download bandwidth\nSet the Dl-Limit option of apt to cap downloads.\n",
    )
    _index(registry, "debian_faq.md", b"# Debian FAQ\n\n## How do I report a bug?\nUse "
           b"reportbug.\n")  # fmt: skip
    _index(
        registry,
        "other_manual.md",
        b"# Another system's manual\n\n## Limiting download "
        b"bandwidth\nThe download bandwidth of the updater is capped in its settings.\n",
    )
    routing = route("How do I limit the download bandwidth in Debian?", open_store(registry))
    assert routing.doc_ids == [reference["doc_id"]]
    by_name = {d["file_name"]: d for d in routing.trace()["documents"]}
    assert by_name["debian-reference.md"]["named"] == "its card names Debian"
    assert by_name["other_manual.md"]["why"].startswith("filtered out")


def test_a_metric_abbreviation_is_no_name() -> None:
    """ "D&A" and "P&L" are words of the question's metric (the ranking reads them as the
    rows they abbreviate), not names a card must hold: a card naming "D&A" is not kept
    for a question about PepsiCo's D&A."""
    named = read_question("What was PepsiCo's FY2022 EBITDA, using D&A from the P&L?")
    assert [written for written, _ in named.names] == ["PepsiCo", "EBITDA"]


def test_a_dates_month_is_no_name(tmp_path) -> None:
    """ "March" in "on March 1, 2024" is the month of a date: read as a name, and no card
    knowing the question's other words, it kept only the document whose name says March."""
    named = read_question("What did Acme's travel policy change on March 1, 2024?")
    assert [written for written, _ in named.names] == ["Acme"] and named.years == ["2024"]
    assert [w for w, _ in read_question("What did the March newsletter say?").names] == ["March"]
    registry = str(tmp_path / "reg.json")
    travel = _index(registry, "travel_policy.md", b"# Travel policy\n\nFrom 2024, economy "
                    b"class is booked for trips under six hours.\n")  # fmt: skip
    _index(registry, "march_newsletter.md", b"# March newsletter\n\nThe canteen reopens.\n")
    opened = _opened(registry, "What did the travel policy change on March 1, 2024?", k=1)
    assert opened == [travel["doc_id"]]
