"""EPUB (2 and 3) → chapters as their author nested them, one page each.

An e-book is a zip of XHTML files: ``META-INF/container.xml`` names the package file
(OPF) with the book's title, authors, its files and their reading order (the spine); the
navigation document (EPUB 3) or the NCX (EPUB 2) gives the chapters and where each
starts. Every chapter's XHTML goes through the HTML reader, cut at the chapters' anchors;
a chapter is the book's page-like unit (p. 3 is the third entry of its contents), since an
e-book has no printed pages. Read with zipfile, lxml and BeautifulSoup: EbookLib (AGPL,
which a team-hosted app would have to honour) adds no check we need and no zip limits.
"""

from __future__ import annotations

import re
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ...errors import DocumentReadError
from ...limits import Limits
from ...structure.pages import ReadResult
from ...text.messages import Phrase, raised
from ...tree.sections import heading, join_pages, nest_headings
from .archive import member_path, open_zip, read_member
from .epub_toc import TocEntry, nav_entries, ncx_entries, parse_xml, text_of
from .html import CHROME, html_markdown, parse_html

CONTAINER = "META-INF/container.xml"
_NOT_EPUB_HINT = Phrase("error.epub_hint")
_XHTML = {"application/xhtml+xml", "text/html", "application/xml", "text/xml"}
# A chapter's start, planted in its XHTML before it is read, found again as a line.
_MARK = "\ue000{}\ue000"
_MARK_LINE = re.compile(r"^\ue000(\d+)\ue000$", re.M)
FRONT_MATTER = "Front matter"  # what comes before the first chapter of the contents


@dataclass
class Package:
    """The OPF: where it is, what it says about the book, and its files in reading order."""

    member: str
    metadata: dict[str, Any]
    spine: list[str]
    nav: str | None
    ncx: str | None


@dataclass
class Chapter:
    title: str
    level: int
    parts: list[str] = field(default_factory=list)
    front: bool = False  # the text before the contents' first entry


def read_epub(
    data: bytes, limits: Limits, name: str = "the e-book", options: object = None
) -> ReadResult:
    """Chapters from the contents in reading order, each a page; title and authors too."""
    with open_zip(data, limits, name, ".epub", CONTAINER, _NOT_EPUB_HINT) as archive:
        try:
            package = read_package(archive, name)
            entries, source = _contents(archive, package, name)
            chapters, warnings = _chapters(archive, package, entries, name, limits)
        except RecursionError as exc:  # contents or markup nested thousands deep
            raise raised(DocumentReadError, "error.epub_too_deep", name=name) from exc
    pages = _pages(chapters)
    if len(pages) > limits.max_pages:
        warnings.append(
            f"Only the first {limits.max_pages:,} of {len(pages):,} chapters were read "
            "(the page limit)."
        )
        pages = pages[: limits.max_pages]
    return ReadResult(
        text=join_pages(pages),
        page_count=len(pages),
        title=package.metadata.get("title") or None,
        structure_source=source,
        warnings=warnings,
        metadata=package.metadata,
    )


def _pages(chapters: list[Chapter]) -> list[str]:
    """A page per chapter: the entries of the first level of the contents with more than
    one (a book wrapped in one entry is paged by the chapters below it). What comes before
    the first chapter (front matter, the wrapping entry) shares its page, so chapter N is
    page N; sub-chapters stay on their chapter's page."""
    counts = Counter(chapter.level for chapter in chapters if not chapter.front)
    page_level = min((level for level, n in counts.items() if n > 1), default=1)
    pages: list[list[str]] = []
    has_chapter = False
    for chapter in chapters:
        starts = not chapter.front and chapter.level == page_level
        if not pages or (starts and has_chapter):
            pages.append([])
            has_chapter = False
        pages[-1].append(_chapter_text(chapter))
        has_chapter = has_chapter or starts
    return ["\n\n".join(page) for page in pages]


