"""The Upload page's domain prompt choices over the core's summary presets."""

from __future__ import annotations

from treerag_core.llm import SUMMARY_DOMAIN_PRESETS, summary_prompt_for

PRESETS = SUMMARY_DOMAIN_PRESETS
CUSTOM = "Custom"


def system_prompt_for(preset: str, custom: str = "") -> str | None:
    """The summarizer system prompt; ``None`` means the library default."""
    focus = custom.strip() if preset == CUSTOM else PRESETS.get(preset, "")
    return summary_prompt_for(focus) if focus else None
