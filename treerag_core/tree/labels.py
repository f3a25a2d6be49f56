"""How a section and its pages are named wherever they are shown: to people, to models
and to the ranking."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def heading_label(node: Mapping[str, Any]) -> str:
    """A section as people and models read it: its printed number, if any, and its title
    (``1.2 Simple Examples``). The number is kept apart from the title (see
    :func:`treerag_core.tree.nodes.split_number`); everything shown goes through here."""
    number, title = node.get("number"), str(node.get("title") or "")
    return f"{number} {title}" if number else title


# How a format's pages are named (``ReadResult.page_unit``): a deck's slides and a
# workbook's sheets are cited as such ("slide 4"), everything else by page.
PAGE_WORDS = {"page": ("p.", "pp."), "slide": ("slide", "slides"), "sheet": ("sheet", "sheets")}


def page_label(start: int | None, end: int | None, unit: str | None = "page") -> str:
    """``p. 4`` / ``pp. 4–6`` / ``slide 4`` / ``""`` for sources without pages: one
    spelling everywhere (``unit``: the document's ``page_unit``)."""
    if start is None:
        return ""
    one, many = PAGE_WORDS.get(unit or "page", PAGE_WORDS["page"])
    return f"{one} {start}" if end in (None, start) else f"{many} {start}–{end}"
