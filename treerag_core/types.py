"""Shapes of the plain JSON dicts that flow through the pipeline.

read → sections → tree → summaries → outline → navigate → answer. Documents stay plain
JSON-serialisable dicts (the seed's contract); these TypedDicts only describe them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NotRequired, TypedDict


class Section(TypedDict):
    """One heading and the text up to the next heading (not including sub-sections)."""

    title: str
    level: int  # 1 = top level
    text: str
    page_start: int | None  # 1-based, inclusive; None for sources without pages
    page_end: int | None
    page_marks: NotRequired[list[list[int]]]  # [[offset in text, page], …] past page_start
    generated: NotRequired[bool]  # made by treerag (a size split), not a heading of the source


class TreeNode(TypedDict):
    """Skeleton of the nested tree: ids, titles and pages only (text lives in flat_nodes)."""

    node_id: str
    title: str
    level: int
    page_start: int | None
    page_end: int | None
    children: list[TreeNode]
    number: NotRequired[str]  # the printed section number, as on FlatNode


class FlatNode(TypedDict, total=False):
    node_id: str
    title: str  # the heading's name, without its section number
    number: str  # the section number printed before it ("1.2"), when there is one
    level: int
    path: str  # breadcrumb "Chapter 2 > 2.1 Data"
    parent_id: str | None
    children: list[str]
    text: str  # the section's own text, without its children's
    summary: str
    tags: list[str]
    page_start: int | None
    page_end: int | None
    page_marks: list[list[int]]  # only on sections spanning pages
    fingerprint: str  # hash of title + text: unchanged sections keep their summaries
    summary_by: str  # signature of the summarizer that wrote summary/tags
    generated: bool  # made by treerag (a size split), not a heading of the source


class Origin(TypedDict, total=False):
    """Where a synced document came from (``library/syncing.py``): its source, the file's
    path inside it and what the file was when indexed (its fingerprint: the content's
    sha256 for a folder, ``etag:…`` for a bucket; a folder's size and modification time, so
    a re-sync reads only files whose size or time changed)."""

    source_id: str
    path: str
    fingerprint: str
    size: int
    mtime_ns: int | None


class Document(TypedDict, total=False):
    doc_id: str
    file_name: str
    file_path: str
    source_type: str  # pdf | docx | html | url | markdown | text | image
    structure_source: str  # what gave the tree: bookmarks, numbering and keywords, …
    # Which parts came from where: headings per source ({"bookmarks": 43, "typography":
    # 120}) and the "pieces cut for size" of sections with no heading to cut at
    structure_parts: dict[str, int]
    # With a model: {"asked": n, "set_aside": [titles]} (and "error" if the check failed)
    structure_check: dict[str, Any]
    warnings: list[str]  # parts of the source that could not be read, and why
    # What the file says about itself: "title", "authors" (an e-book's OPF), "from", "to",
    # "cc", "date" (an e-mail's headers), "messages" (a mailbox)
    metadata: dict[str, Any]
    ocr_pages: int  # pages read by OCR
    # The Tesseract languages they were read in ("deu"; their OCR cache entries' key)
    ocr_language: str
    # Sections whose summary is the offline lead because the summary model's reply failed
    # or was unusable (a later re-index asks again)
    summary_fallbacks: int
    # The language its text is in (ISO 639-1, "" when it could not be told), detected at
    # indexing; an editor's correction is the card's "language" (card_edits)
    language: str
    # The sections written in another language than ``language`` (a bilingual contract's
    # other half): node id → ISO 639-1; each is cut and stemmed in its own
    section_languages: dict[str, str]
    tables: list[dict[str, Any]]  # the document's tables as rows × columns (text/table_data)
    content_hash: str
    indexed_at: str
    total_sections: int
    total_pages: int | None
    # What its pages are, as references name them: "slide" (a deck), "sheet" (a workbook);
    # "page" or absent for everything else
    page_unit: str
    source_chars: int
    tree_outline: str
    flat_nodes: dict[str, FlatNode]
    tree: list[TreeNode]
    stats: dict[str, Any]
    schema_version: int
    # An editor's corrections to the document's card (kind, periods, description): kept
    # across re-indexing of the same file (see ingest/card.py)
    card_edits: dict[str, Any]
    # Set on documents a synced folder or bucket keeps in step (see Origin)
    origin: Origin
    collection: str  # the collection it is filed in (who may read it: treerag_core.access)


class SummaryResult(TypedDict):
    summaries: dict[str, dict[str, Any]]  # node_id -> {"summary": str, "tags": [str]}
    stats: dict[str, Any]


# progress(done, total, message)
class LibraryEntry(TypedDict):
    """One document in the library index, made once at indexing: its card and its section
    statistics (``treerag_core.library.section_terms.section_entry``: each term's postings,
    the document's totals, its sections' node ids and titles)."""

    doc_id: str
    stamp: str  # what it was indexed from (content hash and time): a changed one is redone
    collection: str
    card: dict[str, Any]
    sections: dict[str, Any]


ProgressFn = Callable[[int, int, str], None]
# summarizer(nodes_to_summarize, progress) -> SummaryResult; has a ``signature`` attribute.
SummarizerFn = Callable[..., SummaryResult]


__all__ = [
    "Document",
    "FlatNode",
    "LibraryEntry",
    "Origin",
    "ProgressFn",
    "Section",
    "SummarizerFn",
    "SummaryResult",
    "TreeNode",
]
