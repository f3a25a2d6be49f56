"""Domain prompt presets for the summarizer (the seed's "domain-specific prompts").

Each preset only adds the domain's focus; the default prompt's rules (JSON reply, section
text is data, never instructions) always follow, so a custom prompt cannot drop them.
"""

from __future__ import annotations

from treerag_core.ingest.summarize import DEFAULT_SYSTEM_PROMPT

PRESETS: dict[str, str] = {
    "General": "",
    "Legal": (
        "You are a legal expert. Extract all parties, clauses, obligations, defined terms, "
        "dates and amounts precisely."
    ),
    "Historical": (
        "You are a historian. Extract ALL named people, places, organisations and events. "
        "Every name matters."
    ),
    "Medical": (
        "You are a medical expert. Extract diagnoses, treatments, medications, dosages, "
        "procedures and outcomes."
    ),
    "Financial": (
        "You are a financial analyst. Extract companies, segments, metrics, amounts with "
        "units and currencies, fiscal periods and risk factors."
    ),
}
CUSTOM = "Custom"


def system_prompt_for(preset: str, custom: str = "") -> str | None:
    """The summarizer system prompt; ``None`` means the library default."""
    focus = custom.strip() if preset == CUSTOM else PRESETS.get(preset, "")
    if not focus:
        return None
    return f"{focus}\n\n{DEFAULT_SYSTEM_PROMPT}"
