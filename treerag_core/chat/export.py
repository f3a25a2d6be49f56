"""A conversation as Markdown: for download, a ticket or an e-mail.

Its headings and labels are in the conversation's language (told from its questions, as
an answer's note follows its question when the documents do not decide), or in the one
asked for; English when it cannot be told."""

from __future__ import annotations

from typing import Any

from ..text.language import detect_language
from ..text.messages import message
from ..tree.labels import label_with_pages


def reference_line(ref: dict[str, Any], language: str | None = None) -> str:
    """``[S1] Item 7 › Liquidity, pp. 44–45 — path · file.pdf`` (the parent in front only
    where titles repeat; the pages once), and ``(document deleted)`` when gone; its page
    labels and that note in ``language``."""
    title = str(ref.get("label") or ref.get("title") or ref.get("node_id") or "")
    label = label_with_pages(
        title, ref.get("page_start"), ref.get("page_end"), ref.get("page_unit"), language
    )
    path = str(ref.get("path") or "")
    if path and path not in (title, str(ref.get("title") or "")):
        label += f" — {path}"
    if ref.get("file_name"):
        label += f" · {ref['file_name']}"
    if ref.get("gone"):
        label += message("chat.ref_gone", language)
    return f"[{ref['ref']}] {label}" if ref.get("ref") else label


def conversation_language(thread: dict[str, Any]) -> str:
    """The language the person asked in: told from the conversation's questions together
    (``""`` when it cannot be told, then English)."""
    asked = " ".join(str(turn.get("question") or "") for turn in thread.get("turns") or [])
    return detect_language(asked)


def thread_markdown(thread: dict[str, Any], language: str | None = None) -> str:
    """Every turn: the question, the answer, the references it cited (and the others it
    read), the verdict given. References of deleted documents say so. Worded in
    ``language``, by default the conversation's (:func:`conversation_language`)."""
    said = conversation_language(thread) if language is None else language
    head = [f"# {thread.get('title') or message('export.untitled', said)}", ""]
    if thread.get("created_at"):
        started = message(
            "export.started", said, created=thread["created_at"], updated=thread.get("updated_at")
        )
        head += [started, ""]
    blocks = ["\n".join(head)]
    for turn in thread.get("turns") or []:
        blocks.append(_turn_markdown(turn, said))
    return "\n---\n\n".join(blocks).rstrip() + "\n"


def _turn_markdown(turn: dict[str, Any], language: str) -> str:
    lines = [message("export.you", language), "", str(turn.get("question") or ""), ""]
    lines += ["**treerag:**", ""]
    answer = str(turn.get("answer") or "").strip()
    lines += [answer or message("export.no_answer", language), ""]
    if turn.get("error"):
        lines += [message("export.error", language, error=turn["error"]), ""]
    refs = turn.get("references") or []
    cited = [r for r in refs if r.get("cited", True)]
    also = [r for r in refs if not r.get("cited", True)]
    for key, shown in (("export.references", cited), ("export.also_read", also)):
        if shown:
            lines += [message(key, language), *[f"- {reference_line(r, language)}" for r in shown]]
            lines.append("")
    feedback = turn.get("feedback") or {}
    if feedback.get("verdict"):
        comment = f": {feedback['comment']}" if feedback.get("comment") else ""
        key = "export.marked_up" if feedback["verdict"] == "up" else "export.marked_down"
        lines += [message(key, language, comment=comment), ""]
    return "\n".join(lines)
