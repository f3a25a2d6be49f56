"""Chat plumbing: run a question as a stream, keep the history, export it as Markdown."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from treerag_core import DEFAULT_REGISTRY, Principal, ask, ask_multi, node_pages, section_document
from treerag_core.types import Document


class AnswerStream:
    """Wraps ``ask(..., stream=True)``: yields the text, keeps the final references dict."""

    def __init__(self, chunks: Iterator[Any]) -> None:
        self._chunks = chunks
        self.final: dict[str, Any] = {}
        self.parts: list[str] = []

    def text(self) -> Iterator[str]:
        for chunk in self._chunks:
            if isinstance(chunk, dict):
                self.final = chunk
            else:
                self.parts.append(str(chunk))
                yield str(chunk)


def start_answer(
    question: str,
    documents: list[Document],
    retriever: Any,
    context: dict[str, Any] | None = None,
    principal: Principal | None = None,
    registry_path: str = DEFAULT_REGISTRY,
) -> AnswerStream:
    """One ``ask`` (one document) or ``ask_multi`` (several), streamed.

    With a section context, that document is narrowed to the section's subtree and the
    section's path is passed as the question's extra context. With a principal, the core
    refuses any document the person may not read before anything is navigated.
    """
    access = {"principal": principal, "registry_path": registry_path}
    extra = ""
    if context:
        documents = [
            section_document(d, context["node_id"]) if d.get("doc_id") == context["doc_id"] else d
            for d in documents
        ]
        extra = f"The question is about the section: {context.get('path', '')}"
    if len(documents) == 1:
        chunks = ask(question, documents[0], retriever, extra_context=extra, stream=True, **access)
    else:
        chunks = ask_multi(question, documents, retriever, extra_context=extra, stream=True,
                           **access)  # fmt: skip
    return AnswerStream(iter(chunks))  # type: ignore[arg-type]


def reference_label(ref: dict[str, Any], with_file: bool = True) -> str:
    """``Title — path (pp. 3–4) · file.pdf`` for a reference button."""
    label = str(ref.get("title") or ref.get("node_id"))
    path = str(ref.get("path") or "")
    if path and path != label:
        label += f" — {path}"
    pages = node_pages(ref)
    if pages:
        label += f" ({pages})"
    if with_file and ref.get("file_name"):
        label += f" · {ref['file_name']}"
    return f"[{ref['ref']}] {label}" if ref.get("ref") else label


def trace_rows(entry: dict[str, Any], references: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per navigation step: candidates seen, sections chosen (by title), reasons."""
    titles = {(r.get("doc_id"), r.get("node_id")): r.get("title") for r in references}
    doc_id = entry.get("doc_id")
    rows = []
    for step in entry.get("steps") or []:
        chosen = [
            f"{nid} {titles.get((doc_id, nid)) or ''}".strip() for nid in step.get("chosen") or []
        ]
        candidates = step.get("candidates")
        rows.append(
            {
                "step": step.get("step"),
                "mode": step.get("mode", entry.get("mode")),
                "candidates": len(candidates) if isinstance(candidates, list) else candidates,
                "chosen": ", ".join(chosen),
                "reasons": step.get("reasoning") or step.get("fallback") or step.get("error") or "",
            }
        )
    return rows


def usage_rows(usage: dict[str, Any]) -> list[dict[str, Any]]:
    """The two calls' token usage as table rows (search, answer, total)."""
    rows = []
    for step in ("search", "answer"):
        part = usage.get(step) or {}
        rows.append(
            {
                "call": step,
                "calls": part.get("calls", 0),
                "input tokens": part.get("input_tokens", 0),
                "output tokens": part.get("output_tokens", 0),
            }
        )
    rows.append(
        {
            "call": "total",
            "calls": usage.get("llm_calls", 0),
            "input tokens": usage.get("input_tokens", 0),
            "output tokens": usage.get("output_tokens", 0),
        }
    )
    return rows


def history_markdown(history: list[dict[str, Any]]) -> str:
    """The conversation with each answer's references, for download."""
    lines = ["# treerag chat", ""]
    for turn in history:
        who = "You" if turn["role"] == "user" else "treerag"
        lines += [f"**{who}:**", "", str(turn.get("content") or ""), ""]
        for ref in turn.get("references") or []:
            lines.append(f"- {reference_label(ref)}")
        if turn.get("references"):
            lines.append("")
    return "\n".join(lines)
