"""Markdown-style text → flat list of sections, with page numbers.

Every reader turns its format into one common text: Markdown headings (ATX ``#`` or setext)
mark structure and a form feed ``\\f`` separates pages. Readers of non-Markdown formats pass
body lines through :func:`escape_line` so that a PDF line such as ``# of shares`` never
becomes a heading; :func:`parse_sections` undoes that escape in the section text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..types import Section
from .continued import Record, merge_continued
from .pieces import piece_titles

PAGE_BREAK = "\f"
# The deepest heading level the tree keeps. Markdown's ATX headings stop at six, documents do
# not: a 10-K's Part › Item 8 › notes › Note 5 › heading › subheading reaches six before a
# table caption, an exhibit's plan › Article › section reaches eight under Part IV › Item 15,
# and a level past the last one folded into it, beside its own parent. Readers write and
# this parser reads up to this many "#"; a Markdown file's line of seven to nine "#" and a
# space is a heading here too (CommonMark reads it as text: no such file was seen).
DEEPEST_HEADING = 9

ATX_MARKS = rf"#{{1,{DEEPEST_HEADING}}}"  # an ATX heading's marks, one to DEEPEST_HEADING
_ATX = re.compile(rf"^ {{0,3}}({ATX_MARKS})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# Lines a reader must escape so they are not read as Markdown structure.
_NEEDS_ESCAPE = re.compile(r"^ {0,3}(#|=+[ \t]*$|-+[ \t]*$|`{3}|~{3})")
_ESCAPED = re.compile(r"^( {0,3})\\(?=#|=|-|`|~)")
_MAX_TITLE = 200
_CLOSING_HASHES = re.compile(r"\s+#+\s*$")
# A line that ends a sentence (a size split prefers to cut after one), and a sentence break
# inside a line.
_SENTENCE_END = re.compile(r"[.!?:;][\"'’”)\]]*\s*$")
_SENTENCE_BREAK = re.compile(r"[.!?][\"'’”)\]]*\s+(?=[A-Z0-9“\"(])")
# A line can be structure only if its first non-space character is one of these.
_MARKUP_START = set("#=-`~")


def escape_line(line: str) -> str:
    """Make a plain-text line inert for :func:`parse_sections` (a leading backslash)."""
    if _NEEDS_ESCAPE.match(line):
        stripped = len(line) - len(line.lstrip(" "))
        return line[:stripped] + "\\" + line[stripped:]
    return line


def join_pages(pages: list[str]) -> str:
    """Pages joined so that each form feed sits on a line of its own (headings stay parseable)."""
    return f"\n{PAGE_BREAK}\n".join(pages)


def escape_text(text: str) -> str:
    return "\n".join(escape_line(line) for line in text.split("\n"))


def heading(title: str, level: int) -> str:
    """One ATX heading line for a reader to emit; the title is flattened to one line."""
    clean = " ".join(title.split())[:_MAX_TITLE] or "Untitled"
    return f"{'#' * max(1, min(level, DEEPEST_HEADING))} {clean}"


def nest_headings(text: str, level: int) -> str:
    """Structured text placed under a heading of ``level - 1``: its shallowest heading moves
    to ``level`` and the rest keep their distance below it (at most ``DEEPEST_HEADING``);
    setext headings become ATX and page breaks go, so a chapter, an e-mail body or an
    attachment read by another reader nests inside its container instead of becoming its
    sibling."""
    lines = text.replace(PAGE_BREAK, "\n").split("\n")
    found: list[tuple[int, int, str]] = []  # (line index, level, title)
    fence: str | None = None
    for i, line in enumerate(lines):
        if fence is not None:
            closing = line.strip().startswith(fence) and not line.strip().strip(fence[0])
            fence = None if closing else fence
            continue
        if m := _FENCE.match(line):
            fence = m.group(1)
        elif m := _ATX.match(line):
            found.append((i, len(m.group(1)), m.group(2) or ""))
        elif (
            _SETEXT.match(line)
            and i
            and _single_line_paragraph([(0, ln) for ln in lines[max(0, i - 2) : i]])
        ):
            found.append((i, 1 if line.strip()[0] == "=" else 2, lines[i - 1]))
    if not found:
        return "\n".join(lines)
    top = min(depth for _, depth, _ in found)
    for i, depth, title in found:
        if _ATX.match(lines[i]) is None:  # a setext underline: its title is the line above
            lines[i - 1], lines[i] = "", ""
            i -= 1
        lines[i] = heading(title, level + depth - top)
    return "\n".join(lines)


def parse_sections(
    text: str, max_section_chars: int | None = None, page_unit: str = "page"
) -> list[Section]:
    """Split Markdown-style text into sections, each with its own text and page range.

    ATX and setext headings are structure; nothing inside fenced code is. Text before the
    first heading becomes a leading section of its own (titled by its first line) rather
    than a root that swallows the tree. Pages come from form feeds when there are any
    (``page_unit`` names them in the titles of a long section's parts). A
    section longer than ``max_section_chars`` keeps its heading and gets its text as child
    parts, so no node's text is unbounded.
    """
    # a deck of one slide, a workbook of one sheet: still slide 1, sheet 1
    paged = PAGE_BREAK in text or page_unit != "page"
    parser = _SectionParser(page_unit if paged else "", max_section_chars)
    for page, page_text in enumerate(text.split(PAGE_BREAK), 1):
        for raw in page_text.split("\n"):
            parser.read(page, raw.rstrip("\r"))
    return parser.finish()


@dataclass
class _SectionParser:
    """Lines read in order: the open section's heading and body, and an open code fence."""

    page_unit: str
    max_section_chars: int | None
    records: list[Record] = field(default_factory=list)
    title: str | None = None  # None: the text before the first heading
    level: int = 1
    head_page: int = 1
    body: list[tuple[int, str]] = field(default_factory=list)  # (page, line)
    fence: str | None = None
    prev_blank: bool = True

    def read(self, page: int, line: str) -> None:
        """One line: body text, a fence's edge, or a heading that closes the open section."""
        if self.fence is not None:
            self.body.append((page, line))
            if line.strip().startswith(self.fence) and not line.strip().strip(self.fence[0]):
                self.fence = None
            return
        if line.lstrip(" ")[:1] not in _MARKUP_START:  # most lines: plain body text
            self.body.append((page, line))
            self.prev_blank = not line.strip()
            return
        m = _FENCE.match(line)
        if m:
            self.fence = m.group(1)
            self.body.append((page, line))
            self.prev_blank = False
            return
        atx = _ATX.match(line)
        if atx:
            self._open(atx.group(2) or "", len(atx.group(1)), page)
            return
        underline = _SETEXT.match(line) and not self.prev_blank and self.body
        if underline and _single_line_paragraph(self.body):
            candidate_page, candidate = self.body.pop()
            self._open(candidate, 1 if line.strip()[0] == "=" else 2, candidate_page)
            return
        self.body.append((page, line))
        self.prev_blank = not line.strip()

    def finish(self) -> list[Section]:
        """The sections, a heading printed again where its section continues folded in."""
        self._close()
        sections: list[Section] = []
        for r in merge_continued(self.records):
            _emit(sections, r.title, r.level, r.head_page, r.body, self.page_unit,
                  self.max_section_chars)  # fmt: skip
        return sections

    def _open(self, title: str, level: int, page: int) -> None:
        """A heading: the open section is complete, and this one begins."""
        self._close()
        self.title = _clean_title(title) or "Untitled"
        self.level, self.head_page, self.prev_blank = level, page, True

    def _close(self) -> None:
        self.records.append(Record(self.title, self.level, self.head_page, self.body))
        self.body = []


def _single_line_paragraph(body: list[tuple[int, str]]) -> bool:
    """Setext titles here are one paragraph line, directly under a blank line or a heading."""
    candidate = body[-1][1]
    if not candidate.strip() or candidate.startswith(("    ", "\t")) or _FENCE.match(candidate):
        return False
    return len(body) < 2 or not body[-2][1].strip()


def _emit(
    out: list[Section],
    title: str | None,
    level: int,
    head_page: int,
    body: list[tuple[int, str]],
    page_unit: str,
    max_chars: int | None,
) -> None:
    body = [(p, _ESCAPED.sub(r"\1", ln) if "\\" in ln else ln) for p, ln in body]
    while body and not body[0][1].strip():
        body.pop(0)
    while body and not body[-1][1].strip():
        body.pop()
    if title is None and not body:
        return
    size = sum(len(ln) + 1 for _, ln in body)
    level = level if title is not None else 1
    if max_chars and size > max_chars:
        parts = _split_parts(body, max_chars)
        heading_title = title if title is not None else _first_line_title(parts[0])
        out.append(_section(heading_title, level, head_page, [], page_unit))
        for part, part_title in zip(
            parts, piece_titles(heading_title, parts, page_unit), strict=True
        ):
            piece = _section(part_title, level + 1, part[0][0], part, page_unit)
            piece["generated"] = True  # a size split, not a heading of the document
            out.append(piece)
        return
    sec_title = title if title is not None else _first_line_title(body)
    out.append(
        _section(sec_title, level, head_page if title is not None else body[0][0], body, page_unit)
    )


def _section(
    title: str, level: int, start: int, body: list[tuple[int, str]], page_unit: str
) -> Section:
    pages = [p for p, ln in body if ln.strip()]
    end = max([start, *pages])
    section = Section(
        title=title,
        level=level,
        text="\n".join(ln for _, ln in body).rstrip(),
        page_start=start if page_unit else None,
        page_end=end if page_unit else None,
    )
    if page_unit and end > start:
        section["page_marks"] = _page_marks(start, body)
    return section


def _page_marks(start: int, body: list[tuple[int, str]]) -> list[list[int]]:
    """``[[offset, page], …]``: where in the section's text each later page begins, so an
    excerpt of a long section can be cited with the pages it really comes from."""
    marks: list[list[int]] = []
    offset, current = 0, start
    for page, line in body:
        if page > current and line.strip():
            marks.append([offset, page])
            current = page
        offset += len(line) + 1
    return marks


def _split_parts(body: list[tuple[int, str]], max_chars: int) -> list[list[tuple[int, str]]]:
    """Cut at paragraph breaks when possible, else after a line that ends a sentence, else
    at lines; a giant line is cut after a sentence (or, failing that, a word)."""
    pieces: list[tuple[int, str]] = []
    for page, line in body:
        while len(line) > max_chars:
            cut = _sentence_cut(line, max_chars)
            pieces.append((page, line[:cut].rstrip()))
            line = line[cut:].lstrip()
        pieces.append((page, line))
    parts: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    size = 0
    last_blank = 0  # index in current after the latest blank line
    last_sentence = 0  # index in current after the latest line that ends a sentence
    for page, line in pieces:
        if size + len(line) + 1 > max_chars and current:
            cut = next(
                (at for at in (last_blank, last_sentence) if at > len(current) // 2),
                len(current),
            )
            parts.append(current[:cut])
            current = current[cut:]
            size = sum(len(ln) + 1 for _, ln in current)
            last_blank = last_sentence = 0
        current.append((page, line))
        size += len(line) + 1
        if not line.strip():
            last_blank = len(current)
        elif _SENTENCE_END.search(line):
            last_sentence = len(current)
    if current:
        parts.append(current)
    return [_trim(p) for p in parts if any(ln.strip() for _, ln in p)]


def _sentence_cut(line: str, max_chars: int) -> int:
    """Where to cut an over-long line: after the last sentence that fits, else a word."""
    ends = [m.end() for m in _SENTENCE_BREAK.finditer(line, 0, max_chars)]
    if ends and ends[-1] > max_chars // 2:
        return ends[-1]
    cut = line.rfind(" ", 0, max_chars)
    return cut if cut > max_chars // 2 else max_chars


def _trim(part: list[tuple[int, str]]) -> list[tuple[int, str]]:
    while part and not part[0][1].strip():
        part = part[1:]
    while part and not part[-1][1].strip():
        part = part[:-1]
    return part


def _clean_title(title: str) -> str:
    title = title.strip()
    if "#" in title:
        title = _CLOSING_HASHES.sub("", title)
    if "\\" in title:
        title = _ESCAPED.sub(r"\1", title)
    return " ".join(title.split())[:_MAX_TITLE]


def _first_line_title(body: list[tuple[int, str]]) -> str:
    for _, line in body:
        words = " ".join(line.split())
        if words:
            return words[:80] + ("…" if len(words) > 80 else "")
    return "Untitled"
