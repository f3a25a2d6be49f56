"""CSV / TSV → one sheet of record lines (the standard library's csv).

The bytes are decoded as every text file is (BOMs, UTF-8, a detected legacy encoding: see
:func:`.text.decode_bytes`); the delimiter and quoting are sniffed from the first lines
(a ``.tsv`` is tab-separated whatever they look like). Rows are read lazily, so the row and
cell limits stop the reading itself.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator

from ...errors import DocumentReadError
from ...limits import Limits
from ...structure.pages import ReadResult
from ...text.messages import raised
from .tabular import MAX_CELL_CHARS, Sheet, read_sheets
from .text import decode_bytes

SNIFF_CHARS = 64 * 1024  # enough lines for the sniffer to see the delimiter repeat
DELIMITERS = ",;\t|"  # what files really use: comma, semicolon (European Excel), tab, pipe


def read_delimited(
    data: bytes, limits: Limits, name: str = "the table", options: object = None
) -> ReadResult:
    """The file as one sheet named after it."""
    text = decode_bytes(data)
    dialect = _dialect(text, name)
    title = os.path.splitext(os.path.basename(name))[0] or "Table"
    return read_sheets([Sheet(title, _rows(text, dialect, name))], limits, name)


def _dialect(text: str, name: str) -> type[csv.Dialect] | csv.Dialect:
    if name.lower().endswith(".tsv"):
        return csv.excel_tab
    try:
        return csv.Sniffer().sniff(text[:SNIFF_CHARS], delimiters=DELIMITERS)
    except csv.Error:
        return csv.excel  # one column, or too irregular to tell: commas


def _rows(text: str, dialect: type[csv.Dialect] | csv.Dialect, name: str) -> Iterator[list[str]]:
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    try:
        for row in reader:
            yield [" ".join(cell.split())[:MAX_CELL_CHARS] for cell in row]
    except csv.Error as exc:  # a cell over csv's 128 KB field limit, a NUL in the data
        raise raised(DocumentReadError, "error.csv_unreadable", name=name, reason=str(exc)) from exc
