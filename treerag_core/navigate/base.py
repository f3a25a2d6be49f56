"""What navigation is made of: its settings, its result, one question's search, and the
one small interface both ways of navigating share (:class:`Navigator`).

Navigation is a plan (a generator) that yields search requests and receives the model's
replies; :mod:`.model` is the search model's way (the whole outline in one call, or a walk
level by level), :mod:`.offline` the offline ranking's (no request at all), and
:mod:`.plan` picks one and runs it with a blocking or an awaited driver.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import ConfigError, LLMError
from ..llm.call import LLMReply
from ..llm.prompts import (
    LEVEL_SEARCH_SYSTEM_PROMPT,
    LEVEL_SEARCH_USER_PROMPT,
    SEARCH_SYSTEM_PROMPT,
    SEARCH_USER_PROMPT,
)
from ..text.bm25 import PASSAGE_CHARS
from ..text.language import Languages
from ..types import FlatNode
from .ranking import RankingMemory

# The offline ranking has no judgement to stop it early: it reads more, shorter excerpts.
# On the FinanceBench dev set: 8 excerpts 52% of gold pages, 16 66%, 24 77% (chunks 71%).
OFFLINE_SECTIONS = 24

# The answer model's context: as many offline excerpts as the offline ranking reads, each
# the size a section is ranked by (~12k tokens in all).
ANSWER_CONTEXT_CHARS = OFFLINE_SECTIONS * PASSAGE_CHARS

# How the search model's choice is used. "checked": as it is when one of its sections (or
# its parent or a child) is among the offline ranking's OFFLINE_SECTIONS best for the
# question's words; when none is, the choice is a leap the words cannot follow (a strong
# model's, rarely) or noise (a weak one's: SmolLM2-135M chose valid ids and wrong sections
# for 5 questions of 5 where the offline ranking found 3), so the offline ranking's
# CHECK_ADDED best are read too, between the model's. "model": the choice as it is.
# "offline": the offline ranking chooses and the model only answers (a model too weak to
# choose sections may still write a fair answer from the right ones).
SEARCH_MODES = ("checked", "model", "offline")


@dataclass(frozen=True)
class NavigationConfig:
    """How much of the outline one call may see, and the budget of a level-by-level walk."""

    single_pass_max_chars: int = 40_000
    # Sections whose text goes to the answer model, per document. Long ones are cut to their
    # passage that best matches the question, so several fit the context (~12k tokens).
    max_sections: int = 8
    offline_sections: int = OFFLINE_SECTIONS
    beam_width: int = 4
    max_steps: int = 6
    max_calls: int = 6
    max_input_tokens: int = 60_000
    timeout_s: float = 60.0
    search_mode: str = "checked"  # see SEARCH_MODES

    def __post_init__(self) -> None:
        if self.search_mode not in SEARCH_MODES:
            raise ConfigError(
                f"Unknown search mode {self.search_mode!r}: choose one of {', '.join(SEARCH_MODES)}."
            )


@dataclass(frozen=True)
class SearchPrompts:
    system: str = SEARCH_SYSTEM_PROMPT
    user: str = SEARCH_USER_PROMPT
    level_system: str = LEVEL_SEARCH_SYSTEM_PROMPT
    level_user: str = LEVEL_SEARCH_USER_PROMPT


@dataclass
class NavigationResult:
    node_ids: list[str]
    mode: str  # single_pass | levels | offline | empty
    trace: list[dict[str, Any]] = field(default_factory=list)
    replies: list[LLMReply] = field(default_factory=list)
    fallback: str | None = None  # why the offline ranking chose, when it did
    note: str = ""  # for the person, when no section could be chosen (see crosslanguage)

    def usage(self) -> dict[str, Any]:
        tin = sum(r.input_tokens for r in self.replies if not r.cached)
        tout = sum(r.output_tokens for r in self.replies if not r.cached)
        return {
            "calls": len(self.replies),
            "cached_calls": sum(1 for r in self.replies if r.cached),
            "input_tokens": tin,
            "output_tokens": tout,
            "total_tokens": tin + tout,
            "models": sorted({r.model for r in self.replies if r.model}),
        }


@dataclass
class SearchRequest:
    """One call of the search model: its prompts and the reply's JSON Schema."""

    system: str
    user: str
    schema: dict[str, Any] | None = None  # the reply's JSON Schema (the allowed ids)


Plan = Generator[SearchRequest, "LLMReply | LLMError", NavigationResult]
# The offline ranking with the question as searched: (k, candidate pool) -> (ids, how).
# (count, carried=None) -> (ids, how): "..." since a Callable type cannot mark a default.
OfflinePick = Callable[..., tuple[list[str], str]]


@dataclass(frozen=True)
class Search:
    """What every search for one question over one document is made of."""

    query: str
    searched: str  # the question as the offline ranking searches it (a follow-up resolved)
    flat: dict[str, FlatNode]
    config: NavigationConfig
    prompts: SearchPrompts
    extra: str  # the extra context, as a prompt block
    history: str  # the conversation's recent turns, as a prompt block
    offline: OfflinePick
    carried: list[str] = field(default_factory=list)  # the previous answer's sections
    memory: RankingMemory | None = None
    language: Languages = field(default_factory=Languages)  # what the offline ranking ranks in
    outline: str = ""

    @property
    def k(self) -> int:
        """Sections the answer may read: at least one, whatever the configuration says."""
        return max(1, self.config.max_sections)

    def offline_instead(self) -> tuple[list[str], str]:
        """The offline ranking's picks when the model's cannot be used: as many as it reads."""
        return self.offline(max(1, self.config.offline_sections))


class Navigator(Protocol):
    """One way of choosing the sections that answer: the search model's or the offline
    ranking's. ``plan`` yields the model calls it needs (none offline) and returns the
    result; the drivers in :mod:`.plan` make the calls, blocking or awaited."""

    def plan(self, search: Search) -> Plan: ...
