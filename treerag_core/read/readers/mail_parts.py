"""One e-mail message's parts: its headers, its body and what is attached to it.

Parsed with the standard library (``email`` with ``policy.default``: headers decoded,
addresses and dates understood). A message is a tree of MIME parts; a hostile one nests
them thousands deep, and parsing cost grows with depth times size, so the parser is fed in
pieces and stopped as soon as it is deeper than ``Limits.max_mime_depth``.
"""

from __future__ import annotations

import mimetypes
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.feedparser import BytesFeedParser
from email.message import EmailMessage
from typing import Any

from ...errors import DocumentReadError, DocumentTooLargeError
from ...limits import Limits
from ...text.messages import raised
from .text import decode_bytes

FEED_BYTES = 64 * 1024  # fed at a time: a piece this size nests at most ~1,000 parts deeper
# Headers a message has; bytes with none of them are not an e-mail.
MESSAGE_HEADERS = ("from", "to", "subject", "date", "message-id", "content-type")
SHOWN_HEADERS = ("From", "To", "Cc", "Date")  # at the head of a message's text: citable


@dataclass
class Parts:
    """A message's body (plain text, or HTML when it has no plain text) and its
    attachments: leaf parts with their names, and nested messages."""

    body: EmailMessage | None = None
    more_text: list[EmailMessage] = field(default_factory=list)  # inline text after the body
    attachments: list[tuple[str, EmailMessage]] = field(default_factory=list)
    messages: list[EmailMessage] = field(default_factory=list)


def parse_message(data: bytes, limits: Limits, name: str) -> EmailMessage:
    """The message, or a typed error for one nested past the limit or with no headers."""
    parser = BytesFeedParser(policy=policy.default)
    try:
        for start in range(0, len(data), FEED_BYTES):
            parser.feed(data[start : start + FEED_BYTES])
            # The parser's stack of open parts is its depth (no public name for it).
            if len(getattr(parser, "_msgstack", ())) > limits.max_mime_depth:
                raise _too_deep(name, limits)
        message = parser.close()
    except RecursionError as exc:
        raise _too_deep(name, limits) from exc
    if not any(key.lower() in MESSAGE_HEADERS for key, _ in message.raw_items()):
        raise raised(DocumentReadError, "error.mail_no_headers", name=name)
    return message  # type: ignore[return-value]


def _too_deep(name: str, limits: Limits) -> DocumentTooLargeError:
    return raised(
        DocumentTooLargeError, "error.mail_too_deep", name=name, limit=limits.max_mime_depth
    )


def header(message: EmailMessage, name: str) -> str:
    """A header's decoded value on one line ("" when absent or unreadable)."""
    try:
        value = message.get(name)
    except Exception:  # noqa: BLE001 - a malformed header must not lose the message
        value = next((v for k, v in message.raw_items() if k.lower() == name.lower()), None)
    return " ".join(str(value).split()) if value is not None else ""


def subject(message: EmailMessage) -> str:
    return header(message, "Subject") or "(no subject)"


def sent_at(message: EmailMessage) -> datetime | None:
    """When the message was sent, timezone-aware (a date without a zone is taken as UTC)."""
    try:
        value = message.get("Date")
        when = getattr(value, "datetime", None)
    except Exception:  # noqa: BLE001 - unparsable dates are common in old mail
        return None
    if when is None:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def header_lines(message: EmailMessage) -> list[str]:
    return [f"{key}: {header(message, key)}" for key in SHOWN_HEADERS if header(message, key)]


def text_of(part: EmailMessage) -> str:
    """A text part's content in its declared charset (or the one its bytes read in)."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset()
    if charset:
        try:
            return payload.decode(charset, errors="replace")
        except LookupError:
            pass
    return decode_bytes(payload)


def _own_name(part: EmailMessage) -> str | None:
    try:
        return part.get_filename()
    except Exception:  # noqa: BLE001 - a malformed parameter must not lose the part
        return None


def file_name(part: EmailMessage, number: int) -> str:
    """The attachment's own name, or one made from its type (``attachment-2.pdf``)."""
    named = _own_name(part)
    if named:
        return " ".join(str(named).replace("/", "_").replace("\\", "_").split())
    return f"attachment-{number}{mimetypes.guess_extension(part.get_content_type()) or ''}"


def split_parts(message: EmailMessage) -> Parts:
    """Body, more inline text, attachments and nested messages, in the message's order.

    The body is the plain text when there is one (else the HTML); the other versions in
    its multipart/alternative are the same text and are left out, as are inline images
    (a signature's logo). A part that is a message (message/rfc822, or an Outlook item
    converted with its own headers) is kept whole, to be read as a message."""
    out = Parts(body=_body(message))
    stack: list[tuple[Any, str]] = [(message, "")]
    while stack:
        part, parent_type = stack.pop()
        kind = part.get_content_type()
        if part is not message and (kind == "message/rfc822" or _is_message(part)):
            inner = part.get_payload(0) if kind == "message/rfc822" else part
            out.messages.append(inner)
        elif part.is_multipart():
            children = part.get_payload()
            stack.extend(
                (child, kind) for child in reversed(children if isinstance(children, list) else [])
            )
        elif part is not out.body:
            _leaf(part, parent_type, out)
    return out


def _body(message: EmailMessage) -> EmailMessage | None:
    try:
        return message.get_body(preferencelist=("plain", "html"))  # type: ignore[return-value]
    except Exception:  # noqa: BLE001 - a broken structure: the parts are still walked
        return None


def _is_message(part: EmailMessage) -> bool:
    return part.is_multipart() and bool(part.get("Subject") or part.get("From"))


def _leaf(part: EmailMessage, parent_type: str, out: Parts) -> None:
    kind = part.get_content_type()
    disposition = part.get_content_disposition()
    named = _own_name(part) is not None
    if kind in ("text/plain", "text/html") and disposition != "attachment" and not named:
        if out.body is None:  # a structure get_body could not read: the first text is it
            out.body = part
        elif parent_type != "multipart/alternative":  # an alternative repeats the body
            out.more_text.append(part)
        return
    if (
        kind.startswith("image/")
        and disposition != "attachment"
        and (part.get("Content-ID") or not named)
    ):
        return  # drawn inside the body (a logo, a screenshot pasted in the text)
    out.attachments.append((file_name(part, len(out.attachments) + 1), part))


def sender_name(message: EmailMessage) -> str:
    """The sender's display name, else their address ("" when there is none)."""
    try:
        addresses = getattr(message.get("From"), "addresses", ())
    except Exception:  # noqa: BLE001 - a malformed address: the raw header instead
        addresses = ()
    if addresses:
        return addresses[0].display_name or addresses[0].addr_spec
    return header(message, "From")


def message_ids(message: EmailMessage, name: str) -> list[str]:
    """The ``<id>``s in a header (Message-ID, In-Reply-To, References), in order."""
    return re.findall(r"<([^<>\s]+)>", header(message, name))


def metadata(message: EmailMessage) -> dict[str, str]:
    """What a message says about itself, for the document: subject, who, to whom, when."""
    when = sent_at(message)
    found = {
        "title": header(message, "Subject"),
        "from": header(message, "From"),
        "to": header(message, "To"),
        "cc": header(message, "Cc"),
        "date": when.isoformat() if when else header(message, "Date"),
    }
    return {key: value for key, value in found.items() if value}
