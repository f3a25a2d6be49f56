"""The library as the home page lists it: one row per document a person may read, what the
row's columns mean, and the search over names and cards.

Plain data in, plain rows out (no Streamlit), so the listing is tested without the app and
any other front end can show the same rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

BLANK = "–"  # what an empty value shows as: never "None", never an empty cell
# The listing's columns, in order, with what each shows (the header says what it counts).
LIBRARY_COLUMNS = ("name", "kind", "periods", "pages", "sections", "indexed", "collection")
# Card fields the search looks in besides the name (a person remembers what a document is
# about, a year or a company, as often as its file name).
SEARCHED_CARD_FIELDS = ("title", "kind", "periods", "names", "description", "outline")
MAX_PERIODS = 3  # a listing cell names the first few periods; the card has them all


def blank(value: Any) -> Any:
    """``value``, or the dash when it is missing or empty (None, "", [])."""
    if value is None or value == "" or value == [] or value == {}:
        return BLANK
    return value


def _periods(card: Mapping[str, Any]) -> str:
    periods = [str(p) for p in card.get("periods") or []]
    shown = ", ".join(periods[:MAX_PERIODS])
    return shown + (" …" if len(periods) > MAX_PERIODS else "")


def library_row(row: Mapping[str, Any], card: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One document's row: its listed metadata and, when the library index has it, its card
    (kind, periods). ``doc_id`` rides along for links; the pages never show it."""
    card = card or {}
    return {
        "doc_id": row.get("doc_id"),
        "name": blank(row.get("file_name")),
        "kind": blank(card.get("kind")),
        "periods": blank(_periods(card)),
        "pages": blank(row.get("total_pages")),
        "sections": blank(row.get("total_sections")),
        "indexed": blank(row.get("indexed_at")),
        "collection": blank(row.get("collection") or "default"),
    }


def _haystack(row: Mapping[str, Any], card: Mapping[str, Any]) -> str:
    parts: list[str] = [str(row.get("file_name") or "")]
    for field in SEARCHED_CARD_FIELDS:
        value = card.get(field)
        if isinstance(value, list | tuple):
            parts += [str(v) for v in value]
        elif value:
            parts.append(str(value))
    return " ".join(parts).casefold()


def matches(row: Mapping[str, Any], card: Mapping[str, Any] | None, query: str) -> bool:
    """Whether every word of ``query`` is in the document's name or card (any case)."""
    words = query.casefold().split()
    haystack = _haystack(row, card or {})
    return all(word in haystack for word in words)


def library_rows(
    rows: Iterable[Mapping[str, Any]],
    cards: Mapping[str, Mapping[str, Any]] | None = None,
    query: str = "",
) -> list[dict[str, Any]]:
    """The listing, newest first as the store lists it, narrowed to ``query``'s matches."""
    cards = cards or {}
    return [
        library_row(row, cards.get(str(row.get("doc_id"))))
        for row in rows
        if matches(row, cards.get(str(row.get("doc_id"))), query)
    ]
