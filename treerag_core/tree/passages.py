"""A section's passages as the offline ranking reads them, and a document's statistics.

One home for what both the ranking (``navigate/ranking.py``, at question time) and the
indexing (``library/indexing.py``) need: the passages a section is cut into, the key that
names a set of sections' statistics, and building them. Indexing keeps a whole document's
statistics in the store's ``ranking`` cache under the key the first question looks for, so
a question on a document nobody has asked yet reads them back (~10 ms for a 300-page
filing) instead of tokenising the document (~100-200 ms) while people wait.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Mapping
from typing import Any

from ..store.base import Cache
from ..text.bm25 import BM25, PASSAGE_CHARS, STORED_VERSION
from ..text.cut_texts import CutTexts, unmarked
from ..text.language import Languages
from ..text.tokens import TOKENS_VERSION, TextTokens, tokenize
from .labels import heading_label

RANKING_CACHE = "ranking"  # the store cache that keeps documents' ranking statistics
# A section set with this many passages is kept in the lasting cache too (when the memory
# has one): a document's whole ranking, not a level's few candidates. Reading a 300-page
# filing's statistics back takes ~10 ms; building them from its text ~100-200 ms.
LASTING_MIN_PASSAGES = 64
# What the lasting statistics were made by: another tokenizer or layout is another key.
LASTING_VERSION = f"bm25-{STORED_VERSION}-tokens-{TOKENS_VERSION}"


def node_passages(
    node: Mapping[str, Any],
    size: int = PASSAGE_CHARS,
    language: str = "",
    other: str = "",
    tokens: TextTokens | CutTexts | None = None,
) -> list[list[str]]:
    """Overlapping windows of a section's text, each headed by its title, summary and tags.

    A section is as relevant as its best passage: a long section with one matching table is
    not drowned by its length, and a short one is not favoured for being short. (On the
    FinanceBench dev set this took page hits from 66% to 69% at the same token budget.)
    ``tokens``: texts already cut (indexing's): a short English section in ASCII is its
    head's tokens and its text's, which a space between cannot join.
    """
    tags = " ".join(map(str, node.get("tags") or []))
    head = f"{heading_label(node)} " * 2 + f"{node.get('summary') or ''} {tags} "
    text = str(node.get("text") or "")
    if isinstance(tokens, CutTexts) and unmarked(head) and tokens.unmarked(text):
        # head and text apart (the head ends in a space), the text's windows from its
        # segments cut once: see text/cut_texts.py for why these are the same tokens
        head_tokens = tokenize(head, language, other)
        starts = range(0, len(text) - size // 2, size // 2) if len(text) > size else (0,)
        return [head_tokens + tokens.span(text, i, i + size, language, other) for i in starts]
    if len(text) <= size:
        if tokens is not None and _apart(head, text, language, other):
            return [tokenize(head, language) + tokens(text, language)]
        return [tokenize(head + text, language, other)]
    step = size // 2
    windows = [text[i : i + size] for i in range(0, len(text) - step, step)]
    head_tokens = tokenize(head, language) if _apart(head, "", language, other) else []
    return [
        head_tokens + tokenize(window, language)
        if head_tokens and window.isascii()
        else tokenize(head + window, language, other)
        for window in windows
    ]


def _apart(head: str, text: str, language: str, other: str) -> bool:
    """Whether ``head + text`` cuts as ``head`` and ``text`` apart: English (no stems, no
    word forms), the head ending in a space, the text in ASCII. Then the text's words are
    the tokenizer's fast path's, whichever path the head takes (a title's "…" or "—"
    sends the whole passage down the slow one): NFKC and case folding change no ASCII
    character and join nothing across a space, and on ASCII text the slow path's word
    patterns find the fast path's words, neither choosing another pattern for the head
    (ASCII has no combining marks). A long sheet's passages, each headed by a title
    ending in "…", were all cut the slow way (a 20,000-row CSV: 0.2 s of its 1.7 s)."""
    return language in ("", "en") and not other and head.endswith(" ") and text.isascii()


def content_key(nid: str, node: Mapping[str, Any]) -> Hashable:
    """What a section's passages are made of (strings hash once per object in Python)."""
    tags = tuple(map(str, node.get("tags") or []))
    return (nid, heading_label(node), node.get("summary"), tags, node.get("text"))


def statistics_key(
    flat_nodes: Mapping[str, Mapping[str, Any]], ids: list[str], languages: Languages
) -> Hashable:
    """The key of a section set's statistics: its languages and what its passages are made
    of (a re-indexed or re-summarised document is another key)."""
    others = tuple(sorted((nid, languages.of(nid)) for nid in ids if nid in languages.sections))
    return (languages.main, others, *(content_key(nid, flat_nodes[nid]) for nid in ids))


def passage_statistics(
    flat_nodes: Mapping[str, Mapping[str, Any]],
    ids: list[str],
    languages: Languages,
    tokens: TextTokens | CutTexts | None = None,
) -> BM25:
    """The passages' BM25 statistics, each section cut in its own language."""
    return BM25(
        {
            (nid, j): passage
            for nid in ids
            for j, passage in enumerate(
                node_passages(
                    flat_nodes[nid],
                    language=languages.of(nid),
                    other=languages.main if nid in languages.sections else "",
                    tokens=tokens,
                )
            )
        }
    )


def digest(key: Hashable) -> str:
    """A section set's key as a stable digest: what its passages are made of."""
    h = hashlib.sha256(LASTING_VERSION.encode())
    stack = [key]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            h.update(b"(%d" % len(item))
            stack.extend(reversed(item))
        else:
            h.update(b"\x1f" + str(item).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def keep_statistics(
    cache: Cache,
    flat_nodes: Mapping[str, Mapping[str, Any]],
    languages: Languages,
    tokens: TextTokens | CutTexts | None = None,
) -> bool:
    """Build a whole document's statistics and keep them in ``cache`` (the store's
    ``RANKING_CACHE``) where its first question will look; a document of too few passages
    to be worth keeping is left to be built when asked. True when kept."""
    ids = list(flat_nodes)
    made = passage_statistics(flat_nodes, ids, languages, tokens)
    if len(made.keys) < LASTING_MIN_PASSAGES:
        return False
    cache.put(digest(statistics_key(flat_nodes, ids, languages)), made.stored())
    return True
