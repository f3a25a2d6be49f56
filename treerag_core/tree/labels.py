"""How a section and its pages are named wherever they are shown: to people, to models
and to the ranking."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..text.messages import message


def heading_label(node: Mapping[str, Any]) -> str:
    """A section as people and models read it: its printed number, if any, and its title
    (``1.2 Simple Examples``). The number is kept apart from the title (see
    :func:`treerag_core.tree.nodes.split_number`); everything shown goes through here."""
    number, title = node.get("number"), str(node.get("title") or "")
    return f"{number} {title}" if number else title


# How a format's pages are named (``ReadResult.page_unit``): a deck's slides and a
# workbook's sheets are cited as such ("slide 4"), everything else by page; the words are
# the message catalogue's (``page.<unit>.one`` / ``.many``), English unless asked.
PAGE_UNITS = ("page", "slide", "sheet")


def page_label(
    start: int | None, end: int | None, unit: str | None = "page", language: str | None = None
) -> str:
    """``p. 4`` / ``pp. 4–6`` / ``slide 4`` / ``""`` for sources without pages: one
    spelling everywhere (``unit``: the document's ``page_unit``; ``language``: the reader's,
    ``S. 4`` in German)."""
    if start is None:
        return ""
    unit = unit if unit in PAGE_UNITS else "page"
    if end in (None, start):
        return message(f"page.{unit}.one", language, start=start)
    return message(f"page.{unit}.many", language, start=start, end=end)


# A title cut from a stand-in or a caption may carry its pages already: "… (pp. 36–37)".
_PAGES_SUFFIX = re.compile(r"\s*\((?:p|pp|pages?|slides?|sheets?)\.?\s[^()]*\)\s*$", re.I)
# A parent shown for context by its number alone when it has one: "Item 7", "Note 4", "3.2".
_NUMBERED_HEAD = re.compile(r"^((?:part|item|note|chapter|section|schedule|article)\s+"
                            r"[\dIVXLC]+[A-Z]?|\d{1,3}(?:\.\d+)*(?=\s))\b", re.I)  # fmt: skip
CONTEXT_CHARS = 40  # a parent shown for context is cut to this


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def own_title(node: Mapping[str, Any]) -> str:
    """The section's label without pages a stand-in title carried in it."""
    return _PAGES_SUFFIX.sub("", heading_label(node)).strip()


def short_label(node: Mapping[str, Any]) -> str:
    """A parent as context: its number when it has one (``Item 7``), else its title, cut."""
    label = own_title(node)
    numbered = _NUMBERED_HEAD.match(label)
    if numbered:
        return numbered.group(1)
    return label if len(label) <= CONTEXT_CHARS else label[: CONTEXT_CHARS - 1].rstrip() + "…"


def repeated_titles(flat: Mapping[str, Mapping[str, Any]]) -> frozenset[str]:
    """The titles (normalised) that more than one section of the document has: what
    :func:`context_label` asks of every section, counted once for all of a question's
    references (counted for each, it was an eighth of a warm server's CPU in
    ``bench.load``: each reference read every title of a 10-K with a regular expression)."""
    counts = Counter(_norm(own_title(node)) for node in flat.values())
    return frozenset(title for title, count in counts.items() if count > 1)


def context_label(
    flat: Mapping[str, Mapping[str, Any]],
    node_id: str,
    repeated: frozenset[str] | None = None,
) -> str:
    """A section as a list of references or search results shows it: its own title, with
    its parent in front where another section of the document has the same title
    (``Item 7 › Fiscal 2023 compared to fiscal 2022``), or the heading of its group where its
    siblings share the title too (:func:`_group_heading`). ``repeated``: the document's
    :func:`repeated_titles`, when the caller labels several of its sections."""
    node = flat[node_id]
    title = own_title(node)
    repeated = repeated_titles(flat) if repeated is None else repeated
    parent = flat.get(str(node.get("parent_id") or ""))
    if _norm(title) not in repeated or parent is None:
        return title
    return f"{short_label(_group_heading(flat, parent, node_id, title) or parent)} › {title}"


def _group_heading(
    flat: Mapping[str, Mapping[str, Any]], parent: Mapping[str, Any], node_id: str, title: str
) -> Mapping[str, Any] | None:
    """Where siblings share the section's title (3M's "Year 2018 results:" after each
    segment's heading, all children of "Performance by Business Segment"), the nearest
    sibling before it whose title none of them repeats: the parent tells them apart no
    more than the title does."""
    kids = [str(c) for c in parent.get("children") or [] if str(c) in flat]
    if node_id not in kids:
        return None
    counts = Counter(_norm(own_title(flat[c])) for c in kids)
    if counts[_norm(title)] < 2:
        return None
    for kid in reversed(kids[: kids.index(node_id)]):
        if counts[_norm(own_title(flat[kid]))] == 1:
            return flat[kid]
    return None


def label_with_pages(
    label: str,
    start: int | None,
    end: int | None,
    unit: str | None = "page",
    language: str | None = None,
) -> str:
    """``Title, pp. 44–45``: the pages once, whatever the title already carried."""
    pages = page_label(start, end, unit, language)
    label = _PAGES_SUFFIX.sub("", label).strip()
    return f"{label}, {pages}" if pages else label
