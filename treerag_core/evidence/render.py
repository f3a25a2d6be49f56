"""Cited pages as images with the evidence highlighted: what a person checks an answer by.

PDFium renders the page, Pillow lays translucent boxes over the quoted passage (and a
stronger tint over the sentence the answer cites). Renders are cached in the registry's
store by (source hash, page, boxes, zoom), so reopening an answer costs a file read.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import EvidenceUnavailableError
from ..read.readers.pdfium_pages import PDFIUM_LOCK
from ..store import open_store
from ..store.base import DocumentStore, RegistryLike
from ..text.messages import raised
from ..types import Document
from .locate import is_pdf, locate_all
from .page_pdf import pages_pdf

# RGBA tints: the excerpt sent to the model, and the sentence the answer cites from it.
EXCERPT_TINT = (255, 214, 0, 80)
SENTENCE_TINT = (255, 122, 0, 110)
OUTLINE = (230, 120, 0, 255)
PAD_POINTS = 1.5  # boxes grow a little so descenders and accents stay inside
RENDER_VERSION = 2  # part of the cache key: bump when the drawing changes
# zlib's fastest level for the pages drawn: a rendered page (flat colours, text) came out
# no larger than at the default level 6 (37 KB against 40 KB for a 10-K page at 0.6) in
# 60% of the time, and each answer's first view of a page draws and crops it on the server.
PNG_LEVEL = 1


@dataclass
class EvidencePage:
    page: int  # 1-based
    png: bytes
    width: int  # pixels
    height: int
    boxes: list[list[int]] = field(default_factory=list)  # excerpt boxes in pixels
    sentence_boxes: list[list[int]] = field(default_factory=list)


def locate_evidence(
    document: Document, reference: dict[str, Any], registry_path: RegistryLike | None = None
) -> dict[str, Any]:
    """``{"highlights", "sentence_highlights"}`` for any reference (an uncited one was not
    located when the answer was made); the reference is updated too."""
    store = open_store(registry_path)
    data = pages_pdf(document, _reader(store), store.cache("evidence"))
    found = locate_all(document, [reference], data, store.cache("ocr"))[0]
    reference.update(found)
    return found


def render_evidence(
    document: Document,
    reference: dict[str, Any],
    registry_path: RegistryLike | None = None,
    zoom: float = 1.5,
) -> list[EvidencePage]:
    """Each page of the reference's evidence as a PNG with the passage highlighted."""
    name = str(document.get("file_name") or "the source")
    store = open_store(registry_path)
    data = pages_pdf(document, _reader(store), store.cache("evidence"))
    if data is None and document.get("page_unit") == "slide":
        raise raised(EvidenceUnavailableError, "error.slides_not_drawn", name=name)
    if data is None and not is_pdf(document):
        raise raised(EvidenceUnavailableError, "error.no_pages_to_draw", name=name)
    if data is None:
        raise raised(EvidenceUnavailableError, "error.source_not_stored", name=name)
    if not _on_pages(reference.get("highlights")):  # unlocated, or text offsets of a deck
        reference.update(locate_all(document, [reference], data, store.cache("ocr"))[0])
    excerpt = {h["page"]: h["rects"] for h in reference.get("highlights") or []}
    sentences = {h["page"]: h["rects"] for h in reference.get("sentence_highlights") or []}
    pages = sorted(excerpt) or [p for p in [reference.get("page_start")] if p]
    cache = store.cache("evidence")
    out = []
    for page in pages:
        key = _key(document, page, excerpt.get(page, []), sentences.get(page, []), zoom)
        hit = cache.get(key)
        if hit is None:
            hit = _render(data, page, excerpt.get(page, []), sentences.get(page, []), zoom)
            cache.put(key, hit)
        out.append(
            EvidencePage(
                page=page,
                png=base64.b64decode(hit["png"]),
                width=hit["width"],
                height=hit["height"],
                boxes=hit["boxes"],
                sentence_boxes=hit["sentence_boxes"],
            )
        )
    return out


def _reader(store: DocumentStore) -> Callable[[Document], bytes | None]:
    """The store's source bytes of a document (what ``pages_pdf`` renders or returns)."""
    return lambda document: store.sources.read(str(document.get("file_path") or ""))


