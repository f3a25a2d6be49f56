"""Conversations: threads kept per person in the registry's store, their Markdown export,
and the regression set made from answers people marked wrong."""

from .export import reference_line, thread_markdown
from .regression import (
    delete_regression_question,
    parse_pages,
    questions_jsonl,
    regression_questions,
    save_regression_question,
    thumbs_down,
)
from .threads import (
    LOCAL_OWNER,
    add_turn,
    create_thread,
    delete_thread,
    get_thread,
    history_of,
    list_threads,
    make_turn,
    rename_thread,
    replace_answer,
    set_feedback,
)

__all__ = [
    "LOCAL_OWNER",
    "add_turn",
    "create_thread",
    "delete_regression_question",
    "delete_thread",
    "get_thread",
    "history_of",
    "list_threads",
    "make_turn",
    "parse_pages",
    "questions_jsonl",
    "reference_line",
    "regression_questions",
    "rename_thread",
    "replace_answer",
    "save_regression_question",
    "set_feedback",
    "thread_markdown",
    "thumbs_down",
]
