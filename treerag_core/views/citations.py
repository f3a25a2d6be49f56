"""Citation markers in an answer (``[S1, p. 59]``, ``[S2]``, ``[S1; S3, p. 4]``) found and
turned into links, and the caption an answer's evidence is shown under.

The answer's text stays what the engine wrote: a front end asks where the markers are and
what each points at (a reference label and a page), and decides itself what a link does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..tree.labels import page_label

# A bracket holding one or more markers: "S" and a number, then an optional place
# ("p. 59", "pp. 3–4", "slide 4"), several separated by ";" or ",".
_BRACKET = re.compile(r"\[(S\d+(?:[^\[\]\n]{0,80}?))\]")
_MARKER = re.compile(r"(S\d+)((?:,\s*(?![S]\d)[^;,\]]+)?)")
_FIRST_NUMBER = re.compile(r"\d+")


class Citation(NamedTuple):
    """One marker: its span in the text, the reference label it names, its page if any."""

    start: int
    end: int
    ref: str
    page: int | None
    text: str


def find_citations(text: str) -> list[Citation]:
    """Every marker in ``text``, in order; a bracket naming several gives one each."""
    found: list[Citation] = []
    for bracket in _BRACKET.finditer(text):
        inner_start = bracket.start(1)
        for marker in _MARKER.finditer(bracket.group(1)):
            number = _FIRST_NUMBER.search(marker.group(2) or "")
            found.append(
                Citation(
                    start=inner_start + marker.start(),
                    end=inner_start + marker.end(),
                    ref=marker.group(1),
                    page=int(number.group()) if number else None,
                    text=marker.group(0),
                )
            )
    return found


def link_citations(
    text: str, link: Callable[[Citation], str], escape: Callable[[str], str] = str
) -> str:
    """``text`` with each marker replaced by ``link(citation)`` and everything else passed
    through ``escape`` (the brackets stay where they were)."""
    out, at = [], 0
    for citation in find_citations(text):
        out.append(escape(text[at : citation.start]))
        out.append(link(citation))
        at = citation.end
    out.append(escape(text[at:]))
    return "".join(out)


def evidence_caption(ref: Mapping[str, Any], page: int | None, language: str | None = None) -> str:
    """``S3 · Item 7 › Liquidity, p. 45``: the reference, its section's path, the page
    (named in ``language``: ``S. 45`` in German)."""
    path = " › ".join(p.strip() for p in str(ref.get("path") or ref.get("title") or "").split(">"))
    where = page_label(page, None, ref.get("page_unit"), language) if page is not None else ""
    caption = f"{ref.get('ref', '')} · {path}".strip(" ·")
    return f"{caption}, {where}" if where else caption
