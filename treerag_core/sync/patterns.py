"""Which files of a source are synced: the formats treerag reads, narrowed by the source's
include and exclude patterns.

A pattern without ``/`` matches a file's name anywhere in the tree (``*.pdf``); one with a
``/`` matches the whole relative path (``policies/*.md``, ``archive/*``). Matching ignores
case: a share written from Windows has ``REPORT.PDF`` beside ``report.pdf``. Hidden files
and folders (``.git``, ``.DS_Store``) and office lock files (``~$report.docx``) are never
synced: they are not documents, and a lock file vanishes as soon as its editor closes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fnmatch import fnmatchcase

from ..errors import InvalidSourceError
from ..read.formats import accepted_extensions
from ..text.messages import Phrase, raised

# A source names at most this many patterns of at most this many characters: a form field,
# not a file list.
MAX_PATTERNS = 50
MAX_PATTERN_CHARS = 200


def check_patterns(patterns: Sequence[str] | str | None, what: str) -> list[str]:
    """Patterns as stored: trimmed, no empty ones (a string: comma or newline separated)."""
    if patterns is None:
        return []
    if isinstance(patterns, str):
        patterns = patterns.replace("\n", ",").split(",")
    cleaned = [str(p).strip() for p in patterns if str(p).strip()]
    if len(cleaned) > MAX_PATTERNS or any(len(p) > MAX_PATTERN_CHARS for p in cleaned):
        raise raised(
            InvalidSourceError, "error.patterns", what=Phrase(f"error.patterns_{what}"),
            count=MAX_PATTERNS, chars=MAX_PATTERN_CHARS,
        )  # fmt: skip
    return cleaned


def hidden(name: str) -> bool:
    """A file or folder name that is never synced."""
    return name.startswith((".", "~$"))


def _matches(path: str, patterns: Sequence[str]) -> bool:
    path = path.casefold()
    name = path.rsplit("/", 1)[-1]
    return any(fnmatchcase(path if "/" in p else name, p.casefold()) for p in patterns)


def wanted(path: str, include: Sequence[str], exclude: Sequence[str]) -> bool:
    """Is the file at ``path`` synced? A readable format, included (no patterns: every
    readable file) and not excluded."""
    name = path.rsplit("/", 1)[-1]
    readable = tuple("." + ext for ext in accepted_extensions())
    if hidden(name) or not name.casefold().endswith(readable):
        return False
    if include and not _matches(path, include):
        return False
    return not (exclude and _matches(path, exclude))
