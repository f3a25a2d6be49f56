"""answer: the chosen sections quoted, answered by the model or the offline engine, and
returned with references.

``ask`` holds ``ask``/``aask``/``ask_multi``/``aask_multi`` (one plan, two drivers);
``context`` quotes the sections; ``result`` finishes the answer; ``offline`` is the
extractive answer; ``library`` answers over the whole library (route, then answer).
"""

from .ask import aask, aask_multi, ask, ask_multi
from .library import aask_library, ask_library, lasting_ranking_memory
from .result import AnswerMessage
from .retriever import Retriever, make_retriever

__all__ = [
    "aask",
    "aask_library",
    "aask_multi",
    "AnswerMessage",
    "ask",
    "ask_library",
    "ask_multi",
    "lasting_ranking_memory",
    "make_retriever",
    "Retriever",
]