def read_package(archive: zipfile.ZipFile, name: str) -> Package:
    container = parse_xml(read_member(archive, CONTAINER, name), "container", name)
    rootfile = next(container.iter("{*}rootfile"), None)
    opf = member_path("", rootfile.get("full-path") or "") if rootfile is not None else None
    if not opf or opf not in archive.NameToInfo:
        raise raised(DocumentReadError, "error.epub_no_opf", name=name)
    root = parse_xml(read_member(archive, opf, name), "package file (OPF)", name)
    manifest: dict[str, tuple[str, str, str]] = {}  # id -> (member, media type, properties)
    for item in root.iter("{*}item"):
        member = member_path(opf, item.get("href") or "")
        if member and item.get("id"):
            manifest[item.get("id")] = (
                member,
                item.get("media-type") or "",
                item.get("properties") or "",
            )
    spine_tag = next(root.iter("{*}spine"), None)
    spine = [
        manifest[ref.get("idref")][0]
        for ref in (spine_tag.iterchildren("{*}itemref") if spine_tag is not None else [])
        if ref.get("idref") in manifest and manifest[ref.get("idref")][1] in _XHTML
    ]
    nav = next((m for m, _, props in manifest.values() if "nav" in props.split()), None)
    ncx_id = spine_tag.get("toc") if spine_tag is not None else None
    ncx = manifest[ncx_id][0] if ncx_id in manifest else None
    ncx = ncx or next((m for m, kind, _ in manifest.values() if kind.endswith("dtbncx+xml")), None)
    return Package(opf, _metadata(root), list(dict.fromkeys(spine)), nav, ncx)


def _metadata(root: Any) -> dict[str, Any]:
    """Title, authors and language from the OPF's Dublin Core metadata."""
    block = next(root.iter("{*}metadata"), None)
    if block is None:
        return {}
    found = {
        "title": next((text_of(t) for t in block.iter("{*}title") if text_of(t)), ""),
        "authors": [text_of(c) for c in block.iter("{*}creator") if text_of(c)],
        "language": next((text_of(t) for t in block.iter("{*}language") if text_of(t)), ""),
    }
    return {key: value for key, value in found.items() if value}


def _contents(archive: zipfile.ZipFile, package: Package, name: str) -> tuple[list[TocEntry], str]:
    """The contents' entries and what they came from; the reading order when there is none."""
    for member, source, parse in (
        (package.nav, "e-book contents (EPUB 3)", nav_entries),
        (package.ncx, "e-book contents (NCX)", ncx_entries),
    ):
        if member and member in archive.NameToInfo:
            entries = parse(read_member(archive, member, name), member, name)
            if any(e.member in package.spine for e in entries):
                return entries, source
    return [], "e-book reading order"


def _chapters(
    archive: zipfile.ZipFile, package: Package, entries: list[TocEntry], name: str, limits: Limits
) -> tuple[list[Chapter], list[str]]:
    """The book's text cut into its chapters, walking the files in reading order, until
    they hold ``max_text_bytes`` of markup (the HTML reader's bound, for the same reason)."""
    if not package.spine:
        raise raised(DocumentReadError, "error.epub_no_spine", name=name)
    starts, warnings = _starts_by_file(entries, package.spine)
    chapters: list[Chapter] = []
    front = Chapter(FRONT_MATTER, 1, front=True)
    markup = 0
    for number, member in enumerate(package.spine):
        if member == package.nav and entries:  # the contents page: its list is the tree
            continue
        if member not in archive.NameToInfo:
            warnings.append(f"{member} is in the reading order but not in the file: skipped.")
            continue
        markup += archive.getinfo(member).file_size
        if markup > limits.max_text_bytes:
            warnings.append(
                f"Only {number:,} of {len(package.spine):,} files were read: the rest would "
                f"pass {limits.max_text_bytes:,} bytes of text."
            )
            break
        soup = parse_html(read_member(archive, member, name))
        here = starts.get(member, [])
        ordered = _plant_marks(soup, here) if entries else []
        text, page_title = html_markdown(soup)
        if not entries:  # no contents: every file of the reading order is a chapter
            first = next(
                (ln.lstrip("#").strip() for ln in text.split("\n") if ln.startswith("#")), ""
            )
            title = page_title or first or f"Part {len(chapters) + 1}"
            ordered = [TocEntry(title, 1, member, "")]
            text = _MARK.format(0) + "\n" + text
        pieces = _MARK_LINE.split(text)
        (chapters[-1] if chapters else front).parts.append(pieces[0])
        for index, piece in zip(pieces[1::2], pieces[2::2], strict=True):
            entry = ordered[int(index)]
            chapters.append(Chapter(entry.title, entry.level, [piece]))
    if any(part.strip() for part in front.parts):
        chapters.insert(0, front)
    return chapters, warnings


