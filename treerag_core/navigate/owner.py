"""The question as the offline ranking searches one document: without the document's own
name.

Why: "What was Kraft Heinz's goodwill at the end of 2019?" asked of Kraft Heinz's 10-K names
the company whose every page it is. Within that document the name says nothing about which
section answers, yet BM25 counts it: the name is in a quarter of the filing's passages, so it
weighs about a quarter of a rare word, and the sections that repeat it (certifications, the
signature page, the auditor's report, a stock-performance graph) climb over the statement
that prints the figure. Until now the possessive hid it by accident: "heinz's" is a word the
text rarely writes, so a question saying "Heinz's" matched nothing, while "the Nike 10-K"
matched every passage. Dropping the owner's name on purpose, and reading a possessive as the
name it ends ("Converse's revenues": the segment the text calls Converse), makes both
questions search what they ask.

Whose name: the words of the file's name (``KRAFTHEINZ_2019_10K.pdf``, as the offline answer
reads it, :func:`~..answer.offline.question.with_owner`) and of the registrant a filing's
cover names ("The Kraft Heinz Company"), so a file named ``10k.pdf`` is read too. A word is
the owner's only when the question capitalises it (a name) and its letters, three or more,
are part of one of those names; the rest of the question is searched as it was.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from ..summarize.describe import registrant
from ..types import FlatNode

# A name of fewer letters is too likely to be part of another word's letters ("Art" of
# "Kraft").
MIN_OWNER_LETTERS = 3
# The cover's registrant is in the document's first few sections.
COVER_SECTIONS = 3
_WORD = re.compile(r"[^\W_][\w&'’.-]*")
_POSSESSIVE = re.compile(r"['’]s?$")
_NOT_LETTERS = re.compile(r"[^a-z]")


def owner_names(file_name: str, flat: Mapping[str, FlatNode]) -> list[str]:
    """The document's own names, in letters only: its file's name (without the extension,
    each part apart: ``kraftheinz``) and the registrant its cover names, if any."""
    stem = os.path.splitext(os.path.basename(file_name))[0]
    names = [_NOT_LETTERS.sub("", part.lower()) for part in re.split(r"[\W_]+", stem)]
    opening = "\n".join(
        f"{node.get('title') or ''}\n{node.get('text') or ''}"
        for node in list(flat.values())[:COVER_SECTIONS]
    )
    if who := registrant(opening):
        names += [_NOT_LETTERS.sub("", who.lower())]
    return [n for n in names if len(n) >= MIN_OWNER_LETTERS]


def without_owner(query: str, names: list[str]) -> str:
    """``query`` with each possessive read as the name it ends and the owner's names left
    out."""

    def word(found: re.Match[str]) -> str:
        plain = _POSSESSIVE.sub("", found.group())
        letters = _NOT_LETTERS.sub("", plain.lower())
        owned = plain[:1].isupper() and len(letters) >= MIN_OWNER_LETTERS
        return " " if owned and any(letters in name for name in names) else plain

    return " ".join(_WORD.sub(word, query).split())
