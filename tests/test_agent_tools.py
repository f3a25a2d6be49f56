"""RegistryTools: the five agent tools on a real filing, their bounds, paging, errors and
access rules (the one implementation behind the LangChain tools and the MCP server)."""

from __future__ import annotations

import json

import pytest
from agent_registry import TeamRegistry

from treerag_core import DocumentNotFoundError, Library
from treerag_core.access.principal import Principal
from treerag_core.errors import ToolArgumentError
from treerag_core.tools import registry_tools
from treerag_core.tools.arguments import MAX_READ_CHARS
from treerag_core.tools.registry_tools import RegistryTools
from treerag_core.tools.shapes import to_json

ANA = Principal("ana@example.com", groups=frozenset({"finance"}))
BOB = Principal("bob@example.com", groups=frozenset({"hr"}))


@pytest.fixture
def tools(agent_team: TeamRegistry) -> RegistryTools:
    return RegistryTools(Library.open(agent_team.path))


def walk(entries: list[dict]) -> list[dict]:
    out = []
    for entry in entries:
        out.append(entry)
        out += walk(entry.get("below") or [])
    return out


def test_list_documents_names_ids_collections_pages_and_sections(tools, agent_team) -> None:
    result = tools.list_documents()
    by_id = {d["doc_id"]: d for d in result["documents"]}
    filing = by_id[agent_team.filing_id]
    assert filing["name"] == "BESTBUY_2024Q2_10Q.pdf" and filing["collection"] == "finance"
    assert filing["pages"] == 30 and filing["sections"] > 20 and filing["indexed_at"]
    assert by_id[agent_team.memo_id]["collection"] == "hr"
    assert result["total"] == 2 and result["truncated"] is False
    json.loads(to_json(result))  # plain JSON


def test_list_documents_pages_with_offset(tools, monkeypatch) -> None:
    monkeypatch.setattr(registry_tools, "LIST_PAGE_SIZE", 1)
    first = tools.list_documents()
    assert first["truncated"] and first["next_offset"] == 1 and "offset=1" in first["more"]
    second = tools.list_documents(offset=first["next_offset"])
    assert second["truncated"] is False and "next_offset" not in second
    ids = {d["doc_id"] for d in first["documents"] + second["documents"]}
    assert len(ids) == 2


def test_browse_shows_the_filings_parts_and_items_with_pages(tools, agent_team) -> None:
    result = tools.browse(agent_team.filing_id)
    assert result["file_name"] == "BESTBUY_2024Q2_10Q.pdf"
    top = [e["title"] for e in result["outline"]]
    # titles as the filing's printed contents spells them ("Part I — Financial Information")
    assert any(t.upper().startswith("PART I ") for t in top)
    assert any(t.upper().startswith("PART II ") for t in top)
    part1 = next(e for e in result["outline"] if e["title"].upper().startswith("PART I "))
    items = {e["title"]: e for e in part1["below"]}
    item1 = items["Item 1. Financial Statements"]
    assert item1["pages"] == [3, 14]  # a heading spans its sub-sections
    assert (
        item1["children"] == 6 and "below" not in item1
    )  # statements a) to f)  # depth 2: browse it for more
    assert result["truncated"] is False
    assert len(to_json(result)) < len(tools.outline_text(agent_team.filing_id))


def test_browse_below_a_node_lists_its_sections_and_cites_it(tools, agent_team) -> None:
    result = tools.browse(agent_team.filing_id, node_id=agent_team.notes_id, depth=1)
    assert result["node"]["path"] == (
        "Part I — Financial Information > Item 1. Financial Statements"
        " > f) Notes to Condensed Consolidated Financial Statements"
    )
    titles = [e["title"] for e in result["outline"]]
    assert "9. Repurchase of Common Stock" in titles
    assert all("below" not in e for e in result["outline"])  # depth 1
    note = next(e for e in result["outline"] if e["title"] == "9. Repurchase of Common Stock")
    assert note["pages"] == [12, 13] and note["summary"]


def test_browse_pages_a_wide_first_level(tools, agent_team, monkeypatch) -> None:
    monkeypatch.setattr(registry_tools, "BROWSE_PAGE_SIZE", 5)
    first = tools.browse(agent_team.filing_id, node_id=agent_team.item1_id, depth=1)
    assert first["truncated"] and "page=1" in first["more"] and len(first["outline"]) == 5
    second = tools.browse(agent_team.filing_id, node_id=agent_team.item1_id, depth=1, page=1)
    assert {e["node_id"] for e in first["outline"]}.isdisjoint(
        e["node_id"] for e in second["outline"]
    )
    with pytest.raises(ToolArgumentError, match="past the last page"):
        tools.browse(agent_team.filing_id, node_id=agent_team.item1_id, depth=1, page=99)


def test_browse_is_bounded_in_nodes(tools, agent_team, monkeypatch) -> None:
    monkeypatch.setattr(registry_tools, "BROWSE_MAX_NODES", 6)
    result = tools.browse(agent_team.filing_id, depth=4)
    assert len(walk(result["outline"])) <= 6 and result["truncated"]


def test_search_ranks_sections_with_pages_snippet_and_offset(tools, agent_team) -> None:
    result = tools.search("share repurchases total cost", doc_ids=[agent_team.filing_id], k=3)
    hits = result["hits"]
    assert len(hits) == 3 and result["documents_searched"] == 1
    # the note on repurchases and MD&A's "Share Repurchases and Dividends" both answer; the
    # finer tree gives the latter a section of its own, so either may lead
    assert agent_team.repurchase_id in [h["node_id"] for h in hits]
    top = hits[0]
    assert "repurchase" in top["title"].lower() and top["path"].endswith(top["title"])
    assert top["pages"][0] >= 12 and "repurchase" in top["snippet"].lower()
    read = tools.read(agent_team.filing_id, top["node_id"], max_chars=400, offset=top["offset"])
    assert read["text"].startswith(top["snippet"][:40])  # the offset leads to the passage
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)


