"""One page image → its words and lines, by the ``tesseract`` program (Debian: tesseract-ocr).

A thin subprocess wrapper rather than a binding: the page goes in on stdin as PNG, TSV
word boxes come out on stdout, each call has its own timeout, and ``OMP_THREAD_LIMIT=1``
keeps one process on one core so pages can run side by side without oversubscribing.
"""

from __future__ import annotations

import csv
import functools
import io
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any

from ...errors import DocumentReadError, OcrUnavailableError
from ...text.messages import Phrase, raised
from .languages import package_of

INSTALL_HINT = Phrase("error.ocr_missing")  # English as text; said again in German
# A line none of whose words Tesseract is this sure of (0-100) is dropped: specks.
MIN_WORD_CONFIDENCE = 30.0
PAGE_SEGMENTATION = "3"  # fully automatic layout analysis: columns, blocks, lines
LIST_TIMEOUT_S = 30.0  # ``--list-langs`` only reads a folder
_DATA_FOLDER = re.compile(r'List of available languages in "([^"]*)"')
_SCRIPT = re.compile(r"^Script: (\w+)", re.MULTILINE)


# A pixel darker than this (0 black - 255 white) is ink when a word's weight is measured.
INK_LEVEL = 128
# Dropped figures (see ``_dropped_figures``): a second reading as one block of text…
SINGLE_BLOCK = "6"
# …is needed when the middle of a line's row (a quarter of its height in from the top and
# the bottom, clear of rules) holds ink outside every word seen, as much as a figure's
# strokes (a "1" of that height has about a tenth of its square in ink; a speck far less)…
ROW_BAND_INSET = 0.25
MIN_GLYPH_SHARE = 0.05
# Italic type leans about 12 degrees: a row is shifted by this share of its height.
ITALIC_SHEAR = 0.21
# A line's slant is read from its first words, as a PDF line's style from its first
# character (a run-in italic title before regular text); three words show the lean.
SLANT_WORDS = 3
MASK_PAD = 2  # pixels around a word's box that count as the word (anti-aliased edges)
# …and keeps only figures read with this confidence: what is left of a page after its words
# are blanked out is mostly rules and specks, read as low-confidence noise.
MIN_FIGURE_CONFIDENCE = 60.0


Box = tuple[int, int, int, int]  # left, top, right, bottom in image pixels


@dataclass
class OcrLine:
    words: list[str]
    box: tuple[int, int, int, int]  # left, top, right, bottom in image pixels
    block: int = 0
    # Stroke width in pixels (ink per horizontal run of ink within the words): bold strokes
    # are thicker than regular ones of the same size, the only trace of weight a scan keeps.
    ink: float = 0.0
    word_boxes: list[tuple[int, int, int, int]] = field(default_factory=list, repr=False)
    # Italic's trace on a scan: see ``_slant`` (above 1: the strokes lean as italic's do).
    slant: float = 0.0
    # The stroke width of the last part when other lines were joined to this one on its row
    # (see ``rows.join_rows``); None: the line is one part.
    tail_ink: float | None = None
    # The font size in pixels (see ``rows.line_size``); 0 until measured.
    size: float = 0.0


@dataclass
class OcrPage:
    width: int  # image pixels
    height: int
    lines: list[OcrLine] = field(default_factory=list)
    # The mean of Tesseract's confidence in every word it read (0-100; -1 unknown): how well
    # the language's data fits the page's script (see ``scan_language.LATIN_CONFIDENCE``).
    confidence: float = -1.0

    @property
    def text(self) -> str:
        """Lines in reading order; a blank line between Tesseract's blocks (paragraphs)."""
        out: list[str] = []
        block = None
        for line in self.lines:
            if block is not None and line.block != block:
                out.append("")
            block = line.block
            out.append(" ".join(line.words))
        return "\n".join(out)


def tesseract_path() -> str | None:
    return shutil.which("tesseract")


def require_tesseract() -> str:
    path = tesseract_path()
    if path is None:
        raise raised(OcrUnavailableError, "error.ocr_missing")
    return path


def installed_languages(program: str) -> frozenset[str]:
    """The languages Tesseract has data for (``--list-langs``). Asked once per data folder
    and per change to it: a language pack installed while the app runs is seen at the next
    scan, without asking Tesseract for every document."""
    prefix = os.environ.get("TESSDATA_PREFIX", "")
    folder, _ = _listed(program, prefix, 0)
    try:
        stamp = os.stat(folder).st_mtime_ns if folder else 0
    except OSError:
        stamp = 0
    return _listed(program, prefix, stamp)[1]


