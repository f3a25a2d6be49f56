"""Scoring a highlight against the passage it stands for: the words PDFium finds inside its
rectangles, read back on a PDF with a text layer (the cited PDF itself, or the born-digital
copy a scan was printed from), against the words the reference quoted.

Pure helpers shared by ``bench.ocr`` and the evidence tests, so both score alike.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


def read_back(pdf: Any, highlights: list[dict[str, Any]]) -> list[str]:
    """The words PDFium finds inside the highlight rectangles of ``pdf`` (bytes, a path or
    an open ``pypdfium2.PdfDocument``)."""
    import pypdfium2 as pdfium

    document = pdf if isinstance(pdf, pdfium.PdfDocument) else pdfium.PdfDocument(pdf)
    found: list[str] = []
    for hit in highlights:
        textpage = document[hit["page"] - 1].get_textpage()
        for rect in hit["rects"]:
            found += words(textpage.get_text_bounded(*rect))
    return found


def coverage(want: list[str], got: list[str]) -> tuple[float, float]:
    """(share of ``want`` inside ``got``, share of ``got`` that was wanted), by word counts."""
    want_c, got_c = Counter(want), Counter(got)
    shared = sum((want_c & got_c).values())
    return shared / max(1, sum(want_c.values())), shared / max(1, sum(got_c.values()))
