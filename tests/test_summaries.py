"""Summaries that say what a section holds and tags that are topics (offline), the card's
description, and the model's summary asked again once when it only restates the title
(through the real ChatOpenAI client against a fake server on 127.0.0.1)."""

from __future__ import annotations

import json
import re

import pytest

from testkit.fake_llm_servers import FakeLLMServer, messages_text, openai_chat
from treerag_core import make_summarizer
from treerag_core.summarize import Summarizer, offline_summarizer
from treerag_core.summarize.card import build_card, card_line
from treerag_core.summarize.offline import offline_summaries

INCOME = """YEAR ENDED MAY 31,
(In millions, except per share data) 2023 2022 2021
Revenues $ 51,217 $ 46,710 $ 44,538
Cost of sales 28,925 25,231 24,576
Gross profit 22,292 21,479 19,962
Demand creation expense 4,060 3,850 3,114
Income before income taxes 6,201 6,651 6,661
Income tax expense 1,131 605 934
NET INCOME $ 5,070 $ 6,046 $ 5,727
Earnings per common share:
Basic $ 3.27 $ 3.83 $ 3.64
Diluted $ 3.23 $ 3.75 $ 3.56
2023 FORM 10-K 55"""
RISKS = """Global economic conditions could have a material adverse effect on our business,
operating results and financial condition. The uncertain state of the global economy
continues to impact businesses around the world. Our share repurchase program may be
suspended at any time, and changes in foreign currency exchange rates affect our
currency-neutral revenues. Acme Corp relies on contract manufacturers.
2023 FORM 10-K 14"""
COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
(Mark One)
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(D) OF THE SECURITIES EXCHANGE ACT OF 1934
FOR THE FISCAL YEAR ENDED MAY 31, 2023
Commission File No. 1-10635
Acme Corp
(Exact name of Registrant as specified in its charter)
Indicate by check mark whether the registrant is a well-known seasoned issuer. Yes No"""
BUSINESS = """Acme Corp designs, develops and sells running shoes and apparel worldwide.
Acme Corp was incorporated in 1967 and sells through retail accounts and its own stores."""


def _node(nid: str, title: str, text: str, parent: str | None = None, **extra) -> dict:  # noqa: ANN003
    path = f"Item 8 > {title}" if parent else title
    return {"node_id": nid, "title": title, "text": text, "parent_id": parent, "path": path,
            "level": 2 if parent else 1, "children": [], "page_start": 1, "page_end": 1,
            **extra}  # fmt: skip


def _filing() -> list[dict]:
    nodes = [
        _node("0000", "Cover", COVER),
        _node("0001", "Item 1. Business", BUSINESS),
        _node("0002", "Item 1A. Risk Factors", RISKS),
        _node("0003", "Item 7. Management's Discussion and Analysis", ""),
        _node("0004", "Item 8. Financial Statements and Supplementary Data", ""),
        _node("0005", "CONSOLIDATED STATEMENTS OF INCOME", INCOME, "0004"),
        _node(
            "0006",
            "Note 1 — Summary of Significant Accounting Policies",
            "Acme Corp prepares its statements under U.S. GAAP. Acme Corp uses estimates.",
            "0004",
        ),  # fmt: skip
    ]
    nodes[4]["children"] = ["0005", "0006"]
    return nodes


JUNK_TAG = re.compile(r"^(?:[A-Z]{2,}|[IVXLC]+|[\d$.,%\s]+|(?:19|20)\d\d|the|and|of)$")


def test_a_financial_statement_is_summarised_by_caption_periods_and_rows() -> None:
    entry = offline_summaries(_filing())["0005"]
    summary = entry["summary"]
    assert summary.startswith("Consolidated statements of income for year ended May 31, 2021–2023:")
    for row in ("revenues", "cost of sales", "gross profit", "net income"):
        assert row in summary, (row, summary)
    # not the heading, not the header row, not the running footer, not a row of figures
    assert "(In millions" not in summary and "FORM 10-K" not in summary
    assert "51,217" not in summary and summary != "CONSOLIDATED STATEMENTS OF INCOME"
    assert entry["tags"] and not any(JUNK_TAG.match(t) for t in entry["tags"])


def test_a_balance_sheet_is_summarised_at_its_dates() -> None:
    sheet = "At December 28, 2019 and December 29, 2018\n(In millions) 2019 2018\n" + "\n".join(
        f"{label} {a:,} {b:,}" for label, a, b in [("Cash and cash equivalents", 2279, 1130),
        ("Goodwill", 35546, 36503), ("Total assets", 101450, 103461)])  # fmt: skip
    nodes = [
        _node("0004", "Item 8", ""),
        _node("0005", "Consolidated Balance Sheets", sheet, "0004"),
    ]
    summary = offline_summaries(nodes)["0005"]["summary"]
    assert summary.startswith("Consolidated Balance Sheets at December 28, 2018 and 2019:")
    assert "goodwill" in summary and " for at " not in summary


def test_a_risk_section_is_summarised_by_its_sentences_and_tagged_by_its_topics() -> None:
    entries = offline_summaries(_filing())
    entry = entries["0002"]
    assert entry["summary"].startswith("Global economic conditions could have a material adverse")
    assert "Risk Factors" not in entry["summary"] and "FORM 10-K" not in entry["summary"]
    tags = entry["tags"]
    assert "share repurchase program" in tags and "currency-neutral revenues" in tags
    assert not any(JUNK_TAG.match(t) for t in tags), tags
    # the company's own name is on most sections: a tag of none
    assert not any("Acme" in t for e in entries.values() for t in e["tags"])


def test_a_cover_page_is_named_for_what_it_is_not_copied() -> None:
    summary = offline_summaries(_filing())["0000"]["summary"]
    assert summary.startswith("Cover page of the annual report for the period ended May 31, 2023")
    for boilerplate in ("Indicate by check mark", "Washington", "SECURITIES AND EXCHANGE"):
        assert boilerplate not in summary


def test_a_heading_with_no_text_names_what_it_holds() -> None:
    summary = offline_summaries(_filing())["0004"]["summary"]
    assert summary.startswith("Covers Consolidated statements of income; Note 1")
    assert summary != "Item 8. Financial Statements and Supplementary Data"


def test_the_card_says_what_the_document_is_and_covers() -> None:
    flat = {n["node_id"]: n for n in _filing()}
    for nid, entry in offline_summaries(_filing()).items():
        flat[nid].update(entry)
    card = build_card({"doc_id": "a", "file_name": "ACME_2023_10K.pdf", "flat_nodes": flat})
    assert card["description"].startswith(
        "Acme Corp annual report on Form 10-K for fiscal 2023 (year ended May 31, 2023): "
        "business, risk factors, MD&A, financial statements and notes."
    )
    assert "designs, develops and sells running shoes" in card["description"]
    assert "Indicate by check mark" not in card["description"]
    assert "Acme Corp" in card["names"] and not {"UNITED", "STATES", "II"} & set(card["names"])
    line = card_line(card, file_name=True)
    assert line.startswith("ACME_2023_10K.pdf — ACME 2023 10K (annual report, 2023): Acme Corp")


def test_the_summarizers_share_one_interface() -> None:
    assert isinstance(offline_summarizer, Summarizer)
    assert make_summarizer() is offline_summarizer


@pytest.fixture
def server():
    fake = FakeLLMServer("openai").start()
    yield fake
    fake.stop()


def test_a_model_summary_that_restates_the_title_is_asked_again_once(server) -> None:
    def reply(request: dict) -> str:
        _, user = messages_text(request)
        if "only restates the section's title" in user:
            return json.dumps({"summary": "Revenues, costs and net income for 2021–2023.",
                               "tags": ["net income"]})  # fmt: skip
        return json.dumps({"summary": "Consolidated Statements of Income.", "tags": ["x"]})

    server.reply = reply
    node = _filing()[5]
    result = make_summarizer(openai_chat(server), check_headings=False)([node])
    entry = result["summaries"]["0005"]
    assert entry["summary"] == "Revenues, costs and net income for 2021–2023."
    requests = server.chat_requests()
    assert len(requests) == 2  # once more, never a third time
    _, first = messages_text(requests[0])
    # the prompt gives the section's own title and its place in the tree
    assert "Section title: CONSOLIDATED STATEMENTS OF INCOME" in first
    assert "Section path: Item 8 > CONSOLIDATED STATEMENTS OF INCOME" in first


def test_a_second_restatement_is_kept_and_no_third_call_is_made(server) -> None:
    server.reply = lambda r: json.dumps({"summary": "Item 1A. Risk Factors", "tags": ["risk"]})
    result = make_summarizer(openai_chat(server), check_headings=False)([_filing()[2]])
    assert len(server.chat_requests()) == 2
    assert result["summaries"]["0002"]["fallback"] is False


def test_a_summary_that_says_more_than_its_title_is_not_asked_again(server) -> None:
    server.reply = lambda r: json.dumps(
        {"summary": "How economic conditions and currency rates may hurt results.", "tags": []}
    )
    make_summarizer(openai_chat(server), check_headings=False)([_filing()[2]])
    assert len(server.chat_requests()) == 1


def test_a_cover_is_told_the_same_whatever_letters_its_text_folds_to():
    """Boilerplate patterns search lower-cased text when that matches as IGNORECASE would;
    letters lower() folds otherwise ("İ", "ı", "ſ") keep the pattern's own search."""
    from treerag_core.summarize.digest import boilerplate_kind

    for line in (
        "INDICATE BY CHECK MARK whether the registrant",
        "Indicate by check mark whether the registrant “filer”",
        "ſecurities regiſtered purſuant to Section 12(b)",
        "İndicate by check mark",
        "Indıcate by check mark",
    ):
        assert (boilerplate_kind("Cover", [line]) or "").startswith("Cover page"), line
    assert boilerplate_kind("Cover", ["Indicates by a mark whether"]) is None


