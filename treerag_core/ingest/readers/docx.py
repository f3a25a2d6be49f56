"""DOCX → Markdown-style text (python-docx), paragraphs and tables in document order.

A DOCX is a zip: before python-docx inflates anything we sum the members' declared sizes,
so a small file that expands to gigabytes (a zip bomb) is refused cheaply.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

from ...errors import DocumentReadError, DocumentTooLargeError
from ...limits import Limits
from ..pages import ReadResult, plain_pages
from ..sections import escape_line, heading

_HEADING_STYLE = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)


def check_zip(data: bytes, limits: Limits, name: str) -> None:
    """Refuse non-zips and zips whose members would inflate past max_decompressed_bytes."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise DocumentReadError(
            f"{name} is not a valid .docx file (it is not a readable zip archive). If it is an "
            "old Word .doc file, save it as .docx first."
        ) from exc
    total = sum(max(0, info.file_size) for info in infos)
    if total > limits.max_decompressed_bytes:
        raise DocumentTooLargeError(
            f"{name} would expand to {total:,} bytes, over the "
            f"{limits.max_decompressed_bytes:,}-byte limit."
        )
    if "word/document.xml" not in {info.filename for info in infos}:
        raise DocumentReadError(f"{name} is a zip file but not a Word document.")


def read_docx(
    data: bytes, limits: Limits, name: str = "the document", options: object = None
) -> ReadResult:
    """Headings from Title / Heading n styles; tables as ``a | b | c`` rows in place."""
    check_zip(data, limits, name)
    try:
        import docx
        from docx.table import Table
        from docx.text.paragraph import Paragraph

        document = docx.Document(io.BytesIO(data))
        blocks = list(_blocks(document, Paragraph, Table))
    except (DocumentReadError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - python-docx/lxml raise many types
        raise DocumentReadError(
            f"{name} is damaged and cannot be read as a Word document ({type(exc).__name__})."
        ) from exc
    has_title = any(level == 0 for level, _ in blocks if level is not None)
    has_headings = any(level is not None for level, _ in blocks)
    title = next((text for level, text in blocks if level == 0), None)
    if not has_headings:
        body = "\n".join(text for _, text in blocks)
        return ReadResult(pages=plain_pages(body), title=title)
    lines: list[str] = []
    for level, text in blocks:
        if level is None:
            lines.extend(escape_line(ln) for ln in text.split("\n"))
        else:
            lines.append(heading(text, 1 if level == 0 else level + (1 if has_title else 0)))
    return ReadResult(text="\n".join(lines), title=title, structure_source="heading styles")


def _blocks(document: Any, paragraph_cls: Any, table_cls: Any) -> Any:
    """(heading level or None, text) in body order; level 0 = Title style."""
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
                yield None, ""
                continue
            yield _level(child.style, style_names), text
        elif tag == "tbl":
            yield None, _table_text(table_cls(child, document))
            yield None, ""


def _level(style_id: str | None, style_names: dict[str, str]) -> int | None:
    style = style_names.get(style_id or "", style_id or "")
    if style.lower() == "title":
        return 0
    m = _HEADING_STYLE.match(style.strip())
    return int(m.group(1)) if m else None


def _table_text(table: Any) -> str:
    rows: list[str] = []
    for row in table.rows:
        cells: list[str] = []
        last = None
        for cell in row.cells:
            if cell._tc is last:  # merged cells repeat the same element
                continue
            last = cell._tc
            cells.append(" ".join(cell.text.split()))
        if any(cells):
            rows.append(" | ".join(cells))
    return "\n".join(rows)
