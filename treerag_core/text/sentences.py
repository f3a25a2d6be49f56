"""Sentences out of extracted text, with the line breaks a PDF put inside them undone.

A PDF prints a paragraph as lines cut at the page width, and sometimes a word cut at a
hyphen; extracted text keeps those breaks. A sentence is re-joined across a break when the
next line starts in lower case, when the line ends in a hyphen, or when the line runs (nearly)
to the page's text width without closing punctuation (so "… 120,000 in the" / "United States
…" joins even though "United" is capitalised). Table rows, headings and list items stay apart.
Each sentence keeps the offset where it starts, so an answer can cite its page.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from statistics import median

from .tables import LEAD_ENDS, split_row

# A sentence ends at its stop and a space before a capital (or a digit, or an opening
# quote, or Spanish ¿ ¡); in Chinese and Japanese, at 。！？ whether a space follows or not.
# The match opens with the stop itself, so the regex engine skips to the next stop instead
# of trying every character of the text (a lookbehind first was three to six times slower).
_SENTENCE_END = re.compile(
    r"[.!?؟।。！？](?:(?<=[.!?؟।])[\"'”’)»]?\s+(?=[\"'“‘(\[«¿¡]?[^\W_a-z])"
    r"|(?<=[。！？])[」』\"'”’)]?\s*(?=\S))"
)
_TERMINAL = LEAD_ENDS + "。！？؟।"  # a table label's stops and lead-ins, and other scripts' stops
# A line at least this share of the text's usual line width, without closing punctuation,
# was wrapped by the page: the sentence goes on in the next line.
WRAPPED_WIDTH = 0.75
# Lines shorter than this are headings, labels or list items, never a measure of the width.
MIN_PROSE_LINE = 40
# The number or letter a list item or a footnote opens with ("(1) ", "b) ", "4. "), and
# any list item's opening (those, or a bullet).
_NUMBERED = r"\(?[0-9a-z]{1,3}[.)]"
ENUMERATOR = re.compile(rf"^{_NUMBERED}\s+")
LIST_ITEM = re.compile(rf"^(?:[•·▪◦*\-–—]|{_NUMBERED})\s")
_ABBREVIATION = re.compile(
    r"(?:\b[A-Z]\.){1,3}$|\b(?:Inc|Co|Corp|Ltd|No|Nos|Mr|Mrs|Ms|Dr|St|vs|approx|e\.g|i\.e|"
    r"etc|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|U\.S|U\.K"
    # the same kind in other languages: units (Mio. EUR), "z. B.", "Nr.", "S.", "Abs.", "art."
    r"|Mio|Mrd|Tsd|Nr|Abs|bzw|ca|vgl|ggf|inkl|zzgl|z\.\s?B|d\.\s?h|u\.\s?a|Art|Mme|Mlle|"
    r"art|env|cf|éd|Sr|Sra|Dña|núm|pág|Sig|dott|ecc|млн|млрд|тыс|руб|т\.\s?е|т\.\s?д|г)\.$"
)
# The pattern above matches at most 7 characters at the end ("approx.", "U.S.A."): only a
# sentence's last characters are searched (with room before them for its ``\b``), not the
# whole sentence once per sentence.
ABBREVIATION_TAIL = 24
# Words people hyphenate on purpose: "long-" + "term" stays "long-term"; any other
# lower-case word cut at a line end ("manu-" + "facturing") is re-joined without the hyphen.
COMPOUND_PREFIXES = frozenset(
    """non long short mid self well year multi cross co pre post full part third first second
    one two three high low end after over under off on in out wide""".split()
)


def _line_width(lines: list[str]) -> float:
    widths = [len(line) for line in lines if len(line) >= MIN_PROSE_LINE]
    return median(widths) if widths else 0.0


def _joins(prev: str, line: str, width: float) -> str | None:
    """How ``line`` continues ``prev``: " " (a wrapped sentence), "" (a cut word), or None;
    whether either is a table row (those never join) is asked after, of the few it would
    join: reading a line's cells costs more than all of this."""
    if not prev or not line or prev[-1] in _TERMINAL or LIST_ITEM.match(line):
        return None
    if prev.endswith("-") and prev[-2:-1].isalpha() and line[:1].islower():
        fragment = re.findall(r"[^\W\d_]+$", prev[:-1])
        return "-" if fragment and fragment[0].lower() in COMPOUND_PREFIXES else ""
    if line[:1].islower():
        return " "
    if width and len(prev) >= WRAPPED_WIDTH * width and len(prev.split()) > 3:
        return " "
    return None


