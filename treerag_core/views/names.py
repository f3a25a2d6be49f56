"""What gave a tree its structure, named for a person in their language.

A document records the English name of its structure's source (``structure_source``,
``structure_parts``: data, the same whatever the reader's language); a page shows it
through :func:`source_name`, which finds its wording in the message catalogue
(``structure.<name>``) and leaves a name the catalogue does not know as it is.
"""

from __future__ import annotations

import re

from ..text.messages import CATALOGUE, DEFAULT_LANGUAGE, message


def source_key(source: str) -> str:
    """The catalogue key of a source's name: ``printed contents and typography`` →
    ``structure.printed_contents_and_typography``."""
    return "structure." + "_".join(re.findall(r"[a-z0-9]+", source.lower()))


def source_name(source: str | None, language: str | None = None) -> str:
    """``source`` as a person reads it in ``language`` (``Lesezeichen`` for ``bookmarks``);
    English, and an unknown name as given, by default."""
    source = str(source or "unknown")
    key = source_key(source)
    return message(key, language) if key in CATALOGUE[DEFAULT_LANGUAGE] else source
