"""E-mail: a message (``.eml``) or a mailbox (``.mbox``) → one section per message.

A message is the page-like unit: an ``.eml`` is one page, and in a mailbox page N is the
Nth message in thread order. A mailbox is read as its threads: each message nested under
the one it answers (In-Reply-To, else the last known of its References), threads and
replies in date order, so a conversation reads top to bottom. Messages nest at most
:data:`MAX_THREAD_LEVEL` deep; deeper replies stay in order at that level, leaving
heading levels for their quotes, attachments and the attachments' own structure.
"""

from __future__ import annotations

import mailbox
import os
import re
import tempfile
from collections import defaultdict
from datetime import UTC, datetime
from email.message import EmailMessage

from ...errors import DocumentReadError, TreeragError
from ...limits import Limits
from ...structure.pages import NO_OPTIONS, ReadOptions, ReadResult
from ...text.messages import raised
from ...tree.sections import join_pages
from .mail_parts import message_ids, metadata, parse_message, sender_name, sent_at, subject
from .mail_render import Budget, render_message

MAX_THREAD_LEVEL = 4
# A reply's quotes are checked against this many messages above it in its thread (a long
# thread's full history would make the check quadratic in the mailbox's size).
QUOTE_ANCESTORS = 10
_REPLY_PREFIX = re.compile(r"^(?:\s*(?:re|fwd?|aw|wg|sv|tr)\s*(?:\[\d+\])?\s*:\s*)+", re.I)
_NO_DATE = datetime.max.replace(tzinfo=UTC)


def read_eml(
    data: bytes, limits: Limits, name: str = "the message", options: ReadOptions = NO_OPTIONS
) -> ReadResult:
    """One message: its section, quotes and attachments; the subject is the title."""
    return message_result(parse_message(data, limits, name), limits, options)


def message_result(message: EmailMessage, limits: Limits, options: ReadOptions) -> ReadResult:
    """A parsed message as a one-page document (``.eml`` and Outlook's ``.msg``)."""
    budget = Budget.of(limits, options or NO_OPTIONS)
    text = render_message(message, 1, budget)
    found = metadata(message)
    return ReadResult(
        text=text,
        page_count=1,
        title=found.get("title") or None,
        structure_source="e-mail message",
        warnings=budget.warnings,
        metadata={**found, **({"attachments": budget.read} if budget.read else {})},
    )


def read_mbox(
    data: bytes, limits: Limits, name: str = "the mailbox", options: ReadOptions = NO_OPTIONS
) -> ReadResult:
    """A mailbox's threads: a section and a page per message, replies under their parent."""
    messages, warnings = _messages(data, limits, name)
    budget = Budget.of(limits, options or NO_OPTIONS)
    rendered: dict[int, str] = {}
    pages: list[str] = []
    order = thread_order(messages)
    for index, depth, ancestors in order:
        message = messages[index]
        before = budget.sections
        when = sent_at(message)
        title = " — ".join(
            part for part in (subject(message), sender_name(message),
                              when.strftime("%Y-%m-%d") if when else "") if part
        )  # fmt: skip
        earlier = "\n".join(rendered[a] for a in ancestors[:QUOTE_ANCESTORS])
        level = min(depth + 1, MAX_THREAD_LEVEL)
        text = render_message(message, level, budget, title=title, earlier=earlier)
        if not budget.spend_sections(text, spent=before - budget.sections):
            warnings.append(
                f"Only {len(pages):,} of {len(messages):,} messages were read: the rest would "
                f"pass the limit of {limits.max_sections:,} sections."
            )
            break
        rendered[index] = text
        pages.append(text)
    first = messages[order[0][0]]
    return ReadResult(
        text=join_pages(pages),
        page_count=len(pages),
        title=_REPLY_PREFIX.sub("", subject(first)) or None,
        structure_source="e-mail threads",
        warnings=warnings + budget.warnings,
        metadata={"title": _REPLY_PREFIX.sub("", subject(first)), "messages": len(pages)},
    )


def _messages(data: bytes, limits: Limits, name: str) -> tuple[list[EmailMessage], list[str]]:
    """The mailbox's messages (standard library ``mailbox``, which reads from a file: the
    bytes go to a private temporary one), at most ``max_pages``; broken ones are skipped."""
    handle, path = tempfile.mkstemp(suffix=".mbox")
    messages: list[EmailMessage] = []
    warnings: list[str] = []
    try:
        with os.fdopen(handle, "wb") as fh:
            fh.write(data)
        box = mailbox.mbox(path, create=False)
        try:
            keys = list(box.iterkeys())
            if len(keys) > limits.max_pages:
                warnings.append(
                    f"Only the first {limits.max_pages:,} of {len(keys):,} messages were read "
                    "(the page limit)."
                )
            for number, key in enumerate(keys[: limits.max_pages], 1):
                try:
                    messages.append(parse_message(box.get_bytes(key), limits, f"message {number}"))
                except TreeragError as exc:
                    warnings.append(f"Message {number} was skipped: {exc}")
        finally:
            box.close()
    finally:
        os.unlink(path)
    if not messages:
        raise raised(DocumentReadError, "error.mailbox_empty", name=name)
    return messages, warnings


def thread_order(messages: list[EmailMessage]) -> list[tuple[int, int, list[int]]]:
    """(message index, depth, its ancestors nearest first) in reading order: threads by
    date, each reply after its parent, replies to one message by date."""
    by_id: dict[str, int] = {}
    for index, message in enumerate(messages):
        for found in message_ids(message, "Message-ID")[:1]:
            by_id.setdefault(found, index)
    parent: dict[int, int] = {}
    for index, message in enumerate(messages):
        asked = message_ids(message, "In-Reply-To") + message_ids(message, "References")[::-1]
        known = next((by_id[i] for i in asked if by_id.get(i, index) != index), None)
        if known is not None and not _loops(parent, index, known):
            parent[index] = known
    children: dict[int | None, list[int]] = defaultdict(list)
    for index in range(len(messages)):
        children[parent.get(index)].append(index)
    dates = [sent_at(message) or _NO_DATE for message in messages]
    for siblings in children.values():
        siblings.sort(key=lambda i: (dates[i], i))
    order: list[tuple[int, int, list[int]]] = []
    stack: list[tuple[int, int, list[int]]] = [(root, 0, []) for root in reversed(children[None])]
    while stack:
        index, depth, ancestors = stack.pop()
        order.append((index, depth, ancestors))
        line = [index, *ancestors[: QUOTE_ANCESTORS - 1]]
        stack.extend((child, depth + 1, line) for child in reversed(children[index]))
    return order


def _loops(parent: dict[int, int], index: int, candidate: int) -> bool:
    """Whether making ``candidate`` the parent of ``index`` closes a loop (forged headers)."""
    seen = {index}
    node: int | None = candidate
    while node is not None:
        if node in seen:
            return True
        seen.add(node)
        node = parent.get(node)
    return False
