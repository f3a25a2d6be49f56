"""``python -m bench.agent_tools``: what the agent tools cost an agent's context, on the
FinanceBench development set (65 questions, 37 filings), and a real MCP session.

For every question, on its filing, the results an agent would get: the top of the outline
(``browse``), one level down (``browse`` below the first part), ``search`` with the
question, ``read`` of the best hit and the offline ``ask``; each result's size in tokens
(characters / 4 of its compact JSON) against the whole outline of that filing (what an
agent loading the outline resource, or a prompt holding the tree, would pay). Also whether
search's hits cover a gold evidence page. Sizes, not times: nothing here is timed.

Then a stdio session with the official MCP SDK's client against ``python -m treerag_core
mcp`` on Best Buy's 10-Q, written as a transcript. Writes ``bench/results/agent_tools.{json,md}``
and ``bench/results/agent_transcript.md``; the registry is ``bench.financebench``'s.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from bench.financebench import DEV_SET, OUT, RESULTS, index_all
from bench.record import write_markdown, write_results
from treerag_core import Library, list_documents
from treerag_core.text.tokens import estimate_tokens
from treerag_core.tools.registry_tools import RegistryTools
from treerag_core.tools.shapes import to_json

TRANSCRIPT_FILING = "BESTBUY_2024Q2_10Q.pdf"
TRANSCRIPT_QUESTION = "How much did Best Buy spend on share repurchases in the quarter?"
# A result shown in the transcript is cut here (the sizes are of the whole result).
SHOWN_CHARS = 700


def tokens(result: dict[str, Any] | str) -> int:
    return estimate_tokens(result if isinstance(result, str) else to_json(result))


def covers(pages: list[int] | None, gold: list[int]) -> bool:
    return bool(pages) and any(pages[0] <= g <= pages[1] for g in gold)


def measure(registry: Path) -> list[dict[str, Any]]:
    tools = RegistryTools(Library.open(str(registry)))
    by_name = {row["file_name"]: row["doc_id"] for row in list_documents(str(registry))}
    rows = []
    for line in DEV_SET.open():
        if not line.strip():
            continue
        q = json.loads(line)
        doc_id = by_name[Path(q["file"]).name]
        outline = tools.outline_text(doc_id)
        top = tools.browse(doc_id)
        parent = next((e for e in top["outline"] if e.get("children")), None)
        below = tools.browse(doc_id, node_id=parent["node_id"]) if parent else top
        found = tools.search(q["question"][:2000], doc_ids=[doc_id])
        read = tools.read(doc_id, found["hits"][0]["node_id"]) if found["hits"] else {}
        answer = tools.ask(q["question"][:2000], [doc_id])
        gold = list(q["evidence_pages"])
        rows.append(
            {
                "id": q["id"],
                "file": Path(q["file"]).name,
                "outline": tokens(outline),
                "browse_top": tokens(top),
                "browse_below": tokens(below),
                "search": tokens(found),
                "read": tokens(read),
                "ask": tokens(answer),
                "search_hits_gold": any(covers(h["pages"], gold) for h in found["hits"]),
                "search_top_hit_gold": bool(found["hits"])
                and covers(found["hits"][0]["pages"], gold),
            }
        )
    return rows


def summary(rows: list[dict[str, Any]], listing: int) -> tuple[str, dict[str, Any]]:
    kinds = ["browse_top", "browse_below", "search", "read", "ask"]
    out: dict[str, Any] = {"questions": len(rows), "list_documents_37_docs": listing}
    lines = [
        "| result | median tokens | p90 | max | median share of the whole outline |",
        "|---|---:|---:|---:|---:|",
    ]
    outline = [r["outline"] for r in rows]
    lines.append(
        f"| whole outline (the outline resource) | {statistics.median(outline):,.0f} | "
        f"{_p90(outline):,.0f} | {max(outline):,} | 100% |"
    )
    for kind in kinds:
        values = [r[kind] for r in rows]
        share = statistics.median(r[kind] / max(1, r["outline"]) for r in rows)
        out[kind] = {
            "median": statistics.median(values),
            "p90": _p90(values),
            "max": max(values),
            "median_share_of_outline": round(share, 3),
        }
        lines.append(
            f"| {kind} | {statistics.median(values):,.0f} | {_p90(values):,.0f} | "
            f"{max(values):,} | {share:.0%} |"
        )
    out["outline"] = {"median": statistics.median(outline), "p90": _p90(outline)}
    lines.append(f"| list_documents (37 filings) | {listing:,} | | | |")
    hits = sum(r["search_hits_gold"] for r in rows)
    top = sum(r["search_top_hit_gold"] for r in rows)
    out["search_hits_cover_gold_page"] = hits / len(rows)
    out["search_top_hit_covers_gold_page"] = top / len(rows)
    lines.append("")
    lines.append(
        f"search (8 hits, the question as the query) covers a gold evidence page for "
        f"{hits}/{len(rows)} questions ({hits / len(rows):.0%}); its first hit for "
        f"{top}/{len(rows)} ({top / len(rows):.0%})."
    )
    return "\n".join(lines), out


def _p90(values: list[int]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


async def transcript(registry: Path) -> str:
    """A real stdio session with the SDK's client, as Markdown."""
    from mcp import Client, StdioServerParameters

    root = Path(__file__).resolve().parents[1]
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "treerag_core", "mcp", "--registry", str(registry)],
        cwd=str(root),
    )
    lines = [
        f"MCP stdio session (`python -m treerag_core mcp --registry …`), official SDK client, "
        f"offline engine, on {TRANSCRIPT_FILING}. Results are compact JSON, cut here at "
        f"{SHOWN_CHARS} characters; sizes are of the whole result.",
        "",
    ]

    async def call(client: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await client.call_tool(name, arguments)
        text = result.content[0].text
        shown = text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + " …"
        lines.extend(
            [
                f"**→ {name}** `{json.dumps(arguments, ensure_ascii=False)}`",
                "",
                f"← {len(text):,} chars, ~{len(text) // 4:,} tokens"
                + (" (tool error)" if result.is_error else ""),
                "",
                "```json",
                shown,
                "```",
                "",
            ]
        )
        return json.loads(text) if not result.is_error else {}

    async with Client(params, read_timeout_seconds=120) as client:
        tools = (await client.list_tools()).tools
        lines[2:2] = ["Tools listed: " + ", ".join(f"`{t.name}`" for t in tools), ""]
        listing = await call(client, "list_documents", {})
        doc_id = next(d["doc_id"] for d in listing["documents"] if d["name"] == TRANSCRIPT_FILING)
        await call(client, "browse", {"doc_id": doc_id, "depth": 2})
        found = await call(
            client, "search", {"query": "share repurchases total cost", "doc_ids": [doc_id], "k": 3}
        )
        hit = found["hits"][0]
        await call(client, "read", {"doc_id": doc_id, "node_id": hit["node_id"], "max_chars": 1200})
        await call(client, "read", {"doc_id": doc_id, "node_id": "no-such-node"})
        await call(client, "ask", {"question": TRANSCRIPT_QUESTION, "doc_ids": [doc_id]})
    return "\n".join(lines)


def main() -> int:
    registry = OUT / "registry.json"
    registry.parent.mkdir(parents=True, exist_ok=True)
    index_all(DEV_SET, registry, log=lambda m: print(m, file=sys.stderr))
    rows = measure(registry)
    listing = tokens(RegistryTools(Library.open(str(registry))).list_documents())
    table, totals = summary(rows, listing)
    print(table)
    write_results(
        "agent_tools",
        {"summary": totals, "rows": rows},
        "Agent tool results' size in tokens (chars/4 of the compact JSON), FinanceBench dev "
        f"set ({len(rows)} questions, 37 filings), offline engine.\n\n" + table,
    )
    session = asyncio.run(transcript(registry))
    write_markdown("agent_transcript", session)
    print(f"\ntranscript: {RESULTS / 'agent_transcript.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
