"""A conversation as Markdown: for download, a ticket or an e-mail."""

from __future__ import annotations

from typing import Any

from ..tree.labels import label_with_pages


def reference_line(ref: dict[str, Any]) -> str:
    """``[S1] Item 7 › Liquidity, pp. 44–45 — path · file.pdf`` (the parent in front only
    where titles repeat; the pages once), and ``(document deleted)`` when gone."""
    title = str(ref.get("label") or ref.get("title") or ref.get("node_id") or "")
    label = label_with_pages(
        title, ref.get("page_start"), ref.get("page_end"), ref.get("page_unit")
    )
    path = str(ref.get("path") or "")
    if path and path not in (title, str(ref.get("title") or "")):
        label += f" — {path}"
    if ref.get("file_name"):
        label += f" · {ref['file_name']}"
    if ref.get("gone"):
        label += " (document deleted)"
    return f"[{ref['ref']}] {label}" if ref.get("ref") else label


def thread_markdown(thread: dict[str, Any]) -> str:
    """Every turn: the question, the answer, the references it cited (and the others it
    read), the verdict given. References of deleted documents say so."""
    head = [f"# {thread.get('title') or 'treerag conversation'}", ""]
    if thread.get("created_at"):
        head += [f"Started {thread['created_at']}, last answer {thread.get('updated_at')}.", ""]
    blocks = ["\n".join(head)]
    for turn in thread.get("turns") or []:
        blocks.append(_turn_markdown(turn))
    return "\n---\n\n".join(blocks).rstrip() + "\n"


def _turn_markdown(turn: dict[str, Any]) -> str:
    lines = ["**You:**", "", str(turn.get("question") or ""), "", "**treerag:**", ""]
    lines += [str(turn.get("answer") or "").strip() or "(no answer)", ""]
    if turn.get("error"):
        lines += [f"> Error: {turn['error']}", ""]
    refs = turn.get("references") or []
    cited = [r for r in refs if r.get("cited", True)]
    also = [r for r in refs if not r.get("cited", True)]
    if cited:
        lines += ["References:", *[f"- {reference_line(r)}" for r in cited], ""]
    if also:
        lines += ["Also read:", *[f"- {reference_line(r)}" for r in also], ""]
    feedback = turn.get("feedback") or {}
    if feedback.get("verdict"):
        verdict = "helpful" if feedback["verdict"] == "up" else "not helpful"
        comment = f": {feedback['comment']}" if feedback.get("comment") else ""
        lines += [f"_Marked {verdict}{comment}_", ""]
    return "\n".join(lines)
