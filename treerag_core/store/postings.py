"""How the library index keeps lists of small integers on disk: packed and compressed.

Why not JSON: a term's postings are runs of small numbers (a section, three counts), and
as text with brackets and commas they were most of the registry's size on disk (171 of 218
MB for fifty 2 MB documents) and a third of an insert's time. Packed as 32-bit integers
and compressed they take a sixth of the space, and are read back by C code (zlib, array)
instead of a JSON parser: a routed question decodes the postings of its own terms only.
Little-endian on every machine, so an index moves between machines with its registry.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from collections.abc import Iterable

ZLIB_LEVEL = 1  # the fastest: postings compress about 3× at level 1, barely more above it


def pack(values: Iterable[int]) -> bytes:
    """``values`` (each fits a signed 32-bit integer) as compressed little-endian bytes."""
    packed = array("i", values)
    if sys.byteorder == "big":
        packed.byteswap()
    return zlib.compress(packed.tobytes(), ZLIB_LEVEL)


def unpack(blob: bytes) -> array:
    """What :func:`pack` wrote; ``ValueError`` when it is not that."""
    try:
        raw = zlib.decompress(blob)
    except zlib.error as exc:
        raise ValueError(f"not packed integers: {exc}") from exc
    if len(raw) % 4:
        raise ValueError("not packed integers: a partial integer")
    values = array("i")
    values.frombytes(raw)
    if sys.byteorder == "big":
        values.byteswap()
    return values
