"""OpenDocument text (.odt) and presentations (.odp), read from their XML (zipfile + lxml).

ODF keeps a document's body in ``content.xml``: headings are ``text:h`` with an outline
level (or paragraphs in a "Heading n" style), tables ``table:table``, a presentation's
slides ``draw:page`` with frames of class ``title``, ``outline`` … and their speaker notes
in ``presentation:notes``. The same few elements need no library of their own. Spreadsheets
(.ods) are streamed by :mod:`.ods`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ...errors import DocumentReadError
from ...limits import Limits
from ...structure.pages import ReadResult
from ...text.messages import raised
from ...tree.sections import escape_line, heading, join_pages
from .archive import open_zip, read_member, xml_parser
from .pptx import NOTES_LINE, UNTITLED_CHARS
from .tabular import table_lines

NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "svg": "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0",
    "presentation": "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0",
    "meta": "urn:oasis:names:tc:opendocument:xmlns:meta:1.0",
    "dc": "http://purl.org/dc/elements/1.1/",
}
_HEADING_STYLE = re.compile(r"^heading(?:_20_|\s*)([1-9])$", re.IGNORECASE)
_SKIPPED = {f"{{{NS['office']}}}annotation", f"{{{NS['text']}}}note"}


def q(name: str) -> str:
    """``text:p`` → lxml's ``{urn:…:text:1.0}p``."""
    prefix, local = name.split(":")
    return f"{{{NS[prefix]}}}{local}"


def open_content(data: bytes, limits: Limits, name: str, label: str, mime: str) -> Any:
    """The parsed ``content.xml`` of an ODF file of the given MIME type."""
    archive = open_zip(data, limits, name, label, "content.xml")
    with archive:
        kind = read_member(archive, "mimetype", name) if "mimetype" in archive.namelist() else b""
        if kind and kind.strip() != mime.encode():
            raise raised(DocumentReadError, "error.odf_not_kind", name=name, label=label)
        return _parse(read_member(archive, "content.xml", name), name, label)


def _parse(xml: bytes, name: str, label: str) -> Any:
    from lxml import etree

    try:
        return etree.fromstring(xml, xml_parser())
    except etree.XMLSyntaxError as exc:
        raise raised(DocumentReadError, "error.odf_not_xml", name=name, label=label) from exc


def text_of(element: Any) -> str:
    """A paragraph's text: spaces (``text:s``), tabs and breaks as spaces, notes left out."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        if node.tag in _SKIPPED:
            return
        if node.tag in (q("text:s"), q("text:tab"), q("text:line-break")):
            parts.append(" ")
        elif node.text:
            parts.append(node.text)
        for child in node:
            walk(child)
            if child.tail:
                parts.append(child.tail)

    walk(element)
    return " ".join("".join(parts).split())


def table_rows(table: Any) -> list[list[str]]:
    """A (small) table's rows as text, repeated rows and cells expanded, spans filled."""
    rows: list[list[str]] = []
    for row in table.iter(q("table:table-row")):
        cells: list[str] = []
        for cell in row:
            if cell.tag not in (q("table:table-cell"), q("table:covered-table-cell")):
                continue
            value = " ".join(text_of(p) for p in cell.iter(q("text:p")))
            repeat = min(int(cell.get(q("table:number-columns-repeated"), "1")), 256)
            cells += [value or (cells[-1] if cell.tag.endswith("covered-table-cell") else "")]
            cells += [value] * (repeat - 1)
        rows.append(cells)
    return rows


# --- text documents -------------------------------------------------------------------------


def read_odt(
    data: bytes, limits: Limits, name: str = "the document", options: object = None
) -> ReadResult:
    """Headings from outline levels and Heading n styles (like Word's); tables as records."""
    root = open_content(data, limits, name, ".odt", "application/vnd.oasis.opendocument.text")
    levels = _heading_styles(root)
    body = root.find(f"{q('office:body')}/{q('office:text')}")
    if body is None:
        raise raised(DocumentReadError, "error.odf_no_body", name=name)
    lines: list[str] = []
    title = None
    for kind, level, text in _blocks(body, levels):
        if kind == "heading":
            title = title or (text if level == 0 else None)
            lines.append(heading(text, max(1, level)))
        elif kind == "table":
            lines.append(text)
        else:
            lines.append(escape_line(text))
    return ReadResult(text="\n".join(lines), title=title, structure_source="heading styles")


