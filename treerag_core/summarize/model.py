"""The model summarizer: one call per section, in parallel, within a budget.

:class:`LLMSummarizer` makes one model call per section, top levels first, within a
per-document :class:`SummaryBudget`. The prompt gives the section's own title and its place
in the tree (its path), so the model can say what the section holds rather than where it
is; a summary that merely restates the title is asked again once, with the title named as
what not to write. A call that fails, times out, returns garbage or is refused by the
budget leaves that section the offline summary (marked ``"fallback": True`` so a later run
retries it): indexing never dies because one call failed.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict
from typing import Any

from ..errors import LLMError
from ..llm.call import invoke, model_name
from ..llm.prompts import (
    SUMMARY_RETRY_PROMPT,
    SUMMARY_SYSTEM_PROMPT,
    SUMMARY_USER_PROMPT,
    quote_section,
)
from ..llm.replies import parse_summary_reply
from ..llm.schemas import SUMMARY_SCHEMA
from ..store.base import Cache
from ..structure.confirm import make_heading_judge
from ..text.tokens import estimate_tokens
from ..tree.labels import heading_label
from ..types import FlatNode, ProgressFn, SummaryResult
from .base import SummaryBudget, truncate
from .offline import offline_summaries

DEFAULT_SYSTEM_PROMPT = SUMMARY_SYSTEM_PROMPT
DEFAULT_USER_PROMPT = SUMMARY_USER_PROMPT
# How often the waiting loop looks at the clock for timed-out calls.
POLL_S = 0.25
# A summary restates its title when it has at most this many words the title does not.
RESTATES_NEW_WORDS = 2
_WORDS = re.compile(r"[^\W_]+")


def restates_title(summary: str, node: FlatNode) -> bool:
    """Whether a summary says no more than the section's title (and path) already do:
    ``Item 7. Management's Discussion and Analysis.`` for Item 7."""
    said = set(_WORDS.findall(f"{heading_label(node)} {node.get('path') or ''}".lower()))
    said |= {"this", "the", "section", "covers", "describes", "discusses", "of", "and", "a",
             "an", "about", "on", "item", "part", "contains", "presents", "in"}  # fmt: skip
    words = _WORDS.findall(summary.lower())
    return not words or sum(1 for w in words if w not in said) <= RESTATES_NEW_WORDS


class _Ledger:
    """Budget bookkeeping shared by the worker threads (one per summarizer run)."""

    def __init__(self, budget: SummaryBudget, started: float) -> None:
        self.budget = budget
        self.started = started
        self.lock = threading.Lock()
        self.calls = 0
        self.reserved_tokens = 0
        self.tokens_in = 0
        self.tokens_out = 0
        self.failures = 0
        self.cached = 0  # replies read from the cache

    def reserve(self, tokens: int) -> str | None:
        """Take one call from the budget, or say which limit refuses it."""
        with self.lock:
            if time.perf_counter() - self.started >= self.budget.timeout_s:
                return "timeout"
            if self.calls >= self.budget.max_calls:
                return "max_calls"
            if self.reserved_tokens + tokens > self.budget.max_input_tokens:
                return "max_input_tokens"
            self.calls += 1
            self.reserved_tokens += tokens
            return None


