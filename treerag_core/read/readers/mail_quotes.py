"""An e-mail body's own words apart from the earlier messages it quotes.

A reply repeats what it answers: ``>`` lines under an "On … wrote:" line, or everything
under Outlook's "-----Original Message-----" (or its rule and ``From:`` line). Kept in the
body, those copies compete with the messages they copy for every question, so they are
folded: a child section of the message, or, when the quoted message is itself in the
mailbox, only a line saying what is quoted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...text.tokens import tokenize

# "On Tue, 5 Mar 2024, Bob <bob@example.com> wrote:" and its usual translations.
ATTRIBUTION = re.compile(
    r"^\s*(?:On\b.{0,300}\bwrote|Le\b.{0,300}\ba écrit|Am\b.{0,300}\bschrieb|"
    r"El\b.{0,300}\bescribió|Il\b.{0,300}\bha scritto|Op\b.{0,300}\bschreef)\s*:\s*$",
    re.IGNORECASE,
)
# Where an Outlook (or a forwarding client's) copy of the earlier message starts; all that
# follows is that copy.
ORIGINAL = re.compile(
    r"^\s*(?:-{2,}\s*(?:Original Message|Forwarded message|Ursprüngliche Nachricht|"
    r"Message d'origine)\s*-*|Begin forwarded message:)\s*$",
    re.IGNORECASE,
)
OUTLOOK_RULE = re.compile(r"^\s*_{10,}\s*$")  # newer Outlook: a rule, then "From: …"
# Outlook on the desktop starts the copy with its header block alone: "From: …", "Sent: …".
FROM_LINE = re.compile(r"^\s*\*?(?:From|Von|De)\s*:\*?\s*(.+)$", re.IGNORECASE)
SENT_LINE = re.compile(r"^\s*\*?(?:Sent|Date|Gesendet|Envoyé)\s*:\*?\s*(.+)$", re.IGNORECASE)
# Share of a quote's words found in the earlier messages of its thread for it to count as
# a copy of them (a reply may trim or re-wrap what it quotes).
COPIED_SHARE = 0.9


@dataclass(frozen=True)
class Quote:
    title: str  # "Quoted: On Mon, 4 Mar 2024, Bob wrote" / "Quoted: original message from …"
    text: str


def split_quotes(body: str) -> tuple[str, list[Quote]]:
    """(the writer's own text, the quoted copies: the ``>`` lines, then an original
    message copied below the reply)."""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines, original = _cut_original(lines)
    own: list[str] = []
    quoted: list[str] = []
    between = False  # the writer's own words since the last quoted line (an inline reply)
    for line in lines:
        if line.lstrip().startswith(">"):
            if quoted and between:
                quoted.append("…")
            quoted.append(_unquote(line))
            between = False
        else:
            own.append(line)
            between = between or bool(quoted and line.strip())
    attribution = ""
    if quoted:
        own, attribution = _take_attribution(own)
    quotes = []
    if any(q.strip() for q in quoted):
        title = f"Quoted: {attribution.rstrip(':').strip()}" if attribution else "Quoted text"
        quotes.append(Quote(title, "\n".join(quoted).strip()))
    if original is not None:
        quotes.append(original)
    return "\n".join(own).strip(), quotes


def _unquote(line: str) -> str:
    """One level of ``>`` off (deeper levels stay marked)."""
    stripped = line.lstrip()[1:]
    return stripped[1:] if stripped.startswith(" ") else stripped


def _cut_original(lines: list[str]) -> tuple[list[str], Quote | None]:
    """The lines above an Outlook-style copy of the earlier message, and that copy."""
    for i, line in enumerate(lines):
        rule = OUTLOOK_RULE.match(line) and any(FROM_LINE.match(ln) for ln in lines[i + 1 : i + 3])
        header = FROM_LINE.match(line) and any(SENT_LINE.match(ln) for ln in lines[i + 1 : i + 3])
        if ORIGINAL.match(line) or rule or header:
            copy = lines[i:] if header else lines[i + 1 :]  # a header block is in the copy
            sender = next((m.group(1) for ln in copy[:6] if (m := FROM_LINE.match(ln))), "")
            sent = next((m.group(1) for ln in copy[:6] if (m := SENT_LINE.match(ln))), "")
            said = ", ".join(" ".join(part.split()) for part in (sender, sent) if part)
            title = f"Quoted: original message from {said}" if said else "Quoted: original message"
            return lines[:i], Quote(title, "\n".join(copy).strip())
    return lines, None


def _take_attribution(own: list[str]) -> tuple[list[str], str]:
    """The "On … wrote:" line (maybe wrapped over two lines) out of the writer's text."""
    for i in range(len(own)):
        for span in (1, 2):
            joined = " ".join(ln.strip() for ln in own[i : i + span])
            if ATTRIBUTION.match(joined):
                return own[:i] + own[i + span :], " ".join(joined.split())
    return own, ""


def copied_from(quote: Quote, earlier: str) -> bool:
    """Whether the quote repeats text already in ``earlier`` (the thread above it)."""
    words = tokenize(quote.text)
    if not words:
        return True
    seen = set(tokenize(earlier))
    return sum(word in seen for word in words) >= COPIED_SHARE * len(words)
