"""The checks every zip-based format (DOCX, PPTX, XLSX, OpenDocument) passes before a
library inflates anything: a real zip, of the expected kind, that does not expand past the
decompression limit (a zip bomb), and not a password-protected file in disguise.

An encrypted Office file is not a zip at all but an OLE2 compound file (the same container
as the old binary .doc/.xls/.ppt) holding an ``EncryptedPackage`` stream, so its first bytes
tell it apart from a damaged file and the person can be told to remove the password.
"""

from __future__ import annotations

import io
import zipfile
import zlib

from ...errors import DocumentReadError, DocumentTooLargeError
from ...limits import Limits

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# The directory entry of an encrypted OOXML package, as OLE2 stores names (UTF-16LE).
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")


def open_zip(data: bytes, limits: Limits, name: str, label: str, member: str) -> zipfile.ZipFile:
    """The archive, once it is known to be a ``label`` file (it holds ``member``) whose
    members' declared sizes add up to at most ``max_decompressed_bytes``."""
    if data.startswith(OLE2_MAGIC):
        if _ENCRYPTED_PACKAGE in data:
            raise DocumentReadError(
                f"{name} is password-protected (encrypted). Open it in its application, "
                "remove the password and upload it again."
            )
        raise DocumentReadError(
            f"{name} is an old binary Office file with a new extension: rename it to .doc, "
            ".xls or .ppt (whichever it is) so it is converted, or save it again as "
            f"{label}."
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise DocumentReadError(
            f"{name} is not a valid {label} file (it is not a readable zip archive): it may "
            "be damaged or cut short."
        ) from exc
    total = sum(max(0, info.file_size) for info in infos)
    if total > limits.max_decompressed_bytes:
        raise DocumentTooLargeError(
            f"{name} would expand to {total:,} bytes, over the "
            f"{limits.max_decompressed_bytes:,}-byte limit."
        )
    if member not in {info.filename for info in infos}:
        raise DocumentReadError(f"{name} is a zip file but not a {label} file.")
    return archive


def check_zip(data: bytes, limits: Limits, name: str, label: str, member: str) -> None:
    """:func:`open_zip` for readers that hand the bytes to a library of their own."""
    open_zip(data, limits, name, label, member).close()


def xml_parser() -> object:
    """An lxml parser for a document's own XML: no entities expanded (a billion-laughs
    part), nothing fetched from the network (an external DTD), no huge trees."""
    from lxml import etree

    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


def read_member(archive: zipfile.ZipFile, member: str, name: str) -> bytes:
    """One member's bytes; a member whose data is damaged is the document's damage."""
    try:
        return archive.read(member)
    except (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError) as exc:
        raise DocumentReadError(
            f"{name} is damaged: its part {member} cannot be read ({type(exc).__name__})."
        ) from exc
