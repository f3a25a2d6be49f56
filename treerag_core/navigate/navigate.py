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

from ..errors import ConfigError, LLMError
from ..llm.call import LLMReply, ainvoke, invoke
from ..llm.prompts import (
    LEVEL_SEARCH_SYSTEM_PROMPT,
    LEVEL_SEARCH_USER_PROMPT,
    SEARCH_SYSTEM_PROMPT,
    SEARCH_USER_PROMPT,
    format_extra_context,
)
from ..llm.replies import parse_navigation_step, parse_search_reply
from ..llm.schemas import level_schema, search_schema
from ..store.base import Cache
from ..text.language import Languages, document_languages
from ..text.tokens import estimate_tokens
from ..tree.outline import build_tree_outline, outline_line
from ..types import Document, FlatNode
from .crosslanguage import cannot_match
from .history import Conversation
from .ranking import PASSAGE_CHARS, RankingMemory, rank_nodes

RELATIVE_CUTOFF = 0.4  # offline picks must score at least this share of the best one
# The offline ranking has no judgement to stop it early: it reads more, shorter excerpts.
# On the FinanceBench dev set: 8 excerpts 52% of gold pages, 16 66%, 24 77% (chunks 71%).
OFFLINE_SECTIONS = 24
# The answer model's context: as many offline excerpts as the offline ranking reads, each
# the size a section is ranked by (~12k tokens in all).
ANSWER_CONTEXT_CHARS = OFFLINE_SECTIONS * PASSAGE_CHARS
# A level's trace lists at most this many of its candidates: enough to follow the step,
# while a level of hundreds of sections does not swell every trace that is kept and shown.
TRACE_CANDIDATES = 50
# What a candidate's line takes in the level prompt beyond its outline line: the " +N"
# count of its sub-sections and the newline, rounded up so the lines kept always fit.
CANDIDATE_LINE_EXTRA_CHARS = 8
# How the search model's choice is used. "checked": as it is when one of its sections (or
# its parent or a child) is among the offline ranking's OFFLINE_SECTIONS best for the
# question's words; when none is, the choice is a leap the words cannot follow (a strong
# model's, rarely) or noise (a weak one's: SmolLM2-135M chose valid ids and wrong sections
# for 5 questions of 5 where the offline ranking found 3), so the offline ranking's
# CHECK_ADDED best are read too, between the model's. "model": the choice as it is.
# "offline": the offline ranking chooses and the model only answers (a model too weak to
# choose sections may still write a fair answer from the right ones).
SEARCH_MODES = ("checked", "model", "offline")
CHECK_ADDED = 4


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
class _Request:
    system: str
    user: str
    schema: dict[str, Any] | None = None  # the reply's JSON Schema (the allowed ids)


Plan = Generator[_Request, "LLMReply | LLMError", NavigationResult]
# The offline ranking with the question as searched: (k, candidate pool) -> (ids, how).
OfflinePick = Callable[[int, "list[str] | None"], tuple[list[str], str]]
# A level step's choice: (sections to open, sections to read, reasoning, how parsed).
Choice = tuple[list[str], list[str], str, str]


def _offline_pick(
    query: str,
    flat: dict[str, FlatNode],
    k: int,
    candidates: list[str] | None = None,
    carried: list[str] | None = None,
    memory: RankingMemory | None = None,
    language: Languages | None = None,
) -> tuple[list[str], str]:
    """The ``k`` best-ranked sections; ``carried`` ones (the previous answer's, for a
    follow-up on the same topic) are read too, taking the places of the last-ranked."""
    pool = candidates if candidates is not None else list(flat)
    carried = [nid for nid in carried or [] if nid in flat and nid in set(pool)][:k]
    scored = rank_nodes(query, flat, k=k, candidates=candidates, memory=memory, language=language)
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
    conversation = conversation or Conversation(query)
    flat: dict[str, FlatNode] = document.get("flat_nodes") or {}
    if not flat:
        return NavigationResult([], "empty", [{"step": 1, "mode": "empty", "note": "no sections"}])
    doc_id = str(document.get("doc_id") or "")
    searched, carried = conversation.searched_as, conversation.carried_sections(doc_id)
    language = document_languages(document)

    def offline(k: int, pool: list[str] | None = None) -> tuple[list[str], str]:
        return _offline_pick(searched, flat, k, pool, carried, memory, language)

    if not has_model or config.search_mode == "offline":
        note = "" if carried else cannot_match(searched, flat, language, memory)
        if note:
            step = {"step": 1, "mode": "offline", "chosen": [], "reasoning": note}
            return NavigationResult([], "offline", [step], note=note)
        return _offline_result(query, searched, offline(max(1, config.offline_sections)))
    outline = document.get("tree_outline") or build_tree_outline(flat)
    extra = format_extra_context(extra_context)
    search = _Search(
        query, flat, config, prompts or SearchPrompts(), extra, conversation.block(doc_id), offline,
        language,
    )  # fmt: skip
    if len(outline) <= config.single_pass_max_chars:
        result = yield from _plan_single_pass(search, outline)
    else:
        result = yield from _LevelWalk(search).run()
    return _checked(result, search) if config.search_mode == "checked" else result


