"""The page texts the chunk baseline chunks: by default the same text navigation indexed.

A fair comparison reads the same words: navigation reads PDFium's text, so the baseline
does too (``"reader"``). pypdf's text (``"pypdf"``, the extraction FinanceBench's gold pages
were checked with) stays available as a labelled second row. Extraction costs up to 0.1 s a
page, so texts are cached in the store, keyed by the source's content hash.
"""

from __future__ import annotations

from ..store import open_store
from ..store.base import RegistryLike
from ..structure.pages import RichPage
from ..types import Document
from .run import PageTexts

EXTRACTORS = ("reader", "pypdf")


def registry_page_texts(registry_path: RegistryLike, extractor: str = "reader") -> PageTexts:
    """``document -> its PDF's page texts`` (``None`` for other sources or a missing file)."""
    if extractor not in EXTRACTORS:
        raise ValueError(f"extractor must be one of {EXTRACTORS}")
    store = open_store(registry_path)
    cache = store.cache("page_texts")

    def load(document: Document) -> list[str] | None:
        if document.get("source_type") != "pdf" and not str(
            document.get("file_path", "")
        ).lower().endswith(".pdf"):
            return None
        key = f"{document.get('content_hash') or ''}-{extractor}"
        hit = cache.get(key) if document.get("content_hash") else None
        if hit is not None and isinstance(hit.get("pages"), list):
            return [str(p) for p in hit["pages"]]
        data = store.sources.read(str(document.get("file_path") or ""))
        if data is None:
            return None
        pages = _extract(data, extractor)
        if document.get("content_hash"):
            cache.put(key, {"pages": pages})
        return pages

    return load


def _extract(data: bytes, extractor: str) -> list[str]:
    from ..read.readers.pdf import extract_pages, open_pdf

    reader = open_pdf(data, "the PDF")
    if extractor == "pypdf":
        return [_pypdf_text(reader, i) for i in range(len(reader.pages))]
    pages: list[RichPage] = extract_pages(data, reader, len(reader.pages))
    return [page.text for page in pages]


def _pypdf_text(reader: object, index: int) -> str:
    try:
        return reader.pages[index].extract_text() or ""  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - one broken page must not lose the filing
        return ""
