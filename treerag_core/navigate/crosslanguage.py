"""A question in another language than its document, as the offline engine meets it.

The offline engine finds sections by the question's words: an English question about a
German manual shares only its names with it ("Debian", "APT"), so whatever the ranking
returns is chance. When the question is surely in a language none of the document's
sections are in, and the document holds too few of its words to match on, the person is
told so (ask in the document's language, or set up a model, which reads both) instead of
being answered from unrelated sections. A model's search reads titles and summaries by
their meaning, so with one the question goes on; only the offline check of the model's
choice, which compares words, is left out (see ``navigate._checked``).
"""

from __future__ import annotations

from ..text.language import LANGUAGE_NAMES, Languages, language_name
from ..text.messages import Phrase
from ..types import FlatNode
from .ranking import RankingMemory, known_share

# Below this share of the question's words found in the document, its matches are names
# alone and the ranking's picks are chance ("How do I set the paper size?" against a
# German manual: none of its four words; "What is sid in Debian?": both, and it works).
MIN_KNOWN_SHARE = 0.5


def cannot_match(
    query: str,
    flat: dict[str, FlatNode],
    languages: Languages,
    memory: RankingMemory | None = None,
) -> str:
    """What to tell the person when the offline ranking cannot match the question in the
    document's words (English, said in the answer's language under it); ``""`` when it can."""
    asked = languages.foreign(query)
    if not asked or known_share(query, asked, flat, languages, memory) >= MIN_KNOWN_SHARE:
        return ""
    return Phrase("note.cross_language", asked=_name(asked), written=_name(languages.main))


def _name(code: str) -> str:
    """A language's name, said in the note's language when the catalogue knows it."""
    return Phrase(f"language.{code}") if code in LANGUAGE_NAMES else language_name(code)
