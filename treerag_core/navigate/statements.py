"""The financial statement a question names ("as shown in the cash flow statement", "from
the balance sheet"): read whatever its rank.

Why the ranking alone leaves it out: a statement is a bare table, whose rows hold the
words of what is asked once each, while the question's other words (the company's name,
the year, "shown", "details") are repeated by the prose around it. On the dev questions
that name a statement, the cash flow statement of a 10-K ranked ninth for "capital
expenditure … shown in the cash flow statement", behind notes and the MD&A that discuss
capital spending; a search model reading the outline would pick it by its title. The
question saying which statement to read is the document's own name for a section: the
section whose heading is that statement's caption is read, taking one of the last places.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from ..structure.profiles import STATEMENT_QUALIFIERS as _QUALIFIERS

# And after it, only its periods, units or a second statement printed with it ("… for the
# years ended", "… at December 31", "… (in millions)", "… $ in millions", "… and
# Comprehensive Income"): a heading that goes on in other words is about the statement, not
# it (Verizon 2021's note "Balance Sheet Information", an MD&A's "Statement of Cash Flows
# Discussion").
_ENDS = r"(?=\s*$|\s*[($,:;–—-]|\s+(?:for|at|as|and|of|in|years?|fiscal|ended|usd|\d+)\b)"
# Each primary statement: how a question names it, and how a caption that is it starts.
# The comprehensive-income statement is not the income statement a question names.
STATEMENTS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    "income statement": (
        re.compile(
            r"\b(?:income\s+statements?|statements?\s+of\s+(?:income|operations|earnings)"
            r"|p\s*&\s*l|profit\s+(?:and|&)\s+loss\s+statements?|statements?\s+of\s+profit"
            r"\s+or\s+loss)\b",
            re.IGNORECASE,
        ),
        re.compile(
            _QUALIFIERS + r"(?:income\s+statements?|statements?\s+of\s+(?:consolidated\s+)?"
            r"(?:income|operations|earnings)|statements?\s+of\s+profit\s+or\s+loss)\b" + _ENDS,
            re.IGNORECASE,
        ),
    ),
    "balance sheet": (
        re.compile(r"\b(?:balance\s+sheets?|statements?\s+of\s+financial\s+position)\b", re.I),
        re.compile(
            _QUALIFIERS + r"(?:balance\s+sheets?|statements?\s+of\s+(?:consolidated\s+)?"
            r"financial\s+position)\b" + _ENDS,
            re.IGNORECASE,
        ),
    ),
    "cash flow statement": (
        re.compile(r"\b(?:cash\s+flows?\s+statements?|statements?\s+of\s+cash\s+flows?)\b", re.I),
        re.compile(
            _QUALIFIERS + r"(?:cash\s+flows?\s+statements?|statements?\s+of\s+(?:consolidated\s+)?"
            r"cash\s+flows?)\b" + _ENDS,
            re.IGNORECASE,
        ),
    ),
}


def named_statements(query: str) -> list[str]:
    """The statements ``query`` names, in the order of :data:`STATEMENTS`."""
    return [name for name, (asked, _) in STATEMENTS.items() if asked.search(query)]


def statement_sections(
    query: str,
    flat: Mapping[str, Mapping[str, Any]],
    pool: Collection[str],
    tabled: Collection[str] = (),
) -> list[tuple[str, str]]:
    """``[(node_id, statement)]``: for each statement the question names, the section of
    ``pool`` captioned as that statement, the first in document order that prints a table
    (``tabled``: the sections the document's tables are in; a statement is one, a heading
    of the same words over prose is not), else the first. A caption over no text of its own
    (its table cut into pieces below it) gives its first piece with text; one with no text
    below it either is none (there is nothing to read)."""
    out: list[tuple[str, str]] = []
    for name in named_statements(query):
        caption = STATEMENTS[name][1]
        found = [
            read for nid in pool
            if caption.match(str(flat[nid].get("title") or ""))
            and (read := _with_text(flat, nid)) is not None
        ]  # fmt: skip
        chosen = next((nid for nid in found if nid in tabled), found[0] if found else None)
        if chosen is not None:
            out.append((chosen, name))
    return out


def _with_text(flat: Mapping[str, Mapping[str, Any]], nid: str) -> str | None:
    """The section, or its first child with text when it has none of its own; None when
    neither has any."""
    if str(flat[nid].get("text") or "").strip():
        return nid
    for child in flat[nid].get("children") or []:
        if child in flat and str(flat[child].get("text") or "").strip():
            return str(child)
    return None


def statement_ids(flat: Mapping[str, Mapping[str, Any]], pool: Collection[str]) -> set[str]:
    """The sections of ``pool`` that are a primary statement: captioned as one, or a piece
    right under such a caption (a caption over no text, its table cut below it)."""
    captions = [caption for _, caption in STATEMENTS.values()]
    out: set[str] = set()
    for nid in pool:
        title = str(flat[nid].get("title") or "")
        if any(caption.match(title) for caption in captions):
            out.add(nid)
            out.update(str(c) for c in flat[nid].get("children") or [] if c in flat)
    return out
