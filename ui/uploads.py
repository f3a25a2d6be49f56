"""Where uploaded files are stored, under what name, and how a failed index is undone.

Decision: a document's identity in the registry is its stored path, and an upload is
stored at ``<uploads>/<safe name>/<safe name>``. Uploading ``report.pdf`` again therefore
updates the same document (re-indexed in place, summaries of unchanged sections reused),
which is what a person re-uploading a newer version expects. To keep two different files
that share a name, tick "keep as a separate document": it is stored in a folder suffixed
with its content hash, so it becomes its own document.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager

from treerag_core import DocumentTooLargeError, UnsupportedFormatError

SUPPORTED_EXTENSIONS = ("pdf", "docx", "html", "htm", "md", "markdown", "txt")
_UNSAFE = re.compile(r"[^\w .()+,-]")  # \w keeps letters of every script


def safe_file_name(name: str) -> str:
    """A file name with no directories, no shell or control characters, no leading dots."""
    base = unicodedata.normalize("NFC", str(name)).replace("\\", "/").split("/")[-1]
    base = _UNSAFE.sub("_", base)
    base = re.sub(r"_{2,}", "_", re.sub(r"\s+", " ", base)).strip(" .-_")
    stem, ext = os.path.splitext(base)
    stem = stem.strip(" .-_")[:120] or "upload"
    ext = re.sub(r"[^A-Za-z0-9.]", "", ext)[:10].lower()
    return stem + ext


def check_upload(name: str, size: int, max_bytes: int) -> None:
    """Refuse a file of an unsupported type or over the size limit, before storing it."""
    ext = os.path.splitext(name)[1].lower().lstrip(".")
    if ext not in SUPPORTED_EXTENSIONS:
        raise UnsupportedFormatError(
            f"{name}: .{ext or '?'} files are not supported. Upload PDF, DOCX, HTML, "
            "Markdown or text."
        )
    if size > max_bytes:
        raise DocumentTooLargeError(
            f"{name} is {size / 1e6:.1f} MB, over the upload limit of {max_bytes / 1e6:.0f} MB."
        )


def upload_path(uploads_dir: str, name: str, data: bytes, separate: bool = False) -> str:
    """The stored path for this upload (see the module docstring for the decision)."""
    safe = safe_file_name(name)
    folder = safe if not separate else f"{safe}-{hashlib.sha256(data).hexdigest()[:10]}"
    return os.path.join(uploads_dir, folder, safe)


@contextmanager
def stored_upload(path: str, data: bytes) -> Iterator[str]:
    """Write ``data`` at ``path`` for indexing; if indexing fails, put the old file back.

    The registry keeps the previous index when ``index_document`` fails, so the file it
    points at (shown beside the tree) must stay the previous one too.
    """
    os.makedirs(os.path.dirname(path), exist_ok=True)
    previous: bytes | None = None
    if os.path.exists(path):
        with open(path, "rb") as fh:
            previous = fh.read()
    tmp = path + ".part"
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)
    try:
        yield path
    except BaseException:
        if previous is None:
            os.unlink(path)
        else:
            with open(tmp, "wb") as fh:
                fh.write(previous)
            os.replace(tmp, path)
        raise