def test_search_over_every_readable_document(tools, agent_team) -> None:
    hits = tools.search("salary band tables")["hits"]
    # one ranking over both documents: the memo's two sections outrank the filing's
    assert [h["doc_id"] for h in hits[:2]] == [agent_team.memo_id] * 2
    assert {h["title"] for h in hits[:2]} == {"Salary bands 2024", "Band tables"}
    assert tools.search("salary bands")["documents_searched"] == 2


def test_read_pages_through_a_long_section_with_its_pages(tools, agent_team) -> None:
    whole = tools.read(agent_team.filing_id, agent_team.long_id, max_chars=MAX_READ_CHARS)
    assert whole["total_chars"] > 2000
    parts, offset = [], 0
    while True:
        part = tools.read(agent_team.filing_id, agent_team.long_id, max_chars=1000, offset=offset)
        assert len(part["text"]) <= 1000 and part["pages"]
        parts.append(part)
        if "next_offset" not in part:
            break
        assert part["truncated"] and f"offset={part['next_offset']}" in part["more"]
        offset = part["next_offset"]
    full = tools.read(agent_team.filing_id, agent_team.long_id, max_chars=MAX_READ_CHARS)
    assert "".join(p["text"] for p in parts) == full["text"][: sum(len(p["text"]) for p in parts)]
    first, last = agent_team.long_pages
    assert parts[0]["pages"][0] == first and parts[-1]["pages"][-1] == last


def test_read_a_heading_lists_its_sub_sections(tools, agent_team) -> None:
    result = tools.read(agent_team.filing_id, agent_team.item1_id)
    assert result["text"] == "" and result["pages"] == [3, 14]
    notes = "f) Notes to Condensed Consolidated Financial Statements"
    assert notes in [c["title"] for c in result["children"]]
    assert "read them by node_id" in result["more"]


def test_bad_ids_and_arguments_raise_typed_errors_with_what_to_do(tools, agent_team) -> None:
    with pytest.raises(DocumentNotFoundError, match="call list_documents"):
        tools.browse("no-such-document")
    with pytest.raises(ToolArgumentError, match="has no section '9999'.*browse it"):
        tools.read(agent_team.filing_id, "9999")
    with pytest.raises(ToolArgumentError, match="max_chars: Input should be greater"):
        tools.read(agent_team.filing_id, agent_team.repurchase_id, max_chars=5)
    with pytest.raises(ToolArgumentError, match="past the end"):
        tools.read(agent_team.filing_id, agent_team.repurchase_id, offset=10**6)
    with pytest.raises(ToolArgumentError, match="depth"):
        tools.browse(agent_team.filing_id, depth=9)
    with pytest.raises(ToolArgumentError, match="doc_ids"):
        tools.ask("What?", [agent_team.filing_id] * 11)
    with pytest.raises(ToolArgumentError, match="query"):
        tools.search("")


def test_ask_offline_answers_with_references_to_sections_and_pages(tools, agent_team) -> None:
    result = tools.ask("What was the total cost of shares repurchased?", [agent_team.filing_id])
    assert result["engine"] == "treerag-offline" and result["llm_calls"] == 0
    assert "Extractive answer" in result["answer"]
    refs = result["references"]
    assert refs and {r["doc_id"] for r in refs} == {agent_team.filing_id}
    assert all(r["node_id"] and r["path"] and r["pages"] and r["ref"] for r in refs)
    assert agent_team.repurchase_id in [r["node_id"] for r in refs]
    assert any(r["cited"] and r.get("quote") for r in refs)
    assert "highlights" not in to_json(result)  # PDF boxes are for the app, not an agent


def test_ask_without_documents_asks_the_library_and_lists_cards(tools, agent_team) -> None:
    result = tools.ask("What was the total cost of shares repurchased?")
    assert {r["doc_id"] for r in result["references"]} == {agent_team.filing_id}
    listed = {d["doc_id"]: d for d in tools.list_documents()["documents"]}
    card = listed[agent_team.filing_id]
    assert card["kind"] == "quarterly report" and card["description"]


def test_each_principal_sees_only_its_collections(agent_team) -> None:
    ana = RegistryTools(Library.open(agent_team.path, principal=ANA))
    bob = RegistryTools(Library.open(agent_team.path, principal=BOB))
    assert [d["doc_id"] for d in ana.list_documents()["documents"]] == [agent_team.filing_id]
    assert [d["doc_id"] for d in bob.list_documents()["documents"]] == [agent_team.memo_id]
    assert {h["doc_id"] for h in bob.search("share repurchases")["hits"]} <= {agent_team.memo_id}
    with pytest.raises(DocumentNotFoundError) as hidden:
        bob.read(agent_team.filing_id, agent_team.repurchase_id)
    with pytest.raises(DocumentNotFoundError) as missing:
        bob.read("no-such-document", agent_team.repurchase_id)
    # a hidden document reads exactly like a missing one (only the id differs)
    assert str(hidden.value).replace(agent_team.filing_id, "X") == str(missing.value).replace(
        "no-such-document", "X"
    )
    with pytest.raises(DocumentNotFoundError):
        bob.ask("share repurchases?", [agent_team.filing_id])
    assert ana.outline_text(agent_team.filing_id).startswith("# BESTBUY_2024Q2_10Q.pdf")
    with pytest.raises(DocumentNotFoundError):
        ana.node_text(agent_team.memo_id, "0000")
