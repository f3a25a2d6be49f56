"""The library index, kept in step with the documents: entries made once at indexing, and
repaired from the documents whenever they disagree.

An entry is a document's card and its sections' statistics (the offline engine's tokenizer,
so a question is cut the same way: ``section_terms.py``). Indexing writes it right after the document; deleting and
moving are kept in step by the stores themselves. Anything else that changes documents
(imports, migrations, a restore, a writer killed between the document and its entry) is
caught by :func:`sync_index`, which every question over the library runs first: it compares
the index's stamps with the registry's listing (two small reads) and indexes what is
missing or stale, drops what is gone. So the index never answers with a document that is
gone, and never misses one that is there for longer than the next question.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from ..access.audit import audited
from ..access.principal import Principal
from ..access.rules import EDITOR_ROLE, require_document
from ..errors import DocumentNotFoundError, InvalidCardError
from ..store import open_store
from ..store.base import (
    DocumentStore,
    RegistryLike,
    WithLibraryIndex,
    collection_of,
)
from ..summarize.card import CARD_VERSION, EDITABLE_FIELDS, build_card
from ..text.cut_texts import CutTexts
from ..text.language import LANGUAGE_NAMES, document_languages
from ..text.messages import raised
from ..text.tokens import TOKENS_VERSION, TextTokens
from ..tree.passages import RANKING_CACHE, keep_statistics
from ..types import Document, LibraryEntry
from .documents import load_document
from .section_terms import section_entry

log = logging.getLogger("treerag.library")
MAX_CARD_FIELD_CHARS = 1000  # a corrected kind or description: a few sentences at most


def stamp_of(row: Mapping[str, Any]) -> str:
    """What an entry was made from: a re-index (new time), another file (new hash), another
    tokenizer (its version: an entry's terms cut otherwise than the question's would miss
    it, so a new tokenizer makes every entry again, once) or another card (its version: the
    card is what routing and the library page read of a document)."""
    made = f"{row.get('content_hash', '')}@{row.get('indexed_at', '')}"
    return f"{made}#tokens{TOKENS_VERSION}#card{CARD_VERSION}"


def library_entry(document: Document, tokens: TextTokens | CutTexts | None = None) -> LibraryEntry:
    """A document's entry: its card and its sections' statistics (what routing ranks by,
    built here at indexing so that no question has to open the document)."""
    card = build_card(document)
    return {
        "doc_id": str(document["doc_id"]),
        "stamp": stamp_of(document),
        "collection": collection_of(document),
        "card": dict(card),
        "sections": section_entry(document.get("flat_nodes", {}), card, tokens or TextTokens()),
    }


def index_entry(store: DocumentStore, document: Document) -> None:
    """Write a stored document's entry (indexing and imports call it after the save), and
    keep its ranking statistics in the store's cache, so that no question, not even the
    first, tokenises the document. A store of the caller's own without a library index
    gets the statistics alone: its documents are asked by id."""
    tokens = CutTexts()  # a section's text is cut once for both
    if isinstance(store, WithLibraryIndex):
        store.library_index().put(library_entry(document, tokens))
    flat = document.get("flat_nodes") or {}
    keep_statistics(store.cache(RANKING_CACHE), flat, document_languages(document), tokens)


def sync_index(
    store: DocumentStore, rows: Iterable[dict[str, Any]] | None = None, complete: bool = True
) -> dict:
    """Make the index agree with the listed documents (``rows``, else the store's listing);
    entries of documents not listed are dropped only when ``rows`` is the whole listing
    (``complete``). Returns what was changed."""
    index = store.library_index()  # type: ignore[attr-defined]  # ours have one (WithLibraryIndex)
    listed = {row["doc_id"]: stamp_of(row) for row in (store.list() if rows is None else rows)}
    stamps = index.stamps()
    stale = [doc_id for doc_id, stamp in listed.items() if stamps.get(doc_id) != stamp]
    gone = [doc_id for doc_id in stamps if doc_id not in listed] if complete else []
    for doc_id in gone:
        index.remove(doc_id)
    done = 0
    for doc_id in stale:
        try:
            document = load_document(store, doc_id)
        except KeyError:  # deleted since the listing
            continue
        index.put(library_entry(document))
        done += 1
    if done or gone:
        log.info("library index: %d indexed, %d removed", done, len(gone))
    return {"indexed": done, "removed": len(gone), "documents": len(listed)}


def document_cards(store: DocumentStore, rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The cards of these listed documents (brought up to date first), by doc_id; none from
    a store without a library index."""
    if not isinstance(store, WithLibraryIndex) or not rows:
        return {}
    sync_index(store, rows, complete=False)
    return store.library_index().cards([row["doc_id"] for row in rows])


def get_card(
    doc_id: str, registry_path: RegistryLike | None = None, principal: Principal | None = None
) -> dict[str, Any]:
    """A document's card, for a person who may read it."""
    store = open_store(registry_path)
    row = require_document(store, principal, doc_id)
    if row is None:
        raise raised(DocumentNotFoundError, "error.no_document_id", id=doc_id, where=store.location)
    card = document_cards(store, [row]).get(doc_id)
    if card is None:  # a store of the caller's own, without a library index
        document = load_document(store, doc_id)
        card = {**build_card(document), "collection": collection_of(document)}
    return card


def edit_card(
    doc_id: str,
    changes: dict[str, Any],
    registry_path: RegistryLike | None = None,
    principal: Principal | None = None,
) -> dict[str, Any]:
    """Correct a card's kind, periods or description (editors of its collection). The
    corrections are kept on the document, so they hold across a re-index of the same file;
    a field given as None goes back to what the document itself says. Logged."""
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise raised(
            InvalidCardError, "error.card_fields", fields=", ".join(EDITABLE_FIELDS),
            unknown=", ".join(sorted(unknown)),
        )  # fmt: skip
    store = open_store(registry_path)
    with audited(store, principal, "card", doc_id=doc_id) as audit:
        row = require_document(store, principal, doc_id, EDITOR_ROLE)
        audit.note(document=(row or {}).get("file_name"), detail=", ".join(sorted(changes)))
        document = load_document(store, doc_id)
        edits = {**(document.get("card_edits") or {}), **_checked(changes)}
        document["card_edits"] = {k: v for k, v in edits.items() if v is not None}
        index_entry(store, store.save(document))
    return get_card(doc_id, store, principal)


def _checked(changes: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field, value in changes.items():
        if value is None:
            out[field] = None
        elif field == "language":
            code = str(value).strip().lower()
            if code and code not in LANGUAGE_NAMES:
                raise raised(InvalidCardError, "error.card_language", value=repr(value))
            out[field] = code or None  # none given: the detected language again
        elif field == "periods":
            items = value.split(",") if isinstance(value, str) else list(value)
            out[field] = [str(p).strip()[:40] for p in items if str(p).strip()][:12]
        else:
            out[field] = " ".join(str(value).split())[:MAX_CARD_FIELD_CHARS]
    return out


def rebuild_library_index(registry_path: RegistryLike | None = None) -> dict:
    """Build the whole index again from the documents (``python -m treerag_core library
    rebuild``)."""
    store = open_store(registry_path)
    store.library_index().clear()  # type: ignore[attr-defined]  # as above
    return sync_index(store)


def check_library_index(registry_path: RegistryLike | None = None) -> dict:
    """How the index and the documents disagree, changing nothing: documents missing from
    it or indexed from an older version, and entries of documents that are gone."""
    store = open_store(registry_path)
    listed = {row["doc_id"]: stamp_of(row) for row in store.list()}
    stamps = store.library_index().stamps()  # type: ignore[attr-defined]  # as above
    return {
        "documents": len(listed),
        "entries": len(stamps),
        "missing": sorted(d for d in listed if d not in stamps),
        "stale": sorted(d for d, s in listed.items() if d in stamps and stamps[d] != s),
        "orphans": sorted(d for d in stamps if d not in listed),
    }
