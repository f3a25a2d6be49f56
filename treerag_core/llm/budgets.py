"""How much each kind of model call may write and how long it may wait: named, with why,
and each a setting.

A call that is not bounded is bounded by the person's patience: a small model asked for a
search reply rambled 1,122 tokens (two minutes on a CPU) before giving no section id, and
an answer that overran a 60 s client timeout became an error. So every kind of call has a
cap on its output (the server stops the model) and a timeout (the client stops waiting).

The defaults are checked by ``python -m bench.local_model``, which prints each kind's
output tokens and seconds per call (median and largest) against these caps: a search reply
with a schema is ~20-60 tokens, a summary with tags ~60-150, a short answer ~100-400.
Each cap is several times the largest reply seen, so a good reply is never cut, and a
runaway is stopped at a few times the normal cost. Timeouts: a reply of the capped size
from a CPU-served 7B model (~5-10 tokens a second after reading its prompt).

Each kind ``K`` of ``search``, ``summary``, ``heading check`` and ``answer`` is two
settings (:class:`~treerag_core.settings.Settings`): ``K_max_tokens`` and ``K_timeout``
(``TREERAG_K_MAX_TOKENS``, ``TREERAG_K_TIMEOUT``); ``llm_timeout`` (``TREERAG_LLM_TIMEOUT``),
when set, is every kind's timeout that has none. The budgets of a model made from settings
ride on the model (``metadata``), so a call needs no other argument; a model a caller built
keeps its own timeout and gets the caps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import Any

from ..errors import ConfigError
from ..settings import Settings
from ..text.messages import raised


@dataclass(frozen=True)
class CallBudget:
    """The most one call of a kind may write (tokens) and wait for its reply (seconds)."""

    max_tokens: int
    timeout_s: float


CALL_BUDGETS: Mapping[str, CallBudget] = MappingProxyType(
    {
        # A JSON object with a short reasoning and a few ids.
        "search": CallBudget(max_tokens=600, timeout_s=60.0),
        # Two or three sentences and a few tags, for each section while indexing.
        "summary": CallBudget(max_tokens=400, timeout_s=120.0),
        # A yes/no per candidate heading, as JSON.
        "heading check": CallBudget(max_tokens=400, timeout_s=60.0),
        # About a page: what a person reads in a chat turn; streamed, so the timeout is the
        # longest wait between two pieces of the reply (the whole stream has its own bound).
        "answer": CallBudget(max_tokens=1500, timeout_s=120.0),
        # "OK".
        "connection test": CallBudget(max_tokens=16, timeout_s=15.0),
    }
)
BUDGET_KEY = "treerag_call_budgets"  # where a model made from settings carries its budgets
SEARCH_MODE_KEY = "treerag_search_mode"  # and the search model, how its choice is used


def budgets_from_settings(settings: Settings) -> dict[str, dict[str, Any]]:
    """Every kind's budget from the settings (defaults where unset), as plain JSON."""
    out: dict[str, dict[str, Any]] = {}
    for kind, default in CALL_BUDGETS.items():
        slug = kind.replace(" ", "_")
        cap = getattr(settings, f"{slug}_max_tokens", None)
        wait = getattr(settings, f"{slug}_timeout", None)
        if wait is None:
            wait = settings.llm_timeout if settings.llm_timeout is not None else default.timeout_s
        budget = CallBudget(int(cap or default.max_tokens), float(wait))
        if budget.max_tokens <= 0 or budget.timeout_s <= 0:
            raise raised(ConfigError, "error.budget_positive", kind=kind)
        out[kind] = asdict(budget)
    return out


def budget_of(llm: Any, what: str) -> tuple[CallBudget | None, bool]:
    """This kind's budget for this model, and whether it came with the model (settings):
    only then is its timeout applied; a caller's own model keeps its client's timeout."""
    carried = ((getattr(llm, "metadata", None) or {}).get(BUDGET_KEY) or {}).get(what)
    if isinstance(carried, Mapping):
        try:
            return CallBudget(int(carried["max_tokens"]), float(carried["timeout_s"])), True
        except (KeyError, TypeError, ValueError):
            pass
    return CALL_BUDGETS.get(what), False
