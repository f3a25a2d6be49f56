"""What the answer model says, without our prompt's markup: a small model echoes the
``<section_data …>`` quotes, the ``Sections:`` header, the question line or the system
prompt back, and none of that is an answer a person should read.

:func:`clean_answer` cleans a whole reply; :class:`StreamCleaner` does the same to a stream
as it goes, holding back only what may still become markup (a ``<`` whose tag has not
closed, a line that may still turn into a header), so the answer keeps streaming.
"""

from __future__ import annotations

import re

from .prompts import CONVERSATION_CLOSE, CONVERSATION_OPEN, SECTION_CLOSE, SECTION_OPEN

_TAG_NAMES = "|".join(
    re.escape(tag.strip("</>"))
    for tag in (SECTION_OPEN, SECTION_CLOSE, CONVERSATION_OPEN, CONVERSATION_CLOSE)  # fmt: skip
)
_TAGS = re.compile(rf"</?(?:{_TAG_NAMES})\b[^>]*>", re.I)
# Our prompt's header lines, alone on their line ("SECTION:", "Sections:", "Question: …").
_HEADER_WORDS = ("section", "sections", "question", "context")
_HEADER = re.compile(rf"^[ \t]*(?:{'|'.join(_HEADER_WORDS)})[ \t]*:[^\n]*$\n?", re.I | re.M)
_BLANKS = re.compile(r"\n{3,}")
# A system-prompt sentence this long, found in the reply, is an echo (not a coincidence).
ECHO_MIN_CHARS = 40


def clean_answer(text: str, system_prompt: str = "") -> str:
    """The reply without our markup, header lines and echoed system-prompt sentences."""
    out = _TAGS.sub("", text)
    out = _HEADER.sub("", out)
    for sentence in re.split(r"(?<=[.!?])\s+", system_prompt or ""):
        if len(sentence) >= ECHO_MIN_CHARS and sentence in out:
            out = out.replace(sentence, "")
    return _BLANKS.sub("\n\n", out).strip()


class StreamCleaner:
    """:func:`clean_answer` for a stream: ``feed`` each chunk, then ``close``."""

    def __init__(self) -> None:
        self._held = ""
        self._at_line_start = True
        self._space = ""  # whitespace shown only once text follows it (none at either end)
        self._started = False

    def feed(self, chunk: str) -> str:
        """What can be shown now of everything fed so far."""
        self._held += chunk
        cut = self._safe_end(self._held)
        shown, self._held = self._held[:cut], self._held[cut:]
        return self._trimmed(self._clean(shown))

    def close(self) -> str:
        """The rest, at the end of the stream."""
        shown, self._held = self._held, ""
        return self._trimmed(_BLANKS.sub("\n\n", self._clean(shown)).rstrip())

    def _trimmed(self, text: str) -> str:
        body = text.rstrip()
        if not body:
            self._space += text if self._started else ""
            return ""
        out = (self._space if self._started else "") + (body if self._started else body.lstrip())
        self._started, self._space = True, text[len(body) :]
        return _BLANKS.sub("\n\n", out)

    def _clean(self, text: str) -> str:
        if not text:
            return ""
        text = _TAGS.sub("", text)
        first, rest = ("", text) if self._at_line_start else _split_first_line(text)
        out = first + _HEADER.sub("", rest)
        self._at_line_start = text.endswith("\n")
        return out

    def _safe_end(self, text: str) -> int:
        """Where the text may be cut: before an unclosed ``<``, and before a last line that
        may still turn out to be a header line (it is held until its newline comes)."""
        end = len(text)
        tag = text.rfind("<")
        if tag >= 0 and ">" not in text[tag:]:
            end = tag
        line = text.rfind("\n", 0, end) + 1
        if line == 0 and not self._at_line_start:
            return end  # the line began in text already shown: it is not a header
        if _MAY_BE_HEADER.match(text[line:end].lower()):
            return line
        return end


def _split_first_line(text: str) -> tuple[str, str]:
    cut = text.find("\n") + 1 or len(text)
    return text[:cut], text[cut:]


# A line's start that may still be (or already is, its newline to come) a header line.
_MAY_BE_HEADER = re.compile(
    r"^[ \t]*(?:"
    + "|".join(f"{re.escape(w[:n])}$" for w in _HEADER_WORDS for n in range(1, len(w)))
    + rf"|(?:{'|'.join(_HEADER_WORDS)})[ \t]*(?::.*)?$)"
)
