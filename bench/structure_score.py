"""Scoring structure recovery against removed bookmarks, exactly as the set's README defines.

Pure functions over plain lists, so tests can check the arithmetic. A *node* is
``{"title", "page", "parent"}`` (``parent``: index of the parent node or ``None``), in
document order, and may carry ``label``: its heading as printed and shown, section number
and title ("2.6. Debuginfod"), where the tree keeps the number apart from the title. A node
matches by its title or its label, so a bookmark that carries the number and one that drops
it (Texinfo's) both find the heading. ``generated`` nodes (size splits, page groups) are not
named nodes. A *bookmark* is ``{"title", "page", "level"}``, in outline order.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

RATIO = 0.85  # difflib ratio at or above which two titles match
PREFIX_CHARS = 12  # one title starting with the other matches when the shorter is longer
PAGE_SLACK = 1  # a node matches a bookmark within one page


def norm(title: str) -> str:
    return re.sub(r"[^0-9a-z]+", " ", str(title).lower()).strip()


def titles_match(a: str, b: str) -> bool:
    a, b = norm(a), norm(b)
    if not a or not b:
        return False
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    if long.startswith(short) and len(short) > PREFIX_CHARS:
        return True
    return difflib.SequenceMatcher(None, a, b).ratio() >= RATIO


def bookmark_parents(gold: list[dict[str, Any]]) -> list[int | None]:
    """Each bookmark's parent: the nearest earlier bookmark one level up."""
    parents: list[int | None] = []
    stack: list[int] = []
    for i, bm in enumerate(gold):
        while stack and gold[stack[-1]]["level"] >= bm["level"]:
            stack.pop()
        parents.append(stack[-1] if stack else None)
        stack.append(i)
    return parents


def match(nodes: list[dict[str, Any]], gold: list[dict[str, Any]]) -> dict[int, int]:
    """bookmark index → node index. Bookmarks in order, each takes the first unused node
    (in document order) whose title matches within a page."""
    by_page: dict[int, list[int]] = {}
    for i, node in enumerate(nodes):
        if not node.get("generated") and node.get("page") is not None:
            by_page.setdefault(int(node["page"]), []).append(i)
    used: set[int] = set()
    out: dict[int, int] = {}
    for b, bm in enumerate(gold):
        pages = range(bm["page"] - PAGE_SLACK, bm["page"] + PAGE_SLACK + 1)
        candidates = sorted(i for p in pages for i in by_page.get(p, []) if i not in used)
        hit = next((i for i in candidates if _matches(nodes[i], bm["title"])), None)
        if hit is not None:
            used.add(hit)
            out[b] = hit
    return out


def _matches(node: dict[str, Any], title: str) -> bool:
    label = node.get("label")
    return titles_match(node["title"], title) or bool(label) and titles_match(label, title)


def label_of(node: dict[str, Any]) -> str | None:
    """A tree node's heading as shown (``tree.labels.heading_label``): number and title."""
    number = node.get("number")
    return f"{number} {node.get('title') or ''}" if number else None


def is_ancestor(nodes: list[dict[str, Any]], ancestor: int, node: int) -> bool:
    seen = set()
    current = nodes[node].get("parent")
    while current is not None and current not in seen:
        if current == ancestor:
            return True
        seen.add(current)
        current = nodes[current].get("parent")
    return False


def score(nodes: list[dict[str, Any]], gold: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts for one document (micro-averaging adds these up)."""
    matched = match(nodes, gold)
    parents = bookmark_parents(gold)
    parent_total = parent_ok = 0
    for b, n in matched.items():
        p = parents[b]
        if p is not None and p in matched:
            parent_total += 1
            parent_ok += is_ancestor(nodes, matched[p], n)
    named = sum(1 for node in nodes if not node.get("generated"))
    return {
        "bookmarks": len(gold),
        "named_nodes": named,
        "matched": len(matched),
        "parent_ok": parent_ok,
        "parent_total": parent_total,
        **rates(len(matched), len(gold), named),
    }


def below_gold_leaves(nodes: list[dict[str, Any]], gold: list[dict[str, Any]]) -> int:
    """Named nodes, matching no bookmark, nested under the node of a bookmark that has no
    bookmark below it: the document's own headings deeper than its authors' outline goes (a
    10-K's Item 7 has its subheadings; its bookmarks stop at the Items). Not the README's
    rule: a diagnostic."""
    matched = match(nodes, gold)
    taken = set(matched.values())  # a bookmark's own node is never the document's extra
    leaves = {
        n
        for b, n in matched.items()
        if b + 1 == len(gold) or gold[b + 1]["level"] <= gold[b]["level"]
    }
    return sum(
        1
        for i, node in enumerate(nodes)
        if not node.get("generated")
        and i not in taken
        and any(is_ancestor(nodes, leaf, i) for leaf in leaves)
    )


def rates(matched: int, bookmarks: int, named: int) -> dict[str, float]:
    recall = matched / bookmarks if bookmarks else 0.0
    precision = matched / named if named else 0.0
    f1 = 2 * recall * precision / (recall + precision) if recall + precision else 0.0
    return {"recall": recall, "precision": precision, "f1": f1}


def micro(rows: list[dict[str, Any]]) -> dict[str, Any]:
    matched = sum(r["matched"] for r in rows)
    bookmarks = sum(r["bookmarks"] for r in rows)
    named = sum(r["named_nodes"] for r in rows)
    return {
        "bookmarks": bookmarks,
        "named_nodes": named,
        "matched": matched,
        "parent_ok": sum(r["parent_ok"] for r in rows),
        "parent_total": sum(r["parent_total"] for r in rows),
        **rates(matched, bookmarks, named),
    }


def nodes_from_headings(headings: list[tuple[str, int, int]]) -> list[dict[str, Any]]:
    """(title, level, page) in order → nodes whose parent is the nearest shallower one."""
    nodes: list[dict[str, Any]] = []
    stack: list[int] = []
    for title, level, page in headings:
        while stack and nodes[stack[-1]]["level"] >= level:
            stack.pop()
        nodes.append(
            {"title": title, "page": page, "level": level, "parent": stack[-1] if stack else None}
        )
        stack.append(len(nodes) - 1)
    return nodes


_SECTION_NUMBER = re.compile(r"^\d+(?:\.\d+)*\.?\s+|^[A-Z](?:\.\d+)+\.?\s+")


def without_numbers(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Titles with a leading section number removed ("1.3.1 Fonts" → "Fonts"): a
    diagnostic, not the README's rule, for documents whose bookmarks drop the numbers that
    their printed headings carry."""
    return [
        {**item, "title": _SECTION_NUMBER.sub("", str(item["title"])),
         **({"label": None} if "label" in item else {})}
        for item in items
    ]  # fmt: skip


def titles_alone(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Nodes matched by their titles alone, as scored until 2026-12-04 (a heading whose
    number the tree keeps apart, "2.6." of "Debuginfod", missed a bookmark that has it)."""
    return [{**node, "label": None} for node in nodes]
