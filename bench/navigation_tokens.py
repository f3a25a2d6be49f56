"""Tokens one question sends to the search model, measured on the real prompts.

Why not a server: ``navigate.plan_navigation`` is a generator that yields each prompt and
receives the reply, so a scripted "model" can drive it in-process and every prompt's size
is known exactly. Tokens are estimated as characters / 4 (the same rule as
``text.tokens.estimate_tokens``); no tokenizer is downloaded.

The scripted model for level-by-level navigation opens the first two candidates that have
sub-sections at each level and reads leaves once it reaches them: a plausible, slightly
generous walk (a real model usually opens fewer).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

_CANDIDATE = re.compile(r"^\s*- \[(\d+)\].*?(\+\d+)?$", re.M)


def chars_to_tokens(chars: int) -> int:
    """The benchmark's token estimate: four characters per token."""
    return chars // 4


def scripted_reply(user_prompt: str, open_per_level: int = 2, read: int = 5) -> str:
    """A JSON reply for either prompt kind: single-pass picks, or open/read for a level."""
    found = _CANDIDATE.findall(user_prompt)
    if "Candidates" not in user_prompt:  # single pass: pick the first few ids
        return json.dumps({"reasoning": "scripted", "node_list": [i for i, _ in found[:read]]})
    parents = [i for i, more in found if more]
    leaves = [i for i, more in found if not more]
    if parents:
        return json.dumps({"reasoning": "scripted", "open": parents[:open_per_level], "read": []})
    return json.dumps({"reasoning": "scripted", "open": [], "read": leaves[:read]})


def run_plan(
    document: dict[str, Any], question: str, config: Any, open_per_level: int = 2
) -> dict[str, Any]:
    """Drive one navigation with the scripted model; count calls and prompt characters."""
    from treerag_core.llm.call import LLMReply
    from treerag_core.navigate.base import SearchPrompts
    from treerag_core.navigate.plan import plan_navigation

    plan = plan_navigation(question, document, True, config, SearchPrompts())
    calls = chars = 0
    try:
        request = next(plan)
        while True:
            size = len(request.system) + len(request.user)
            calls += 1
            chars += size
            text = scripted_reply(request.user, open_per_level=open_per_level)
            reply = LLMReply(text=text, input_tokens=size // 4)
            request = plan.send(reply)
    except StopIteration as stop:
        result = stop.value
    return {"calls": calls, "tokens": chars_to_tokens(chars), "mode": result.mode}


def navigation_tokens(
    document: dict[str, Any], question: str, open_per_level: int = 2
) -> dict[str, Any]:
    """Single pass over the whole outline vs the default (level-by-level when large)."""
    from treerag_core.navigate.base import NavigationConfig

    default = NavigationConfig()
    whole = replace(default, single_pass_max_chars=10**9)
    single = run_plan(document, question, whole)
    levels = run_plan(document, question, default, open_per_level)
    return {
        "outline_chars": len(document.get("tree_outline") or ""),
        "single_pass_tokens": single["tokens"],
        "single_pass_calls": single["calls"],
        "default_mode": levels["mode"],
        "default_tokens": levels["tokens"],
        "default_calls": levels["calls"],
    }
