"""Retrieval evaluation: questions with gold pages or sections, navigation scored against a
chunk baseline at the same token budget over the same text."""

from .followups import FollowupEvaluation, evaluate_followups, followup_table
from .loader import registry_loader
from .page_texts import registry_page_texts
from .questions import document_key, gold_pages, gold_sections, load_questions, parse_questions
from .report import (
    METHODS,
    format_report,
    gold_label,
    missed,
    retrieved_rows,
    summary_columns,
    summary_rows,
    summary_table,
)
from .run import DocumentLoader, Evaluation, PageTexts, evaluate

__all__ = [
    "document_key",
    "DocumentLoader",
    "evaluate",
    "evaluate_followups",
    "Evaluation",
    "followup_table",
    "FollowupEvaluation",
    "format_report",
    "gold_label",
    "gold_pages",
    "gold_sections",
    "load_questions",
    "METHODS",
    "missed",
    "PageTexts",
    "parse_questions",
    "registry_loader",
    "registry_page_texts",
    "retrieved_rows",
    "summary_columns",
    "summary_rows",
    "summary_table",
]
