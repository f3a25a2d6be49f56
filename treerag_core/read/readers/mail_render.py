"""One e-mail message → Markdown-style text: its section, quotes and attachments below it.

The section opens with the sender, recipients and date as lines of its text, so an answer
can cite who wrote what and when. The quoted earlier messages are a child section (or,
when the thread above already holds them, one line saying so), and each attachment is a
child section read by its own format's reader from the one format table, so a question
about an attached room list finds that list. Attachments share one budget per read
(:class:`Budget`): how many are read, how much they may inflate, how many sections they
may add, and how deep files inside files are followed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from email.message import EmailMessage
from typing import Any

from ...errors import TreeragError
from ...limits import Limits
from ...structure.pages import NO_OPTIONS, ReadOptions
from ...tree.sections import ATX_MARKS, escape_text, heading, nest_headings
from .archive import expanded_size
from .mail_html import html_body
from .mail_parts import header_lines, parse_message, split_parts, subject, text_of
from .mail_quotes import Quote, copied_from, split_quotes

LISTED_NAMES = 50  # attachments named on a message's "Attachments:" line, then "and N more"
_HEADING = re.compile(rf"^{ATX_MARKS} ", re.M)
# Readers of attachments that are messages themselves (.eml, .msg): read here, with this
# read's budget, rather than as a separate file with a budget of its own.
MessageParser = Callable[[bytes, Limits, str], EmailMessage]


@dataclass
class Budget:
    """What one read (an e-mail, a mailbox) may still spend on attachments."""

    limits: Limits
    options: ReadOptions = NO_OPTIONS
    message_parsers: dict[str, MessageParser] = field(default_factory=dict)
    attachments: int = 0  # left to read
    inflate: int = 0  # bytes they may still inflate to
    sections: int = 0  # headings the document may still get
    read: int = 0
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, limits: Limits, options: ReadOptions = NO_OPTIONS) -> Budget:
        from .msg import parse_msg  # which reads messages through this module

        parsers: dict[str, MessageParser] = {"eml": parse_message, "msg": parse_msg}
        return cls(limits, options, parsers, limits.max_attachments,
                   limits.max_decompressed_bytes, limits.max_sections)  # fmt: skip

    def spend_sections(self, text: str, spent: int = 0) -> bool:
        """Count a piece's headings (less ``spent``: those of its attachments, counted as
        they were read) against the budget; False, and nothing counted, when they do not
        fit."""
        count = len(_HEADING.findall(text)) - spent
        if count > self.sections:
            return False
        self.sections -= count
        return True


def render_message(
    message: EmailMessage,
    level: int,
    budget: Budget,
    depth: int = 0,
    title: str | None = None,
    earlier: str = "",
) -> str:
    """The message's section and, below it, its quotes and attachments. ``earlier``: the
    text of the thread above it, whose copies in its quotes are folded into a line."""
    parts = split_parts(message)
    own, quotes = _body(parts.body, parts.more_text)
    names = [name for name, _ in parts.attachments] + [
        f"{subject(inner)} (message)" for inner in parts.messages
    ]
    lines = [heading(title or subject(message), level), *header_lines(message)]
    if names:
        more = f", and {len(names) - LISTED_NAMES:,} more" if len(names) > LISTED_NAMES else ""
        lines.append(f"Attachments: {', '.join(names[:LISTED_NAMES])}{more}")
    lines += ["", nest_headings(own, level + 1)]
    for quote in quotes:
        if earlier and copied_from(quote, earlier):
            lines += ["", f"[{quote.title}, the message above in this thread]"]
        else:
            lines += ["", heading(quote.title, level + 1), nest_headings(quote.text, level + 2)]
    for name, part in parts.attachments:
        lines += ["", _attachment(name, part, level + 1, budget, depth + 1)]
    for inner in parts.messages:
        lines += ["", _nested(inner, "", level + 1, budget, depth + 1)]
    return "\n".join(lines).rstrip()


def _body(body: EmailMessage | None, more: list[EmailMessage]) -> tuple[str, list[Quote]]:
    """The writer's own text (Markdown-style) and the quotes, over the body's parts."""
    own: list[str] = []
    quotes: list[Quote] = []
    for part in [body, *more] if body is not None else more:
        if part.get_content_type() == "text/html":
            text, found = html_body(text_of(part))
        else:
            plain, found = split_quotes(text_of(part))
            text = escape_text(plain)
            found = [Quote(q.title, escape_text(q.text)) for q in found]
        own.append(text)
        quotes.extend(found)
    return "\n\n".join(t for t in own if t.strip()), quotes


def _attachment(name: str, part: EmailMessage, level: int, budget: Budget, depth: int) -> str:
    """An attachment's section: its text read by its format's reader, or why it was not."""
    from ..formats import format_for_mime, format_for_name  # the table imports this module
    from ..source import read_bytes

    head = heading(f"Attachment: {name}", level)
    fmt = _format(name, part, format_for_name, format_for_mime)
    data: Any = part.get_payload(decode=True)  # Any: bytes, or None when empty (checked below)
    reason = _refusal(budget, depth)
    if fmt is None:
        ext = os.path.splitext(name)[1] or part.get_content_type()
        reason = reason or f"{ext} files are not a type treerag reads"
    if not reason and not isinstance(data, bytes):
        reason = "it holds no data"
    if reason:
        return f"{head}\n\n{name} was skipped: {reason}."
    if fmt.kind in budget.message_parsers:
        try:
            inner = budget.message_parsers[fmt.kind](data, budget.limits, name)
        except TreeragError as exc:
            return f"{head}\n\n{name} was skipped: {exc}"
        return _nested(inner, name, level, budget, depth)
    if expanded_size(data) > budget.inflate:
        return f"{head}\n\n{name} was skipped: it would inflate the attachments past the " \
               f"{budget.limits.max_decompressed_bytes:,}-byte limit."  # fmt: skip
    limits = replace(budget.limits, max_decompressed_bytes=budget.inflate, max_attachments=0)
    try:
        source = read_bytes(data, name, limits, kind=fmt.kind, options=budget.options)
    except TreeragError as exc:
        return f"{head}\n\n{name} was skipped: {exc}"
    text = nest_headings(source.text, level + 1)
    if not budget.spend_sections(text):
        return f"{head}\n\n{name} was skipped: its sections would pass the section limit."
    budget.attachments -= 1
    budget.inflate -= expanded_size(data)
    budget.read += 1
    budget.warnings.extend(f"{name}: {warning}" for warning in source.warnings)
    return f"{head}\n\n{text}"


def _nested(inner: EmailMessage, name: str, level: int, budget: Budget, depth: int) -> str:
    """A message attached to a message, read as a message with this read's budget."""
    label = f"Attached message: {subject(inner)}"
    reason = _refusal(budget, depth)
    if reason:
        return f"{heading(label, level)}\n\n{name or 'The message'} was skipped: {reason}."
    budget.attachments -= 1
    budget.read += 1
    return render_message(inner, level, budget, depth, title=label)


def _refusal(budget: Budget, depth: int) -> str:
    if depth > budget.limits.max_attachment_depth:
        return f"it is nested more than {budget.limits.max_attachment_depth} files deep"
    if budget.attachments <= 0:
        return f"the limit of {budget.limits.max_attachments:,} attachments read was reached"
    return ""


def _format(name: str, part: EmailMessage, by_name: Callable, by_mime: Callable):  # noqa: ANN202
    """The attachment's format from its name, else from its declared type."""
    try:
        return by_name(name)
    except TreeragError:
        return by_mime(part.get_content_type())