class LLMSummarizer:
    """One model call per section, in parallel, within a budget; fallbacks never fail."""

    def __init__(
        self,
        llm: Any,
        system_prompt: str = DEFAULT_SYSTEM_PROMPT,
        user_prompt_template: str = DEFAULT_USER_PROMPT,
        max_workers: int = 10,
        budget: SummaryBudget | None = None,
        cache: Cache | None = None,
        check_headings: bool = True,
    ) -> None:
        self.llm = llm
        # Indexing with a model: the same model checks the headings found by their look.
        self.heading_judge = make_heading_judge(llm, cache=cache) if check_headings else None
        self.system_prompt = system_prompt
        self.user_prompt_template = user_prompt_template
        self.max_workers = max(1, int(max_workers or 1))
        self.budget = budget or SummaryBudget()
        self.cache = cache
        digest = hashlib.sha256(
            f"{system_prompt}\x00{user_prompt_template}\x00{self.budget.max_section_chars}".encode()
        ).hexdigest()[:12]
        self.signature = f"llm:{model_name(llm)}:{digest}"

    def __call__(self, nodes: list[FlatNode], progress: ProgressFn | None = None) -> SummaryResult:
        started = time.perf_counter()
        ledger = _Ledger(self.budget, started)
        # Top levels first: if the budget runs out, the nodes navigation starts from are done.
        order = sorted(range(len(nodes)), key=lambda i: (nodes[i].get("level", 1), i))
        summaries: dict[str, dict[str, Any]] = {}
        reasons: dict[str, int] = {}
        # What a section gets when its call fails: the offline summary, read over the document.
        fallbacks = offline_summaries(nodes)

        def record(node: FlatNode, entry: dict[str, Any]) -> None:
            reason = entry.pop("reason", None)
            entry.pop("error", None)
            if entry.get("fallback"):
                reasons[reason or "unknown"] = reasons.get(reason or "unknown", 0) + 1
            summaries[node["node_id"]] = entry
            if progress:
                done = len(summaries)
                title = node.get("title", "")[:60]
                progress(done, len(nodes), f"Summarised {done}/{len(nodes)}: {title}")

        ordered = [nodes[i] for i in order]
        for node in self._run_all(ordered, ledger, record, started, fallbacks):
            record(node, {**fallbacks[node["node_id"]], "fallback": True, "reason": "timeout"})
        return SummaryResult(summaries=summaries, stats=self._stats(summaries, reasons, ledger))

    def _run_all(
        self, nodes: list[FlatNode], ledger: _Ledger, record: Any, started: float,
        fallbacks: dict[str, dict[str, Any]],
    ) -> list[FlatNode]:  # fmt: skip
        """Run every call; returns the nodes whose call was abandoned for taking too long
        (their threads end with the client's own timeout)."""
        pool = ThreadPoolExecutor(
            max_workers=min(self.max_workers, max(1, len(nodes))), thread_name_prefix="treerag-sum"
        )
        futures: dict[Future[dict[str, Any]], FlatNode] = {}
        running_since: dict[Future[dict[str, Any]], float] = {}
        timed_out: list[FlatNode] = []
        deadline = started + self.budget.timeout_s
        try:
            futures = {pool.submit(self._one, node, ledger, fallbacks[node["node_id"]]): node
                       for node in nodes}  # fmt: skip
            pending = set(futures)
            while pending:
                timeout = min(POLL_S, max(0.0, deadline - time.perf_counter()))
                finished, pending = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
                for fut in finished:
                    record(futures[fut], fut.result())
                now = time.perf_counter()
                for fut in list(pending):
                    if fut.running():
                        running_since.setdefault(fut, now)
                        if now - running_since[fut] > self.budget.call_timeout_s:
                            pending.discard(fut)
                            timed_out.append(futures[fut])
                if now >= deadline and pending:
                    timed_out.extend(futures[f] for f in pending)
                    pending = set()
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        return timed_out

    def _one(self, node: FlatNode, ledger: _Ledger, offline: dict[str, Any]) -> dict[str, Any]:
        """One section's summary: the model's, or a marked fallback saying why not."""
        text = truncate(str(node.get("text") or ""), self.budget.max_section_chars)
        if not text.strip():  # a heading with no text of its own: nothing to summarise
            return {**offline, "fallback": False, "reason": "empty"}
        user = self.user_prompt_template.format(
            title=heading_label(node),
            path=node.get("path", ""),
            section=quote_section(text, {"title": heading_label(node)}),
            text=text,
        )
        parsed, failure = self._ask(user, ledger)
        if parsed is not None and restates_title(parsed["summary"], node):
            retry = user + SUMMARY_RETRY_PROMPT.format(summary=parsed["summary"][:200])
            again, _ = self._ask(retry, ledger)  # once; the first reply stands if it fails
            if again is not None and again["summary"]:
                parsed = again
        if parsed is None:
            return {**offline, "fallback": True, **failure}
        parsed["tags"] = parsed["tags"] or offline["tags"]
        parsed["summary"] = parsed["summary"] or offline["summary"]
        return {**parsed, "fallback": False}

    def _ask(self, user: str, ledger: _Ledger) -> tuple[dict[str, Any] | None, dict[str, str]]:
        """One call within the budget: the parsed reply, or None and why not."""
        refused = ledger.reserve(estimate_tokens(self.system_prompt + user))
        if refused:
            return None, {"reason": f"budget:{refused}"}
        try:
            reply = invoke(
                self.llm, self.system_prompt, user, what="summary", cache=self.cache,
                cacheable=lambda t: parse_summary_reply(t) is not None, schema=SUMMARY_SCHEMA,
            )  # fmt: skip
        except LLMError as exc:
            with ledger.lock:
                ledger.failures += 1
            return None, {"reason": "error", "error": str(exc)}
        with ledger.lock:
            ledger.tokens_in += reply.input_tokens if not reply.cached else 0
            ledger.tokens_out += reply.output_tokens if not reply.cached else 0
            ledger.cached += 1 if reply.cached else 0
        parsed = parse_summary_reply(reply.text)
        return (parsed, {}) if parsed is not None else (None, {"reason": "garbage"})

    def _stats(
        self, summaries: dict[str, dict[str, Any]], reasons: dict[str, int], ledger: _Ledger
    ) -> dict[str, Any]:
        stats = {
            "engine": "llm",
            "model": model_name(self.llm),
            "max_workers": self.max_workers,
            "sections": len(summaries),
            "calls": ledger.calls,
            "tokens_in": ledger.tokens_in,
            "tokens_out": ledger.tokens_out,
            "failures": ledger.failures + reasons.get("timeout", 0),
            "fallbacks": sum(1 for e in summaries.values() if e.get("fallback")),
            "fallback_reasons": reasons,
            "cached": ledger.cached,
            "seconds": round(time.perf_counter() - ledger.started, 3),
            "budget": asdict(self.budget),
        }
        return stats
