"""Bytes → str for text and Markdown files, never crashing on an unknown encoding.

Uploads come from anywhere: Windows tools write cp1252 or UTF-16 with a BOM, old files are
Latin-1. We try the unambiguous signals first (BOMs), then strict UTF-8, then cp1252 and
finally Latin-1, which decodes every byte, so reading text never fails.
"""

from __future__ import annotations

import codecs

from ...limits import Limits
from ..pages import ReadResult, plain_pages

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def decode_bytes(data: bytes) -> str:
    """Decode text bytes: BOM, else strict UTF-8, else cp1252, else Latin-1; NULs removed."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace").replace("\x00", "")
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding).replace("\x00", "")
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1").replace("\x00", "")


def read_markdown(
    data: bytes, limits: Limits, name: str = "", options: object = None
) -> ReadResult:
    """Markdown is already our common format: decoded, line endings normalised, untouched."""
    text = decode_bytes(data).replace("\r\n", "\n").replace("\r", "\n")
    return ReadResult(text=text, structure_source="markdown headings")


def read_text(data: bytes, limits: Limits, name: str = "", options: object = None) -> ReadResult:
    """Plain text: pages split at form feeds; its strategies find the headings."""
    return ReadResult(pages=plain_pages(decode_bytes(data)))
