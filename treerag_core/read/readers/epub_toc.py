"""An e-book's table of contents: the EPUB 3 navigation document, or EPUB 2's NCX.

Both say the same thing, the chapters as their author nested them, each pointing at a
place in one of the book's XHTML files (``chapter3.xhtml#section2``). An entry without a
link (a part's title grouping its chapters) is kept: it heads what follows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...errors import DocumentReadError
from ...text.messages import raised
from .archive import member_path
from .html import parse_html

# lxml reads the package files with entities left unexpanded and the network off: an
# e-book's XML may declare a DTD, which is never fetched (nor a billion laughs expanded).
_XML_OPTIONS = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "huge_tree": False,
    "recover": True,
}
# What libxml2 reports when it stops an entity bomb (it parses on, in recover mode, with
# the rest of the file missing).
_BOMB = re.compile(r"RESOURCE_LIMIT|ENTITY_LOOP|AMPLIFICATION")


@dataclass(frozen=True)
class TocEntry:
    title: str
    level: int  # 1 = top
    member: str | None  # the archive file it starts in; None for a heading without a link
    fragment: str  # the id it starts at in that file ("" = the file's start)


def parse_xml(data: bytes, what: str, name: str) -> Any:
    """An XML part of the book (container, package, NCX) as an lxml element."""
    from lxml import etree

    parser = etree.XMLParser(**_XML_OPTIONS)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise raised(DocumentReadError, "error.xml_unreadable", name=name, what=what) from exc
    if any(_BOMB.search(error.type_name) for error in parser.error_log):
        raise raised(DocumentReadError, "error.xml_entities", name=name, what=what)
    if root is None:
        raise raised(DocumentReadError, "error.xml_empty", name=name, what=what)
    return root


def text_of(element: Any) -> str:
    return " ".join("".join(element.itertext()).split()) if element is not None else ""


def _entry(title: str, level: int, base: str, href: str | None) -> TocEntry:
    member = member_path(base, href) if href else None
    fragment = href.split("#", 1)[1].strip() if href and "#" in href else ""
    return TocEntry(title or "Untitled", level, member, fragment)


def nav_entries(data: bytes, nav_member: str, name: str = "") -> list[TocEntry]:
    """The ``<nav epub:type="toc">`` list (or the document's first ``<nav>``), nested."""
    soup = parse_html(data)
    navs = soup.find_all("nav")
    toc = next((n for n in navs if "toc" in str(n.get("epub:type") or "").split()), None)
    toc = toc or (navs[0] if navs else None)
    top = toc.find("ol") if toc is not None else None
    entries: list[TocEntry] = []
    if top is not None:
        _nav_list(top, 1, nav_member, entries)
    return entries


def _nav_list(ol: Any, level: int, base: str, out: list[TocEntry]) -> None:
    for li in ol.find_all("li", recursive=False):
        label = li.find(["a", "span"], recursive=False) or li.find(["a", "span"])
        if label is not None:
            href = label.get("href") if label.name == "a" else None
            out.append(_entry(" ".join(label.get_text(" ").split()), level, base, href))
        sub = li.find(["ol", "ul"], recursive=False)
        if sub is not None:
            _nav_list(sub, level + 1, base, out)


def ncx_entries(data: bytes, ncx_member: str, name: str) -> list[TocEntry]:
    """The NCX's ``navMap``: ``navPoint``s nested as the chapters are."""
    root = parse_xml(data, "table of contents (NCX)", name)
    nav_map = next(root.iter("{*}navMap"), None)
    entries: list[TocEntry] = []
    if nav_map is not None:
        _ncx_points(nav_map, 1, ncx_member, entries)
    return entries


def _ncx_points(parent: Any, level: int, base: str, out: list[TocEntry]) -> None:
    for point in parent.iterchildren("{*}navPoint"):
        label = next(point.iterchildren("{*}navLabel"), None)
        content = next(point.iterchildren("{*}content"), None)
        href = content.get("src") if content is not None else None
        out.append(_entry(text_of(label), level, base, href))
        _ncx_points(point, level + 1, base, out)