def _on_pages(highlights: object) -> bool:
    """Highlights already found on the PDF's pages (not offsets in the section text)."""
    return isinstance(highlights, list) and all("page" in h for h in highlights)


def _key(document: Document, page: int, rects: list, sentence_rects: list, zoom: float) -> str:
    raw = json.dumps(
        [RENDER_VERSION, document.get("content_hash"), page, rects, sentence_rects, zoom]
    )
    return hashlib.sha256(raw.encode()).hexdigest()


def _render(
    data: bytes, page_no: int, rects: list, sentence_rects: list, zoom: float
) -> dict[str, Any]:
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(data, password="")
        try:
            page = document[page_no - 1]
            left, _bottom, _right, top = page.get_bbox()  # the visible box, inherited or not
            image = page.render(scale=zoom).to_pil().convert("RGBA")
            page.close()
        finally:
            document.close()

    def pixels(rect: list[float]) -> list[int]:
        x0, y0, x1, y1 = rect
        return [
            round((x0 - left - PAD_POINTS) * zoom),
            round((top - y1 - PAD_POINTS) * zoom),
            round((x1 - left + PAD_POINTS) * zoom),
            round((top - y0 + PAD_POINTS) * zoom),
        ]

    boxes = [pixels(r) for r in rects]
    sentence_boxes = [pixels(r) for r in sentence_rects]
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for box in boxes:
        draw.rectangle(box, fill=EXCERPT_TINT)
    for box in sentence_boxes:
        draw.rectangle(box, fill=SENTENCE_TINT, outline=OUTLINE, width=max(1, round(zoom)))
    merged = Image.alpha_composite(image, overlay).convert("RGB")
    buffer = io.BytesIO()
    merged.save(buffer, format="PNG", compress_level=PNG_LEVEL)
    return {
        "png": base64.b64encode(buffer.getvalue()).decode("ascii"),
        "width": merged.width,
        "height": merged.height,
        "boxes": boxes,
        "sentence_boxes": sentence_boxes,
    }


def crop_to_evidence(
    page: EvidencePage, margin: int = 48, aspect: float | None = None, full_width: bool = False
) -> EvidencePage:
    """The part of a rendered page around the cited sentence (or else the whole quoted
    passage), with some of the page around it: a thumbnail that stays legible. ``aspect``
    (width / height): the window grows (within the page) to that shape, so thumbnails of
    different passages line up in a grid of equal tiles. ``full_width``: the page's whole
    lines, a band of it (a large view, where a cut line would read as a cut sentence)."""
    from PIL import Image

    boxes = page.sentence_boxes or page.boxes
    if not boxes:
        return page
    left = max(0, min(b[0] for b in boxes) - margin)
    top = max(0, min(b[1] for b in boxes) - margin)
    right = min(page.width, max(b[2] for b in boxes) + margin)
    bottom = min(page.height, max(b[3] for b in boxes) + margin)
    if full_width:
        left, right = 0, page.width
    if aspect:
        left, top, right, bottom = _to_aspect((left, top, right, bottom), aspect, page)
    image = Image.open(io.BytesIO(page.png)).crop((left, top, right, bottom))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_LEVEL)

    def shift(box: list[int]) -> list[int]:
        return [box[0] - left, box[1] - top, box[2] - left, box[3] - top]

    return EvidencePage(
        page=page.page,
        png=buffer.getvalue(),
        width=image.width,
        height=image.height,
        boxes=[shift(b) for b in page.boxes],
        sentence_boxes=[shift(b) for b in page.sentence_boxes],
    )


def _to_aspect(
    box: tuple[int, int, int, int], aspect: float, page: EvidencePage
) -> tuple[int, int, int, int]:
    """``box`` grown around its centre to ``aspect``, shifted back inside the page (and cut
    to it when the page itself is narrower than the shape asked)."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    if width / max(1, height) < aspect:
        width = min(page.width, round(height * aspect))
    else:
        height = min(page.height, round(width / aspect))
    centre_x, centre_y = (left + right) / 2, (top + bottom) / 2
    left = int(min(max(0, centre_x - width / 2), page.width - width))
    top = int(min(max(0, centre_y - height / 2), page.height - height))
    return left, top, left + width, top + height
