"""Strategy: the PDF's own bookmarks, each inserted as a heading where its title is printed.

Bookmarks are the author's statement of the structure, so they come first; a token outline
(one or two bookmarks over a long filing) is not a structure and is declined.
"""

from __future__ import annotations

import re

from ...limits import Limits
from ..pages import OutlineEntry, ReadResult
from ..sections import escape_line, heading, join_pages

# Fewer bookmarks than this over a document longer than SHORT_DOCUMENT_PAGES is a token
# outline ("Cover", "Exhibits"), not the document's structure.
MIN_BOOKMARKS = 3
SHORT_DOCUMENT_PAGES = 10
# A printed line that starts with the bookmark's title and runs on by at most this many
# letters is the title line itself ("Item 7. Management's Discussion" for "Item 7").
TITLE_RUN_ON_CHARS = 20


def structure_from_bookmarks(result: ReadResult, limits: Limits) -> str | None:
    pages = result.pages or []
    outline = result.outline
    if not outline or (len(outline) < MIN_BOOKMARKS and len(pages) > SHORT_DOCUMENT_PAGES):
        return None
    return with_outline([page.text for page in pages], outline)


def with_outline(pages: list[str], outline: list[OutlineEntry]) -> str:
    """Insert each bookmark as a heading on its page, at its title's line when found."""
    per_page: dict[int, list[OutlineEntry]] = {}
    for entry in outline:
        per_page.setdefault(entry.page, []).append(entry)
    out_pages: list[str] = []
    for index, page in enumerate(pages):
        lines = [escape_line(ln.rstrip()) for ln in page.split("\n")]
        inserts: list[tuple[int, str]] = []
        cursor = 0
        for entry in per_page.get(index, []):
            at = _find_title(lines, entry.title, cursor)
            if at is not None:
                lines[at] = ""  # the title line becomes the heading itself
            else:
                at = cursor
            inserts.append((at, heading(entry.title, entry.level)))
            cursor = at
        # insert from the bottom so indices stay valid; equal positions keep outline order
        for at, head in sorted(inserts, key=lambda x: x[0], reverse=True):
            lines[at:at] = [head]
        out_pages.append("\n".join(lines))
    return join_pages(out_pages)


def _key(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def _find_title(lines: list[str], title: str, start: int) -> int | None:
    want = _key(title)
    if len(want) < 3:
        return None
    for i in range(start, len(lines)):
        have = _key(lines[i])
        if have and (
            have == want or (have.startswith(want) and len(have) < len(want) + TITLE_RUN_ON_CHARS)
        ):
            return i
    return None
