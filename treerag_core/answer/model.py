"""The model answerer: the answer model reads the quoted sections and writes the answer.

Failure policy: degrade, don't fail. A failed answer call (a timeout, an error, an empty
reply, one that was only our prompt's markup) gives the offline engine's answer from the
same sections, after a one-line note that names what failed; in a stream, after the chunks
already delivered (a stream cut at its budget keeps its text and ends with the note). The
trace keeps the error (``answer_error``). A reply the server stopped at the answer's token
cap says it was cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import LLMError, StreamBudgetError
from ..llm.call import LLMReply, StreamState
from ..text import ENGINE_NAME
from ..text.messages import message
from .base import AnswerPlan, ModelCall, ModelStream
from .comparisons import comparison_note
from .context import Prepared
from .offline.answerer import offline_reply
from .sheets import sheets_note

LENGTH_NOTE = "\n\n_(The answer reached the model's length limit and was cut here.)_"


@dataclass(frozen=True)
class ModelAnswerer:
    """The answer model (a LangChain chat model), with a stream's budget."""

    llm: Any
    max_chars: int | None = None
    max_seconds: float | None = None

    def answer(self, query: str, prepared: Prepared) -> AnswerPlan:
        got = yield ModelCall(self.llm, prepared.system, with_app_work(query, prepared))
        reply = degraded(query, prepared, got) if isinstance(got, LLMError) else got
        if reply.finish_reason == "length":  # the server stopped it at the answer's token cap
            reply.text += LENGTH_NOTE
        return reply

    def stream(self, query: str, prepared: Prepared) -> AnswerPlan:
        state = StreamState()
        limits = {"max_chars": self.max_chars, "max_seconds": self.max_seconds}
        user = with_app_work(query, prepared)
        yield ModelStream(self.llm, prepared.system, user, state, limits)
        shown = "".join(state.parts)
        reply = state.reply or LLMReply(text=shown)
        if state.error is not None:
            reply = degraded(query, prepared, state.error, shown=shown)
            yield reply.text[len(shown) :]
        if reply.finish_reason == "length":
            reply.text += LENGTH_NOTE
            yield LENGTH_NOTE
        return reply


def with_app_work(query: str, prepared: Prepared) -> str:
    """The answer prompt with what the app computes for the model, told after the quotes:
    the quoted sheets' columns, for an aggregate it asks for (:mod:`.sheets`), and a
    comparison's table, to conclude from (:mod:`.comparisons`, which keeps it on
    ``prepared.compared`` to lead the answer)."""
    asked = prepared.searched_as or query
    notes = [n for n in (sheets_note(prepared), comparison_note(asked, prepared)) if n]
    return "\n\n".join([prepared.user, *notes])


def degraded(query: str, prepared: Prepared, error: LLMError, shown: str = "") -> LLMReply:
    """The answer when the answer model failed: what it already streamed (``shown``), a
    one-line note naming the failure, and the offline engine's answer from the same
    sections; or, for a stream cut at its budget, what it streamed and the note alone."""
    reason = str(error).rstrip(".")
    prepared.trace["answer_error"] = str(error)
    if shown.strip() and isinstance(error, StreamBudgetError):
        return LLMReply(text=f"{shown}\n\n_({reason}.)_", model=ENGINE_NAME)
    offline = offline_reply(query, prepared).text
    note = message("note.model_failed", prepared.language(query), reason=reason)
    head = f"{shown}\n\n" if shown.strip() else ""
    return LLMReply(text=f"{head}{note}\n\n{offline}", model=ENGINE_NAME)
