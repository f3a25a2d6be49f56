"""HTML → Markdown-style text (beautifulsoup4 with the stdlib html.parser).

h1–h6 are the structure. Page chrome (scripts, styles, navigation, footers, forms...) is
dropped, but a heading inside chrome is kept first: an ``<h1>`` inside ``<header>`` or
``<nav>`` is usually the page's title. Tables become ``a | b`` rows and lists ``- item``.
"""

from __future__ import annotations

from typing import Any

from ...limits import Limits
from ...structure.pages import ReadResult
from ...tree.sections import escape_line, heading
from .tabular import table_lines
from .text import decode_bytes

_DROP_ALWAYS = ("script", "style", "noscript", "template", "svg", "canvas", "iframe", "object")
CHROME = ("nav", "footer", "aside", "form", "header", "menu", "dialog", "button", "select")
_INLINE = {
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "img",
    "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time",
    "u", "var", "wbr", "del", "ins",
}  # fmt: skip
_STRUCTURAL = [
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "table", "ul", "ol", "li", "pre", "br",
    "section", "article", "blockquote", "dl",
]  # fmt: skip
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def read_html(
    data: bytes | str, limits: Limits | None = None, name: str = "", options: object = None
) -> ReadResult:
    """Read an HTML page; title from ``<title>`` when the page has no ``<h1>``."""
    soup = parse_html(data)
    text, page_title = html_markdown(soup)
    if page_title and soup.find("h1") is None:
        text = f"{heading(page_title, 1)}\n\n{text}"
    return ReadResult(text=text, title=page_title or None, structure_source="html headings")


def parse_html(data: bytes | str) -> Any:
    """The page as a BeautifulSoup tree (stdlib parser: tolerant, nothing fetched)."""
    from bs4 import BeautifulSoup

    return BeautifulSoup(decode_bytes(data) if isinstance(data, bytes) else data, "html.parser")


def html_markdown(soup: Any) -> tuple[str, str]:
    """(Markdown-style text, ``<title>``) of a parsed page; the tree loses its chrome.

    Other readers with HTML inside (an e-book's chapters, an e-mail's HTML body) call this
    on their own soup, so a page is read one way wherever it comes from."""
    title_tag = soup.find("title")
    page_title = " ".join(title_tag.get_text(" ").split()) if title_tag else ""
    for tag in soup.find_all(_DROP_ALWAYS):
        tag.decompose()
    for tag in soup.find_all(["head"]):
        tag.decompose()
    # Chrome goes, but headings inside it are lifted out and kept in place.
    for tag in soup.find_all(CHROME):
        if tag.parent is None:  # already removed with an enclosing chrome element
            continue
        kept = [h.extract() for h in tag.find_all(_HEADINGS)]
        for h in kept:
            tag.insert_before(h)
        tag.decompose()
    lines: list[str] = []
    _walk(soup, lines)
    return "\n".join(_squeeze(lines)), page_title


def _walk(node: Any, out: list[str]) -> None:
    from bs4 import NavigableString, Tag
    from bs4.element import Comment, Declaration, Doctype, ProcessingInstruction

    buffer: list[str] = []

    def flush() -> None:
        text = " ".join("".join(buffer).split())
        buffer.clear()
        if text:
            out.append(escape_line(text))

    for child in node.children:
        if isinstance(child, (Comment, Declaration, Doctype, ProcessingInstruction)):
            continue
        if isinstance(child, NavigableString):
            buffer.append(str(child))
            continue
        if not isinstance(child, Tag):
            continue
        name = child.name.lower()
        if name in _HEADINGS:
            flush()
            title = " ".join(child.get_text(" ").split())
            if title:
                out.append("")
                out.append(heading(title, int(name[1])))
            continue
        if name == "table":
            flush()
            out.append("")
            out.extend(_table(child))
            out.append("")
            continue
        if name in {"ul", "ol"}:
            flush()
            _list(child, out, 0)
            continue
        if name == "pre":
            flush()
            out.extend(escape_line(ln.rstrip()) for ln in child.get_text().split("\n"))
            continue
        if name in _INLINE and child.find(_STRUCTURAL) is None:
            buffer.append(" " + child.get_text(" ") + " ")
            continue
        flush()  # blocks, and unknown or inline tags wrapping blocks, are walked
        if name != "br":
            _walk(child, out)
        out.append("")
    flush()


def _list(node: Any, out: list[str], depth: int) -> None:
    from bs4 import Tag

    for li in node.find_all("li", recursive=False):
        nested = [c for c in li.children if isinstance(c, Tag) and c.name in {"ul", "ol"}]
        for sub in nested:
            sub.extract()
        text = " ".join(li.get_text(" ").split())
        if text:
            out.append(f"{'  ' * depth}- {text}")
        for sub in nested:
            _list(sub, out, depth + 1)
    out.append("")


def _table(table: Any) -> list[str]:
    """The table as Word, OpenDocument and sheet tables are read (:func:`.tabular.table_lines`):
    its header row found, each row a record line (``Net sales: 2023 1,200, 2022 1,000.``),
    so it is kept as data at indexing like theirs; a table with no header, row by row."""
    rows: list[list[str]] = []
    for tr in table.find_all("tr"):
        cells = [" ".join(c.get_text(" ").split()) for c in tr.find_all(["td", "th"])]
        if any(cells):
            rows.append(cells)
    return [escape_line(line) for line in table_lines(rows)]


def _squeeze(lines: list[str]) -> list[str]:
    """At most one blank line in a row, none at the ends."""
    out: list[str] = []
    for line in lines:
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out
