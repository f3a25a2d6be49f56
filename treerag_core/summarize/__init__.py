"""summarize: each section's summary and tags, and the document's card.

Like ``navigate``: ``base`` is the :class:`Summarizer` interface (with its budget and the
null summarizer), ``offline`` and ``model`` are the two summarizers side by side, and
``summarizers.make_summarizer`` picks one. The offline engine's parts: ``digest`` (what a
section holds), ``phrases`` (its key phrases), ``keyterms`` (names, for the card). ``card``
describes the whole document for the library.
"""

from .base import NullSummarizer, Summarizer, SummaryBudget, null_summarizer
from .model import LLMSummarizer
from .offline import OfflineSummarizer, offline_summarizer
from .summarizers import make_summarizer

__all__ = [
    "LLMSummarizer",
    "make_summarizer",
    "null_summarizer",
    "NullSummarizer",
    "offline_summarizer",
    "OfflineSummarizer",
    "Summarizer",
    "SummaryBudget",
]
