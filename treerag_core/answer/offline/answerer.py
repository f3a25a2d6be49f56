"""The offline answerer: the offline engine answers from the prepared sections, no model.

What it writes, first that applies: the overview of a question about documents as wholes
(:mod:`..overview`); the navigation's note when no section could be chosen; the computed
answer when the question asks for a ratio, change, average or aggregate
(:mod:`.computed`); else the extractive answer, the best table row or sentence
(:mod:`.extractive`). Its citations are renumbered in the order used before it is streamed,
so a stream shows the answer as it will be kept.
"""

from __future__ import annotations

from ...llm.call import LLMReply
from ...text import ENGINE_NAME
from ...text.language import detect_language
from ...text.messages import message, said_in
from ..base import AnswerPlan
from ..checked import renumber
from ..context import Prepared
from .computed import computed_reply
from .extractive import extractive_answer

EMPTY_ANSWER = message("note.empty_document")  # English's; the answer's language is used


class OfflineAnswerer:
    """The offline engine's answer, streamed line by line."""

    def answer(self, query: str, prepared: Prepared) -> AnswerPlan:
        reply = offline_reply(query, prepared)
        reply.text = renumber(prepared, reply.text)  # as it will be shown
        return reply
        yield  # a plan that never asks the model

    def stream(self, query: str, prepared: Prepared) -> AnswerPlan:
        reply = yield from self.answer(query, prepared)
        yield from reply.text.splitlines(keepends=True)
        return reply


def offline_reply(query: str, prepared: Prepared) -> LLMReply:
    """The offline engine's answer (its citations as read), or the note with nothing to read."""
    if prepared.overview:
        return LLMReply(text=prepared.overview, model=ENGINE_NAME)
    if not prepared.sections:
        asked = detect_language(query)  # a note on the question's language is said in it
        notes = [said_in(nav.note, asked) for nav in prepared.navs if nav.note]
        empty = message("note.empty_document", prepared.language(query))
        return LLMReply(text="\n\n".join(dict.fromkeys(notes)) or empty, model=ENGINE_NAME)
    language = prepared.language(query)
    computed = computed_reply(prepared.searched_as or query, prepared, language)
    if computed is not None:  # a ratio, change or average: computed from cited cells
        return LLMReply(text=computed, model=ENGINE_NAME)
    text, _used = extractive_answer(
        prepared.searched_as or query, prepared.sections, memory=prepared.memory,
        language=language,
    )  # fmt: skip
    return LLMReply(text=text, model=ENGINE_NAME)
