"""Tables as data: rows of label + numeric cells, with their column periods and unit.

PDF text gives a financial statement as lines such as ``Net sales $ 177,866 $ 232,887``
under a header line of years (``2017 2018``) and a units line (``(in millions)``). This module
reads those lines back into rows a question can be answered from: each row keeps its label
(re-joined when the PDF wrapped it over two lines), its cells (negatives in parentheses,
dashes as empty cells), the header cell of each column, the table's unit and currency, and
the caption lines above the table. Only layout is used (numbers at the end of a line, years
in a header), so it works for any language whose numbers are written in digits.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from .numbers import MONTHS, Cell, currency_of, header_cells, is_bare_year, parse_cell, unit_of

# A line ending in numbers whose label is longer than this is prose that happens to end in
# a number, not a table row (the longest statement labels run to about 15 words).
MAX_LABEL_WORDS = 20
# A single-cell line needs a short label to count as a row: "Total 30" is a row, a wrapped
# sentence ending in "approximately 230" is not.
MAX_SINGLE_CELL_LABEL_WORDS = 10
# Prose lines (this many words, no cells) between rows end a table: its header no longer applies.
PROSE_LINE_WORDS = 12
PROSE_LINES_END_TABLE = 2
# Caption: the non-row lines just above a table (its title, its column words).
CAPTION_LINES = 3
# Words that leave a cell in the label: "net of tax of $5, $6, and $(5) 533 (538) 78".
LABEL_CONNECTORS = frozenset("and or of to by from in at for with than".split())
# Rows whose figures are not amounts in the table's unit ("in millions" does not apply):
# labels with these phrases, or ending in these words.
UNITLESS_LABEL_PHRASES = ("per share", "per common share", "per diluted share", "%")
UNITLESS_LAST_WORDS = frozenset("rate ratio percent percentage margin% yield".split())
TERMINAL = ".!?;"  # what ends a sentence, and so a label or a heading
LEAD_ENDS = TERMINAL + ":"  # …or a lead-in: the rows below it follow
_SPACED_PARENS = re.compile(r"\(\s*([$€£¥]?\s?[\d,.]+)\s*\)")
_DOT_LEADER = re.compile(r"\s*\.{2,}.*$")
_LABEL_TEXT = re.compile(r"[^\W\d_]|\b\d{4}\b")
# Lines whose reading is remembered (see ``_line_kind``): a 300-page filing has about 9,000
# distinct lines; a line and its reading take about half a kilobyte.
LINE_CACHE = 16384
_CELL_ENDS = frozenset(
    "0123456789)%—–-−*AaMm"
)  # how a cell can end: digit, ")", "%", dash, n/a, NM
# A line that can be a row: one whose last printed character can end a cell. A text with
# none (a page of prose, a Markdown section) has no rows, told in one scan in C, not a
# reading of each line (a 2 MB Markdown file's 2,000 sections: 0.11 s of its indexing).
_ROW_END = re.compile("[" + re.escape("".join(sorted(_CELL_ENDS))) + r"]\s*$", re.MULTILINE)


@dataclass
class Row:
    """One table row of a text: where it is, what it says, how to read its columns."""

    label: str
    cells: list[Cell]
    start: int  # character offsets of the row's lines in the text
    end: int
    table: int  # rows of one table share this number
    columns: list[str | None] = field(default_factory=list)  # header cell per cell, if known
    years: list[int | None] = field(default_factory=list)  # the year of each column
    header: str = ""  # the header line as printed (years or not)
    unit: str = ""  # "million", "thousand", "billion" or ""
    currency: str = ""
    caption: str = ""  # the lines above the table: title, column words
    parents: list[str] = field(default_factory=list)  # its headings (see .row_headings)


def split_row(line: str) -> tuple[str, list[Cell]] | None:
    """``(label, cells)`` when ``line`` ends in numeric cells, else None."""
    if not line or line[-1] not in _CELL_ENDS:
        return None
    tokens = _SPACED_PARENS.sub(r"(\1)", line).split()  # "(28,107 )" → "(28,107)"
    cells: list[Cell] = []
    percent = False
    i = len(tokens)
    while i > 0:
        token = tokens[i - 1]
        if token == "%":
            percent, i = True, i - 1
            continue
        if token in "$€£¥" and cells:  # "$ 5,363": the sign belongs to the cell after it
            first = cells[0]
            cells[0] = Cell(token + first.text, first.value, first.negative, token, first.percent)
            i -= 1
            continue
        cell = parse_cell(token + ("%" if percent and not token.endswith("%") else ""))
        if cell is None:
            break
        cells.insert(0, cell)
        percent = False
        i -= 1
    if not cells:
        return None
    label_tokens = tokens[:i]
    if label_tokens and label_tokens[-1].lower().strip(".") in MONTHS:
        return None  # "Years ended December 31": a date, not a row
    # "… net of tax of $5, $6, and $(5) 533 (538) 78": a cell after a connector is prose;
    # a capitalised connector alone is a row's own label: a vote's "For 901,248,622".
    alone = len(label_tokens) == 1 and label_tokens[0][:1].isupper() and not is_bare_year(cells[-1])
    while cells and label_tokens and not alone and label_tokens[-1].lower() in LABEL_CONNECTORS:
        label_tokens.append(cells.pop(0).text)
    # "2024 1,097 862" and "Balance as of December 31, 2018 491 …": a leading year is a label.
    if len(cells) > 1 and is_bare_year(cells[0]):
        label_tokens.append(cells.pop(0).text)
    label = " ".join(label_tokens).strip(" .:…$€£¥")
    label = _DOT_LEADER.sub("", label)  # "Net sales ........"
    if not cells or not _LABEL_TEXT.search(label):
        return None
    words = len(label.split())
    if words > MAX_LABEL_WORDS or (len(cells) == 1 and words > MAX_SINGLE_CELL_LABEL_WORDS):
        return None
    return label, cells


def _more_columns(
    header: list[tuple[str, int | None]] | None,
    line: str,
    cols: list[tuple[str, int | None]],
    new_line: str,
) -> tuple[list[tuple[str, int | None]], str]:
    """A header printed over several lines ("FISCAL 2019 FISCAL 2018 % CHANGE" / "FISCAL
    2017") gains columns; a header repeating known years replaces the one before."""
    if header and not {y for _, y in cols} & {y for _, y in header}:
        return [*header, *cols], f"{line} {new_line}"
    return cols, new_line


def _continues_label(pending: str, line: str) -> bool:
    """A label the PDF wrapped: the next line starts in lower case, or this one ends on a
    connector or a comma ("Purchases of property, plant and" / "equipment (1,577)"). A
    colon ends a lead-in: what follows is the first row under it."""
    if not pending or pending[-1] in LEAD_ENDS or len(pending.split()) > MAX_LABEL_WORDS:
        return False
    last = pending.split()[-1].lower()
    first = (line.split() or [""])[0].lower()
    return (
        line[:1].islower()
        or pending.endswith((",", "-", "("))
        or last in LABEL_CONNECTORS
        or first in LABEL_CONNECTORS  # "EARNINGS BEFORE INTEREST" / "AND TAXES $ 1,323"
    )


def table_rows(text: str, lead: str = "") -> list[Row]:
    """Every table row of ``text``; ``lead`` is the text just before it (a cut-off table's
    header and units line), read for context only: its rows are not returned."""
    if not _ROW_END.search(text):
        return []
    reader = _TableReader()
    offset = -len(lead) - 1 if lead else 0
    for raw in (f"{lead}\n{text}" if lead else text).split("\n"):
        reader.read(raw, offset)
        offset += len(raw) + 1
    return reader.finish()


@functools.lru_cache(maxsize=LINE_CACHE)
def _line_kind(
    line: str,
) -> tuple[
    str | None, tuple[tuple[str, int | None], ...] | None, tuple[str, tuple[Cell, ...]] | None
]:
    """A stripped line's unit, header columns and row (label, cells), as far as the line
    alone tells. Remembered: a section's lines are read for its summary and again for the
    document's tables, and each section's tables read the tail of the one before."""
    cols = header_cells(line)
    parsed = None if cols is not None else split_row(line)
    return (
        unit_of(line),
        None if cols is None else tuple(cols),
        None if parsed is None else (parsed[0], tuple(parsed[1])),
    )


@dataclass
class _TableReader:
    """Lines read in order: the table they are in (its header, unit, caption), a label the
    PDF may have wrapped over lines, and the rows so far."""

    rows: list[Row] = field(default_factory=list)
    header: list[tuple[str, int | None]] | None = None
    header_line: str = ""
    unit: str = ""
    currency: str = ""
    caption: str = ""
    recent: list[str] = field(default_factory=list)  # the non-row lines since the last row
    table: int = 0
    prose: int = 0  # prose lines since the last row
    in_table: bool = False
    pending: str = ""  # a non-row line that may be the start of the next row's label
    pending_start: int = 0
    signs: dict[int, str] = field(default_factory=dict)  # the currency sign a table prints
    # the last line read was a header or units line: a header line now continues it (a
    # header printed over lines), else it replaces it (a date above the table is no column)
    fresh: bool = False

    def read(self, raw: str, start: int) -> None:
        """One line of the text, ``start`` its offset (negative: a line of the lead)."""
        line = raw.strip()
        if not line:
            return
        found_unit, cols, parsed = _line_kind(line)
        if parsed is not None:
            self._row(parsed[0], list(parsed[1]), start, start + len(raw))
        elif found_unit or cols is not None:
            self._header(line, found_unit, None if cols is None else list(cols))
        else:
            self._text(line, start)

    def finish(self) -> list[Row]:
        """The rows; statements print "$" on a table's first and total rows only: the rest
        are in it too."""
        for row in self.rows:
            if row.unit and not row.currency:
                row.currency = self.signs.get(row.table, "")
        return self.rows

    def _end_table(self) -> None:
        """The header and unit no longer apply; after rows, the next row starts a table."""
        if self.in_table:
            self.table, self.in_table = self.table + 1, False
        self.header, self.header_line, self.unit, self.currency = None, "", "", ""

    def _header(
        self, line: str, found_unit: str | None, cols: list[tuple[str, int | None]] | None
    ) -> None:
        """A header or units line; after rows it starts a new table, whose unit is the one
        printed with it."""
        if self.in_table:
            self._end_table()
        self.recent = [*self.recent, line][-CAPTION_LINES:]
        if found_unit:
            self.unit, self.currency = found_unit, currency_of(line) or self.currency
        if cols is not None:
            before = (self.header, self.header_line) if self.fresh else (None, "")
            self.header, self.header_line = _more_columns(*before, cols, line)
        self.pending = ""
        self.fresh = True

    def _text(self, line: str, start: int) -> None:
        """A line that is no row: a caption, a label's first half, or prose that ends a table."""
        self.fresh = False
        if len(line.split()) >= PROSE_LINE_WORDS and line[-1:] in TERMINAL:
            self.prose += 1
            if self.prose >= PROSE_LINES_END_TABLE:
                self._end_table()
        if self.pending and _continues_label(self.pending, line):
            self.pending = f"{self.pending} {line}"
        else:
            self.pending, self.pending_start = line, start
        self.recent = [*self.recent, line][-CAPTION_LINES:]

    def _row(self, label: str, cells: list[Cell], start: int, end: int) -> None:
        """A row, its label joined to the line(s) it wraps from; a row of the lead only
        opens its table and notes its currency sign."""
        if self.pending and _continues_label(self.pending, label):
            label, start = f"{self.pending} {label}", self.pending_start
            self.recent = [r for r in self.recent if r not in self.pending]
        self.fresh = False
        if not self.in_table:
            self.in_table, self.caption = True, " ".join(self.recent)
        self.pending, self.prose, self.recent = "", 0, []
        sign = next((c.currency for c in cells if c.currency), "")
        if sign and self.unit:
            self.signs.setdefault(self.table, sign)
        if start >= 0:
            self.rows.append(self._make_row(label, cells, start, end, sign))

    def _make_row(self, label: str, cells: list[Cell], start: int, end: int, sign: str) -> Row:
        """The row with its columns read from the header, and the unit if its figures are
        amounts in it."""
        over = align(self.header or [], cells)
        unit = "" if _unitless(label, cells) else self.unit
        return Row(
            label=label,
            cells=cells,
            start=start,
            end=end,
            table=self.table,
            columns=[h[0] if h else None for h in over],
            years=[h[1] if h else None for h in over],
            header=self.header_line,
            unit=unit,
            currency=sign or (self.currency if unit else ""),
            caption=self.caption,
        )


def _unitless(label: str, cells: list[Cell]) -> bool:
    lowered = label.lower()
    words = re.findall(r"[^\W\d_]+", lowered)
    return (
        all(c.percent or c.value is None for c in cells)
        or any(w in lowered for w in UNITLESS_LABEL_PHRASES)
        or bool(words and words[-1] in UNITLESS_LAST_WORDS)
    )


def align(
    header: list[tuple[str, int | None]], cells: list[Cell]
) -> list[tuple[str, int | None] | None]:
    """The header cell over each row cell, or [] when they cannot be matched up.

    Equal counts match in order; extra percent cells ("7 %" change columns) are skipped;
    with change columns ("2022 vs. 2021") the periods are the first cells; a row with k cells
    per header year ("$ 39,117 $ (5)" per year) is read in groups; anything else is left
    unlabelled rather than guessed.
    """
    if not header or len(cells) < len(header):
        return []
    if len(cells) == len(header):
        return list(header)
    amounts = [i for i, c in enumerate(cells) if not c.percent]
    if len(amounts) == len(header):
        out: list[tuple[str, int | None] | None] = [None] * len(cells)
        for i, h in zip(amounts, header, strict=True):
            out[i] = h
        return out
    if any(year is None for _, year in header):
        # change columns ("2022 vs. 2021") print amounts and percentages in varying numbers
        # of cells: the periods before them are the row's first cells
        periods = next(i for i, (_, year) in enumerate(header) if year is None)
        return list(header[:periods]) + [None] * (len(cells) - periods)
    if len(header) > 1 and len(cells) % len(header) == 0:
        k = len(cells) // len(header)
        return [header[i // k] for i in range(len(cells))]
    return []