def _starts_by_file(
    entries: list[TocEntry], spine: list[str]
) -> tuple[dict[str, list[TocEntry]], list[str]]:
    """The entries starting in each file; a heading without a link starts where the next
    entry with one does (just before it)."""
    starts: dict[str, list[TocEntry]] = {}
    pending: list[TocEntry] = []
    outside = 0
    for entry in entries:
        if entry.member is None:
            pending.append(entry)
            continue
        if entry.member not in spine:
            outside += 1
            continue
        for waiting in pending:
            starts.setdefault(entry.member, []).append(
                TocEntry(waiting.title, waiting.level, entry.member, entry.fragment)
            )
        pending = []
        starts.setdefault(entry.member, []).append(entry)
    warnings = (
        [f"{outside} entries of the contents point outside the reading order and were skipped."]
        if outside
        else []
    )
    return starts, warnings


def _plant_marks(soup: Any, entries: list[TocEntry]) -> list[TocEntry]:
    """A mark line before each entry's anchor (or at the file's start); the entries in the
    order their marks appear, which is what the numbers in the marks index."""
    order = {id(tag): i for i, tag in enumerate(soup.find_all(True))}
    placed: list[tuple[int, TocEntry, Any]] = []
    for entry in entries:
        anchor = _anchor(soup, entry.fragment)
        placed.append((order.get(id(anchor), -1) if anchor is not None else -1, entry, anchor))
    placed.sort(key=lambda item: item[0])  # stable: entries at one place keep their order
    body = soup.body or soup
    first = None
    for index, (_, _, anchor) in enumerate(placed):
        mark = soup.new_tag("p")
        mark.string = _MARK.format(index)
        if anchor is None:
            (first.insert_after(mark) if first is not None else body.insert(0, mark))
            first = mark
        else:
            _outside_chrome(anchor).insert_before(mark)
    return [entry for _, entry, _ in placed]


def _anchor(soup: Any, fragment: str) -> Any:
    if not fragment:
        return None
    return soup.find(id=fragment) or soup.find(attrs={"name": fragment})


def _outside_chrome(tag: Any) -> Any:
    """The anchor, or its outermost enclosing chrome element (which the HTML reader drops,
    marks and all)."""
    top = tag
    for parent in tag.parents:
        if parent.name in CHROME:
            top = parent
    return top


def _chapter_text(chapter: Chapter) -> str:
    """The chapter's heading, then its text with its own headings below it (a first
    heading repeating the chapter's title is dropped)."""
    body = "\n".join(chapter.parts).strip("\n")
    lines = body.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].startswith("#") and _same(lines[first], chapter.title):
        body = "\n".join(lines[first + 1 :]).strip("\n")
    return f"{heading(chapter.title, chapter.level)}\n\n{nest_headings(body, chapter.level + 1)}".rstrip()


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def _same(heading_line: str, title: str) -> bool:
    """``# Arrival`` under the entry "Chapter 1. Arrival" (or the other way round)."""
    a, b = _words(heading_line.lstrip("#")), _words(title)
    return bool(a and b) and (a == b or a.endswith(b) or b.endswith(a))