def sentence_spans(text: str) -> list[tuple[str, int]]:
    """``(sentence, offset in text)`` for every sentence, heading or list item, in order."""
    return list(iter_sentence_spans(text))


def iter_sentence_spans(text: str) -> Iterator[tuple[str, int]]:
    """:func:`sentence_spans` one block of joined lines at a time: a caller that wants the
    first sentences (a summary's lead) stops without cutting the rest (issue 42)."""
    raw = text.split("\n")
    width = _line_width([line.strip() for line in raw])
    for block, marks in _blocks(raw, width):
        yield from _block_sentences(block, marks)


def _blocks(raw: list[str], width: float) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """The lines joined into blocks (a wrapped sentence, a cut word), each with its
    ``(position in the block, offset in the text)`` anchors, one per line."""
    anchors: list[tuple[int, int]]
    joined, anchors, prev = "", [], ""
    # Whether prev is a table row, once asked: a wrapped paragraph would ask it of each line
    # twice, as the line and as the next line's prev.
    prev_row: bool | None = None
    offset = 0
    for line in raw:
        here, offset = offset, offset + len(line) + 1
        stripped = line.strip()
        if not stripped:
            if joined:
                yield joined, anchors
            joined, anchors, prev = "", [], ""
            continue
        at = here + len(line) - len(line.lstrip())
        glue = _joins(prev, stripped, width) if joined else None
        row: bool | None = None
        if glue is not None:
            if (_is_row(prev) if prev_row is None else prev_row) or (row := _is_row(stripped)):
                glue = None
        prev_row = row
        if glue is None:
            if joined:
                yield joined, anchors
            joined, anchors = stripped, [(0, at)]
        else:
            if glue == "":
                joined = joined[:-1]  # the cut word's hyphen
            elif glue == "-":
                glue = ""
            anchors.append((len(joined) + len(glue), at))
            joined = f"{joined}{glue}{stripped}"
        prev = stripped
    if joined:
        yield joined, anchors


def _is_row(line: str) -> bool:
    return split_row(line) is not None


def _block_sentences(block: str, marks: list[tuple[int, int]]) -> Iterator[tuple[str, int]]:
    """A block's sentences (an abbreviation's stop ends none), each with its offset."""
    pieces: list[tuple[str, int]] = []
    start = 0
    for m in [*_SENTENCE_END.finditer(block), None]:
        end = m.start() + len(m.group(0).rstrip()) if m else len(block)
        piece = block[start:end]
        if pieces and _ABBREVIATION.search(pieces[-1][0][-ABBREVIATION_TAIL:]):
            pieces[-1] = (pieces[-1][0] + " " + piece.strip(), pieces[-1][1])
        elif piece.strip():
            pieces.append((piece.strip(), start + len(piece) - len(piece.lstrip())))
        start = m.end() if m else len(block)
    # The anchors' positions rise with their offsets: a sentence's anchor is the last one at
    # or before it, found by bisection. A search of every anchor for every sentence was
    # quadratic on a long hard-wrapped block (3,000 lines: 0.30 s, now 0.05 s); on the
    # filings it makes no measurable difference.
    positions = [a[0] for a in marks]
    for sentence, pos in pieces:
        anchor = marks[max(bisect_right(positions, pos) - 1, 0)]
        cleaned = " ".join(sentence.lstrip("-*•>#").split())
        if cleaned:
            yield cleaned, anchor[1] + pos - anchor[0]


def split_sentences(text: str) -> list[str]:
    """Sentences (or headings / list items) of a text, whitespace-normalised."""
    return [sentence for sentence, _ in iter_sentence_spans(text)]


def iter_sentences(text: str) -> Iterator[str]:
    """:func:`split_sentences` lazily: each block's sentences as they are read."""
    return (sentence for sentence, _ in iter_sentence_spans(text))
