"""Test documents for the Q&A tests, built with the real pipeline (no registry needed)."""

from __future__ import annotations

from typing import Any

from treerag_core.summarize.summarizers import offline_summarizer
from treerag_core.tree.nodes import build_hierarchy, flatten_tree, tree_skeleton
from treerag_core.tree.outline import build_tree_outline
from treerag_core.tree.sections import parse_sections

HANDBOOK = (
    "# Company Handbook\n"
    "This handbook describes how Acme Corp works.\n"
    "\f"
    "## Pricing\n"
    "The Pro plan costs $20 per month. The Enterprise plan costs $500 per month and includes "
    "priority support.\n"
    "\f"
    "## Office Hours\n"
    "The Berlin office is open from 9:00 to 17:00 on weekdays.\n"
    "\f"
    "# Security\n"
    "All laptops use full-disk encryption. Report incidents to the CISO within 24 hours.\n"
)


def make_doc(
    text: str = HANDBOOK, file_name: str = "handbook.md", doc_id: str = "doc-1"
) -> dict[str, Any]:
    """A document dict shaped like index_document's, with offline summaries."""
    flat = flatten_tree(build_hierarchy(parse_sections(text)))
    result = offline_summarizer(list(flat.values()))
    for node_id, entry in result["summaries"].items():
        flat[node_id]["summary"] = entry["summary"]
        flat[node_id]["tags"] = entry["tags"]
    return {
        "doc_id": doc_id,
        "file_name": file_name,
        "file_path": f"/tmp/{file_name}",
        "source_type": "markdown",
        "total_sections": len(flat),
        "tree_outline": build_tree_outline(flat),
        "flat_nodes": flat,
        "tree": tree_skeleton(flat),
    }


def big_doc(chapters: int = 40, sections: int = 12, words: int = 60) -> dict[str, Any]:
    """A synthetic document whose outline is far larger than one search call's budget."""
    parts = []
    for c in range(chapters):
        parts.append(
            f"# Chapter {c} on topic{c}\nChapter {c} introduces topic{c} in general terms.\n"
        )
        for s in range(sections):
            filler = " ".join(f"word{(c * 7 + s * 3 + i) % 97}" for i in range(words))
            parts.append(
                f"## Section {c}.{s} about item{c}x{s}\nDetails of item{c}x{s}: {filler}.\n"
            )
    return make_doc("\n".join(parts), "big.md", "big-doc")


def hundred_sections(n: int = 100) -> list[dict[str, Any]]:
    """Flat nodes of an n-section document (10 chapters), for summarizer timing."""
    parts = []
    for i in range(n):
        level = "#" if i % 10 == 0 else "##"
        parts.append(
            f"{level} Part {i}\nThe text of part {i} mentions Widget{i} and {i} kg of steel.\n"
        )
    return list(flatten_tree(build_hierarchy(parse_sections("\n".join(parts)))).values())
