"""Evaluate page helpers: parse an uploaded questions file, run the evaluation against the
session's registry, and turn the result into the rows the page shows (no Streamlit here).

Navigation only — the answer prompt is built, never sent — with the retriever chat uses.
Documents are matched in the app's registry only: nothing is indexed or read from paths a
questions file names, except the PDF source files the registry already records (for the
chunk baseline's page texts, cached beside the registry like the CLI does).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from treerag_core import Document, DocumentNotFoundError, Retriever
from treerag_core.access import Principal
from treerag_core.errors import InvalidQuestionsError
from treerag_core.evaluation import (
    DocumentLoader,
    PageTexts,
    document_key,
    evaluate,
    gold_pages,
    gold_sections,
    parse_questions,
    registry_loader,
    registry_page_texts,
)
from treerag_core.store import RegistryLike
from treerag_core.text import message

MAX_QUESTIONS_BYTES = 5 * 1024 * 1024


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


def app_loader(registry_path: RegistryLike, principal: Principal | None = None) -> DocumentLoader:
    """``registry_loader`` that never indexes, with a message saying what to do; with a
    principal it finds only documents that person may read."""
    inner = registry_loader(registry_path, index_missing=False, principal=principal)

    def load(item: dict[str, Any]) -> Document:
        try:
            return inner(item)
        except DocumentNotFoundError as exc:
            key = document_key(item)
            if not key:
                raise
            raise DocumentNotFoundError(
                f"{key} is not in the registry: index it on the Upload & index page, "
                "then evaluate again."
            ) from exc

    return load


def page_texts_with_notes(
    registry_path: RegistryLike, notes: list[str], language: str | None = None
) -> PageTexts:
    """PDF page texts for the baseline (cached in ``<registry stem>.pages/``); a PDF whose
    source file is gone is noted (in ``language``), and the baseline chunks its indexed
    sections instead."""
    cached = registry_page_texts(registry_path)

    def load(document: Document) -> list[str] | None:
        texts = cached(document)
        path = str(document.get("file_path") or "")
        if texts is None and path.lower().endswith(".pdf"):
            name = document.get("file_name") or document.get("doc_id")
            notes.append(message("ev.note.source_gone", language, name=name))
        return texts

    return load


def run(
    questions: list[dict[str, Any]],
    registry_path: RegistryLike,
    retriever: Retriever,
    baseline: bool,
    progress: Callable[[int, int, str], None] | None = None,
    principal: Principal | None = None,
    language: str | None = None,
) -> dict[str, Any]:
    """Evaluate and return everything the page shows and the download holds (plain JSON);
    its notes in ``language``."""
    notes: list[str] = []
    evaluation = evaluate(
        questions,
        app_loader(registry_path, principal),
        retriever=retriever,
        baseline=baseline,
        page_texts=page_texts_with_notes(registry_path, notes, language) if baseline else None,
        progress=progress,
        principal=principal,
        registry_path=registry_path,
    )
    result = evaluation.as_dict()
    ungraded = [str(q["id"]) for q in questions if not gold_pages(q) and not gold_sections(q)]
    result["notes"] = notes
    result["ungraded"] = ungraded
    return json.loads(json.dumps(result))  # plain data: safe to keep in session state


def download_bytes(result: dict[str, Any]) -> bytes:
    return json.dumps(result, indent=1, ensure_ascii=False).encode("utf-8")
