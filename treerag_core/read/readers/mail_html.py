"""An HTML e-mail body: read by the HTML reader, with the quoted earlier messages apart.

Mail clients mark what a reply quotes in the markup: Gmail's ``gmail_quote`` block under
its ``gmail_attr`` line, Apple Mail's and Thunderbird's ``<blockquote>`` under a
``moz-cite-prefix`` line, Outlook's ``divRplyFwdMsg`` header followed by the copy. Those are
taken out before the page is read; what Outlook and others leave as plain text
("-----Original Message-----") is found in the text afterwards, as in a plain body.
"""

from __future__ import annotations

from typing import Any

from .html import html_markdown, parse_html
from .mail_quotes import Quote, split_quotes

QUOTE_BLOCKS = "div.gmail_quote, blockquote"
ATTRIBUTION_LINES = "div.gmail_attr, div.moz-cite-prefix"
OUTLOOK_HEADER = "#divRplyFwdMsg"


def html_body(markup: str) -> tuple[str, list[Quote]]:
    """(the writer's own text as Markdown-style text, the quoted copies)."""
    soup = parse_html(markup)
    attribution = ""
    for line in soup.select(ATTRIBUTION_LINES):
        attribution = attribution or " ".join(line.get_text(" ").split()).rstrip(":")
        line.decompose()
    quotes: list[Quote] = []
    quoted = _outermost(soup.select(QUOTE_BLOCKS))
    if quoted:
        text = "\n\n…\n\n".join(html_markdown(block.extract())[0] for block in quoted)
        quotes.append(Quote(f"Quoted: {attribution}" if attribution else "Quoted text", text))
    outlook = soup.select_one(OUTLOOK_HEADER)
    if outlook is not None:
        copy = [outlook, *outlook.find_next_siblings()]
        text = "\n".join(html_markdown(tag.extract())[0] for tag in copy)
        quotes.extend(split_quotes(text)[1] or [Quote("Quoted: original message", text)])
    own, more = split_quotes(html_markdown(soup)[0])
    return own, quotes + more


def _outermost(blocks: list[Any]) -> list[Any]:
    """The quote blocks not inside another (a quote of a quote goes with its container)."""
    chosen: set[int] = set()
    kept = []
    for block in blocks:
        if not any(id(parent) in chosen for parent in block.parents):
            chosen.add(id(block))
            kept.append(block)
    return kept