@dataclass(frozen=True)
class _Search:
    """What every search prompt for one question over one document is made of."""

    query: str
    flat: dict[str, FlatNode]
    config: NavigationConfig
    prompts: SearchPrompts
    extra: str  # the extra context, as a prompt block
    history: str  # the conversation's recent turns, as a prompt block
    offline: OfflinePick
    language: Languages = field(default_factory=Languages)  # what the prefilter ranks in

    @property
    def k(self) -> int:
        """Sections the answer may read: at least one, whatever the configuration says."""
        return max(1, self.config.max_sections)

    def offline_instead(self) -> tuple[list[str], str]:
        """The offline ranking's picks when the model's cannot be used: as many as it reads."""
        return self.offline(max(1, self.config.offline_sections))


def _offline_result(query: str, searched: str, pick: tuple[list[str], str]) -> NavigationResult:
    """No model: the offline ranking chooses, and the trace says what it searched for."""
    ids, how = pick
    trace: list[dict[str, Any]] = [{"step": 1, "mode": "offline", "chosen": ids, "reasoning": how}]
    if searched != query:
        trace[0]["searched_as"] = searched
    return NavigationResult(ids, "offline", trace)


def _family(flat: dict[str, FlatNode], nid: str) -> list[str]:
    """The section, its parent and its children: what counts as near it."""
    node = flat.get(nid) or {}
    return [nid, str(node.get("parent_id") or ""), *(node.get("children") or [])]


def _checked(result: NavigationResult, search: _Search) -> NavigationResult:
    """The model's choice, with the offline ranking's best between its sections when none
    of them is near what the question's words find (see SEARCH_MODES)."""
    if result.fallback or not result.node_ids:
        return result
    if search.language.foreign(search.query):
        result.trace.append({
            "step": len(result.trace) + 1, "mode": "offline check",
            "note": "not made: the question is in another language than the document, "
            "whose words the offline ranking cannot compare",
        })  # fmt: skip
        return result
    picks, how = search.offline_instead()
    if not picks or not how.startswith("offline"):
        return result  # no word of the question matched: nothing to check against
    near = {nid for pick in picks for nid in _family(search.flat, pick)}
    chosen = result.node_ids
    if near.intersection(chosen):
        return result
    added = [nid for nid in picks if nid not in chosen][:CHECK_ADDED]
    mixed = [nid for pair in zip(chosen, added, strict=False) for nid in pair]
    result.node_ids = mixed + chosen[len(added) :] + added[len(chosen) :]
    result.trace.append({
        "step": len(result.trace) + 1, "mode": "offline check", "read": added,
        "note": f"none of the {len(chosen)} section(s) the model chose is near the offline "
        f"ranking's {len(picks)} best for the question's words: its {len(added)} best are "
        "read too",
    })  # fmt: skip
    return result


def _plan_single_pass(search: _Search, outline: str) -> Plan:
    """The whole outline in one call; a failed call or an unusable reply reads offline."""
    result = NavigationResult([], "single_pass")
    system = search.prompts.system.format(max_sections=search.k)
    user = search.prompts.user.format(
        query=search.query, extra_context=search.extra, outline=outline, history=search.history
    )
    reply = yield _Request(system, user, search_schema(search.flat))
    step: dict[str, Any] = {"step": 1, "mode": "single_pass", "candidates": len(search.flat)}
    if isinstance(reply, LLMError):
        ids, failure = [], f"search call failed ({reply})"
        step["error"] = str(reply)
    else:
        result.replies.append(reply)
        ids, failure = _single_pass_choice(reply, search.flat, step)
    if failure:
        ids, how = search.offline_instead()
        result.fallback = f"{failure}; {how} used instead"
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
    why = "chose no section" if parsed_as == "json-empty" else "gave no usable section ids"
    return [], f"the search model {why}"


