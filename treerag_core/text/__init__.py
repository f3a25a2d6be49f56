"""The built-in, deterministic, model-free engine's text tools.

It does the whole job with no network and no key: summaries from a section's leading
sentences, tags from its named entities and key terms (:mod:`.keyterms`), navigation by BM25
ranking (:mod:`.ranking`), and an extractive answer made of the best-matching sentences,
each with its reference (:mod:`.extractive`), in any language (:mod:`.tokens`,
:mod:`.language`). It is also the fallback whenever a model call
fails or returns nothing usable.
"""

ENGINE_NAME = "treerag-offline"

from .labels import heading_label  # noqa: E402 - after the name the engine's modules read
from .language import LANGUAGE_NAMES, detect_language, language_name  # noqa: E402
from .ranking import RankingMemory  # noqa: E402

__all__ = [
    "detect_language",
    "heading_label",
    "LANGUAGE_NAMES",
    "language_name",
    "RankingMemory",
]
