"""Texts cut into words once for one piece of work, and any stretch of them read back.

Indexing cuts a section's text for the library index (the whole text) and again for the
ranking's passages: 2,000-character windows that overlap by half, so every character of a
long section was tokenised three times (issue 42). Here a text is cut once, in segments
that start at an ASCII space or line break about every :data:`SEGMENT_CHARS` characters;
the whole text is its segments' tokens joined, and a window is the segments inside it plus
its two ragged ends, cut on their own (about a segment's length a window).

Why the tokens are the same as the text cut whole: :func:`.tokens.tokenize` normalises
(NFKC, then case folding: neither joins anything across a space, which no composition takes
as its second character and which case folding maps alone), finds words that never hold a
space, and then treats each word on its own; the one choice it makes for a whole text, the
marks-aware word pattern when the text holds a combining mark (``COMBINING_MARKS``), is the
same for every piece of a text that holds none, which is the only kind cut in segments here;
a text with marks is cut whole, as before. (English ASCII text takes the tokenizer's fast path,
whose words are the slow path's: see ``tree/passages.py``'s ``_apart``.)
``tests/test_index_equivalence.py`` checks the pieces against the text cut whole.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right

from .bm25 import PASSAGE_CHARS
from .tokens import COMBINING_MARKS, tokenize

SEGMENT_CHARS = 250  # a segment's length: a window's ragged ends are cut twice
# A text no longer than a passage is only ever read whole (its one window is all of it): cut
# in one call, not in segments joined (a call a segment was a fifth of an insert's cutting).
WHOLE_CHARS = max(2 * SEGMENT_CHARS, PASSAGE_CHARS)
_SPACE = re.compile(r"[ \n]")


def unmarked(text: str) -> bool:
    """Whether the tokenizer reads ``text``, and every piece of it, with its plain word
    pattern: no combining mark in the text, nor once normalised (a character that
    normalises to one, "¨" or "İ"); then any cut at a space gives the same words. (A mark
    the text's normalisation composes away, "e" and U+0301, would be left alone in a piece
    cut between them: the text itself is checked too.)"""
    if text.isascii():
        return True
    return not COMBINING_MARKS.search(text) and not COMBINING_MARKS.search(
        unicodedata.normalize("NFKC", text).casefold()
    )


class CutTexts:
    """The tokens of texts cut once (each long one in segments) for several uses within one
    piece of work (a document's library-index entry and its ranking statistics, at
    indexing): held by the caller for that work only, so no state outlives it. Called like
    :class:`.tokens.TextTokens`; callers must not change the lists it returns."""

    def __init__(self) -> None:
        self._whole: dict[tuple[str, str, str], list[str]] = {}
        self._bounds: dict[str, list[int] | None] = {}
        self._unmarked: dict[str, bool] = {}
        self._segments: dict[tuple[str, str, str], list[list[str]]] = {}

    def __call__(self, text: str, language: str = "") -> list[str]:
        return self.span(text, 0, len(text), language)

    def span(
        self, text: str, start: int, end: int, language: str = "", other: str = ""
    ) -> list[str]:
        """``tokenize(text[start:end], language, other)``, from the text's segments."""
        end = min(end, len(text))
        if start <= 0 and end == len(text):
            key = (text, language, other)
            made = self._whole.get(key)
            if made is None:
                made = self._whole[key] = self._joined(text, 0, end, language, other)
            return made
        return self._joined(text, start, end, language, other)

    def _joined(self, text: str, start: int, end: int, language: str, other: str) -> list[str]:
        bounds = self._bounds_of(text)
        if bounds is None:
            return tokenize(text[start:end], language, other)
        first, last = bisect_left(bounds, start), bisect_right(bounds, end) - 1
        if first >= last:  # no whole segment inside
            return tokenize(text[start:end], language, other)
        segments = self._segments_of(text, bounds, language, other)
        out = (
            tokenize(text[start : bounds[first]], language, other) if start < bounds[first] else []
        )
        for tokens in segments[first:last]:
            out += tokens
        if bounds[last] < end:
            out += tokenize(text[bounds[last] : end], language, other)
        return out

    def unmarked(self, text: str) -> bool:
        """:func:`unmarked`, once a text."""
        known = self._unmarked.get(text)
        if known is None:
            known = self._unmarked[text] = unmarked(text)
        return known

    def _bounds_of(self, text: str) -> list[int] | None:
        """Where the text's segments start (a space or line break), then its end; None for
        a text no longer than a passage or one with marks (cut whole)."""
        if text in self._bounds:
            return self._bounds[text]
        bounds: list[int] | None = None
        if len(text) > WHOLE_CHARS and self.unmarked(text):
            bounds = [0]
            found = _SPACE.search(text, SEGMENT_CHARS)
            while found is not None:
                bounds.append(found.start())
                found = _SPACE.search(text, found.start() + SEGMENT_CHARS)
            bounds.append(len(text))
        self._bounds[text] = bounds
        return bounds

    def _segments_of(
        self, text: str, bounds: list[int], language: str, other: str
    ) -> list[list[str]]:
        key = (text, language, other)
        made = self._segments.get(key)
        if made is None:
            made = self._segments[key] = [
                tokenize(text[a:b], language, other)
                for a, b in zip(bounds, bounds[1:], strict=False)
            ]
        return made
