"""A heading printed again where its section continues: one section, not two siblings.

Filings print a statement's caption on every page it fills (``Consolidated Balance Sheets``
over assets, then again over liabilities), write ``(continued)`` after a caption or before a
table's repeated header row, and an exhibit's cover and first page may both carry its name.
Split at every heading, each of these becomes a sibling with the same title: the tree shows
two identical labels that a reader cannot tell apart, and neither holds the whole statement.

A heading continues the section just before it (same title, same level, nothing between
them) when the page says so:
- a continuation mark: ``… (continued)`` in its title, alone on its first line, or ending
  the last line before it (``Securities registered … (continued):``);
- the section before it holds no text: the same heading printed twice in a row;
- it opens on the next page with the same first two lines as the section before it (the
  units and period lines under a reprinted caption: ``(In millions, except per share
  data)``, ``December 31, 2022 December 31, 2021``).

Two distinct sections that print one heading (the CEO's and the CFO's certifications, the
auditor's two reports) open with different lines and stay apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

Line = tuple[int, str]  # (page, text)

# A reprinted caption sits on the page after the one its section reached; further on, the
# same words are another section's heading.
MAX_CONTINUED_PAGE_GAP = 1
# "(continued)", "— Continued", ", cont'd", "(cont.)" at the end of a title or line (set
# off by brackets or a dash, so "operations continued." ends no caption).
_WORD = r"(?:continued|cont['’]?d\.?|cont\.)"
_MARK = re.compile(rf"(?:\s*\(\s*{_WORD}\s*\)|\s*[,–—-]\s*{_WORD})[\s:.]*$", re.IGNORECASE)
# A line that is only the mark: "(Continued)", "Continued on next page".
_MARK_LINE = re.compile(rf"^\(?\s*{_WORD}(?:\s+on\s+(?:the\s+)?next\s+page)?\s*\)?[\s:.]*$", re.I)
# A reprinted caption brings its table's units and period lines with it; two sections that
# print one heading may share a salutation ("To the Shareholders and Board of …") but then
# differ ("Opinion on the Financial Statements", "… on Internal Control").
OPENING_LINES = 2
_NON_ALNUM = re.compile(r"[^0-9a-z]+")


@dataclass
class Record:
    """A heading (``None``: the text before the first one), its level, page and body."""

    title: str | None
    level: int
    head_page: int
    body: list[Line] = field(default_factory=list)


def continued_title(title: str) -> str:
    """The title without a trailing continuation mark: ``X (continued)`` → ``X``."""
    bare = _MARK.sub("", title)
    return bare if bare.strip() else title


def merge_continued(records: list[Record]) -> list[Record]:
    """Records with each continuing heading folded into the section before it; the
    reprinted caption stays in the text as a line of the page it is printed on."""
    merged: list[Record] = []
    for record in records:
        previous = merged[-1] if merged else None
        if previous is not None and continues(previous, record):
            assert record.title is not None  # continues() holds only for titled records
            previous.body.extend([(record.head_page, ""), (record.head_page, record.title)])
            previous.body.extend(record.body)
            continue
        merged.append(record)
    return merged


def continues(previous: Record, record: Record) -> bool:
    """Whether ``record``'s heading continues ``previous`` (see the module's rules)."""
    if previous.title is None or record.title is None or previous.level != record.level:
        return False
    if _key(continued_title(previous.title)) != _key(continued_title(record.title)):
        return False
    before, after = _lines(previous.body), _lines(record.body)
    if not before:
        return True
    marked = (
        continued_title(record.title) != record.title
        or (after and _MARK_LINE.match(after[0]))
        or _MARK_LINE.match(before[-1])
        or _MARK.search(before[-1])
    )
    if marked:
        return True
    last_page = max(page for page, text in previous.body if text.strip())
    opening = min(OPENING_LINES, len(before))
    return previous.head_page < record.head_page <= last_page + MAX_CONTINUED_PAGE_GAP and [
        _key(t) for t in after[:opening]
    ] == [_key(t) for t in before[:opening]]


def _lines(body: list[Line]) -> list[str]:
    return [text.strip() for _, text in body if text.strip()]


def _key(text: str) -> str:
    return _NON_ALNUM.sub(" ", text.lower()).strip()
