"""Everything that talks to a chat model: calls and streams (``call``), providers and
settings (``providers``), prompts as overridable constants (``prompts``) and tolerant
reply parsing (``replies``)."""

from .call import model_name
from .prompts import SUMMARY_DOMAIN_PRESETS, summary_prompt_for
from .providers import (
    DEFAULT_MODELS,
    PROVIDERS,
    check_connection,
    describe_settings,
    make_llms,
    resolve_provider,
    settings_of,
)

__all__ = [
    "check_connection",
    "DEFAULT_MODELS",
    "describe_settings",
    "make_llms",
    "model_name",
    "PROVIDERS",
    "resolve_provider",
    "SUMMARY_DOMAIN_PRESETS",
    "summary_prompt_for",
]
__all__ += ["settings_of"]
