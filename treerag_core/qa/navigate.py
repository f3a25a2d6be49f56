"""Find the sections that answer a question by reading the outline, not the document.

An outline that fits ``single_pass_max_chars`` goes to the search model in one call. A
larger one is walked level by level: a beam of candidates per level, the model choosing
which to open and which to read, within its own :class:`NavigationConfig` budget. Every
step lands in the trace (candidates, choices, reasons). A failed call, an unusable reply
or no model at all falls back to the offline BM25 ranking, and the trace says so.

The logic is one generator that yields prompts and receives replies, so the sync and
async drivers share it line for line.

A follow-up question brings its :class:`~.history.Conversation`: every search prompt shows
the recent turns (``{history}``), and the offline ranking (the engine's, or the fallback's)
searches the question as it was resolved, reading the previous answer's sections again
when the topic carries over (see :mod:`.followup`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from ..errors import LLMError
from ..ingest.outline import build_tree_outline, outline_line
from ..llm.call import LLMReply, ainvoke, invoke
from ..llm.prompts import (
    LEVEL_SEARCH_SYSTEM_PROMPT,
    LEVEL_SEARCH_USER_PROMPT,
    SEARCH_SYSTEM_PROMPT,
    SEARCH_USER_PROMPT,
    format_extra_context,
)
from ..llm.replies import parse_navigation_step, parse_search_reply
from ..store.base import Cache
from ..text.ranking import PASSAGE_CHARS, RankingMemory, rank_nodes
from ..text.tokens import estimate_tokens
from ..types import Document, FlatNode
from .history import Conversation

RELATIVE_CUTOFF = 0.4  # offline picks must score at least this share of the best one
# The offline ranking has no judgement to stop it early: it reads more, shorter excerpts.
# On the FinanceBench dev set: 8 excerpts 52% of gold pages, 16 66%, 24 77% (chunks 71%).
OFFLINE_SECTIONS = 24
# The answer model's context: as many offline excerpts as the offline ranking reads, each
# the size a section is ranked by (~12k tokens in all).
ANSWER_CONTEXT_CHARS = OFFLINE_SECTIONS * PASSAGE_CHARS


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
class _Request:
    system: str
    user: str


Plan = Generator[_Request, "LLMReply | LLMError", NavigationResult]
# The offline ranking with the question as searched: (k, candidate pool) -> (ids, how).
OfflinePick = Callable[[int, "list[str] | None"], tuple[list[str], str]]


def _offline_pick(
    query: str,
    flat: dict[str, FlatNode],
    k: int,
    candidates: list[str] | None = None,
    carried: list[str] | None = None,
    memory: RankingMemory | None = None,
) -> tuple[list[str], str]:
    """The ``k`` best-ranked sections; ``carried`` ones (the previous answer's, for a
    follow-up on the same topic) are read too, taking the places of the last-ranked."""
    pool = candidates if candidates is not None else list(flat)
    carried = [nid for nid in carried or [] if nid in flat and nid in set(pool)][:k]
    scored = rank_nodes(query, flat, k=k, candidates=candidates, memory=memory)
    # Keep only sections scoring near the best: a common word must not drag in noise.
    ranked = [nid for nid, score in scored if score >= RELATIVE_CUTOFF * scored[0][1]]
    how = "offline BM25 ranking"
    if not ranked and not carried:
        return pool[:k], "no term of the question matched; the opening sections were used"
    if carried:
        extra = [nid for nid in carried if nid not in ranked]
        ranked = ranked[: k - len(extra)] + extra
        how += f"; {len(carried)} section(s) of the previous answer read again"
    return ranked, how


def _descendants(flat: dict[str, FlatNode], roots: list[str]) -> list[str]:
    out: list[str] = []
    todo = list(reversed(roots))
    while todo:
        nid = todo.pop()
        if nid in flat and nid not in out:
            out.append(nid)
            todo.extend(reversed(flat[nid].get("children") or []))
    return out


def plan_navigation(
    query: str,
    document: Document,
    has_model: bool,
    config: NavigationConfig | None = None,
    prompts: SearchPrompts | None = None,
    extra_context: str = "",
    conversation: Conversation | None = None,
    memory: RankingMemory | None = None,
) -> Plan:
    """The navigation as a generator: yields prompts, receives replies, returns the result."""
    config = config or NavigationConfig()
    prompts = prompts or SearchPrompts()
    conversation = conversation or Conversation(query)
    flat: dict[str, FlatNode] = document.get("flat_nodes") or {}
    k = max(1, config.max_sections)
    if not flat:
        return NavigationResult([], "empty", [{"step": 1, "mode": "empty", "note": "no sections"}])
    doc_id = str(document.get("doc_id") or "")
    searched, carried = conversation.searched_as, conversation.carried_sections(doc_id)

    def offline(k: int, pool: list[str] | None = None) -> tuple[list[str], str]:
        return _offline_pick(searched, flat, k, pool, carried, memory)

    if not has_model:
        ids, how = offline(max(1, config.offline_sections))
        trace = [{"step": 1, "mode": "offline", "chosen": ids, "reasoning": how}]
        if searched != query:
            trace[0]["searched_as"] = searched
        return NavigationResult(ids, "offline", trace)
    outline = document.get("tree_outline") or build_tree_outline(flat)
    extra = format_extra_context(extra_context)
    history = conversation.block(doc_id)
    if len(outline) <= config.single_pass_max_chars:
        result = NavigationResult([], "single_pass")
        system = prompts.system.format(max_sections=k)
        user = prompts.user.format(
            query=query, extra_context=extra, outline=outline, history=history
        )
        reply = yield _Request(system, user)
        step: dict[str, Any] = {"step": 1, "mode": "single_pass", "candidates": len(flat)}
        if isinstance(reply, LLMError):
            ids, how = offline(max(1, config.offline_sections))
            result.fallback = f"search call failed ({reply}); {how} used instead"
            step.update(error=str(reply), fallback=result.fallback)
        else:
            result.replies.append(reply)
            ids, reasoning, parsed_as = parse_search_reply(reply.text, flat.keys())
            step.update(reasoning=reasoning, parsed_as=parsed_as, tokens_in=reply.input_tokens)
            if not ids:
                ids, how = offline(max(1, config.offline_sections))
                why = (
                    "chose no section"
                    if parsed_as == "json-empty"
                    else "gave no usable section ids"
                )
                result.fallback = f"the search model {why}; {how} used instead"
                step["fallback"] = result.fallback
        result.node_ids = ids if result.fallback else ids[:k]
        step["chosen"] = result.node_ids
        result.trace.append(step)
        return result
    return (yield from _plan_levels(query, flat, config, prompts, extra, history, offline))


def _plan_levels(
    query: str,
    flat: dict[str, FlatNode],
    config: NavigationConfig,
    prompts: SearchPrompts,
    extra: str,
    history: str,
    offline: OfflinePick,
) -> Plan:
    k = max(1, config.max_sections)
    result = NavigationResult([], "levels")
    started = time.perf_counter()
    tokens = 0
    candidates = [nid for nid, node in flat.items() if not node.get("parent_id")]
    path = "(top level)"
    read: list[str] = []
    for step_no in range(1, config.max_steps + 1):
        if not candidates or len(read) >= k:
            break
        shown, prefiltered = _fit_candidates(query, flat, candidates, config.single_pass_max_chars)
        lines = "\n".join(
            outline_line(flat[nid], depth_offset=flat[nid]["level"] - 1)
            + (f" +{len(flat[nid].get('children') or [])}" if flat[nid].get("children") else "")
            for nid in shown
        )
        system = prompts.level_system
        user = prompts.level_user.format(
            query=query,
            history=history,
            extra_context=extra,
            path=path,
            candidates=lines,
            beam_width=config.beam_width,
            max_sections=k - len(read),
        )
        step: dict[str, Any] = {"step": step_no, "mode": "level", "path": path}
        step["candidates"] = shown[:50]
        step["candidate_count"] = len(candidates)
        if prefiltered:
            step["note"] = (
                f"{len(candidates)} candidates prefiltered to {len(shown)} by offline ranking"
            )
        refused = _budget_refusal(
            config, len(result.replies), tokens + estimate_tokens(system + user), started
        )
        if refused:
            step["stopped"] = f"navigation budget exhausted ({refused})"
            result.trace.append(step)
            break
        reply = yield _Request(system, user)
        if isinstance(reply, LLMError):
            step["error"] = str(reply)
            opened, chosen, reasoning, parsed_as = [], [], "", "error"
        else:
            result.replies.append(reply)
            tokens += reply.input_tokens
            step["tokens_in"] = reply.input_tokens
            with_children = [n for n in shown if flat[n].get("children")]
            opened, chosen, reasoning, parsed_as = parse_navigation_step(
                reply.text, shown, with_children
            )
        if not opened and not chosen:
            pool = _descendants(flat, shown)
            picks, how = offline(k - len(read), pool)
            why = "search call failed" if parsed_as == "error" else "no usable choice in the reply"
            result.fallback = f"{why} at step {step_no}; {how} used within the candidates' sections"
            step.update(fallback=result.fallback, read=picks, parsed_as=parsed_as)
            read.extend(p for p in picks if p not in read)
            result.trace.append(step)
            break
        opened = opened[: config.beam_width]
        leaves = [n for n in opened if not flat[n].get("children")]
        opened = [n for n in opened if n not in leaves]
        for nid in chosen + leaves:
            if nid not in read and len(read) < k:
                read.append(nid)
        step.update(reasoning=reasoning, parsed_as=parsed_as, opened=opened, read=chosen + leaves)
        result.trace.append(step)
        candidates = [c for nid in opened for c in flat[nid].get("children") or []]
        path = " | ".join(flat[nid]["path"] for nid in opened) or path
    else:
        if candidates and len(read) < k:
            result.trace.append({"step": config.max_steps + 1, "stopped": "max_steps reached"})
    if not read:
        pool = _descendants(flat, candidates) if candidates else None
        read, how = offline(k, pool)
        result.fallback = result.fallback or f"navigation chose nothing to read; {how} used"
        result.trace.append(
            {
                "step": len(result.trace) + 1,
                "mode": "offline",
                "read": read,
                "fallback": result.fallback,
            }
        )
    result.node_ids = read[:k]
    return result


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
    query: str, flat: dict[str, FlatNode], candidates: list[str], max_chars: int
) -> tuple[list[str], bool]:
    """All candidates if their lines fit; else the best-ranked ones that fit, in order."""
    sizes = {nid: len(outline_line(flat[nid])) + 8 for nid in candidates}
    if sum(sizes.values()) <= max_chars:
        return candidates, False
    ranked = [nid for nid, _ in rank_nodes(query, flat, k=len(candidates), candidates=candidates)]
    rest = [nid for nid in candidates if nid not in set(ranked)]
    keep: set[str] = set()
    used = 0
    for nid in ranked + rest:
        if used + sizes[nid] > max_chars:
            break
        keep.add(nid)
        used += sizes[nid]
    return [nid for nid in candidates if nid in keep], True


def navigate(
    query: str,
    document: Document,
    search_llm: Any,
    config: NavigationConfig | None = None,
    prompts: SearchPrompts | None = None,
    extra_context: str = "",
    cache: Cache | None = None,
    conversation: Conversation | None = None,
    memory: RankingMemory | None = None,
) -> NavigationResult:
    """Blocking navigation; ``search_llm=None`` uses the offline ranking."""
    plan = plan_navigation(
        query, document, search_llm is not None, config, prompts, extra_context, conversation,
        memory,
    )  # fmt: skip
    try:
        request = next(plan)
        while True:
            try:
                reply: LLMReply | LLMError = invoke(
                    search_llm,
                    request.system,
                    request.user,
                    what="search",
                    cache=cache,
                    cacheable=_useful,
                )
            except LLMError as exc:
                reply = exc
            request = plan.send(reply)
    except StopIteration as stop:
        return stop.value


async def anavigate(
    query: str,
    document: Document,
    search_llm: Any,
    config: NavigationConfig | None = None,
    prompts: SearchPrompts | None = None,
    extra_context: str = "",
    cache: Cache | None = None,
    conversation: Conversation | None = None,
    memory: RankingMemory | None = None,
) -> NavigationResult:
    """The async twin of :func:`navigate`."""
    plan = plan_navigation(
        query, document, search_llm is not None, config, prompts, extra_context, conversation,
        memory,
    )  # fmt: skip
    try:
        request = next(plan)
        while True:
            try:
                reply: LLMReply | LLMError = await ainvoke(
                    search_llm,
                    request.system,
                    request.user,
                    what="search",
                    cache=cache,
                    cacheable=_useful,
                )
            except LLMError as exc:
                reply = exc
            request = plan.send(reply)
    except StopIteration as stop:
        return stop.value


def _useful(text: str) -> bool:
    """Cache only replies that name something: a garbage reply must be retried next time."""
    return any(ch.isdigit() for ch in text)
