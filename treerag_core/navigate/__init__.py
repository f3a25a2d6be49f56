"""navigate: find the sections that answer, by reading the outline rather than the text.

``navigate`` is the one plan (a generator) with its blocking and awaited drivers: the
search model reads the outline, or the offline ``ranking`` (BM25 over passages) picks;
``history`` and ``followup`` carry a conversation; ``crosslanguage`` says when the offline
engine cannot match a question's language.
"""

from .navigate import SEARCH_MODES, NavigationConfig
from .ranking import RankingMemory

__all__ = ["NavigationConfig", "RankingMemory", "SEARCH_MODES"]
