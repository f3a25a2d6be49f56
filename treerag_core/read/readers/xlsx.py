"""XLSX / XLSM → one page per sheet, each row a record line (openpyxl, read-only).

Only the values Excel saved with the file are read (``data_only``): formulas are never
evaluated and macros never run, so a workbook cannot make the reader compute or execute
anything. Read-only mode streams rows, so the row and cell limits stop the reading itself
and a sheet of a million rows costs the rows read, not the rows stored. Read-only mode does
not report merged areas, so their ranges are found in the sheet's XML (a regular expression
over the decompressed stream) and filled with their value.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator
from typing import Any

from ...errors import DocumentReadError
from ...limits import Limits
from ...structure.pages import ReadResult
from ...text.messages import raised
from .archive import open_zip
from .tabular import Sheet, cell_text, read_sheets

_MERGE = re.compile(rb'<(?:\w+:)?mergeCell\s+ref="([A-Z]{1,3})(\d{1,7}):([A-Z]{1,3})(\d{1,7})"')
_CHUNK = 1 << 20
Area = tuple[int, int, int, int]  # first row, first column, last row, last column (1-based)


def read_xlsx(
    data: bytes, limits: Limits, name: str = "the workbook", options: object = None
) -> ReadResult:
    """Each visible sheet a page of record lines; hidden sheets said in the warnings."""
    archive = open_zip(data, limits, name, ".xlsx", "xl/workbook.xml")
    try:
        import openpyxl

        book = openpyxl.load_workbook(
            io.BytesIO(data), read_only=True, data_only=True, keep_vba=False, keep_links=False
        )
        try:
            return read_sheets(_sheets(book, archive), limits, name)
        finally:
            book.close()
    except (DocumentReadError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - openpyxl/lxml/zipfile raise many types
        raise raised(
            DocumentReadError, "error.damaged_xlsx", name=name, kind=type(exc).__name__
        ) from exc
    finally:
        archive.close()


def _sheets(book: Any, archive: zipfile.ZipFile) -> Iterator[Sheet]:
    for sheet in book.worksheets:
        hidden = sheet.sheet_state != "visible"
        if hidden:
            yield Sheet(sheet.title, (), hidden=True)
            continue
        sheet.reset_dimensions()  # a declared size of A1:XFD1048576 pads no row
        areas = _merged_areas(archive, getattr(sheet, "_worksheet_path", ""))
        yield Sheet(sheet.title, _rows(sheet, areas))


def _rows(sheet: Any, areas: list[Area]) -> Iterator[list[str]]:
    """Each row's cells as text, a merged area's value in every cell it covers."""
    pending = sorted(areas, reverse=True)  # popped in order of their first row
    active: list[tuple[Area, str]] = []
    for number, row in enumerate(sheet.iter_rows(), 1):
        cells = [cell_text(c.value, getattr(c, "number_format", "General")) for c in row]
        while pending and pending[-1][0] == number:
            area = pending.pop()
            col = area[1] - 1
            active.append((area, cells[col] if col < len(cells) else ""))
        while pending and pending[-1][0] < number:  # an area starting on a row never read
            pending.pop()
        active = [(area, value) for area, value in active if area[2] >= number]
        for (_, first, _, last), value in active:
            if len(cells) < last:
                cells += [""] * (last - len(cells))
            for col in range(first - 1, last):
                cells[col] = cells[col] or value
        yield cells


def _merged_areas(archive: zipfile.ZipFile, path: str) -> list[Area]:
    """The sheet's merged ranges, read from its XML without building it."""
    member = path.lstrip("/")
    if member not in archive.namelist():
        return []
    areas: list[Area] = []
    tail = b""
    with archive.open(member) as stream:
        while chunk := stream.read(_CHUNK):
            text = tail + chunk
            areas += [_area(*m.groups()) for m in _MERGE.finditer(text)]
            cut = text.rfind(b"<")
            tail = text[cut:] if cut >= 0 and b">" not in text[cut:] else b""
    return areas


def _area(col1: bytes, row1: bytes, col2: bytes, row2: bytes) -> Area:
    return int(row1), _column(col1), int(row2), _column(col2)


def _column(letters: bytes) -> int:
    number = 0
    for ch in letters.decode("ascii"):
        number = number * 26 + ord(ch) - 64
    return number
