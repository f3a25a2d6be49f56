"""Chat plumbing without Streamlit: run a question as a stream with its conversation, and
turn a turn's trace and usage into table rows."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from treerag_core import Document, ask, ask_multi
from treerag_core.access import Principal
from treerag_core.answer import ask_library
from treerag_core.chat import make_turn
from treerag_core.settings import DEFAULT_REGISTRY
from treerag_core.text import message
from treerag_core.tree import label_with_pages
from treerag_core.views import section_document

# A streamed answer is redrawn at most this often. Each redraw re-sends and re-renders the
# whole answer so far: a model's 30-100 tokens a second drawn one by one cost the browser and
# the server more than the answer itself (quadratic in its length), while ten redraws a second
# still read as live typing.
REDRAW_EVERY_S = 0.1


def batched(
    chunks: Iterable[str],
    every_s: float = REDRAW_EVERY_S,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[str]:
    """The chunks joined into pieces at most ``every_s`` apart: the first at once (the answer
    starts showing as soon as it starts), the last when the stream ends. A piece waits for
    the next chunk, so text is late by at most one gap between two of the model's tokens."""
    pending: list[str] = []
    last = None
    for chunk in chunks:
        pending.append(chunk)
        now = clock()
        if last is None or now - last >= every_s:
            yield "".join(pending)
            pending, last = [], now
    if pending:
        yield "".join(pending)


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

    def turn(self, question: str, error: str | None = None) -> dict[str, Any]:
        """What the conversation keeps of this answer (whatever streamed, if it failed)."""
        return make_turn(question, "".join(self.parts), self.final, error)


def start_answer(
    question: str,
    documents: list[Document],
    retriever: Any,
    context: dict[str, Any] | None = None,
    principal: Principal | None = None,
    registry_path: str = DEFAULT_REGISTRY,
    history: list[dict[str, Any]] | None = None,
    collection: str | None = None,
) -> AnswerStream:
    """One ``ask`` (one document), ``ask_multi`` (several) or ``ask_library`` (none given:
    every document the person may read, in ``collection`` if given), streamed, with the
    earlier turns of the conversation as ``history``.

    With a section context, that document is narrowed to the section's subtree and the
    section's path is passed as the question's extra context. With a principal, the core
    refuses any document the person may not read before anything is navigated.
    """
    options = {"principal": principal, "registry_path": registry_path, "history": history}
    extra = ""
    if context:
        documents = [
            section_document(d, context["node_id"]) if d.get("doc_id") == context["doc_id"] else d
            for d in documents
        ]
        extra = f"The question is about the section: {context.get('path', '')}"
    if not documents:
        chunks = ask_library(question, retriever, collection=collection, extra_context=extra,
                             stream=True, **options)  # fmt: skip
    elif len(documents) == 1:
        chunks = ask(question, documents[0], retriever, extra_context=extra, stream=True, **options)
    else:
        chunks = ask_multi(question, documents, retriever, extra_context=extra, stream=True,
                           **options)  # fmt: skip
    return AnswerStream(iter(chunks))  # type: ignore[arg-type]


def searched_line(library: dict[str, Any], language: str | None = None) -> str:
    """Which documents a library answer searched and opened, in one line (in ``language``)."""
    names = {d["doc_id"]: d["file_name"] for d in library.get("documents") or []}
    opened = [names.get(doc_id, doc_id) for doc_id in library.get("opened") or []]
    count = library.get("searched", 0)
    if opened:
        return message("chat.searched", language, count=count, names=", ".join(opened))
    return message("chat.searched_none", language, count=count)


def sources_line(refs: list[dict[str, Any]], limit: int = 4, language: str | None = None) -> str:
    """The cited references in one line under an answer: ``S1 Item 7 › Liquidity and
    Capital Resources, pp. 44–45 · S2 …`` (the parent only where titles repeat; pages once)."""
    cited = [r for r in refs if r.get("cited", True)]
    parts = []
    for ref in cited[:limit]:
        title = str(ref.get("label") or ref.get("title") or ref.get("node_id") or "")
        label = label_with_pages(
            title, ref.get("page_start"), ref.get("page_end"), ref.get("page_unit"), language
        )
        gone = message("chat.ref_gone", language) if ref.get("gone") else ""
        parts.append(f"{ref.get('ref', '')} {label}{gone}")
    more = (
        message("chat.and_more", language, count=len(cited) - limit) if len(cited) > limit else ""
    )
    return " · ".join(p.strip() for p in parts) + more


def trace_rows(
    entry: dict[str, Any], references: list[dict[str, Any]], language: str | None = None
) -> list[dict[str, Any]]:
    """One row per navigation step: candidates seen, sections chosen (by title), reasons
    (the notes are in the answer's language already; headers and modes in ``language``)."""
    titles = {(r.get("doc_id"), r.get("node_id")): r.get("title") for r in references}
    doc_id = entry.get("doc_id")
    said = {column: message(f"trace.{column}", language)
            for column in ("step", "mode", "candidates", "chosen", "reasons")}  # fmt: skip
    rows = []
    for step in entry.get("steps") or []:
        chosen = [
            f"{nid} {titles.get((doc_id, nid)) or ''}".strip() for nid in step.get("chosen") or []
        ]
        candidates = step.get("candidates")
        reasons = [step.get(k) for k in ("reasoning", "fallback", "error", "note", "stopped")]
        rows.append(
            {
                said["step"]: step.get("step"),
                said["mode"]: mode_name(step.get("mode", entry.get("mode")), language),
                said["candidates"]: len(candidates) if isinstance(candidates, list) else candidates,
                said["chosen"]: ", ".join(chosen),
                said["reasons"]: next((str(r) for r in reasons if r), ""),
            }
        )
    return rows


# The navigation modes a trace records (``navigate``, ``answer.overview``), each named in
# the catalogue as ``trace.mode_…``.
MODES = ("offline", "single_pass", "levels", "level", "offline check", "empty", "overview")


def mode_name(mode: Any, language: str | None = None) -> str:
    """A navigation mode as the trace names it (``single_pass`` → "ein Durchgang")."""
    if mode not in MODES:
        return str(mode or "")
    return message("trace.mode_" + str(mode).replace(" ", "_"), language)


def usage_rows(usage: dict[str, Any], language: str | None = None) -> list[dict[str, Any]]:
    """The two calls' token usage as table rows (search, answer, total)."""
    said = {column: message(f"trace.{column}", language)
            for column in ("call", "calls", "input_tokens", "output_tokens")}  # fmt: skip
    rows = []
    for step in ("search", "answer"):
        part = usage.get(step) or {}
        rows.append(
            {
                said["call"]: message(f"trace.call_{step}", language),
                said["calls"]: part.get("calls", 0),
                said["input_tokens"]: part.get("input_tokens", 0),
                said["output_tokens"]: part.get("output_tokens", 0),
            }
        )
    rows.append(
        {
            said["call"]: message("trace.call_total", language),
            said["calls"]: usage.get("llm_calls", 0),
            said["input_tokens"]: usage.get("input_tokens", 0),
            said["output_tokens"]: usage.get("output_tokens", 0),
        }
    )
    return rows
