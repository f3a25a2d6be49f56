"""Bounds on input size and work, so a hostile or huge file costs bounded time and memory.

One frozen dataclass passed down the pipeline: no module-level mutable settings. A
deployment sets them through :class:`~treerag_core.settings.Settings` (``TREERAG_MAX_PAGES``
and the like), whose ``limits()`` builds this.
"""

from __future__ import annotations

from dataclasses import dataclass

MB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 100 * MB
    # Text-like sources (txt, md, html): 20 MB of text is ~10,000 pages already.
    max_text_bytes: int = 20 * MB
    max_pages: int = 3000
    max_sections: int = 20000
    # Total uncompressed size of a zip's members (Word, EPUB) we agree to inflate; an
    # e-mail's attachments share one such budget, so many small bombs cost no more.
    max_decompressed_bytes: int = 200 * MB
    # Attachments read per e-mail or mailbox (each is a whole read: a PDF, a Word file); the
    # rest are listed by name. Real mail carries a handful; thousands are an attack or a dump.
    max_attachments: int = 200
    # Files inside files read this deep (a message forwarded as an attachment of a
    # forwarded message is 2); deeper ones are listed by name, not read.
    max_attachment_depth: int = 3
    # MIME parts nested this deep (multipart inside multipart, message/rfc822): real mail
    # nests 3-6 levels, and parsing cost grows with depth times size (a 100 MB message 900
    # levels deep takes minutes to parse), so a deeper message is refused as it is parsed.
    max_mime_depth: int = 30
    # Spreadsheets (xlsx, ods, csv): rows read per sheet, and cells read from the whole
    # workbook. A row prints as one line of about 60 characters, so 100,000 rows are ~6 MB
    # of text; 2,000,000 cells are ~20 MB, the text-like sources' own limit. What is past
    # either is cut, and the sheet says so in a section of its own.
    max_sheet_rows: int = 100_000
    max_sheet_cells: int = 2_000_000
    # LibreOffice converting a legacy file (.doc, .xls, .ppt, .rtf): a stuck conversion is
    # killed after this long (a 300-page .doc converts in about 10 s).
    convert_timeout_s: float = 120.0
    # A section whose own text is longer than this is split into child parts.
    max_section_chars: int = 12000
    # PDF page-group fallback: pages per group.
    pages_per_group: int = 5
    # Extra heading rules for a kind of document: "auto" opts a document in on its own
    # evidence (a filing's cover, financial statements as titles); "generic" or
    # "financial report" force the choice.
    structure_profile: str = "auto"
    # OCR of scanned pages (Tesseract): "auto" reads the PDF pages whose text layer is empty
    # or negligible and that carry an image, and image files; "force" reads every PDF page
    # (for a garbage text layer); "off" never runs it.
    ocr: str = "auto"
    # Tesseract's languages: "auto" reads a scan in its own language when its data is
    # installed (see ingest/ocr/languages.py); codes ("deu", "eng+deu") are used as they are.
    ocr_language: str = "auto"
    ocr_dpi: int = 300  # Tesseract reads small print reliably from about 300 dpi
    ocr_max_pages: int = 500  # pages OCR'd per document: about 4 minutes on 2 cores
    ocr_timeout_s: float = 1800.0  # OCR time for a whole document
    ocr_page_timeout_s: float = 120.0  # one page: a stuck Tesseract is killed
    ocr_workers: int = 0  # Tesseract processes at once; 0 = one per CPU core
    # A long PDF's pages are read by two processes, the indexing one and a helper, when the
    # machine has a second core: PDFium's page reading is the largest single cost of
    # indexing a filing. Off: the indexing process reads every page itself.
    pdf_helper: bool = True
    # An image over this many pixels is refused before it is decoded (a decompression bomb):
    # 100 megapixels is an A0 poster scanned at 300 dpi.
    max_image_pixels: int = 100_000_000
    url_timeout_s: float = 20.0
    url_max_bytes: int = 20 * MB
    url_max_redirects: int = 5
    # Off by default: a team-hosted server must not fetch its own network on a user's behalf.
    allow_private_urls: bool = False
    # A synced folder or bucket: files listed per sync (a share of 10,000 documents is a big
    # team's whole drive; past it the sync says so and deletes nothing) and folder levels
    # walked below the root (deeper trees are rare, and a bound stops a runaway walk).
    sync_max_files: int = 10_000
    sync_max_depth: int = 16


DEFAULT_LIMITS = Limits()


__all__ = ["Limits"]
