"""Showing document text safely: as escaped Markdown, never as HTML."""

from __future__ import annotations

import re

from treerag_core.views import Citation, link_citations

from .cite_links import href

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=])")


def md_escape(text: object, max_chars: int | None = None) -> str:
    """Escape every Markdown/HTML-significant character so text renders literally."""
    value = " ".join(str(text if text is not None else "").split())
    if max_chars and len(value) > max_chars:
        value = value[: max_chars - 1] + "…"
    return _MD_SPECIAL.sub(r"\\\1", value)


def answer_markdown(text: object) -> str:
    """An answer as Markdown with its dollar signs literal: Streamlit reads "$…$" as LaTeX,
    so "$1,488 million; 2018 $1,544 million" would otherwise render as a formula."""
    return str(text if text is not None else "").replace("$", "\\$")


def cited_markdown(text: object, turn: int | None = None) -> str:
    """An answer as Markdown (see :func:`answer_markdown`) whose citation markers are links
    to the evidence pane (``ui.cite_links``); ``turn`` None: plain markers (a stream still
    coming in). The one place an answer's text becomes what the chat shows."""
    if turn is None:
        return answer_markdown(text)

    def link(citation: Citation) -> str:
        return f"[{citation.text}]({href(turn, citation.ref, citation.page)})"

    return link_citations(str(text if text is not None else ""), link, answer_markdown)


def plain_label(text: object, max_chars: int = 60) -> str:
    """A one-line label for buttons/options (escaped: widget labels render Markdown)."""
    return md_escape(text, max_chars)


def tooltip_text(text: object, max_chars: int = 160) -> str:
    """Text for places that end up as HTML (agraph tooltips): markup characters removed."""
    value = re.sub(r"[<>&\"'`\\]", "", " ".join(str(text or "").split()))
    return value[:max_chars]
