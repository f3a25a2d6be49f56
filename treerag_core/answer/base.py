"""The one small interface both ways of answering share (:class:`Answerer`), and the two
steps of an answer that only a driver can serve.

Answering is a plan, the way navigation is (:mod:`..navigate.base`): a generator that
yields the text a stream's reader is given as it comes and the model steps it must wait
on (:class:`ModelCall`, :class:`ModelStream`), is sent each step's result, and returns the
reply. :mod:`.model` is the answer model's way (the offline answer from the same sections
when the call fails), :mod:`.offline.answerer` the offline engine's (no step at all);
:func:`.ask.answerer_for` picks one, and the blocking and awaited drivers in :mod:`.ask`
serve the steps, so ``ask`` and ``aask`` answer through the same code.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Protocol

from ..llm.call import LLMReply, StreamState
from .context import Prepared


@dataclass(frozen=True)
class ModelCall:
    """Step: one call of the answer model; its result, the :class:`LLMReply` or the
    :class:`~..errors.LLMError` the call raised."""

    llm: Any
    system: str
    user: str


@dataclass(frozen=True)
class ModelStream:
    """Step: stream the answer model to the caller; the text and usage land in ``state``
    (and the error that ended it early, if one did)."""

    llm: Any
    system: str
    user: str
    state: StreamState
    limits: dict[str, Any]  # max_chars, max_seconds


AnswerStep = ModelCall | ModelStream
# Yields steps (served by a driver) and text (for a stream's reader); returns the reply.
AnswerPlan = Generator[AnswerStep | str, Any, LLMReply]


class Answerer(Protocol):
    """One way of answering from the prepared sections: the answer model's or the offline
    engine's. ``answer`` yields only steps; ``stream`` yields the text as it is written
    too, and its reply's text is all it yielded."""

    def answer(self, query: str, prepared: Prepared) -> AnswerPlan: ...

    def stream(self, query: str, prepared: Prepared) -> AnswerPlan: ...
