"""Bytes → str for text and Markdown files, never crashing on an unknown encoding.

Uploads come from anywhere: Windows tools write cp1252 or UTF-16 with a BOM, old files are
Latin-1, Japanese ones Shift-JIS, Chinese GB18030, Russian Windows-1251. We try the
unambiguous signals first (BOMs), then strict UTF-8, then the charset an HTML or XML file
declares, then ``charset-normalizer``'s reading of the bytes (which of the legacy
encodings gives text that looks like a language), and finally cp1252 and Latin-1, which
decodes every byte, so reading text never fails.
"""

from __future__ import annotations

import codecs
import re

from ...limits import Limits
from ...structure.pages import ReadResult, plain_pages

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


# <meta charset="shift_jis">, <meta http-equiv="Content-Type" content="text/html;
# charset=gb2312">, <?xml version="1.0" encoding="windows-1251"?>: in the file's first bytes.
_DECLARED = re.compile(rb"""(?:charset|encoding)\s*=\s*["']?([A-Za-z0-9_.:-]{2,40})""", re.I)
DECLARATION_BYTES = 4096
# Enough of a file for charset-normalizer to tell its encoding (it reads samples of it).
DETECTION_BYTES = 256 * 1024


def declared_encoding(data: bytes) -> str | None:
    """The charset an HTML or XML file declares in its first bytes, if Python knows it."""
    m = _DECLARED.search(data[:DECLARATION_BYTES])
    if not m:
        return None
    try:
        return codecs.lookup(m.group(1).decode("ascii")).name
    except LookupError:
        return None


# Among encodings that read the bytes equally well (a short text reads well in many), the
# ones files are actually written in, most common first: Western European Windows, then
# the national standards of Japanese, Chinese, Korean, Russian and Central Europe.
COMMON_ENCODINGS = (
    "cp1252", "cp932", "shift_jis", "gb18030", "gbk", "gb2312", "big5", "cp949", "euc_kr",
    "euc_jp", "cp1251", "koi8_r", "cp1250", "iso8859_15", "iso8859_2", "iso8859_5",
    "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp874",
)  # fmt: skip
EQUALLY_WELL = 0.05  # chaos and coherence this close: the bytes read equally well


def guessed_encoding(data: bytes) -> str | None:
    """The legacy encoding the bytes read best in (charset-normalizer), if any; among
    equally good readings, the most common of them (:data:`COMMON_ENCODINGS`)."""
    from charset_normalizer import from_bytes

    matches = list(from_bytes(data[:DETECTION_BYTES]))
    if not matches:
        return None
    best = matches[0]
    tied = {
        m.encoding
        for m in matches
        if m.chaos <= best.chaos + EQUALLY_WELL and m.coherence >= best.coherence - EQUALLY_WELL
    }
    return next((e for e in COMMON_ENCODINGS if e in tied), best.encoding)


# Text in a Western European language keeps most of its letters in ASCII (a "é" or "ß" here
# and there); the same bytes of a Russian, Greek or Japanese text read as cp1252 are nearly
# all accented letters. Below this share the bytes are cp1252 without asking a detector,
# which on a short text would often name some other single-byte code page.
WESTERN_MAX_ACCENTED = 0.3


def _western(data: bytes) -> str | None:
    """The bytes as cp1252, when that reads as Western European text."""
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    letters = [ch for ch in text if ch.isalpha()]
    accented = sum(1 for ch in letters if not ch.isascii())
    if letters and accented > WESTERN_MAX_ACCENTED * len(letters):
        return None
    return text.replace("\x00", "")


def as_utf8(data: bytes, content_type: str) -> bytes:
    """Text a server sent with ``charset=`` in its Content-Type, as UTF-8: the header
    outranks the page's own declaration (the HTML standard's order, after a BOM); without
    one, or with one Python does not know, the bytes as they came."""
    m = re.search(r"charset\s*=\s*[\"']?([\w.:-]+)", content_type, re.I)
    if not m or any(data.startswith(bom) for bom, _ in _BOMS):
        return data
    try:
        encoding = codecs.lookup(m.group(1)).name
    except LookupError:
        return data
    if encoding == "utf-8":
        return data
    return data.decode(encoding, errors="replace").encode("utf-8")


def decode_bytes(data: bytes) -> str:
    """Decode text bytes: BOM, strict UTF-8, the declared charset, cp1252 when the text
    reads as Western European, the detected encoding, cp1252, Latin-1; NULs removed."""
    encoding: str | None  # a BOM's, then the declared or guessed one (either may be None)
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace").replace("\x00", "")
    try:
        return data.decode("utf-8").replace("\x00", "")
    except UnicodeDecodeError:
        pass
    declared = declared_encoding(data)
    western = None if declared else _western(data)
    if western is not None:
        return western
    for encoding in (declared, guessed_encoding(data)):
        if encoding and encoding != "utf-8":
            try:
                return data.decode(encoding).replace("\x00", "")
            except (UnicodeDecodeError, LookupError):
                continue
    try:
        return data.decode("cp1252").replace("\x00", "")
    except UnicodeDecodeError:
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
