"""DOCX → Markdown-style text (python-docx), paragraphs and tables in document order.

A DOCX is a zip: before python-docx inflates anything, :func:`.archive.check_zip` sums the
members' declared sizes, so a small file that expands to gigabytes (a zip bomb) is refused
cheaply. A document typed without heading styles comes back as lines carrying each
paragraph's size and weight, so the typography rules find the headings its author made by
hand (bold or larger, short).
"""

from __future__ import annotations

import io
import re
from typing import Any

from ...errors import DocumentReadError
from ...limits import Limits
from ...structure.pages import ReadResult, RichPage, TextLine
from ...text.messages import raised
from ...tree.sections import escape_line, heading
from .archive import check_zip
from .tabular import table_lines

_HEADING_STYLE = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
DEFAULT_SIZE_PT = 11.0  # Word's body size when neither the run nor its style sets one


def read_docx(
    data: bytes, limits: Limits, name: str = "the document", options: object = None
) -> ReadResult:
    """Headings from Title / Heading n styles; tables as record lines in place."""
    check_zip(data, limits, name, ".docx", "word/document.xml")
    try:
        import docx
        from docx.table import Table
        from docx.text.paragraph import Paragraph

        document = docx.Document(io.BytesIO(data))
        blocks = list(_blocks(document, Paragraph, Table))
        has_headings = any(level is not None for level, _, _ in blocks)
        page = None if has_headings else _formatted_page(blocks, _style_fonts(document))
    except (DocumentReadError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - python-docx/lxml raise many types
        raise raised(
            DocumentReadError, "error.damaged_docx", name=name, kind=type(exc).__name__
        ) from exc
    has_title = any(level == 0 for level, _, _ in blocks if level is not None)
    title = next((text for level, text, _ in blocks if level == 0), None)
    if page is not None:
        return ReadResult(pages=[page], title=title)
    lines: list[str] = []
    for level, text, _ in blocks:
        if level is None:
            lines.extend(escape_line(ln) for ln in text.split("\n"))
        else:
            lines.append(heading(text, 1 if level == 0 else level + (1 if has_title else 0)))
    return ReadResult(text="\n".join(lines), title=title, structure_source="heading styles")


def _blocks(document: Any, paragraph_cls: Any, table_cls: Any) -> Any:
    """(heading level or None, text, paragraph or None) in body order; level 0 = Title."""
    body = document.element.body
    # Style id -> name once: python-docx's ``paragraph.style`` rescans every style for each
    # unstyled paragraph, which made a 200-page document take seconds.
    style_names = {
        style.style_id: style.name or ""
        for style in document.styles
        if getattr(style, "style_id", None)
    }
    for child in body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            para = paragraph_cls(child, document)
            text = para.text.strip()
            if not text:
                yield None, "", None
                continue
            yield _level(child.style, style_names), text, para
        elif tag == "tbl":
            yield None, _table_text(table_cls(child, document)), None
            yield None, "", None


Font = tuple[float, bool, bool]  # size in points (0 = unset), bold, italic


def _style_fonts(document: Any) -> dict[str, Font]:
    """Each paragraph style's own font, read once (python-docx's ``paragraph.style`` looks
    the style up again for every paragraph)."""
    fonts: dict[str, Font] = {}
    for style in document.styles:
        font = getattr(style, "font", None)
        if font is None or not getattr(style, "style_id", None):
            continue
        fonts[style.style_id] = (
            font.size.pt if font.size else 0.0,
            bool(font.bold),
            bool(font.italic),
        )
    return fonts


def _formatted_page(blocks: list[tuple[int | None, str, Any]], fonts: dict[str, Font]) -> RichPage:
    """One page of lines, a paragraph's carrying its size and weight (tables: plain rows)."""
    normal = fonts.get("Normal", (0.0, False, False))
    lines: list[TextLine] = []
    for _, text, para in blocks:
        if para is None:
            lines.extend(TextLine(row) for row in text.split("\n"))
            continue
        base = fonts.get(para._p.style or "Normal", normal)
        size, bold, italic, uniform = _format(para, base, normal[0] or DEFAULT_SIZE_PT)
        lines.append(TextLine(text, size, bold, italic, "", None, uniform))
    return RichPage(1, "\n".join(ln.text for ln in lines), lines)


def _format(para: Any, base: Font, default_size: float) -> tuple[float, bool, bool, bool]:
    """(size in points, bold, italic, one style throughout) of a paragraph's visible runs;
    a run without its own setting takes its paragraph style's (or the body's size)."""
    base_size, base_bold, base_italic = base
    seen: list[Font] = []
    for run in para.runs:
        if not run.text.strip():
            continue
        size = run.font.size.pt if run.font.size else base_size
        bold = base_bold if run.bold is None else bool(run.bold)
        italic = base_italic if run.italic is None else bool(run.italic)
        seen.append((size or default_size, bold, italic))
    if not seen:
        return base_size or default_size, base_bold, base_italic, True
    uniform = len({(size, bold) for size, bold, _ in seen}) == 1
    return seen[0][0], all(b for _, b, _ in seen), seen[0][2], uniform


def _level(style_id: str | None, style_names: dict[str, str]) -> int | None:
    style = style_names.get(style_id or "", style_id or "")
    if style.lower() == "title":
        return 0
    m = _HEADING_STYLE.match(style.strip())
    return int(m.group(1)) if m else None


def _table_text(table: Any) -> str:
    """The table as the offline answer reads one: its header row found, each row a record
    line (``Item Anvil: Price 100.``), as sheets and OpenDocument tables are read."""
    rows: list[list[str]] = []
    for row in table.rows:
        cells: list[str] = []
        last = None
        for cell in row.cells:
            if cell._tc is last:  # merged cells repeat the same element
                continue
            last = cell._tc
            cells.append(" ".join(cell.text.split()))
        rows.append(cells)
    return "\n".join(table_lines(rows))
