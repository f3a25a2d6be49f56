"""The model navigator: the search model reads the outline, in one call when it fits
``single_pass_max_chars``, else level by level (a beam of candidates per level, the model
choosing which to open and which to read, within :class:`~.base.NavigationConfig`'s
budget). A failed call or an unusable reply reads the offline ranking's picks instead, and
the trace says so; in ``checked`` mode the choice is held against the offline ranking."""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from ..errors import LLMError
from ..llm.call import LLMReply
from ..llm.replies import parse_navigation_step, parse_search_reply
from ..llm.schemas import level_schema, search_schema
from ..text.language import Languages
from ..text.messages import Phrase
from ..text.tokens import estimate_tokens
from ..tree.outline import outline_line
from ..types import FlatNode
from .base import NavigationConfig, NavigationResult, Plan, Search, SearchRequest
from .offline import checked_choice, descendants
from .ranking import rank_nodes

# A level's trace lists at most this many of its candidates: enough to follow the step,
# while a level of hundreds of sections does not swell every trace that is kept and shown.
TRACE_CANDIDATES = 50

# What a candidate's line takes in the level prompt beyond its outline line: the " +N"
# count of its sub-sections and the newline, rounded up so the lines kept always fit.
CANDIDATE_LINE_EXTRA_CHARS = 8

# A level step's choice: (sections to open, sections to read, reasoning, how parsed).
Choice = tuple[list[str], list[str], str, str]


class ModelNavigator:
    """The search model reads the outline; its choice checked in ``checked`` mode."""

    def plan(self, search: Search) -> Plan:
        if len(search.outline) <= search.config.single_pass_max_chars:
            result = yield from _plan_single_pass(search, search.outline)
        else:
            result = yield from _LevelWalk(search).run()
        return checked_choice(result, search) if search.config.search_mode == "checked" else result


def _plan_single_pass(search: Search, outline: str) -> Plan:
    """The whole outline in one call; a failed call or an unusable reply reads offline."""
    result = NavigationResult([], "single_pass")
    system = search.prompts.system.format(max_sections=search.k)
    user = search.prompts.user.format(
        query=search.query, extra_context=search.extra, outline=outline, history=search.history
    )
    reply = yield SearchRequest(system, user, search_schema(search.flat))
    step: dict[str, Any] = {"step": 1, "mode": "single_pass", "candidates": len(search.flat)}
    if isinstance(reply, LLMError):
        ids: list[str]
        failure: str
        ids, failure = [], Phrase("nav.call_failed_why", error=_said(reply))
        step["error"] = str(reply)
    else:
        result.replies.append(reply)
        ids, failure = _single_pass_choice(reply, search.flat, step)
    if failure:
        ids, how = search.offline_instead()
        result.fallback = Phrase("nav.used_instead", failure=failure, how=how)
        step["fallback"] = result.fallback
    result.node_ids = ids if result.fallback else ids[: search.k]
    step["chosen"] = result.node_ids
    result.trace.append(step)
    return result


def _single_pass_choice(
    reply: LLMReply, flat: dict[str, FlatNode], step: dict[str, Any]
) -> tuple[list[str], str]:
    """The sections the reply names, or why it named none (for the fallback's note)."""
    ids, reasoning, parsed_as = parse_search_reply(reply.text, flat.keys())
    step.update(reasoning=reasoning, parsed_as=parsed_as, tokens_in=reply.input_tokens)
    if ids:
        return ids, ""
    return [], Phrase("nav.model_chose_none" if parsed_as == "json-empty" else "nav.model_no_ids")


