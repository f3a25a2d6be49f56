"""Where a reference's quoted text sits in its source, so a person can check it at a glance.

Every reference carries ``spans``: the exact slices of section texts sent to the answer
model. For a PDF those words are found again on the page by PDFium (its own text of the
page, aligned word by word, so line breaks, hyphenation and spacing differences between the
indexed text and the page do not matter) and turned into rectangles in PDF points, one per
line segment; for other sources the spans themselves are the highlight (character offsets
in the section text). Where the answer cites a sentence, that sentence is located too, so
the highlight can be tighter than the whole excerpt. A scanned page has no text for PDFium
to search: there the words OCR read when the document was indexed (kept with their boxes in
the registry's OCR cache) stand in for the page's text. A reference cited for table cells
(a computed answer's operands: ``cited_cells``) gets their boxes (``cell_boxes``, found on
the open pages by :mod:`.cell_boxes`) as its tighter highlight: the figures themselves.

Locating is half of an offline answer's CPU (opening the PDF, loading and reading its pages,
aligning the words), and the same passage is cited again whenever people ask the same or a
neighbouring question: with somewhere to keep them (``kept``: the retriever's
:class:`~..navigate.ranking.RankingMemory`), each reference's result is kept under what it
depends on (the document as indexed, its pages, the passages and sentences quoted, the cells
cited), and the PDF is read and opened only for references not located before.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..read.ocr.page_cache import Box, cached_words
from ..read.ocr.scan import THIN_TEXT_CHARS
from ..read.readers.pdfium_pages import PDFIUM_LOCK
from ..settings import load
from ..store.base import Cache
from ..text.sentences import split_sentences
from ..text.table_data import tables_of
from ..text.tokens import tokenize
from ..types import Document
from .cell_boxes import OcrText, PageText, PdfiumText, cell_boxes

_WORD = re.compile(r"\w+")
_HYPHEN_BREAK = "\ufffe\r\n"  # PDFium's mark of a word hyphenated over a line break
# Matched runs shorter than this are chance ("the", "of") unless the passage is tiny.
MIN_BLOCK_WORDS = 2
# Unmatched words a highlighted run may bridge (an extraction difference inside a line).
MAX_GAP_WORDS = 2
# Pages before and after the cited range searched when the words are not on the cited pages
# (page marks can be off by one where a section's text begins at a page's foot).
PAGE_SLACK = 1
MAX_PAGES = 8  # a reference's evidence is a passage, never a whole chapter
LINE_OVERLAP = 0.5  # two boxes overlapping by half their height sit on one line
# An answer sentence and a source sentence share at least this many content words to be
# taken for the same statement.
MIN_SHARED_WORDS = 3
_CITE = re.compile(r"\[S(\d+)\b[^\]]*\]")


@dataclass
class PageWords:
    page: int  # 1-based
    words: list[str]  # lower-cased
    spans: list[tuple[int, int]]  # raw character range of each word on the page


SourceReader = Callable[[Document], bytes | None]


class Kept(Protocol):
    """Where located evidence is kept between answers (the retriever's RankingMemory). Read
    and written without waiting for another thread: a reference is located while PDFium's
    lock is held, and waiting there for another answer's reference, located under the same
    lock, would never end."""

    def kept(self, key: Hashable) -> Any: ...

    def keep(self, key: Hashable, value: Any) -> None: ...


# (page number, width, height in points) → the words OCR read there with their boxes, or None
OcrWords = Callable[[int, float, float], list[tuple[str, Box]] | None]


def ocr_words_of(document: Mapping[str, Any], ocr_cache: Cache | None) -> OcrWords | None:
    """Where a scanned document's words and boxes are found again, if it has scanned pages."""
    if ocr_cache is None or not document.get("ocr_pages") or not document.get("content_hash"):
        return None
    source_hash, limits = str(document["content_hash"]), load().limits()
    language = str(document.get("ocr_language") or "")
    return lambda page, width, height: cached_words(
        ocr_cache, source_hash, page, width, height, limits, language
    )


def is_pdf(document: Mapping[str, Any]) -> bool:
    return document.get("source_type") == "pdf" or str(
        document.get("file_path", "")
    ).lower().endswith(".pdf")


def quoted_text(document: Document, reference: Mapping[str, Any]) -> list[str]:
    """The slices of section text the reference quoted, in order."""
    flat = document.get("flat_nodes") or {}
    out = []
    for span in reference.get("spans") or []:
        node = flat.get(span.get("node_id"))
        if node is not None:
            out.append(str(node.get("text") or "")[span["start"] : span["end"]])
    return out


def attach_evidence(
    answer: str,
    references: list[dict[str, Any]],
    documents: Mapping[str, Document],
    read_source: SourceReader,
    ocr_cache: Cache | None = None,
    kept: Kept | None = None,
) -> None:
    """Give each cited reference its ``sentences``, ``highlights`` and
    ``sentence_highlights``; the others get ``highlights = None`` (located on demand by
    :func:`locate_evidence`, since reading every page sent would cost more than the answer).
    ``kept``: where each reference's result is kept (see the module docstring).
    """
    cited_sentences(answer, references, documents)
    cited = [r for r in references if r.get("cited")]
    for ref in references:
        ref.setdefault("highlights", None)
    by_doc: dict[str, list[dict[str, Any]]] = {}
    for ref in cited:
        by_doc.setdefault(str(ref.get("doc_id")), []).append(ref)
    for doc_id, refs in by_doc.items():
        document = documents.get(doc_id)
        if document is None:
            continue
        if is_pdf(document) and kept is not None:
            found_all = _remembered(document, refs, read_source, ocr_cache, kept)
        else:
            data = read_source(document) if is_pdf(document) else None
            found_all = locate_all(document, refs, data, ocr_cache)
        for ref, found in zip(refs, found_all, strict=True):
            ref.update(found)


def _remembered(
    document: Document, references: Sequence[Mapping[str, Any]], read_source: SourceReader,
    ocr_cache: Cache | None, kept: Kept,
) -> list[dict[str, Any]]:  # fmt: skip
    """:func:`locate_all` of a PDF, each reference's result kept in ``kept``; the PDF is read
    and opened once, for the references not located before (if any)."""
    keys = [_evidence_key(document, ref) for ref in references]
    found = [kept.kept(key) for key in keys]
    missing = [n for n, result in enumerate(found) if result is None]
    if missing:
        data = read_source(document)
        fresh = locate_all(document, [references[n] for n in missing], data, ocr_cache)
        for n, result in zip(missing, fresh, strict=True):
            kept.keep(keys[n], result)
            found[n] = result
    return [copy.deepcopy(result) for result in found]


def _evidence_key(document: Document, ref: Mapping[str, Any]) -> Hashable:
    """What a reference's evidence depends on: the document as indexed (its source's hash and
    when it was indexed), the pages, the passages and sentences quoted, the cells cited."""
    cells = json.dumps([ref.get("cited_cells") or [], ref.get("cell_boxes") or []],
                       sort_keys=True, default=str)  # fmt: skip
    return ("evidence", str(document.get("doc_id")), str(document.get("content_hash")),
            str(document.get("indexed_at")), ref.get("page_start"), ref.get("page_end"),
            tuple(quoted_text(document, ref)), tuple(ref.get("sentences") or ()), cells)  # fmt: skip


def locate_all(
    document: Document,
    references: Sequence[Mapping[str, Any]],
    data: bytes | None,
    ocr_cache: Cache | None = None,
) -> list[dict[str, Any]]:
    """``{"highlights", "sentence_highlights"}`` for each reference of one document: PDF
    rectangles when ``data`` is the PDF (on scanned pages, from the words OCR read, kept in
    ``ocr_cache``), else character offsets in the section texts."""
    if data is None:
        return [
            {
                "highlights": [dict(span) for span in ref.get("spans") or []],
                "sentence_highlights": sentence_offsets(document, ref),
            }
            for ref in references
        ]
    with PdfLocator(data, ocr_words_of(document, ocr_cache)) as locator:
        return [_located(locator, document, ref) for ref in references]


def _located(locator: PdfLocator, document: Document, ref: Mapping[str, Any]) -> dict[str, Any]:
    """One reference's highlights on the open PDF."""
    start, end = ref.get("page_start"), ref.get("page_end")
    passages = quoted_text(document, ref)
    found = locator.find(search_pages(start, end), passages)
    if not found:
        found = locator.find(search_pages(start, end, PAGE_SLACK), passages)
    # (a reference kept before cells were placed here carries its boxes itself)
    boxes = locator.cell_boxes(tables_of(document), ref.get("cited_cells") or []) or [
        dict(box) for box in ref.get("cell_boxes") or []
    ]
    if boxes:  # cited for figures of a table: their boxes, not a sentence's lines
        cells = cell_highlights(boxes)
        return {"highlights": _with_pages(found, cells), "sentence_highlights": cells,
                "cell_boxes": boxes}  # fmt: skip
    pages = [h["page"] for h in found] or search_pages(start, end, PAGE_SLACK)
    sentences = [locator.find(pages, [s]) for s in ref.get("sentences") or []]
    return {"highlights": found, "sentence_highlights": _merge(sentences)}


def cell_highlights(boxes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The boxes of the table cells a reference is cited for, as highlights by page."""
    by_page: dict[int, list[list[float]]] = {}
    for cell in boxes:
        by_page.setdefault(int(cell["page"]), []).append([float(v) for v in cell["box"]])
    return [{"page": page, "rects": rects} for page, rects in sorted(by_page.items())]


def _with_pages(found: list[dict[str, Any]], cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The passage's highlights, with the cells' pages it was not found on (so those pages
    are drawn too)."""
    pages = {h["page"] for h in found}
    return sorted([*found, *(c for c in cells if c["page"] not in pages)], key=lambda h: h["page"])


def _merge(found: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    by_page: dict[int, list[list[float]]] = {}
    for hits in found:
        for hit in hits:
            by_page.setdefault(hit["page"], []).extend(hit["rects"])
    return [{"page": page, "rects": rects} for page, rects in sorted(by_page.items())]


def sentence_offsets(document: Document, reference: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Where each cited sentence sits in its section text (whitespace may differ: the
    sentence was normalised when it was split)."""
    flat = document.get("flat_nodes") or {}
    out = []
    for sentence in reference.get("sentences") or []:
        pattern = r"\s+".join(re.escape(w) for w in sentence.split())
        for span in reference.get("spans") or []:
            text = str((flat.get(span["node_id"]) or {}).get("text") or "")
            m = re.compile(pattern).search(text, span["start"], span["end"])
            if m:
                out.append({"node_id": span["node_id"], "start": m.start(), "end": m.end()})
                break
    return out


def cited_sentences(
    answer: str, references: list[dict[str, Any]], documents: Mapping[str, Document]
) -> None:
    """Set ``reference["sentences"]``: the source sentences the answer cites it for.

    The extractive engine quotes sentences verbatim; a model's claim is matched to the
    quoted sentence that shares the most content words with it.
    """
    by_ref = {str(ref.get("ref")): ref for ref in references}
    claims: dict[str, list[str]] = {}
    for line in answer.split("\n"):
        before = 0  # a claim is the text since the previous citation on its line
        for m in _CITE.finditer(line):
            claim = line[before : m.start()].strip(" -•*.,;")
            before = m.end()
            if claim:
                claims.setdefault(f"S{m.group(1)}", []).append(claim)
    for key, texts in claims.items():
        ref = by_ref.get(key)
        document = documents.get(str(ref.get("doc_id"))) if ref else None
        if ref is None or document is None:
            continue
        candidates = [s for piece in quoted_text(document, ref) for s in split_sentences(piece)]
        found = [_best_sentence(claim, candidates) for claim in texts]
        ref["sentences"] = list(dict.fromkeys(s for s in found if s))


def _best_sentence(claim: str, candidates: list[str]) -> str | None:
    want = set(tokenize(claim))
    scored = [(len(want & set(tokenize(c))), -i, c) for i, c in enumerate(candidates)]
    best = max(scored, default=None)
    return best[2] if best and best[0] >= min(MIN_SHARED_WORDS, len(want)) else None


# --- PDF: words on the page, aligned to the passage ------------------------------------


def search_pages(start: int | None, end: int | None, slack: int = 0) -> list[int]:
    """The pages to search for a reference cited as ``start``–``end``."""
    if start is None:
        return []
    last = end or start
    return list(range(max(1, start - slack), last + slack + 1))[:MAX_PAGES]


class PdfLocator:
    """Finds passages on the pages of one PDF; pages are read once and kept for the call.

    Use as a context manager: PDFium is not thread-safe, so the document is open (and the
    shared lock held) only inside the block.
    """

    def __init__(self, data: bytes, ocr_words: OcrWords | None = None) -> None:
        self.data = data
        self.ocr_words = ocr_words
        self.words: dict[int, PageWords] = {}
        self.textpages: dict[int, tuple[Any, Any]] = {}
        self.boxes: dict[int, list[Box]] = {}  # a scanned page's word boxes, by word
        self.scan_words: dict[int, list[tuple[str, Box]]] = {}  # its words as OCR read them

    def __enter__(self) -> PdfLocator:
        import pypdfium2 as pdfium

        PDFIUM_LOCK.acquire()
        try:
            self.document = pdfium.PdfDocument(self.data, password="")
        except BaseException:
            PDFIUM_LOCK.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            for page, textpage in self.textpages.values():
                textpage.close()
                page.close()
            self.document.close()
        finally:
            PDFIUM_LOCK.release()

    def find(self, pages: Iterable[int], passages: list[str]) -> list[dict[str, Any]]:
        """``[{"page", "rects": [[left, bottom, right, top], …]}]`` where ``passages`` lie on
        ``pages`` (1-based), in PDF points; pages where nothing was found are left out."""
        words = [w.lower() for text in passages for w in _WORD.findall(text)]
        pages = [p for p in pages if 1 <= p <= len(self.document)]
        if not words or not pages:
            return []
        page_words = [self._page(p) for p in pages]
        flat = [(pw.page, i) for pw in page_words for i in range(len(pw.words))]
        haystack = [w for pw in page_words for w in pw.words]
        matcher = difflib.SequenceMatcher(None, haystack, words, autojunk=False)
        minimum = MIN_BLOCK_WORDS if len(words) >= MIN_BLOCK_WORDS else 1
        matched = sorted(
            flat[block.a + k]
            for block in matcher.get_matching_blocks()
            if block.size >= minimum
            for k in range(block.size)
        )
        out = []
        for number, runs in _runs(matched).items():
            textpage = self.textpages[number][1]
            spans = self.words[number].spans
            rects: list[list[float]] = []
            for first, last in runs:
                if number in self.boxes:  # a scan: the boxes OCR gave its words
                    pieces = self.boxes[number][first : last + 1]
                else:
                    start, end = spans[first][0], spans[last][1]
                    count = textpage.count_rects(start, end - start)
                    pieces = [textpage.get_rect(i) for i in range(count)]
                rects += [[round(v, 1) for v in r] for r in _line_boxes(pieces)]
            if rects:
                out.append({"page": number, "rects": rects})
        return out

    def cell_boxes(
        self, tables: Sequence[Mapping[str, Any]], cited: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """The boxes of the ``cited`` cells of ``tables`` found on their pages."""
        return cell_boxes(tables, cited, self._text) if cited else []

    def _text(self, number: int) -> PageText | None:
        """Page ``number``'s text to find cells in: its text layer, or a scan's OCR words."""
        if not 1 <= number <= len(self.document):
            return None
        self._page(number)
        if number in self.scan_words:
            return OcrText(self.scan_words[number])
        return PdfiumText(self.textpages[number][1])

    def _page(self, number: int) -> PageWords:
        if number not in self.words:
            page = self.document[number - 1]
            textpage = page.get_textpage()
            self.textpages[number] = (page, textpage)
            raw = textpage.get_text_range()
            self.words[number] = _words_of(number, raw)
            if len(raw.strip()) < THIN_TEXT_CHARS and self.ocr_words is not None:
                self._read_scan(number, page)  # read by OCR at indexing, if anything
        return self.words[number]

    def _read_scan(self, number: int, page: Any) -> None:
        """A page with little or no text layer: its words as OCR read them (if it was read by
        OCR), each token with its word's box."""
        width, height = page.get_size()
        words, boxes = [], []
        read = self.ocr_words(number, width, height) or []  # type: ignore[misc]
        if read:
            self.scan_words[number] = read
        for text, box in read:
            for token in _WORD.findall(text):
                words.append(token.lower())
                boxes.append(box)
        if words:
            self.words[number] = PageWords(number, words, [(0, 0)] * len(words))
            self.boxes[number] = boxes


def _words_of(number: int, raw: str) -> PageWords:
    """The page's words with their raw character ranges; a word hyphenated over a line
    break ("manage-" / "ment") is one word, as in the indexed text."""
    words: list[str] = []
    spans: list[tuple[int, int]] = []
    glue = len(_HYPHEN_BREAK)
    for m in _WORD.finditer(raw):
        if (
            spans
            and m.start() == spans[-1][1] + glue
            and raw.startswith(_HYPHEN_BREAK, spans[-1][1])
        ):
            words[-1] += m.group(0).lower()
            spans[-1] = (spans[-1][0], m.end())
        else:
            words.append(m.group(0).lower())
            spans.append((m.start(), m.end()))
    return PageWords(number, words, spans)


def _line_boxes(pieces: list[tuple[float, float, float, float]]) -> list[list[float]]:
    """PDFium's rectangles (one per character on some PDFs) joined into one box per line
    segment: the same line when they overlap vertically by half their height, and one
    segment while the gap between them is under a line height."""
    boxes: list[list[float]] = []
    for left, bottom, right, top in pieces:
        if boxes:
            b = boxes[-1]
            height = max(top - bottom, b[3] - b[1], 1.0)
            overlap = min(top, b[3]) - max(bottom, b[1])
            if overlap >= LINE_OVERLAP * height and -height <= left - b[2] <= height:
                boxes[-1] = [min(b[0], left), min(b[1], bottom), max(b[2], right), max(b[3], top)]
                continue
        boxes.append([left, bottom, right, top])
    return boxes


def _runs(matched: list[tuple[int, int]]) -> dict[int, list[tuple[int, int]]]:
    """Matched word indexes per page → runs (first, last), bridging small gaps."""
    runs: dict[int, list[tuple[int, int]]] = {}
    for page, index in matched:
        page_runs = runs.setdefault(page, [])
        if page_runs and index - page_runs[-1][1] <= MAX_GAP_WORDS + 1:
            page_runs[-1] = (page_runs[-1][0], index)
        else:
            page_runs.append((index, index))
    return runs
