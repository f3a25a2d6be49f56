"""OpenDocument spreadsheets (.ods) → one page per sheet, streamed from ``content.xml``.

The XML is read with lxml's ``iterparse`` and each row dropped once read, so a sheet of a
million rows costs the rows the limits let through. ODF writes runs of identical rows and
cells once with a repeat count (a sheet's empty tail is one row "repeated 1,048,000
times"): empty runs stay one row, filled ones are expanded as the limits allow. The value a
cell shows is its text (``48,200``, ``12.5%``), except dates, read from their ISO value.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...errors import DocumentReadError
from ...limits import Limits
from ...structure.pages import ReadResult
from ...text.messages import raised
from .archive import open_zip
from .odf import q, text_of
from .tabular import MAX_CELL_CHARS, Sheet, read_sheets

MAX_COLUMNS = 16384  # a sheet's widest row (LibreOffice's and Excel's last column)


def read_ods(
    data: bytes, limits: Limits, name: str = "the spreadsheet", options: object = None
) -> ReadResult:
    """Each visible sheet a page of record lines; hidden sheets said in the warnings."""
    from lxml import etree

    archive = open_zip(data, limits, name, ".ods", "content.xml")
    try:
        with archive, archive.open("content.xml") as stream:
            events = etree.iterparse(
                stream, events=("start", "end"), resolve_entities=False, no_network=True,
                tag=(q("style:style"), q("table:table"), q("table:table-row")),
            )  # fmt: skip
            return read_sheets(_sheets(events, limits), limits, name)
    except (DocumentReadError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - lxml/zipfile/zlib raise many types
        raise raised(
            DocumentReadError, "error.damaged_ods", name=name, kind=type(exc).__name__
        ) from exc


def _sheets(events: Any, limits: Limits) -> Iterator[Sheet]:
    """A Sheet at each table's start, its rows pulled from the same stream of events."""
    hidden_styles: set[str] = set()
    for event, element in events:
        if element.tag == q("style:style") and event == "end":
            props = element.find(q("style:table-properties"))
            if props is not None and props.get(q("table:display")) == "false":
                hidden_styles.add(element.get(q("style:name")) or "")
        elif element.tag == q("table:table") and event == "start":
            name = element.get(q("table:name")) or "Sheet"
            hidden = (element.get(q("table:style-name")) or "") in hidden_styles
            rows = _rows(events, limits)
            yield Sheet(name, () if hidden else rows, hidden)
            for _ in rows:  # what the limits (or a hidden sheet) left unread
                pass


def _rows(events: Any, limits: Limits) -> Iterator[list[str]]:
    """This table's rows, up to its end; spans (merged cells) filled with their value."""
    down: dict[int, tuple[str, int]] = {}  # column → (value, rows it still covers)
    for event, element in events:
        if element.tag == q("table:table") and event == "end":
            element.clear()
            return
        if element.tag != q("table:table-row") or event != "end":
            continue
        cells = _cells(element, down)
        repeat = int(element.get(q("table:number-rows-repeated"), "1") or 1)
        element.clear()
        for _ in range(min(repeat, limits.max_sheet_rows + 1) if any(cells) else 1):
            yield cells


def _cells(row: Any, down: dict[int, tuple[str, int]]) -> list[str]:
    """A row's cells; a run of empty cells is written out only when a value follows it (a
    row's empty tail, repeated to the sheet's last column, costs nothing)."""
    cells: list[str] = []
    gap = 0
    for cell in row:
        covered = cell.tag == q("table:covered-table-cell")
        if not covered and cell.tag != q("table:table-cell"):
            continue
        col = len(cells) + gap
        value = _value(cell)
        if covered and not value:
            above = down.get(col)
            value = above[0] if above else (cells[-1] if cells and not gap else "")
            if above:
                down[col] = (above[0], above[1] - 1)
                if above[1] <= 1:
                    del down[col]
        span = int(cell.get(q("table:number-rows-spanned"), "1") or 1)
        if span > 1:
            down[col] = (value, span - 1)
        repeat = int(cell.get(q("table:number-columns-repeated"), "1") or 1)
        if not value:
            gap += repeat
            continue
        cells += [""] * min(gap, MAX_COLUMNS) + [value] * min(repeat, MAX_COLUMNS)
        gap = 0
    return cells


def _value(cell: Any) -> str:
    kind = cell.get(q("office:value-type"))
    if kind == "date":
        iso = cell.get(q("office:date-value")) or ""
        return (
            iso[:10] if iso.endswith("T00:00:00") or len(iso) == 10 else iso.replace("T", " ")[:16]
        )
    return " ".join(text_of(p) for p in cell.iter(q("text:p")))[:MAX_CELL_CHARS]