@functools.lru_cache(maxsize=16)
def _listed(program: str, prefix: str, stamp: int) -> tuple[str, frozenset[str]]:
    """(data folder, languages) as ``--list-langs`` prints them; the arguments are the cache
    key (the program, ``TESSDATA_PREFIX``, the folder's modification time)."""
    try:
        done = subprocess.run(
            [program, "--list-langs"], capture_output=True, timeout=LIST_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return "", frozenset()
    lines = (done.stdout + done.stderr).decode("utf-8", "replace").splitlines()
    folder = next((m[1] for line in lines if (m := _DATA_FOLDER.search(line))), "")
    names = [line.strip() for line in lines if line.strip() and not _DATA_FOLDER.search(line)]
    return folder, frozenset(name for name in names if " " not in name)


def script_of(png: bytes, timeout_s: float = 120.0) -> str:
    """The script Tesseract's orientation and script detection (``--psm 0``, Debian's
    tesseract-ocr-osd) sees on a page ("Latin", "Cyrillic", "Han", …); "" when it cannot
    tell (too few characters) or fails."""
    program = require_tesseract()
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    try:
        done = subprocess.run(
            [program, "stdin", "stdout", "--psm", "0"],
            input=png, capture_output=True, timeout=timeout_s, env=env, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return ""
    found = _SCRIPT.search(done.stdout.decode("utf-8", "replace"))
    return found[1] if done.returncode == 0 and found else ""


def recognise(png: bytes, language: str = "eng", timeout_s: float = 120.0) -> OcrPage:
    """OCR one page image (PNG bytes)."""
    program = require_tesseract()
    seen: list[Box] = []
    page = parse_tsv(_tesseract(program, png, language, PAGE_SEGMENTATION, timeout_s), seen)
    pixels = _ink(png)
    page.lines.extend(_dropped_figures(program, pixels, page, seen, language, timeout_s))
    measure_ink(page, pixels)
    return page


def _tesseract(program: str, png: bytes, language: str, psm: str, timeout_s: float) -> str:
    """Tesseract's TSV for one image."""
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    command = [program, "stdin", "stdout", "-l", language, "--psm", psm, "tsv"]
    try:
        done = subprocess.run(
            command, input=png, capture_output=True, timeout=timeout_s, env=env, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise raised(
            DocumentReadError, "error.ocr_page_timeout", seconds=f"{timeout_s:.0f}"
        ) from exc
    except OSError as exc:
        raise raised(
            OcrUnavailableError, "error.ocr_not_started", reason=str(exc), hint=INSTALL_HINT
        ) from exc
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        if "Failed loading language" in done.stderr.decode("utf-8", "replace"):
            packages = " ".join(package_of(code) for code in language.split("+"))
            raise raised(
                OcrUnavailableError, "error.ocr_no_language", code=repr(language),
                packages=packages,
            )  # fmt: skip
        raise raised(DocumentReadError, "error.ocr_failed", detail=detail[0][:200])
    return done.stdout.decode("utf-8", "replace")


def _ink(png: bytes) -> Any:
    """The page's ink as a boolean array (rows, columns)."""
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(png)) as opened:
        return np.asarray(opened.convert("L")) < INK_LEVEL


def _dropped_figures(
    program: str, pixels: Any, page: OcrPage, seen: list[Box], language: str, timeout_s: float
) -> list[OcrLine]:
    """Page numbers and amounts that layout analysis dropped beside recognised lines.

    Tesseract's page layout analysis (``--psm 3``) discards a column of short isolated
    figures as noise: a contents page set as a table loses its page numbers. When ink is
    left beside a recognised line on its row, the page is read again with every word seen
    so far blanked out, as one block (``--psm 6``, which does not discard them), and the
    figures found on the rows of recognised lines are added as lines of their own.
    """
    if not any(_ink_beside(pixels, line, seen) for line in page.lines):
        return []
    import numpy as np
    from PIL import Image

    from .rows import is_figures, same_row

    blank = ~pixels.copy()
    for left, top, right, bottom in seen:
        blank[
            max(0, top - MASK_PAD) : bottom + MASK_PAD, max(0, left - MASK_PAD) : right + MASK_PAD
        ] = True
    buffer = io.BytesIO()
    Image.fromarray((blank * 255).astype(np.uint8)).save(buffer, format="PNG", compress_level=1)
    tsv = _tesseract(program, buffer.getvalue(), language, SINGLE_BLOCK, timeout_s)
    again = parse_tsv(tsv, min_confidence=MIN_FIGURE_CONFIDENCE, keep_unsure=False)
    block = max((line.block for line in page.lines), default=0) + 1
    found: list[OcrLine] = []
    for line in again.lines:
        for word, box in zip(line.words, line.word_boxes, strict=False):
            if is_figures([word]) and any(same_row(box, ln.box) for ln in page.lines):
                found.append(OcrLine([word], box, block, word_boxes=[box]))
                block += 1
    return found


def _ink_beside(pixels: Any, line: OcrLine, seen: list[Box]) -> bool:
    """Ink outside every word seen, in the middle band of ``line``'s row: glyphs that
    layout analysis left out (a rule under or over the row stays outside the band)."""
    left, top, right, bottom = line.box
    height = bottom - top
    inset = int(ROW_BAND_INSET * height)
    band = pixels[top + inset : bottom - inset].copy()
    if band.size == 0:
        return False
    band[:, max(0, left - MASK_PAD) : right + MASK_PAD] = False
    for l2, t2, r2, b2 in seen:
        if t2 < bottom - inset and b2 > top + inset:
            band[:, max(0, l2 - MASK_PAD) : r2 + MASK_PAD] = False
    return int(band.sum()) >= MIN_GLYPH_SHARE * height * height


def measure_ink(page: OcrPage, pixels: Any) -> None:
    """Each line's stroke width (see ``OcrLine.ink``): ink pixels per horizontal run of ink
    inside its words' boxes, so letter shapes and box padding hardly move it."""
    for line in page.lines:
        dark = runs = 0
        for left, top, right, bottom in line.word_boxes:
            ink = pixels[top:bottom, left:right]
            if ink.size == 0:
                continue
            dark += int(ink.sum())
            runs += int(ink[:, 0].sum()) + int((ink[:, 1:] & ~ink[:, :-1]).sum())
        line.ink = round(dark / runs, 3) if runs else 0.0
        line.slant = _slant(pixels, line.word_boxes[:SLANT_WORDS])


def _slant(pixels: Any, boxes: list[Box]) -> float:
    """How much sharper the words' vertical strokes stand when italic's slant is taken out:
    the sum of squared column counts of ink with every row shifted back by ``ITALIC_SHEAR``
    of its height above the baseline, over the same without shifting. Upright letters smear
    when sheared (about 0.7-0.8); italic ones straighten (about 1.2-1.3)."""
    import numpy as np

    straight = sheared = 0.0
    for left, top, right, bottom in boxes:
        ink = pixels[top:bottom, left:right]
        height, width = ink.shape
        if ink.size == 0 or not ink.any():
            continue
        pad = int(ITALIC_SHEAR * height) + 1
        shifted = np.zeros((height, width + pad), dtype=bool)
        for y in range(height):
            dx = int(round(ITALIC_SHEAR * (height - 1 - y)))
            shifted[y, pad - dx : pad - dx + width] = ink[y]
        straight += float((ink.sum(axis=0).astype(float) ** 2).sum())
        sheared += float((shifted.sum(axis=0).astype(float) ** 2).sum())
    return round(sheared / straight, 3) if straight else 0.0


def parse_tsv(
    tsv: str,
    seen: list[Box] | None = None,
    min_confidence: float = MIN_WORD_CONFIDENCE,
    keep_unsure: bool = True,
) -> OcrPage:
    """Tesseract's TSV: level 1 is the page, level 5 a word with its box and confidence;
    ``seen`` collects the boxes of every word, however unsure.

    A line is kept when Tesseract is sure of one of its words at least; then its unsure
    words with a letter or digit stay too (Tesseract gives 0 to real words, a bold "Item 1."
    before a heading among them), and only an unsure line as a whole (specks) is dropped.
    Without ``keep_unsure`` every unsure word is dropped.
    """
    page = OcrPage(0, 0, confidence=0.0)
    rows: dict[tuple[int, int, int], list[tuple[str, Box, float]]] = {}
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        try:
            level = int(row["level"])
            left, top = int(row["left"]), int(row["top"])
            width, height = int(row["width"]), int(row["height"])
            confidence = float(row.get("conf") or -1)
        except (KeyError, TypeError, ValueError):
            continue
        if level == 1:
            page.width, page.height = width, height
            continue
        text = (row.get("text") or "").strip()
        if level != 5 or not text:
            continue
        box = (left, top, left + width, top + height)
        if seen is not None:
            seen.append(box)
        key = (int(row["block_num"]), int(row["par_num"]), int(row["line_num"]))
        rows.setdefault(key, []).append((text, box, confidence))
    sure = [c for words in rows.values() for _, _, c in words if c >= 0]
    page.confidence = round(sum(sure) / len(sure), 1) if sure else 0.0
    for key, words in rows.items():
        if max(c for _, _, c in words) < min_confidence:
            continue
        kept = [
            (t, b)
            for t, b, c in words
            if c >= min_confidence or (keep_unsure and any(x.isalnum() for x in t))
        ]
        boxes = [b for _, b in kept]
        box = (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
        page.lines.append(OcrLine([t for t, _ in kept], box, key[0], word_boxes=boxes))
    return page