def test_a_long_sentence_ending_in_an_abbreviation_goes_on():
    from treerag_core.text.sentences import split_sentences

    long = "Revenue grew in every segment and region we serve, " * 20
    assert split_sentences(f"{long}as reported by Acme Inc. Its customers stayed.") == [
        f"{long}as reported by Acme Inc. Its customers stayed.".replace("  ", " ").strip()
    ]


def test_the_boilerplate_and_business_sentence_read_as_when_every_line_was_cleaned() -> None:
    """A cover, signature or contents page is told from the lines it was always told from
    (a contents page's every line, another's first sixty), and the business sentence is the
    one found when each section was first checked whole (issue 42)."""
    from treerag_core.summarize import describe
    from treerag_core.summarize.digest import boilerplate_kind, boilerplate_of, clean_lines
    from treerag_core.text.sentences import split_sentences

    rows = "".join(f"Order ORD-{i:05d}: Customer {i % 7}, Amount {i}.50.\n" for i in range(90))
    cover = "ACME Corp\n(Exact name of registrant as specified in its charter)\nFORM 10-K\n"
    signed = "SIGNATURES\nThe registrant has duly caused this report to be signed.\n"
    sells = "Acme designs, develops and sells industrial pumps to customers worldwide.\n"
    texts = [rows, cover + rows, rows + cover, signed + sells, "Item 1 5\nItem 7 30\n" * 40,
             sells, "Page 3\n" * 70 + signed, "Note\n" * 70 + cover, ""]  # fmt: skip
    titles = ["Contents", "Table of Contents", "Cover", "Signatures", "Business", "orders"]
    for text in texts:
        for title in titles:
            whole = boilerplate_kind(title, clean_lines(text, title))
            assert boilerplate_of(text, title) == whole
    flats = [
        {f"n{i}": {"title": title, "text": text} for i, (text, title) in enumerate(pairs)}
        for pairs in (
            [(signed + sells, "Signatures"), (sells, "Business")],
            [(rows, "orders"), (cover + sells, "Cover"), (rows + sells, "Part")],
            [(rows, "orders")],
        )
    ]

    def plain(flat: dict) -> tuple[str, str]:  # the search as it was
        for nid, node in list(flat.items())[: describe.BUSINESS_SECTIONS]:
            lines = clean_lines(str(node.get("text") or ""), str(node.get("title") or ""))
            if boilerplate_kind(str(node.get("title") or ""), lines) is not None:
                continue
            for sentence in split_sentences(str(node.get("text") or "")):
                words = sentence.split()
                if (
                    6 <= len(words)
                    and len(sentence) <= describe.BUSINESS_CHARS
                    and any(c.islower() for c in sentence)
                    and describe.BUSINESS_SENTENCE.search(sentence)
                ):
                    return " ".join(words), nid
        return "", ""

    for flat in flats:
        assert describe.business_sentence(flat) == plain(flat)
    assert describe.business_sentence(flats[0])[1] == "n1"  # the signature page's is skipped