@dataclass
class _LevelWalk:
    """A level-by-level walk: where it stands, what it has read, what it has spent."""

    search: _Search
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
                    {"step": config.max_steps + 1, "stopped": "max_steps reached"}
                )
        if not self.read:
            self._read_offline()
        self.result.node_ids = self.read[:k]
        return self.result

    def _step(self, step_no: int) -> Generator[_Request, LLMReply | LLMError, bool]:
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
            step["stopped"] = f"navigation budget exhausted ({refused})"
            self.result.trace.append(step)
            return False
        reply = yield request
        opened, chosen, reasoning, parsed_as = self._choice(reply, shown, step)
        if not opened and not chosen:
            self._fall_back(step_no, shown, parsed_as, step)
            return False
        self._advance(opened, chosen, step, reasoning, parsed_as)
        return True

    def _prompt(self, shown: list[str]) -> _Request:
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
        return _Request(search.prompts.level_system, user, level_schema(shown))

    def _record(self, step_no: int, shown: list[str], prefiltered: bool) -> dict[str, Any]:
        """The step's trace entry, as far as it is known before the call."""
        step: dict[str, Any] = {"step": step_no, "mode": "level", "path": self.path}
        step["candidates"] = shown[:TRACE_CANDIDATES]
        step["candidate_count"] = len(self.candidates)
        if prefiltered:
            step["note"] = (
                f"{len(self.candidates)} candidates prefiltered to {len(shown)} by offline ranking"
            )
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
            self.search.k - len(self.read), _descendants(self.search.flat, shown)
        )
        why = "search call failed" if parsed_as == "error" else "no usable choice in the reply"
        self.result.fallback = (
            f"{why} at step {step_no}; {how} used within the candidates' sections"
        )
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
        pool = _descendants(self.search.flat, self.candidates) if self.candidates else None
        self.read, how = self.search.offline(self.search.k, pool)
        result = self.result
        result.fallback = result.fallback or f"navigation chose nothing to read; {how} used"
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
    plan = _Steps(plan_navigation(
        query, document, search_llm is not None, config, prompts, extra_context, conversation,
        memory,
    ))  # fmt: skip
    while plan.request is not None:
        plan.send(_search(search_llm, plan.request, cache))
    return plan.result


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
    plan = _Steps(plan_navigation(
        query, document, search_llm is not None, config, prompts, extra_context, conversation,
        memory,
    ))  # fmt: skip
    while plan.request is not None:
        plan.send(await _asearch(search_llm, plan.request, cache))
    return plan.result


class _Steps:
    """A plan run one reply at a time, to its result: the stepping both drivers share, so
    each driver only makes the calls (blocking or awaited)."""

    def __init__(self, plan: Plan) -> None:
        self._plan = plan
        self.request: _Request | None = None
        self.result = NavigationResult([], "empty")  # the plan's own, once it returns
        self.send(None)

    def send(self, reply: LLMReply | LLMError | None) -> None:
        """Give the plan its reply (``None`` starts it): it asks again, or it is done."""
        try:
            self.request = self._plan.send(reply)  # type: ignore[arg-type]
        except StopIteration as stop:
            self.request, self.result = None, stop.value


def _search(search_llm: Any, request: _Request, cache: Cache | None) -> LLMReply | LLMError:
    """One blocking search call; a failure is the reply the plan falls back on."""
    try:
        return invoke(search_llm, request.system, request.user, schema=request.schema,
                      **_search_options(cache))  # fmt: skip
    except LLMError as exc:
        return exc


async def _asearch(search_llm: Any, request: _Request, cache: Cache | None) -> LLMReply | LLMError:
    """The awaited twin of :func:`_search`."""
    try:
        return await ainvoke(search_llm, request.system, request.user, schema=request.schema,
                             **_search_options(cache))  # fmt: skip
    except LLMError as exc:
        return exc


def _search_options(cache: Cache | None) -> dict[str, Any]:
    """Both drivers' call options: a search call, cached only when it names something."""
    return {"what": "search", "cache": cache, "cacheable": _useful}


def _useful(text: str) -> bool:
    """Cache only replies that name something: a garbage reply must be retried next time."""
    return any(ch.isdigit() for ch in text)
