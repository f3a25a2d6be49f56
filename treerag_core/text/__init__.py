"""The built-in, deterministic, model-free engine's text tools.

It does the whole job with no network and no key: summaries from a section's leading
sentences, tags from its named entities and key terms (:mod:`.keyterms`), navigation by BM25
ranking (:mod:`.ranking`), and an extractive answer made of the best-matching sentences,
each with its reference (:mod:`.extractive`). It is also the fallback whenever a model call
fails or returns nothing usable.
"""

ENGINE_NAME = "treerag-offline"

from .labels import heading_label  # noqa: E402 - after the name the engine's modules read
from .ranking import RankingMemory  # noqa: E402

__all__ = [
    "heading_label",
    "RankingMemory",
]
