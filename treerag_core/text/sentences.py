"""Sentences out of extracted text, with the line breaks a PDF put inside them undone."""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|\n\s*\n")


def _unwrap_lines(text: str) -> list[str]:
    """Re-join lines a PDF wrapped mid-sentence ("... 2023. The" / "independent auditor ...").

    A line continues the previous one when that one has no closing punctuation and this one
    starts in lower case; table rows, headings and list items start otherwise and stay apart.
    """
    lines: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if lines and stripped[:1].islower() and lines[-1] and lines[-1][-1] not in ".!?:;":
            lines[-1] = f"{lines[-1]} {stripped}"
        else:
            lines.append(stripped)
    return lines


def split_sentences(text: str) -> list[str]:
    """Sentences (or headings / list items) of a text, whitespace-normalised."""
    out: list[str] = []
    for block in _unwrap_lines(text):
        block = block.strip().lstrip("-*•>#").strip()
        if not block:
            continue
        for sentence in _SENTENCE_END.split(block):
            sentence = " ".join((sentence or "").split())
            if sentence:
                out.append(sentence)
    return out
