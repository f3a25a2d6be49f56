"""One page image → its words and lines, by the ``tesseract`` program (Debian: tesseract-ocr).

A thin subprocess wrapper rather than a binding: the page goes in on stdin as PNG, TSV
word boxes come out on stdout, each call has its own timeout, and ``OMP_THREAD_LIMIT=1``
keeps one process on one core so pages can run side by side without oversubscribing.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
from dataclasses import dataclass, field

from ...errors import DocumentReadError, OcrUnavailableError

INSTALL_HINT = (
    "Reading scanned pages needs Tesseract OCR: install the Debian/Ubuntu package "
    "tesseract-ocr (sudo apt-get install tesseract-ocr; other languages are "
    "tesseract-ocr-LANG), or Tesseract for your system, then index the file again."
)
# Words Tesseract is less sure of than this (0-100) are dropped: they are mostly speckles.
MIN_WORD_CONFIDENCE = 30.0
PAGE_SEGMENTATION = "3"  # fully automatic layout analysis: columns, blocks, lines


# A pixel darker than this (0 black - 255 white) is ink when a word's weight is measured.
INK_LEVEL = 128


@dataclass
class OcrLine:
    words: list[str]
    box: tuple[int, int, int, int]  # left, top, right, bottom in image pixels
    block: int = 0
    # Stroke width in pixels (ink per horizontal run of ink within the words): bold strokes
    # are thicker than regular ones of the same size, the only trace of weight a scan keeps.
    ink: float = 0.0
    word_boxes: list[tuple[int, int, int, int]] = field(default_factory=list, repr=False)


@dataclass
class OcrPage:
    width: int  # image pixels
    height: int
    lines: list[OcrLine] = field(default_factory=list)

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
        raise OcrUnavailableError(INSTALL_HINT)
    return path


def recognise(png: bytes, language: str = "eng", timeout_s: float = 120.0) -> OcrPage:
    """OCR one page image (PNG bytes)."""
    program = require_tesseract()
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    command = [program, "stdin", "stdout", "-l", language, "--psm", PAGE_SEGMENTATION, "tsv"]
    try:
        done = subprocess.run(
            command, input=png, capture_output=True, timeout=timeout_s, env=env, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise DocumentReadError(
            f"OCR of a page took over {timeout_s:.0f} s and was stopped."
        ) from exc
    except OSError as exc:
        raise OcrUnavailableError(
            f"Tesseract could not be started ({exc}). {INSTALL_HINT}"
        ) from exc
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        if "Failed loading language" in done.stderr.decode("utf-8", "replace"):
            raise OcrUnavailableError(
                f"Tesseract has no data for the language {language!r}: install "
                f"tesseract-ocr-{language.split('+')[0]} or set TREERAG_OCR_LANGUAGE."
            )
        raise DocumentReadError(f"OCR failed on a page: {detail[0][:200]}")
    page = parse_tsv(done.stdout.decode("utf-8", "replace"))
    measure_ink(page, png)
    return page


def measure_ink(page: OcrPage, png: bytes) -> None:
    """Each line's stroke width (see ``OcrLine.ink``): ink pixels per horizontal run of ink
    inside its words' boxes, so letter shapes and box padding hardly move it."""
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(png)) as opened:
        pixels = np.asarray(opened.convert("L")) < INK_LEVEL
    for line in page.lines:
        dark = runs = 0
        for left, top, right, bottom in line.word_boxes:
            ink = pixels[top:bottom, left:right]
            if ink.size == 0:
                continue
            dark += int(ink.sum())
            runs += int(ink[:, 0].sum()) + int((ink[:, 1:] & ~ink[:, :-1]).sum())
        line.ink = round(dark / runs, 3) if runs else 0.0


def parse_tsv(tsv: str) -> OcrPage:
    """Tesseract's TSV: level 1 is the page, level 5 a word with its box and confidence."""
    page = OcrPage(0, 0)
    lines: dict[tuple[int, int, int], OcrLine] = {}
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        try:
            level = int(row["level"])
            left, top = int(row["left"]), int(row["top"])
            width, height = int(row["width"]), int(row["height"])
        except (KeyError, TypeError, ValueError):
            continue
        if level == 1:
            page.width, page.height = width, height
            continue
        text = (row.get("text") or "").strip()
        if level != 5 or not text or float(row.get("conf") or -1) < MIN_WORD_CONFIDENCE:
            continue
        key = (int(row["block_num"]), int(row["par_num"]), int(row["line_num"]))
        box = (left, top, left + width, top + height)
        line = lines.get(key)
        if line is None:
            lines[key] = OcrLine([text], box, key[0], word_boxes=[box])
        else:
            line.words.append(text)
            line.word_boxes.append(box)
            b = line.box
            line.box = (min(b[0], box[0]), min(b[1], box[1]), max(b[2], box[2]), max(b[3], box[3]))
    page.lines = list(lines.values())
    return page
