"""Evaluate page helpers: parse an uploaded questions file, run the evaluation against the
session's registry, and turn the result into the rows the page shows (no Streamlit here).

Navigation only — the answer prompt is built, never sent — with the retriever chat uses.
Documents are matched in the app's registry only: nothing is indexed or read from paths a
questions file names, except the PDF source files the registry already records (for the
chunk baseline's page texts, cached beside the registry like the CLI does).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from treerag_core.errors import DocumentNotFoundError, RegistryError, TreeragError
from treerag_core.evaluation.run import (
    DocumentLoader,
    InvalidQuestionsError,
    PageTexts,
    Retrieved,
    cached_page_texts,
    document_key,
    evaluate,
    gold_pages,
    gold_sections,
    parse_questions,
    range_label,
    registry_loader,
)
from treerag_core.qa.answer import Retriever
from treerag_core.types import Document

MAX_QUESTIONS_BYTES = 5 * 1024 * 1024
METHODS = {"navigation": "tree navigation", "chunks": "chunk baseline (BM25)"}


def parse_upload(data: bytes, name: str) -> list[dict[str, Any]]:
    """The questions of an uploaded JSONL file; ``InvalidQuestionsError`` when unusable."""
    if len(data) > MAX_QUESTIONS_BYTES:
        raise InvalidQuestionsError(
            f"{name} is {len(data) / 1e6:.1f} MB; a questions file may be at most "
            f"{MAX_QUESTIONS_BYTES // (1024 * 1024)} MB."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidQuestionsError(f"{name} is not UTF-8 text ({exc.reason}).") from exc
    questions = parse_questions(text.splitlines(), name)
    if not questions:
        raise InvalidQuestionsError(f"{name} holds no questions (one JSON object a line).")
    return questions


def app_loader(registry_path: str) -> DocumentLoader:
    """``registry_loader`` that never indexes, with a message saying what to do."""
    inner = registry_loader(registry_path, index_missing=False)

    def load(item: dict[str, Any]) -> Document:
        try:
            return inner(item)
        except RegistryError:
            raise
        except TreeragError as exc:
            key = document_key(item)
            if not key:
                raise
            raise DocumentNotFoundError(
                f"{key} is not in the registry: index it on the Upload & index page, "
                "then evaluate again."
            ) from exc

    return load


def page_texts_with_notes(registry_path: str, notes: list[str]) -> PageTexts:
    """PDF page texts for the baseline (cached in ``<registry stem>.pages/``); a PDF whose
    source file is gone is noted, and the baseline chunks its indexed sections instead."""
    cached = cached_page_texts(os.path.splitext(os.path.abspath(registry_path))[0] + ".pages")

    def load(document: Document) -> list[str] | None:
        texts = cached(document)
        path = str(document.get("file_path") or "")
        if texts is None and path.lower().endswith(".pdf"):
            notes.append(
                f"{document.get('file_name') or document.get('doc_id')}: the source file is no "
                "longer on disk, so the chunk baseline chunked its indexed sections instead of "
                "the PDF's pages."
            )
        return texts

    return load


def run(
    questions: list[dict[str, Any]],
    registry_path: str,
    retriever: Retriever,
    baseline: bool,
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, Any]:
    """Evaluate and return everything the page shows and the download holds (plain JSON)."""
    notes: list[str] = []
    evaluation = evaluate(
        questions,
        app_loader(registry_path),
        retriever=retriever,
        baseline=baseline,
        page_texts=page_texts_with_notes(registry_path, notes) if baseline else None,
        progress=progress,
    )
    result = evaluation.as_dict()
    ungraded = [str(q["id"]) for q in questions if not gold_pages(q) and not gold_sections(q)]
    result["notes"] = notes
    result["ungraded"] = ungraded
    return json.loads(json.dumps(result))  # plain data: safe to keep in session state


def summary_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per method: the hit rates and the mean costs."""

    def pct(value: float | None) -> str:
        return "—" if value is None else f"{value * 100:.1f}%"

    rows = []
    for key, label in METHODS.items():
        s = summary.get(key)
        if not s:
            continue
        rows.append(
            {
                "method": label,
                "questions": s["questions"],
                "page hit rate": pct(s["page_hit_rate"]),
                "page-graded questions": s["page_questions"],
                "section hit rate": pct(s["section_hit_rate"]),
                "section-graded questions": s["section_questions"],
                "mean sections": s["mean_sections_retrieved"],
                "mean pages": s["mean_pages_retrieved"],
                "mean tokens": round(s["mean_tokens"]),
            }
        )
    return rows


def misses(result: dict[str, Any], method: str) -> list[dict[str, Any]]:
    """The questions of ``method`` that missed their gold pages or gold sections."""
    return [
        r
        for r in result.get(method) or []
        if r.get("page_hit") is False or r.get("section_hit") is False
    ]


def gold_label(row: dict[str, Any]) -> str:
    parts = []
    if row.get("gold_pages"):
        parts.append("pages " + ", ".join(str(p) for p in row["gold_pages"]))
    if row.get("gold_sections"):
        parts.append("sections " + "; ".join(str(t) for t in row["gold_sections"]))
    return " / ".join(parts) or "none"


def retrieved_rows(row: dict[str, Any]) -> list[dict[str, Any]]:
    """What a question retrieved, one row per node or chunk."""
    out = []
    for item in row.get("retrieved") or []:
        retrieved = Retrieved(**item)
        out.append(
            {
                "retrieved": retrieved.label,
                "pages": range_label(retrieved).strip("()"),
                "section": (retrieved.titles or [""])[0],
                "tokens": retrieved.tokens,
            }
        )
    return out


def download_bytes(result: dict[str, Any]) -> bytes:
    return json.dumps(result, indent=1, ensure_ascii=False).encode("utf-8")
