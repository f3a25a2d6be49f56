"""OCR results kept in the registry's cache: a page's words, lines and boxes per source,
page, resolution and language (so neither a re-index nor a changed summary prompt repeats
OCR, and a language pack installed since reads the page again), and the script OSD saw.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...limits import Limits
from ...store.base import Cache
from .languages import ENGLISH, is_auto
from .rows import fix_bars, join_rows
from .tesseract import OcrLine, OcrPage, recognise, script_of, tesseract_path

Box = tuple[float, float, float, float]
CACHE_VERSION = 7  # part of the cache key: bump when recognition or parsing changes


class PageCache:
    """One source's recognised pages: the registry's OCR cache, and the pages read in
    another script's data while the scan's language was being found (taken as they are
    when that is the language chosen, even without a registry)."""

    def __init__(self, cache: Cache | None, source_hash: str, limits: Limits) -> None:
        self.cache, self.source_hash, self.limits = cache, source_hash, limits
        self.probed: dict[tuple[int, str], OcrPage] = {}

    def get(self, number: int, code: str) -> OcrPage | None:
        key = page_key(self.source_hash, number, self.limits.ocr_dpi, code)
        return self.probed.pop((number, code), None) or _cached(self.cache, key)

    def put(self, number: int, code: str, page: OcrPage) -> None:
        if self.cache is not None:
            self.cache.put(
                page_key(self.source_hash, number, self.limits.ocr_dpi, code), _to_json(page)
            )

    def page(self, number: int, code: str, png: Callable[[], bytes]) -> OcrPage:
        """Page ``number`` read in ``code``: from the cache, else by Tesseract (and kept)."""
        page = self.get(number, code)
        if page is None:
            page = recognise(png(), code, self.limits.ocr_page_timeout_s)
            self.put(number, code, page)
        self.probed[(number, code)] = page
        return page

    def script(self, number: int, png: Callable[[], bytes]) -> str:
        """The script OSD sees on page ``number`` (cached; "" unknown, as without Tesseract)."""
        key = f"osd-v{CACHE_VERSION}-{self.source_hash[:32]}-{number}-{self.limits.ocr_dpi}"
        hit = self.cache.get(key) if self.cache is not None else None
        if hit and isinstance(hit.get("script"), str):
            return hit["script"]
        if tesseract_path() is None:
            return ""
        script = script_of(png(), self.limits.ocr_page_timeout_s)
        if self.cache is not None:
            self.cache.put(key, {"script": script})
        return script


def page_key(source_hash: str, number: int, dpi: int, language: str) -> str:
    """A page's cache key: its source, resolution and the language it was read in (a pack
    installed later reads it again, in its own language)."""
    return f"ocr-v{CACHE_VERSION}-{source_hash[:32]}-{number}-{dpi}-{language}"


def cached_words(
    cache: Cache | None,
    source_hash: str,
    number: int,
    width_pt: float,
    height_pt: float,
    limits: Limits,
    language: str = "",
) -> list[tuple[str, Box]] | None:
    """The words OCR read on page ``number`` (1-based) when it was indexed, each with its
    box in PDF points (left, bottom, right, top): how a scan's evidence is highlighted, as
    it has no text layer to search. ``language``: the document's ``ocr_language`` (a
    document indexed before it was recorded was read in the setting, English by default).
    None when the page was not read by OCR (or with other settings). The words come in the
    order the indexed text has them (a row's figures after its label, as
    :func:`.rows.join_rows` put them), so a quoted passage or a table row is found in order."""
    if not language:
        language = ENGLISH if is_auto(limits.ocr_language) else limits.ocr_language
    page = _cached(cache, page_key(source_hash, number, limits.ocr_dpi, language))
    if page is None or not page.width or not page.height:
        return None
    sx, sy = width_pt / page.width, height_pt / page.height
    return [
        (fix_bars(word), (left * sx, height_pt - bottom * sy, right * sx, height_pt - top * sy))
        for line in join_rows(page.lines)
        for word, (left, top, right, bottom) in zip(line.words, line.word_boxes, strict=False)
    ]


def _cached(cache: Cache | None, key: str) -> OcrPage | None:
    hit = cache.get(key) if cache is not None else None
    if not hit:
        return None
    try:
        lines = [
            OcrLine(
                list(row[0]),
                tuple(row[1]),
                int(row[2]),
                float(row[3]),
                [tuple(b) for b in row[4]],
                slant=float(row[5]),
            )
            for row in hit["lines"]
        ]
        confidence = float(hit.get("confidence", -1))  # -1: cached before it was kept
        return OcrPage(int(hit["width"]), int(hit["height"]), lines, confidence)
    except (KeyError, TypeError, ValueError):
        return None  # a damaged entry is a miss


def _to_json(page: OcrPage) -> dict[str, Any]:
    return {
        "width": page.width,
        "height": page.height,
        "confidence": page.confidence,
        "lines": [
            [
                line.words,
                list(line.box),
                line.block,
                line.ink,
                [list(b) for b in line.word_boxes],
                line.slant,
            ]
            for line in page.lines
        ],
    }
