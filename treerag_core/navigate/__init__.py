"""navigate: find the sections that answer, by reading the outline rather than the text.

``plan`` is the one plan (a generator) with its blocking and awaited drivers; it hands the
question's ``Search`` (``base``) to a ``Navigator``: the search model's (``model``: the
outline in one call, or level by level) or the offline ranking's (``offline``, over
``ranking``: BM25 over passages). ``history`` and ``followup`` carry a conversation;
``crosslanguage`` says when the offline engine cannot match a question's language.
"""

from .base import SEARCH_MODES, NavigationConfig, NavigationResult, Navigator
from .model import ModelNavigator
from .offline import OfflineNavigator
from .plan import anavigate, navigate, plan_navigation
from .ranking import RankingMemory

__all__ = [
    "anavigate",
    "ModelNavigator",
    "navigate",
    "NavigationConfig",
    "NavigationResult",
    "Navigator",
    "OfflineNavigator",
    "plan_navigation",
    "RankingMemory",
    "SEARCH_MODES",
]
