"""The offline engine's text tools: words, languages, sentences, numbers, tables, BM25.

The built-in, deterministic, model-free engine does the whole job with no network and no
key; every stage that has an offline version (summaries, navigation, the answer) builds on
these: :mod:`.tokens` (words and stems in any script), :mod:`.language`,
:mod:`.sentences`, :mod:`.numbers` and :mod:`.tables` (figures and rows as documents print
them), :mod:`.bm25`. It is also the fallback whenever a model call fails or returns nothing
usable.
"""

ENGINE_NAME = "treerag-offline"
from .language import LANGUAGE_NAMES, detect_language, language_name  # noqa: E402
from .messages import LANGUAGE_LABELS, language_of, message  # noqa: E402

# Said under every offline answer, in the answer's language (and taken out again, in any
# language, where an earlier answer is quoted); English's is the default.
OFFLINE_NOTE = message("note.offline")

__all__ = [
    "detect_language",
    "ENGINE_NAME",
    "LANGUAGE_LABELS",
    "language_of",
    "LANGUAGE_NAMES",
    "language_name",
    "message",
]
