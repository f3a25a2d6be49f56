"""How a section is named wherever it is shown: to people, to models and to the ranking."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def heading_label(node: Mapping[str, Any]) -> str:
    """A section as people and models read it: its printed number, if any, and its title
    (``1.2 Simple Examples``). The number is kept apart from the title (see
    :func:`treerag_core.ingest.tree.split_number`); everything shown goes through here."""
    number, title = node.get("number"), str(node.get("title") or "")
    return f"{number} {title}" if number else title
