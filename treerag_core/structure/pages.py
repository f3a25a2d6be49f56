"""What readers hand to structure detection: pages with their lines' typography.

Structure is read from how a page looks as much as from what it says (a short bold line
set apart from body text is a heading), so readers keep, for every line, its font size,
weight and position instead of reducing a page to a string. Formats without typography
(plain text) give lines with only ``text``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..store.base import Cache
from ..types import ProgressFn

# A box in PDF points, PDF's own orientation: (left, bottom, right, top), origin bottom-left.
Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class TextLine:
    """One line as laid out on the page; style is taken from its first visible character.

    ``uniform`` says whether its last visible character has the same size and weight: a
    heading is set in one style from end to end, while a body line may merely start with a
    bold word.
    """

    text: str
    size: float = 0.0  # font size in points as printed (text matrix applied); 0 when none
    bold: bool = False
    italic: bool = False
    font: str = ""
    box: Box | None = None
    uniform: bool = True


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """A bookmark: the author's own statement of where a section starts."""

    title: str
    level: int  # 1 = top
    page: int  # 0-based page index


@dataclass
class RichPage:
    """One page: its text (lines joined, hyphenated breaks undone) and its laid-out lines."""

    number: int  # 1-based
    text: str
    lines: list[TextLine] = field(default_factory=list)
    width: float = 0.0  # points; 0 when unknown
    height: float = 0.0
    image_count: int = 0  # counted only where the text layer is thin (a scan candidate)
    ocr: bool = False  # the text was recognised from the page image

    @property
    def text_chars(self) -> int:
        """Visible characters: how much text the page really carries."""
        return len("".join(self.text.split()))


def plain_pages(text: str) -> list[RichPage]:
    """Pages of a plain text (form feeds split pages), lines without typography."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return [
        RichPage(number, page, [TextLine(line) for line in page.split("\n")])
        for number, page in enumerate(text.split("\f"), 1)
    ]


@dataclass(frozen=True)
class ReadOptions:
    """What a reader may use besides the bytes: where to report progress and the registry's
    cache for OCR results (a re-index never repeats OCR)."""

    progress: ProgressFn | None = None
    ocr_cache: Cache | None = None
    # The language an editor set on the stored document's card (a re-index), asked only
    # when a scan's own text does not tell which language to read it in; "" none set.
    edited_language: Callable[[], str] | None = None
    # A model's check of the headings found only by their look: (document name, doubtful
    # headings) → the ones it sets aside (see ``structure.confirm``); None without a model.
    heading_judge: Callable[[str, list[Any]], set[int]] | None = None


NO_OPTIONS = ReadOptions()


@dataclass
class ReadResult:
    """What a format reader returns.

    Formats that mark their own headings (Word styles, HTML, Markdown) return ``text``:
    Markdown-style headings with form feeds between pages. Formats whose structure must be
    found (PDF, plain text) return ``pages`` (and a PDF its ``outline``), and the format's
    structure strategies turn them into that text.
    """

    text: str = ""
    pages: list[RichPage] | None = None
    outline: list[OutlineEntry] = field(default_factory=list)
    page_count: int | None = None
    title: str | None = None
    structure_source: str = ""  # what gave ``text`` its headings, when the reader did
    warnings: list[str] = field(default_factory=list)  # what was read only in part, and why
    # The Tesseract languages scanned pages were read in ("" none): their OCR cache entries
    # are kept under it, where a scan's evidence is found again.
    ocr_language: str = ""
    page_labels: list[str] = field(default_factory=list)  # a PDF's own page numbering
    # What the file says about itself (an e-book's title and authors, a message's sender,
    # recipients and date), kept on the document as its ``metadata``.
    metadata: dict[str, Any] = field(default_factory=dict)
    # What a page is in this format, as references name it: a slide of a deck, a sheet of a
    # workbook (see ``outline.page_label``).
    page_unit: str = "page"
    # What one structure strategy measured on these pages that the next may reuse (the
    # page layout), so trying sources in order does not measure twice.
    measured: dict[str, Any] = field(default_factory=dict)
    # The model's heading check for this document (``ReadOptions.heading_judge`` with its
    # name bound), for the strategies that find headings by their look.
    heading_judge: Callable[[list[Any]], set[int]] | None = None
