"""Zip-based formats (Word, PowerPoint, Excel, OpenDocument, EPUB): the checks made before
anything is inflated.

A small file can expand to gigabytes (a zip bomb), so before a reader opens a member we sum
the members' declared sizes; Python's zipfile never inflates a member past its declared
size (it stops there and checks the CRC), so the sum bounds the work. Names inside an
archive come from the file itself: one that climbs out of its folder (``../``) or is
absolute is refused rather than looked up.

An encrypted Office file is not a zip at all but an OLE2 compound file (the same container
as the old binary .doc/.xls/.ppt) holding an ``EncryptedPackage`` stream, so its first bytes
tell it apart from a damaged file and the person can be told to remove the password.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from urllib.parse import unquote, urlsplit

from ...errors import DocumentReadError, DocumentTooLargeError
from ...limits import Limits
from ...text.messages import raised

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# The directory entry of an encrypted OOXML package, as OLE2 stores names (UTF-16LE).
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")


def open_zip(
    data: bytes, limits: Limits, name: str, label: str, required: str, hint: str = ""
) -> zipfile.ZipFile:
    """The archive, once its declared sizes fit ``max_decompressed_bytes`` and it holds
    ``required`` (the member that says what it is); typed errors otherwise."""
    if data.startswith(OLE2_MAGIC):
        if _ENCRYPTED_PACKAGE in data:
            raise raised(DocumentReadError, "error.office_encrypted", name=name)
        raise raised(DocumentReadError, "error.office_old_binary", name=name, label=label)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise raised(
            DocumentReadError, "error.zip_invalid", name=name, label=label, hint=hint
        ) from exc
    total = sum(max(0, info.file_size) for info in archive.infolist())
    if total > limits.max_decompressed_bytes:
        archive.close()
        raise raised(
            DocumentTooLargeError, "error.zip_expands", name=name, total=f"{total:,}",
            limit=f"{limits.max_decompressed_bytes:,}",
        )  # fmt: skip
    if required not in archive.NameToInfo:
        archive.close()
        raise raised(DocumentReadError, "error.zip_not_kind", name=name, label=label)
    return archive


def check_zip(
    data: bytes, limits: Limits, name: str, label: str, required: str, hint: str = ""
) -> None:
    """:func:`open_zip` for readers that hand the bytes to a library of their own."""
    open_zip(data, limits, name, label, required, hint).close()


def read_member(archive: zipfile.ZipFile, member: str, name: str) -> bytes:
    """One member's bytes; a damaged member (bad CRC, truncated) is a typed error."""
    try:
        return archive.read(member)
    except (
        zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, NotImplementedError
    ) as exc:  # fmt: skip
        raise raised(DocumentReadError, "error.zip_part", name=name, member=repr(member)) from exc


def xml_parser() -> object:
    """An lxml parser for a document's own XML: no entities expanded (a billion-laughs
    part), nothing fetched from the network (an external DTD), no huge trees."""
    from lxml import etree

    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


def member_path(base: str, href: str) -> str | None:
    """The archive name ``href`` points at from the member ``base`` (``#fragment`` dropped),
    or None when it leaves the archive (absolute, ``../`` past the top, another scheme)."""
    raw = href.split("#", 1)[0].strip()
    if not raw or urlsplit(raw).scheme or raw.startswith(("/", "\\")):
        return None
    target = unquote(raw)
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(base), target))
    if joined.startswith("../") or joined in {"..", "."}:
        return None
    return joined


def expanded_size(data: bytes) -> int:
    """What a file costs to inflate: a zip's declared member sizes, else its own size."""
    if not data.startswith(b"PK\x03\x04"):
        return len(data)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return max(len(data), sum(max(0, i.file_size) for i in archive.infolist()))
    except (zipfile.BadZipFile, OSError, ValueError):
        return len(data)
