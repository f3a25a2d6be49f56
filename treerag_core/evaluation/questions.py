"""Question files: JSONL, one question a line, with the document and the gold evidence."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..errors import InvalidQuestionsError
from ..text.messages import raised


def parse_questions(lines: Iterable[str], source: str) -> list[dict[str, Any]]:
    """Questions from JSONL lines (see :func:`load_questions`); ``source`` names them in
    messages. A line that is not a JSON object with a question, or whose gold pages are
    not page numbers, raises ``InvalidQuestionsError`` with its number."""
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise raised(
                InvalidQuestionsError, "error.questions_not_json", source=source, line=number,
                reason=str(exc),
            ) from exc  # fmt: skip
        if not isinstance(item, dict) or not str(item.get("question") or "").strip():
            raise raised(
                InvalidQuestionsError, "error.questions_no_question", source=source, line=number
            )
        try:
            gold_pages(item)
        except (TypeError, ValueError) as exc:
            raise raised(
                InvalidQuestionsError, "error.questions_pages", source=source, line=number
            ) from exc
        history = item.get("history")
        if history is not None and (
            not isinstance(history, list)
            or not all(
                isinstance(h, str) or (isinstance(h, dict) and h.get("question")) for h in history
            )
        ):
            raise raised(
                InvalidQuestionsError, "error.questions_history", source=source, line=number
            )
        item.setdefault("id", f"q{number}")
        out.append(item)
    return out


def load_questions(path: str) -> list[dict[str, Any]]:
    """A JSONL file, one question a line. Accepted keys: ``id``, ``question``, the document
    (``doc_id``, ``file``, ``doc_name`` or ``document``), ``evidence_pages`` /
    ``gold_pages`` and ``gold_sections``; a follow-up also has ``history`` (the earlier
    questions, oldest first) and may have ``full_question`` (see :mod:`.followups`). A line that is not JSON raises with its number."""
    try:
        with open(path, encoding="utf-8") as fh:
            return parse_questions(fh, path)
    except UnicodeDecodeError as exc:
        raise raised(
            InvalidQuestionsError, "error.questions_not_utf8", path=path, reason=exc.reason
        ) from exc


def gold_pages(item: dict[str, Any]) -> list[int]:
    return [int(p) for p in item.get("evidence_pages") or item.get("gold_pages") or []]


def gold_sections(item: dict[str, Any]) -> list[str]:
    raw = item.get("gold_sections") or []
    return [raw] if isinstance(raw, str) else [str(t) for t in raw]


def document_key(item: dict[str, Any]) -> str:
    """How a question names its document, for messages and grouping."""
    for key in ("doc_id", "file", "doc_name", "document"):
        if item.get(key):
            return str(item[key])
    return ""
