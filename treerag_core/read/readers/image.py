"""Images as documents (PNG, JPEG, TIFF; every frame of a multi-page TIFF is a page), read
by OCR: a photographed or faxed page gets a tree and answers like a PDF."""

from __future__ import annotations

import hashlib
import io

from ...errors import DocumentReadError, DocumentTooLargeError, EmptyDocumentError
from ...limits import Limits
from ...structure.pages import NO_OPTIONS, ReadOptions, ReadResult
from ...text.messages import raised
from ..ocr.scan import POINTS_PER_INCH, ocr_pages

DEFAULT_DPI = 300  # assumed when an image does not say (a typical scan)


def read_image(
    data: bytes, limits: Limits, name: str = "the image", options: ReadOptions = NO_OPTIONS
) -> ReadResult:
    """Each frame's text by OCR; the size of a frame is checked before it is decoded."""
    from PIL import Image, ImageSequence, UnidentifiedImageError

    try:
        image = Image.open(io.BytesIO(data))  # reads the header only
    except Image.DecompressionBombError as exc:  # Pillow's own guard, past twice its limit
        raise raised(
            DocumentTooLargeError, "error.image_larger", name=name,
            limit=f"{limits.max_image_pixels:,}",
        ) from exc  # fmt: skip
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise raised(DocumentReadError, "error.image_unreadable", name=name) from exc
    jobs = []
    frames = 0
    for index, frame in enumerate(ImageSequence.Iterator(image)):
        frames += 1
        if frames > limits.max_pages:
            raise raised(
                DocumentTooLargeError, "error.image_pages", name=name, limit=f"{limits.max_pages:,}"
            )
        width, height = frame.size
        if width * height > limits.max_image_pixels:
            raise raised(
                DocumentTooLargeError, "error.image_pixels", name=name, width=f"{width:,}",
                height=f"{height:,}", limit=f"{limits.max_image_pixels:,}",
            )  # fmt: skip
        dpi = _dpi(frame.info.get("dpi"))
        png = _png(frame)
        points = POINTS_PER_INCH / dpi
        jobs.append((index + 1, _const(png), width * points, height * points))
    if not jobs:
        raise raised(EmptyDocumentError, "error.no_image", name=name)
    source_hash = hashlib.sha256(data).hexdigest()
    scan = ocr_pages(jobs, source_hash, limits, options)
    return ReadResult(
        pages=[scan.pages[n] for n, *_ in jobs],
        page_count=len(jobs),
        warnings=scan.warnings,
        ocr_language=scan.language,
    )


def _dpi(value: object) -> float:
    try:
        dpi = float(value[0])  # type: ignore[index]
    except (TypeError, ValueError, IndexError):
        return DEFAULT_DPI
    return dpi if dpi >= 50 else DEFAULT_DPI


def _png(frame: object) -> bytes:
    buffer = io.BytesIO()
    frame.convert("L").save(buffer, format="PNG", compress_level=1)  # type: ignore[attr-defined]
    return buffer.getvalue()


def _const(png: bytes):  # noqa: ANN202 - a job's render function
    return lambda: png
