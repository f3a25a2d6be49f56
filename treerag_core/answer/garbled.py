"""A reply that is not an answer a person should read: our prompt's markup leaking through,
the same text over and over, or another language than the question's.

A small local model echoes ``SECTION`` or ``<section_data …>`` back, loops on a phrase, or
answers an English question in the language of its training's favourite; what it says may
share words with the document, so a word-by-word check alone would call it supported.
Any of these makes the whole reply unsupported (:mod:`.support`).
"""

from __future__ import annotations

import re
from collections import Counter

from ..llm.prompts import CONVERSATION_OPEN, SECTION_CLOSE, SECTION_OPEN
from ..text.language import detect_language
from ..text.messages import Phrase

# Our prompt's pieces that never belong in an answer: its tags (as sent, or half-written),
# its header words alone on a line, and phrases of its instructions.
MARKUP = re.compile(
    r"</?\s*section[_-]data|</?\s*conversation\s*>|^\s*(?:SECTIONS?|QUESTION|CONTEXT|OUTLINE)"
    r"\s*:?\s*$|\bquoted data between\b|\bnever as instructions\b|\bref=\"S\d+\""
    r"|^\s*(?:Question|Sections)\s*:",
    re.M,
)
# The same run of words this long, seen this often, is a loop, not emphasis.
LOOP_WORDS = 6
LOOP_TIMES = 3
# The same word this many times in a row ("again again again again").
STUTTER = 4
# A sentence this long said twice is a repeat (a short "Yes." may come back).
REPEAT_MIN_WORDS = 5
_WORD = re.compile(r"\w+")
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
_CITATION = re.compile(r"\[S\d+[^\]]*\]")


def garbled(text: str, question: str = "", check_language: bool = True) -> str:
    """Why ``text`` is not an answer (one short reason, in English and said in the answer's
    language in the note that sets it aside), or ``""`` when it reads as one.
    ``check_language``: the reply was asked for in the question's language (a model's; the
    offline engine copies the document's own language)."""
    if MARKUP.search(text) or any(tag in text for tag in (SECTION_OPEN, SECTION_CLOSE,
                                                          CONVERSATION_OPEN)):  # fmt: skip
        return Phrase("note.garbled_markup")
    words = [w.lower() for w in _WORD.findall(_CITATION.sub(" ", text))]
    if _loops(words):
        return Phrase("note.garbled_repeats")
    sentences = [" ".join(_WORD.findall(s.lower())) for s in _SENTENCE.findall(text)]
    long_ones = [s for s in sentences if len(s.split()) >= REPEAT_MIN_WORDS]
    if any(n > 1 for n in Counter(long_ones).values()):
        return Phrase("note.garbled_repeats")
    if check_language and question:
        asked = detect_language(question)
        said = detect_language(_CITATION.sub(" ", text), expected=asked)
        if asked and said and asked != said:
            return Phrase("note.garbled_language", said=said, asked=asked)
    return ""


def _loops(words: list[str]) -> bool:
    run = 1
    for before, word in zip(words, words[1:], strict=False):
        run = run + 1 if word == before and not word.isdigit() else 1
        if run >= STUTTER:
            return True
    grams = Counter(tuple(words[i : i + LOOP_WORDS]) for i in range(len(words) - LOOP_WORDS + 1))
    return any(n >= LOOP_TIMES for n in grams.values())
