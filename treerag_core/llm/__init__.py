"""Everything that talks to a chat model: calls and streams (``call``), providers and
settings (``providers``), prompts as overridable constants (``prompts``) and tolerant
reply parsing (``replies``)."""