def test_tags_of_a_german_document_are_phrases_not_its_stopwords() -> None:
    """The phrase boundaries were English's alone: a German FAQ's tags read "ein Paket, das
    von einem mail-transport-agent". Its own stopwords end a phrase now."""
    text = (
        "Virtuelle Pakete stellen Verweise auf grundlegende Funktionen des Systems dar. Zum "
        "Beispiel sind konqueror und firefox beides Webbrowser, folglich werden beide "
        "Programme die Abhängigkeit erfüllen, die ein Programm hat, das einen Webbrowser "
        "braucht. Ein virtuelles Paket wird von einem anderen Paket bereitgestellt, das "
        "dann installiert ist. Die virtuellen Pakete sind in einer Liste aufgeführt."
    )
    other = "Die Paketverwaltung installiert Pakete aus dem Archiv und entfernt sie wieder."
    nodes = [
        {"node_id": "a", "title": "Was ist ein virtuelles Paket?", "text": text, "children": []},
        {"node_id": "b", "title": "Paketverwaltung", "text": other, "children": []},
    ]
    tags = offline_summaries(nodes)["a"]["tags"]
    assert tags
    german = {"ein", "das", "die", "der", "dem", "von", "einem", "dass", "und", "wird", "sind"}
    for tag in tags:
        assert not german & set(tag.lower().split()), tag


