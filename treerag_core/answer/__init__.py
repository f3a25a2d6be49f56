"""answer: the chosen sections quoted, answered by the model or the offline engine, and
returned with references.

``ask`` holds ``ask``/``aask``/``ask_multi``/``aask_multi`` (one plan, two drivers) and
picks the ``Answerer`` (``base``): the answer model's (``model``) or the offline engine's
(``offline.answerer``: the computed answer, else the extractive one); ``context`` quotes the
sections; ``result`` finishes the answer; ``library`` answers over the whole library
(route, then answer).

``AnswerMessage`` is imported from ``message`` when first named (a module ``__getattr__``):
it is a LangChain message, and importing the core must not import LangChain.
"""

from typing import Any

from .ask import aask, aask_multi, answerer_for, ask, ask_multi
from .base import Answerer
from .library import aask_library, ask_library, lasting_ranking_memory
from .model import ModelAnswerer
from .offline.answerer import OfflineAnswerer
from .retriever import Retriever, make_retriever

__all__ = [
    "aask",
    "aask_library",
    "aask_multi",
    "Answerer",
    "answerer_for",
    "AnswerMessage",
    "ask",
    "ask_library",
    "ask_multi",
    "lasting_ranking_memory",
    "make_retriever",
    "ModelAnswerer",
    "OfflineAnswerer",
    "Retriever",
]


def __getattr__(name: str) -> Any:
    """``AnswerMessage``, imported on first use (see the module docstring)."""
    if name == "AnswerMessage":
        from .message import AnswerMessage

        return AnswerMessage
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
