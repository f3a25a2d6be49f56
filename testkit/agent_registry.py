"""A team registry with a real SEC filing, for the agent tool tests (RegistryTools,
LangChain tools, the MCP server).

Best Buy's Q2 FY24 10-Q (30 pages, no bookmarks) from the shared bench goes into the
``finance`` collection, read by the ``finance`` group; a small Markdown memo goes into
``hr``, read by ``hr``. Missing bench data fails (``testkit.needs``), it is never skipped. Built once per run
(conftest's ``agent_team`` fixture): the tests that use it only read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from testkit import needs
from treerag_core import index_document
from treerag_core.access.collections import set_collection_access
from treerag_core.summarize.summarizers import make_summarizer

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


@dataclass(frozen=True)
class TeamRegistry:
    path: Path
    filing_id: str
    memo_id: str


def build_team_registry(folder: Path) -> TeamRegistry:
    """Index the filing and the memo (offline summaries) into ``folder/registry.json``."""
    source = needs.filing(FILING)
    registry = folder / "registry.json"
    summarizer = make_summarizer(None)
    filing = index_document(str(source), summarizer, registry, verbose=False, collection="finance")
    memo_path = folder / "salary-bands.md"
    memo_path.write_text(MEMO)
    memo = index_document(str(memo_path), summarizer, registry, verbose=False, collection="hr")
    set_collection_access("finance", readers=["finance"], registry_path=registry)
    set_collection_access("hr", readers=["hr"], registry_path=registry)
    return TeamRegistry(registry, filing["doc_id"], memo["doc_id"])


def token_file(folder: Path) -> Path:
    """The token file mapping each of :data:`TOKENS` to its user and groups."""
    import json

    path = folder / "mcp-tokens.json"
    rows = [{"token": t, "user": u, "groups": g} for t, (u, g) in TOKENS.items()]
    path.write_text(json.dumps({"tokens": rows}))
    return path