def test_a_lone_word_the_text_writes_in_lower_case_is_no_name_on_the_card() -> None:
    """'Information' opens lines of the front page but is a common word (the text writes it
    in lower case more often); 'Debian' is a name, though a command line writes it so once."""
    opening = (
        "Information\nDebian is a free operating system. Debian runs on many computers.\n"
        "Information\nDebian has thousands of packages. Debian is made by volunteers.\n"
        "Information\nDebian releases are named after film characters."
    )
    body = (
        "More information is on the website, and the information there is updated often. "
        "Some information is only in the manual. To try it, type: run debian"
    )
    flat = {"1": _node("1", "About", opening), "2": _node("2", "Details", body)}
    names = build_card({"doc_id": "d", "file_name": "notes.txt", "flat_nodes": flat})["names"]
    assert "Debian" in names and "Information" not in names


def test_a_cards_registrant_title_and_names_come_from_the_cover_not_its_legal_lines() -> None:
    """A cover with no "(Exact name of registrant …)" caption names its registrant under the
    file number (3M's, Microsoft's); one whose name is a logo has none, never the file
    number itself; no-break spaces are spaces; a title that is the SEC's header is no
    title, and the cover's "Rule 405", "Part III" and "Notes due 2026" are no names."""
    from treerag_core.summarize.describe import registrant

    under = "FORM 10-K\nCommission file number 1-3285\n3M COMPANY\nState of Incorporation: X\n"
    assert registrant(under) == "3M COMPANY"
    logo = (
        "Commission File Number 001-02217\n(Exact name of Registrant as specified in its charter)"
    )
    assert registrant(logo) == ""
    spaced = "BEST BUY CO., INC.\n(Exact\xa0name\xa0of\xa0registrant\xa0as\xa0specified)\n"
    assert registrant(spaced) == "BEST BUY CO., INC."
    cover = (
        "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-K\n"
        "For the fiscal year ended December 31, 2023\nCommission file number 1-3285\n"
        "ACME CORPORATION\n1.500% Notes due 2026\nNew York Stock Exchange\nIndicate by check "
        "mark if the Registrant is a well-known seasoned issuer, as defined in Rule 405. Part "
        "III of this report incorporates the proxy statement by reference."
    )
    flat = {
        "n0": {"title": "Cover", "text": cover, "level": 1},
        "n1": {"title": "Item 1. Business", "level": 1,
               "text": "Acme Corporation was incorporated in 1950. Acme Corporation is a "
                       "diversified industrial company with plants in ten countries."},
    }  # fmt: skip
    header = "UNITED STATES SECURITIES AND EXCHANGE COMMISSION Washington, D.C. 20549"
    card = build_card({"doc_id": "a", "file_name": "ACME_2023_10K.pdf", "flat_nodes": flat,
                       "metadata": {"title": header}})  # fmt: skip
    assert card["title"] == "ACME 2023 10K"  # the file's name, not the SEC's header
    assert card["names"][0] == "ACME CORPORATION"
    assert not {"Rule", "Part III", "Notes", "New York Stock Exchange"} & set(card["names"])
    assert card["description"].startswith("ACME CORPORATION annual report on Form 10-K")
    assert "is a diversified industrial company" in card["description"]