def _heading_styles(root: Any) -> dict[str, int]:
    """Automatic paragraph styles that derive from a heading style → its level (Title 0)."""
    levels: dict[str, int] = {}
    for style in root.iter(q("style:style")):
        parent = style.get(q("style:parent-style-name")) or ""
        level = _style_level(parent)
        if level is not None:
            levels[style.get(q("style:name")) or ""] = level
    return levels


def _style_level(style: str) -> int | None:
    if style.lower() == "title":
        return 0
    m = _HEADING_STYLE.match(style.strip())
    return int(m.group(1)) if m else None


def _blocks(container: Any, levels: dict[str, int]) -> Iterator[tuple[str, int, str]]:
    """(heading | text | table, level, text) in body order; sections and lists opened."""
    for node in container:
        if node.tag == q("text:h"):
            text = text_of(node)
            if text:
                yield "heading", int(node.get(q("text:outline-level"), "1") or 1), text
        elif node.tag == q("text:p"):
            text = text_of(node)
            style = node.get(q("text:style-name")) or ""
            level = levels.get(style, _style_level(style))
            if text:
                yield ("heading" if level is not None else "text"), level or 0, text
        elif node.tag == q("table:table"):
            for line in ["", *table_lines(table_rows(node)), ""]:
                yield "table", 0, escape_line(line)
        elif node.tag in (q("text:list"), q("text:list-item"), q("text:section")):
            yield from _blocks(node, levels)


# --- presentations --------------------------------------------------------------------------


def read_odp(
    data: bytes, limits: Limits, name: str = "the presentation", options: object = None
) -> ReadResult:
    """Each ``draw:page`` a slide: its title frame, its other frames in reading order, its
    tables and its speaker notes, as a .pptx deck is read."""
    root = open_content(
        data, limits, name, ".odp",
        "application/vnd.oasis.opendocument.presentation",
    )  # fmt: skip
    pages = []
    for number, page in enumerate(root.iter(q("draw:page")), 1):
        if number > limits.max_pages:
            break
        pages.append("\n".join(_slide(page, number)))
    return ReadResult(
        text=join_pages(pages), page_count=len(pages), page_unit="slide", structure_source="slides"
    )


def _slide(page: Any, number: int) -> list[str]:
    title, body = "", []
    for frame in _ordered(page):
        if frame.get(q("presentation:class")) == "title" and not title:
            title = text_of(frame)
            continue
        body += _frame_lines(frame)
    if not title:
        first = next((line for line in body if line), "")
        title = first[:UNTITLED_CHARS] or page.get(q("draw:name")) or f"Slide {number}"
        if body and body[0] == first and len(first) <= UNTITLED_CHARS:
            body = body[1:]
    lines = [heading(title, 1), *(escape_line(line) for line in body)]
    notes = page.find(q("presentation:notes"))
    said = [text_of(p) for p in notes.iter(q("text:p"))] if notes is not None else []
    if any(said):
        lines += ["", NOTES_LINE, *(escape_line(s) for s in said if s)]
    return lines


def _ordered(container: Any) -> list[Any]:
    """The container's shapes top to bottom, then left to right (notes are not shapes)."""
    shapes = [c for c in container if c.tag != q("presentation:notes") and isinstance(c.tag, str)]
    return sorted(shapes, key=lambda s: (_length(s.get(q("svg:y"))), _length(s.get(q("svg:x")))))


def _length(value: str | None) -> float:
    m = re.match(r"-?[\d.]+", value or "")
    return float(m.group(0)) if m else 0.0


def _frame_lines(frame: Any) -> list[str]:
    if frame.tag == q("draw:g"):
        return [line for inner in _ordered(frame) for line in _frame_lines(inner)]
    table = frame.find(f".//{q('table:table')}")
    if table is not None:
        return ["", *table_lines(table_rows(table)), ""]
    return [t for t in (text_of(p) for p in frame.iter(q("text:p"), q("text:h"))) if t]
