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

Settings (dict keys, or the environment names in brackets), for each kind ``K`` of
``search``, ``summary``, ``heading check`` (``heading_check``) and ``answer``:
``K_max_tokens`` [TREERAG_K_MAX_TOKENS] and ``K_timeout_s`` [TREERAG_K_TIMEOUT];
``timeout_s`` [TREERAG_LLM_TIMEOUT], when set, is every kind's timeout that has none.
The budgets of a model made from settings ride on the model (``metadata``), so a call
needs no other argument; a model a caller built keeps its own timeout and gets the caps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import Any

from ..errors import ConfigError


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


def setting_keys(kind: str) -> tuple[str, str]:
    """The settings of one kind: its cap and its timeout."""
    slug = kind.replace(" ", "_")
    return f"{slug}_max_tokens", f"{slug}_timeout_s"


def environment_names() -> dict[str, str]:
    """Setting key → environment variable, for every kind of call a person may tune."""
    names: dict[str, str] = {}
    for kind in CALL_BUDGETS:
        if kind == "connection test":
            continue
        cap, wait = setting_keys(kind)
        slug = kind.replace(" ", "_").upper()
        names[cap], names[wait] = f"TREERAG_{slug}_MAX_TOKENS", f"TREERAG_{slug}_TIMEOUT"
    return names


def _positive(settings: Mapping[str, Any], key: str, default: float, kind: type) -> Any:
    raw = settings.get(key)
    if raw in (None, ""):
        return default
    try:
        value = kind(float(raw)) if kind is int else kind(raw)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"Setting {key} must be a number, not {raw!r}.") from exc
    if value <= 0:
        raise ConfigError(f"Setting {key} must be more than 0.")
    return value


def budgets_from_settings(settings: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every kind's budget from the settings (defaults where unset), as plain JSON."""
    shared_wait = settings.get("timeout_s")
    out: dict[str, dict[str, Any]] = {}
    for kind, default in CALL_BUDGETS.items():
        cap_key, wait_key = setting_keys(kind)
        wait_default = default.timeout_s
        if shared_wait not in (None, ""):
            wait_default = _positive(settings, "timeout_s", default.timeout_s, float)
        budget = CallBudget(
            _positive(settings, cap_key, default.max_tokens, int),
            _positive(settings, wait_key, wait_default, float),
        )
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