def test_the_business_sentence_is_the_organisation_saying_what_it_is() -> None:
    """Before Item 1's "Pfizer Inc. is a research-based, global biopharmaceutical company" a
    glossary's "Emerging Markets includes … markets" and a segment's "GMNS also provides
    …" have a business verb; neither is the organisation speaking of itself. A sentence cut
    off at its start ("economic, geo-political …") is none either."""
    from treerag_core.summarize.describe import business_sentence

    cover = "PFIZER INC.\n(Exact name of registrant as specified in its charter)\n"
    texts = [
        ("Cover", cover),
        ("Glossary", "Emerging Markets includes, but is not limited to, these markets: Asia."),
        (
            "Forward-looking",
            "economic, geo-political and business conditions in the markets "
            "in which Pfizer operates; changes in law.",
        ),  # fmt: skip
        ("Segments", "GMNS also provides fraud-prevention tools to merchants and partners."),
        (
            "Item 1. Business",
            "Pfizer Inc. is a research-based, global biopharmaceutical "
            "company. We apply science to bring therapies to people.",
        ),  # fmt: skip
    ]
    flat = {f"n{i}": {"title": t, "text": x} for i, (t, x) in enumerate(texts)}
    assert business_sentence(flat) == (
        "Pfizer Inc. is a research-based, global biopharmaceutical company.",
        "n4",
    )
    del flat["n4"]  # none says what it is: the first saying what it does, as a sentence does
    assert business_sentence(flat)[1] == "n1"
    flat["n1"]["text"] = "The Company is a party to swaps that it uses to hedge its debt."
    assert business_sentence(flat)[1] == "n3"


def test_an_earnings_release_is_not_said_to_be_on_the_form_it_mentions() -> None:
    from treerag_core.summarize.describe import describe

    opening = "PepsiCo Reports First Quarter 2023 Results. See our Form 10-Q for details."
    flat = {"n0": {"title": "Results", "text": opening, "level": 1}}
    said = describe(flat, ["n0"], opening, "earnings release", "PepsiCo Q1")
    assert said.startswith("An earnings release") and "Form 10-Q" not in said
    assert "on Form 10-Q" in describe(flat, ["n0"], opening, "quarterly report", "Q")


def test_a_summary_is_not_what_the_report_calls_the_company() -> None:
    """Item 1 of a 10-K often opens on the report's own words ("the terms “we,” “us” and
    “our” … refer to Best Buy Co., Inc.", "references to our website addresses do not
    constitute incorporation by reference …"): the section's children say what it holds.
    A sentence that only names the company so in passing is still a sentence of its own."""
    from treerag_core.summarize.digest import section_summary

    opening = (
        "Unless the context otherwise requires, the terms “we,” “us” and “our” in this Annual "
        "Report on Form 10-K refer to Best Buy Co., Inc. and its consolidated subsidiaries. "
        "Any references to our website addresses do not constitute incorporation by "
        "reference of the information contained on the websites."
    )
    node = {"title": "Item 1. Business", "text": opening}
    kids = ["Description of Business", "Segments", "Operations"]
    assert section_summary(node, kids).startswith("Covers Description of Business; Segments")
    passing = (
        "As of May 26, 2019, General Mills, Inc. (“General Mills,” the “Company,” “we,” “us,” "
        "and “our”) had five classes of securities registered under Section 12 of the Act."
    )
    assert section_summary({"title": "Description of Securities", "text": passing}).startswith(
        "As of May 26, 2019, General Mills"
    )


def test_a_first_heading_naming_a_part_is_no_title() -> None:
    """PepsiCo's earnings release opens on "Introduction Summary": a part every report
    has, not the document's title; the file's name says more."""
    flat = {"n0": {"title": "Introduction Summary", "level": 1, "text": "Revenue grew 10%."}}
    card = build_card(
        {"doc_id": "p", "file_name": "PEPSICO_2023Q1_EARNINGS.pdf", "flat_nodes": flat}
    )
    assert card["title"] == "PEPSICO 2023Q1 EARNINGS"
