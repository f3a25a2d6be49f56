"""A team registry with a real SEC filing, for the agent tool tests (RegistryTools,
LangChain tools, the MCP server).

Best Buy's Q2 FY24 10-Q (30 pages, no bookmarks) from the shared bench goes into the
``finance`` collection, read by the ``finance`` group; a small Markdown memo goes into
``hr``, read by ``hr``. Missing bench data fails, it is never skipped. Built once per run
(conftest's ``agent_team`` fixture): the tests that use it only read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from treerag_core import index_document
from treerag_core.access.collections import set_collection_access
from treerag_core.summarize.summarizers import make_summarizer

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench" / "financebench" / "pdfs"
FILING = "BESTBUY_2024Q2_10Q.pdf"
MEMO = """# Salary bands 2024
Engineering bands rise 4% from April. Managers receive the new tables in March.

## Band tables
Band 3: 60,000 to 75,000. Band 4: 75,000 to 95,000.
"""
# Two users for per-token access rules: each reads one collection.
TOKENS = {
    "ana-finance-token-0123456789": ("ana@example.com", ["finance"]),
    "bob-hr-token-0123456789abcd": ("bob@example.com", ["hr"]),
}


REPURCHASE = "9. Repurchase of Common Stock"
NOTES = "f) Notes to Condensed Consolidated Financial Statements"
ITEM_1 = "Item 1. Financial Statements"


@dataclass(frozen=True)
class TeamRegistry:
    """The registry and the ids the tests name: looked up by title once it is built, so a
    change in how the tree is numbered does not move the tests' targets."""

    path: Path
    filing_id: str
    memo_id: str
    repurchase_id: str = ""  # the note on share repurchases (the agent questions' answer)
    notes_id: str = ""  # the notes to the statements (a heading with sub-sections)
    item1_id: str = ""  # Item 1 (a heading spanning the statements and the notes)
    long_id: str = ""  # the filing's longest leaf section (paging through a read)
    long_pages: tuple[int, int] = (0, 0)


def _outline_ids(registry: Path, filing_id: str) -> dict[str, object]:
    """Node ids by title, and the longest leaf, from the tools' own outline."""
    from treerag_core import Library
    from treerag_core.tools.registry_tools import RegistryTools

    tools = RegistryTools(Library.open(registry))
    entries: list[dict] = []

    def walk(level: list[dict]) -> None:
        for entry in level:
            entries.append(entry)
            walk(entry.get("below") or [])

    walk(tools.browse(filing_id, depth=4)["outline"])
    by_title = {e["title"]: e["node_id"] for e in entries}
    leaves = [e for e in entries if not e.get("children")]
    sizes = {e["node_id"]: tools.read(filing_id, e["node_id"])["total_chars"] for e in leaves}
    longest = max(leaves, key=lambda e: sizes[e["node_id"]])
    return {
        "repurchase_id": by_title[REPURCHASE],
        "notes_id": by_title[NOTES],
        "item1_id": by_title[ITEM_1],
        "long_id": longest["node_id"],
        "long_pages": tuple(longest["pages"]),
    }


def build_team_registry(folder: Path) -> TeamRegistry:
    """Index the filing and the memo (offline summaries) into ``folder/registry.json``."""
    source = BENCH / FILING
    assert source.exists(), f"bench filing {FILING} not found under {BENCH}: put shared/ beside"
    registry = folder / "registry.json"
    summarizer = make_summarizer(None)
    filing = index_document(str(source), summarizer, registry, verbose=False, collection="finance")
    memo_path = folder / "salary-bands.md"
    memo_path.write_text(MEMO)
    memo = index_document(str(memo_path), summarizer, registry, verbose=False, collection="hr")
    set_collection_access("finance", readers=["finance"], registry_path=registry)
    set_collection_access("hr", readers=["hr"], registry_path=registry)
    ids = _outline_ids(registry, filing["doc_id"])
    return TeamRegistry(registry, filing["doc_id"], memo["doc_id"], **ids)  # type: ignore[arg-type]


def token_file(folder: Path) -> Path:
    """The token file mapping each of :data:`TOKENS` to its user and groups."""
    import json

    path = folder / "mcp-tokens.json"
    rows = [{"token": t, "user": u, "groups": g} for t, (u, g) in TOKENS.items()]
    path.write_text(json.dumps({"tokens": rows}))
    return path
