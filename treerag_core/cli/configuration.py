"""``docs/configuration.md``, made from the one :class:`~treerag_core.settings.Settings`:
every setting's variable, type, default and meaning (``python -m treerag_core settings
--markdown > docs/configuration.md``; a test keeps the page current)."""

from __future__ import annotations

from typing import Any

from ..llm.budgets import CALL_BUDGETS
from ..settings import GROUPS, Settings, env_name


def markdown() -> str:
    """``docs/configuration.md``: every setting, its variable, type, default and meaning."""
    out = [
        "# Configuration",
        "",
        "Made from `treerag_core/settings.py` by `python -m treerag_core settings --markdown > "
        "docs/configuration.md`; a test keeps it current.",
        "",
        "Every setting is read from its environment variable or from a `.env` file in the "
        "working directory, the same way by the app, the command line, the workers and the "
        "MCP server; a program may pass values to `Settings(...)` instead (highest first: "
        "values given, the environment, `.env`, the default). Secrets are never shown.",
    ]
    for group in GROUPS:
        out += ["", f"## {group}", ""]
        if group == "Model calls":
            out += [
                "Unset, a kind's cap and timeout are its defaults in `CALL_BUDGETS` "
                "(`treerag_core/llm/budgets.py`, each with why): "
                + ", ".join(
                    f"{kind} {b.max_tokens:,} tokens / {b.timeout_s:g} s"
                    for kind, b in CALL_BUDGETS.items()
                    if kind != "connection test"
                )
                + ".",
                "",
            ]
        out += ["| variable | type | default | meaning |", "|---|---|---|---|"]
        for name, info in Settings.model_fields.items():
            extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
            if extra.get("group") != group:
                continue
            kind = "secret" if "SecretStr" in str(info.annotation) else _type_name(info.annotation)
            default = "" if info.default in (None, "") else f"`{info.default}`"
            out.append(f"| `{env_name(name)}` | {kind} | {default} | {info.description} |")
    return "\n".join(out) + "\n"


def _type_name(annotation: Any) -> str:
    text = str(annotation).replace("typing.", "").replace("<class '", "").replace("'>", "")
    if text.startswith("Literal["):
        return "one of " + text[len("Literal[") : -1].replace("'", "`").replace("``, ", "")
    return text.replace(" | None", "").replace("NoneType", "")