@dataclass
class _LevelWalk:
    """A level-by-level walk: where it stands, what it has read, what it has spent."""

    search: Search
    result: NavigationResult = field(default_factory=lambda: NavigationResult([], "levels"))
    started: float = field(default_factory=time.perf_counter)
    tokens: int = 0
    candidates: list[str] = field(init=False)
    path: str = "(top level)"
    read: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.candidates = [nid for nid, n in self.search.flat.items() if not n.get("parent_id")]

    def run(self) -> Plan:
        """Open levels while the budget lasts; read offline when the walk read nothing."""
        config, k = self.search.config, self.search.k
        for step_no in range(1, config.max_steps + 1):
            if not self.candidates or len(self.read) >= k:
                break
            if not (yield from self._step(step_no)):
                break
        else:
            if self.candidates and len(self.read) < k:
                self.result.trace.append(
                    {"step": config.max_steps + 1, "stopped": Phrase("nav.max_steps")}
                )
        if not self.read:
            self._read_offline()
        self.result.node_ids = self.read[:k]
        return self.result

    def _step(self, step_no: int) -> Generator[SearchRequest, LLMReply | LLMError, bool]:
        """One level: show its candidates and follow the model's choice; False ends the walk."""
        search = self.search
        shown, prefiltered = _fit_candidates(
            search.query, search.flat, self.candidates, search.config.single_pass_max_chars,
            search.language,
        )  # fmt: skip
        request = self._prompt(shown)
        step = self._record(step_no, shown, prefiltered)
        refused = _budget_refusal(
            search.config,
            len(self.result.replies),
            self.tokens + estimate_tokens(request.system + request.user),
            self.started,
        )
        if refused:
            step["stopped"] = Phrase("nav.budget", refused=refused)
            self.result.trace.append(step)
            return False
        reply = yield request
        opened, chosen, reasoning, parsed_as = self._choice(reply, shown, step)
        if not opened and not chosen:
            self._fall_back(step_no, shown, parsed_as, step)
            return False
        self._advance(opened, chosen, step, reasoning, parsed_as)
        return True

    def _prompt(self, shown: list[str]) -> SearchRequest:
        search = self.search
        user = search.prompts.level_user.format(
            query=search.query,
            history=search.history,
            extra_context=search.extra,
            path=self.path,
            candidates="\n".join(_candidate_line(search.flat[nid]) for nid in shown),
            beam_width=search.config.beam_width,
            max_sections=search.k - len(self.read),
        )
        return SearchRequest(search.prompts.level_system, user, level_schema(shown))

    def _record(self, step_no: int, shown: list[str], prefiltered: bool) -> dict[str, Any]:
        """The step's trace entry, as far as it is known before the call."""
        step: dict[str, Any] = {"step": step_no, "mode": "level", "path": self.path}
        step["candidates"] = shown[:TRACE_CANDIDATES]
        step["candidate_count"] = len(self.candidates)
        if prefiltered:
            step["note"] = Phrase("nav.prefiltered", count=len(self.candidates), shown=len(shown))
        return step

    def _choice(self, reply: LLMReply | LLMError, shown: list[str], step: dict[str, Any]) -> Choice:
        """What the model opens and reads; a failed call chooses nothing."""
        if isinstance(reply, LLMError):
            step["error"] = str(reply)
            return [], [], "", "error"
        self.result.replies.append(reply)
        self.tokens += reply.input_tokens
        step["tokens_in"] = reply.input_tokens
        with_children = [n for n in shown if self.search.flat[n].get("children")]
        return parse_navigation_step(reply.text, shown, with_children)

    def _fall_back(
        self, step_no: int, shown: list[str], parsed_as: str, step: dict[str, Any]
    ) -> None:
        """No usable choice: the offline ranking reads, but only below this level's candidates."""
        picks, how = self.search.offline(
            self.search.k - len(self.read), descendants(self.search.flat, shown)
        )
        why = Phrase("nav.call_failed" if parsed_as == "error" else "nav.no_usable_choice")
        self.result.fallback = Phrase("nav.used_within", why=why, step=step_no, how=how)
        step.update(fallback=self.result.fallback, read=picks, parsed_as=parsed_as)
        self.read.extend(p for p in picks if p not in self.read)
        self.result.trace.append(step)

    def _advance(
        self,
        opened: list[str],
        chosen: list[str],
        step: dict[str, Any],
        reasoning: str,
        parsed_as: str,
    ) -> None:
        """Read the chosen sections and opened leaves; the opened parents' children come next."""
        flat = self.search.flat
        opened = opened[: self.search.config.beam_width]
        leaves = [n for n in opened if not flat[n].get("children")]
        opened = [n for n in opened if n not in leaves]
        for nid in chosen + leaves:
            if nid not in self.read and len(self.read) < self.search.k:
                self.read.append(nid)
        step.update(reasoning=reasoning, parsed_as=parsed_as, opened=opened, read=chosen + leaves)
        self.result.trace.append(step)
        self.candidates = [c for nid in opened for c in flat[nid].get("children") or []]
        self.path = " | ".join(flat[nid]["path"] for nid in opened) or self.path

    def _read_offline(self) -> None:
        """The walk read nothing (budget, steps, picks): the offline ranking reads, below
        the level it stopped at when there is one."""
        pool = descendants(self.search.flat, self.candidates) if self.candidates else None
        self.read, how = self.search.offline(self.search.k, pool)
        result = self.result
        result.fallback = result.fallback or Phrase("nav.nothing_read", how=how)
        result.trace.append(
            {
                "step": len(result.trace) + 1,
                "mode": "offline",
                "read": self.read,
                "fallback": result.fallback,
            }
        )


def _candidate_line(node: FlatNode) -> str:
    """A candidate as the level prompt shows it: its outline line and its sub-section count."""
    line = outline_line(node, depth_offset=node["level"] - 1)
    return line + (f" +{len(node.get('children') or [])}" if node.get("children") else "")


def _said(error: LLMError) -> str:
    """A failed call's error as text the trace says again in the answer's language (an
    error raised without a key stays as it is)."""
    return Phrase(error.key, **error.values) if error.key else str(error)


def _budget_refusal(
    config: NavigationConfig, calls: int, tokens: int, started: float
) -> str | None:
    if calls >= config.max_calls:
        return "max_calls"
    if tokens > config.max_input_tokens:
        return "max_input_tokens"
    if time.perf_counter() - started >= config.timeout_s:
        return "timeout"
    return None


def _fit_candidates(
    query: str, flat: dict[str, FlatNode], candidates: list[str], max_chars: int,
    language: Languages | None = None,
) -> tuple[list[str], bool]:  # fmt: skip
    """All candidates if their lines fit; else the best-ranked ones that fit, in order."""
    sizes = {nid: len(outline_line(flat[nid])) + CANDIDATE_LINE_EXTRA_CHARS for nid in candidates}
    if sum(sizes.values()) <= max_chars:
        return candidates, False
    ranked = [nid for nid, _ in rank_nodes(
        query, flat, k=len(candidates), candidates=candidates, language=language)]  # fmt: skip
    rest = [nid for nid in candidates if nid not in set(ranked)]
    keep: set[str] = set()
    used = 0
    for nid in ranked + rest:
        if used + sizes[nid] > max_chars:
            break
        keep.add(nid)
        used += sizes[nid]
    return [nid for nid in candidates if nid in keep], True
