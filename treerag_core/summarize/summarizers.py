"""Summarizers: give each section a short summary and entity tags for the outline.

A summarizer is a callable ``(nodes, progress=None) -> SummaryResult`` with a ``signature``
attribute; the indexer reuses a stored summary only when the section's fingerprint *and*
the summarizer's signature are unchanged (a plain function works too: its name is its
signature).

:class:`LLMSummarizer` (from :func:`make_summarizer`) makes one model call per section, in
parallel, top levels first, within a per-document :class:`SummaryBudget`. A call that
fails, times out, returns garbage or is refused by the budget leaves that section a fallback
summary from its own opening text (marked ``"fallback": True`` so a later run retries it):
indexing never dies because one call failed.
"""

from __future__ import annotations

import hashlib
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass
from typing import Any

from ..errors import LLMError
from ..llm.call import invoke, model_name
from ..llm.prompts import SUMMARY_SYSTEM_PROMPT, SUMMARY_USER_PROMPT, quote_section
from ..llm.replies import parse_summary_reply
from ..llm.schemas import SUMMARY_SCHEMA
from ..store.base import Cache
from ..structure.confirm import make_heading_judge
from ..text import ENGINE_NAME
from ..text.tokens import estimate_tokens
from ..tree.outline import heading_label
from ..types import FlatNode, ProgressFn, SummaryResult
from .keyterms import offline_summary

DEFAULT_SYSTEM_PROMPT = SUMMARY_SYSTEM_PROMPT
DEFAULT_USER_PROMPT = SUMMARY_USER_PROMPT
# How often the waiting loop looks at the clock for timed-out calls.
POLL_S = 0.25


@dataclass(frozen=True)
class SummaryBudget:
    """Hard limits per document, checked before every call; nothing is retried."""

    max_calls: int = 2000
    max_input_tokens: int = 2_000_000
    timeout_s: float = 600.0  # whole document
    call_timeout_s: float = 120.0  # one call; set the client's own timeout too
    max_section_chars: int = 12_000  # section text sent per call (~3k tokens)


class NullSummarizer:
    """No summaries, no cost: the outline shows titles and pages only."""

    signature = "null"

    def __call__(self, nodes: list[FlatNode], progress: ProgressFn | None = None) -> SummaryResult:
        if progress:
            progress(len(nodes), len(nodes), "No summarizer: titles only")
        return SummaryResult(summaries={}, stats={"engine": "none", "calls": 0})


class OfflineSummarizer:
    """Leading sentences + extracted entities: deterministic, instant, no model."""

    signature = f"{ENGINE_NAME}-v1"

    def __call__(self, nodes: list[FlatNode], progress: ProgressFn | None = None) -> SummaryResult:
        started = time.perf_counter()
        summaries = {node["node_id"]: offline_summary(node) for node in nodes}
        if progress:
            progress(len(nodes), len(nodes), "Offline summaries written")
        stats = {"engine": ENGINE_NAME, "calls": 0, "sections": len(nodes)}
        stats["seconds"] = round(time.perf_counter() - started, 4)
        return SummaryResult(summaries=summaries, stats=stats)


null_summarizer = NullSummarizer()
offline_summarizer = OfflineSummarizer()


def cut_point(text: str, max_chars: int) -> int:
    """Where to cut ``text`` to at most ``max_chars``: a paragraph break, else a word break,
    in the second half; else exactly at the limit."""
    if len(text) <= max_chars:
        return len(text)
    cut = text.rfind("\n\n", 0, max_chars)
    if cut < max_chars // 2:
        cut = text.rfind(" ", 0, max_chars)
    return cut if cut >= max_chars // 2 else max_chars


def truncate(text: str, max_chars: int) -> str:
    """Cut at a paragraph or word boundary and say so, so a giant section costs a bounded call."""
    cut = cut_point(text, max_chars)
    if cut >= len(text):
        return text
    return text[:cut].rstrip() + f"\n[… {len(text) - cut:,} more characters not shown]"


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

        for node in self._run_all([nodes[i] for i in order], ledger, record, started):
            record(node, {**offline_summary(node), "fallback": True, "reason": "timeout"})
        return SummaryResult(summaries=summaries, stats=self._stats(summaries, reasons, ledger))

    def _run_all(
        self, nodes: list[FlatNode], ledger: _Ledger, record: Any, started: float
    ) -> list[FlatNode]:
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
            futures = {pool.submit(self._one, node, ledger): node for node in nodes}
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

    def _one(self, node: FlatNode, ledger: _Ledger) -> dict[str, Any]:
        """One section's summary: the model's, or a marked fallback saying why not."""
        text = truncate(str(node.get("text") or ""), self.budget.max_section_chars)
        if not text.strip():  # a heading with no text of its own: nothing to summarise
            return {**offline_summary(node), "fallback": False, "reason": "empty"}
        user = self.user_prompt_template.format(
            title=heading_label(node),
            path=node.get("path", ""),
            section=quote_section(text, {"title": heading_label(node)}),
            text=text,
        )
        refused = ledger.reserve(estimate_tokens(self.system_prompt + user))
        if refused:
            return {**offline_summary(node), "fallback": True, "reason": f"budget:{refused}"}
        try:
            reply = invoke(
                self.llm, self.system_prompt, user, what="summary", cache=self.cache,
                cacheable=lambda t: parse_summary_reply(t) is not None, schema=SUMMARY_SCHEMA,
            )  # fmt: skip
        except LLMError as exc:
            with ledger.lock:
                ledger.failures += 1
            return {**offline_summary(node), "fallback": True, "reason": "error", "error": str(exc)}
        with ledger.lock:
            ledger.tokens_in += reply.input_tokens if not reply.cached else 0
            ledger.tokens_out += reply.output_tokens if not reply.cached else 0
        parsed = parse_summary_reply(reply.text)
        if parsed is None:
            return {**offline_summary(node), "fallback": True, "reason": "garbage"}
        if not parsed["tags"]:
            parsed["tags"] = offline_summary(node)["tags"]
        if not parsed["summary"]:
            parsed["summary"] = offline_summary(node)["summary"]
        return {**parsed, "fallback": False, "cached": reply.cached}

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
            "cached": sum(1 for e in summaries.values() if e.get("cached")),
            "seconds": round(time.perf_counter() - ledger.started, 3),
            "budget": asdict(self.budget),
        }
        for entry in summaries.values():
            entry.pop("cached", None)
        return stats


def make_summarizer(
    llm: Any = None,
    system_prompt: str = DEFAULT_SYSTEM_PROMPT,
    user_prompt_template: str = DEFAULT_USER_PROMPT,
    max_workers: int = 10,
    budget: SummaryBudget | None = None,
    cache: Cache | None = None,
    check_headings: bool = True,
) -> LLMSummarizer | OfflineSummarizer:
    """A summarizer for ``index_document``; ``llm=None`` gives the offline engine.

    ``user_prompt_template`` may use ``{title}``, ``{path}``, ``{section}`` (the quoted
    text) and ``{text}`` (the raw, truncated text). ``max_workers`` below 1 is treated as 1.
    ``check_headings``: the model also checks, in one call per document, the headings found only
    by their look (``structure.confirm``); the deterministic headings stand if it fails.
    """
    if llm is None:
        return offline_summarizer
    return LLMSummarizer(
        llm, system_prompt, user_prompt_template, max_workers, budget, cache, check_headings
    )
