"""PPTX → one page per slide, each slide a section (python-pptx).

A slide is titled by its title placeholder (an untitled slide by its first line of text);
its text frames follow in reading order (top to bottom, then left to right, groups opened),
its tables as record lines (:mod:`.tabular`), its SmartArt's text from the diagram's data
part, and its speaker notes after a ``Speaker notes:`` line, so what the presenter said is
found and cited to the slide. PowerPoint's own sections (``p14:sectionLst`` in the
presentation part) become parent sections over their slides.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from ...errors import DocumentReadError
from ...limits import Limits
from ...structure.pages import ReadResult
from ...text.messages import raised
from ...tree.sections import escape_line, heading, join_pages
from .archive import check_zip, xml_parser
from .tabular import table_lines

NOTES_LINE = "Speaker notes:"
UNTITLED_CHARS = 80  # an untitled slide is named by this much of its first line
_P14 = "http://schemas.microsoft.com/office/powerpoint/2010/main"
_DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"


def read_pptx(
    data: bytes, limits: Limits, name: str = "the deck", options: object = None
) -> ReadResult:
    """Slides as pages; the deck's sections as level-1 headings when it has them."""
    check_zip(data, limits, name, ".pptx", "ppt/presentation.xml")
    try:
        import pptx

        deck = pptx.Presentation(io.BytesIO(data))
        groups = _deck_sections(deck)
        pages = []
        for number, slide in enumerate(deck.slides, 1):
            # python-pptx finds a slide's id by a search of the deck: asked only when needed
            group = groups.get(slide.slide_id) if groups else None
            lines = [heading(group, 1)] if group else []
            level = 2 if groups else 1
            pages.append("\n".join([*lines, *_slide_lines(slide, number, level)]))
            if number >= limits.max_pages:
                break
        title = deck.core_properties.title or None
    except (DocumentReadError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - python-pptx/lxml raise many types
        raise raised(
            DocumentReadError, "error.damaged_pptx", name=name, kind=type(exc).__name__
        ) from exc
    warnings = []
    if len(deck.slides) > len(pages):
        warnings.append(f"Only the first {len(pages):,} slides were read (TREERAG_MAX_PAGES).")
    return ReadResult(
        text=join_pages(pages),
        page_count=len(pages),
        title=title,
        page_unit="slide",
        structure_source="slides",
        warnings=warnings,
    )


def _deck_sections(deck: Any) -> dict[int, str]:
    """slide id → the name of the PowerPoint section it is in, only the first slide of each
    (its heading opens the section); {} when the deck has none."""
    found: dict[int, str] = {}
    for section in deck.part._element.iter(f"{{{_P14}}}section"):
        ids = [int(s.get("id")) for s in section.iter(f"{{{_P14}}}sldId")]
        if ids:
            found[ids[0]] = section.get("name") or "Section"
    return found


def _slide_lines(slide: Any, number: int, level: int) -> list[str]:
    """The slide's heading, then its text in reading order, then its notes."""
    title_shape = slide.shapes.title
    title = _text(title_shape) if title_shape is not None else ""
    body: list[str] = []
    for shape in _reading_order(slide.shapes):
        if title_shape is not None and shape._element is title_shape._element:
            continue  # python-pptx makes a new proxy per access: compare the XML
        body.extend(_shape_lines(shape, slide))
    if not title:
        first = next((line for line in body if line.strip()), "")
        title = first[:UNTITLED_CHARS] or f"Slide {number}"
        if body and first == body[0] and len(first) <= UNTITLED_CHARS:
            body = body[1:]
    lines = [heading(title, level), *(escape_line(line) for line in body)]
    notes = _notes(slide)
    if notes:
        lines += ["", NOTES_LINE, *(escape_line(line) for line in notes)]
    return lines


def _reading_order(shapes: Any) -> list[Any]:
    """Top to bottom, then left to right, by each shape's own position; a placeholder that
    inherits its place from the layout (the body, usually at the top) keeps its order at
    the top: looking the layout up costs more than the rest of reading the slide."""
    indexed = list(enumerate(shapes))
    indexed.sort(key=lambda item: (item[1]._element.y or 0, item[1]._element.x or 0, item[0]))
    return [shape for _, shape in indexed]


def _shape_lines(shape: Any, slide: Any) -> Iterator[str]:
    """A shape's text: a group's shapes in order, a table's rows, SmartArt's points."""
    if shape.shape_type is not None and int(shape.shape_type) == 6:  # MSO_SHAPE_TYPE.GROUP
        for inner in _reading_order(shape.shapes):
            yield from _shape_lines(inner, slide)
        return
    if getattr(shape, "has_table", False) and shape.has_table:
        rows = [[" ".join(cell.text.split()) for cell in row.cells] for row in shape.table.rows]
        yield ""
        yield from table_lines(rows)
        yield ""
        return
    if getattr(shape, "has_text_frame", False) and shape.has_text_frame:
        yield from (line for line in _paragraphs(shape.text_frame) if line)
        return
    yield from _smartart(shape, slide)


def _paragraphs(frame: Any) -> list[str]:
    return [" ".join(p.text.split()) for p in frame.paragraphs]


def _text(shape: Any) -> str:
    return " ".join(" ".join(_paragraphs(shape.text_frame)).split()) if shape.has_text_frame else ""


def _smartart(shape: Any, slide: Any) -> Iterator[str]:
    """SmartArt keeps its text in the diagram's data part, named by the frame's relIds."""
    element = shape._element
    for ids in element.iter(f"{{{_DGM}}}relIds"):
        rel_id = ids.get(f"{{{_REL}}}dm")
        if not rel_id:
            continue
        from lxml import etree

        part = slide.part.related_part(rel_id)
        tree = etree.fromstring(part.blob, xml_parser())
        for point in tree.iter(f"{{{_DGM}}}pt"):
            for para in point.iter(f"{{{_A}}}p"):
                text = " ".join("".join(t.text or "" for t in para.iter(f"{{{_A}}}t")).split())
                if text:
                    yield text


def _notes(slide: Any) -> list[str]:
    if not slide.has_notes_slide:
        return []
    frame = slide.notes_slide.notes_text_frame
    return [line for line in _paragraphs(frame) if line] if frame is not None else []
