"""Outlook's ``.msg`` files, through extract-msg, then read like any other message.

extract-msg reads the OLE compound file Outlook saves and turns it into a standard library
``EmailMessage`` (headers, plain and HTML bodies, attachments, embedded messages), so the
rest is the ``.eml`` reader's. It is imported only here: without it, a ``.msg`` upload is
refused with a message naming the package, and everything else works.
"""

from __future__ import annotations

from email.message import EmailMessage

from ...errors import DocumentReadError
from ...limits import Limits
from ...structure.pages import NO_OPTIONS, ReadOptions, ReadResult
from ...text.messages import raised
from .mail import message_result
from .mail_parts import parse_message

PACKAGE = "extract-msg"


def parse_msg(data: bytes, limits: Limits, name: str) -> EmailMessage:
    """The Outlook item as an ``EmailMessage``; typed errors for what cannot be read."""
    try:
        import extract_msg
    except ImportError as exc:
        raise raised(
            DocumentReadError, "error.msg_needs_package", name=name, package=PACKAGE
        ) from exc
    if not data.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):  # an OLE compound file
        raise raised(DocumentReadError, "error.msg_not_msg", name=name)
    try:
        item = extract_msg.openMsg(data, delayAttachments=False)
        try:
            if not hasattr(item, "asEmailMessage"):
                raise raised(
                    DocumentReadError, "error.msg_other_item", name=name, kind=type(item).__name__
                )
            converted = item.asEmailMessage().as_bytes()
        finally:
            item.close()
    except (DocumentReadError, MemoryError):
        raise
    except RecursionError as exc:
        raise raised(DocumentReadError, "error.msg_too_deep", name=name) from exc
    except Exception as exc:  # noqa: BLE001 - extract-msg and olefile raise many types
        raise raised(
            DocumentReadError, "error.damaged_msg", name=name, kind=type(exc).__name__
        ) from exc
    # Parsed again from its bytes: extract-msg builds some parts with the legacy API, and
    # the .eml reader's parser (with its depth guard) makes every part a modern one.
    return parse_message(converted, limits, name)


def read_msg(
    data: bytes, limits: Limits, name: str = "the message", options: ReadOptions = NO_OPTIONS
) -> ReadResult:
    """An Outlook message: the same sections as an ``.eml`` of it."""
    return message_result(parse_msg(data, limits, name), limits, options)
