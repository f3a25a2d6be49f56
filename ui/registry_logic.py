"""Registry page helpers: the table, export, import, re-index (the core checks access)."""

from __future__ import annotations

from typing import Any

from treerag_core.access import Principal
from treerag_core.library import export_registry, import_documents
from treerag_core.store import RegistryLike, open_store
from treerag_core.text import ENGINE_NAME
from treerag_core.views import blank, source_name


def human_size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"


# The registry table's columns: the first ones always shown, the others on request (the
# table stays within a 1280 px window). Each header says what its column holds or counts.
MAIN_COLUMNS = ("name", "collection", "pages", "sections", "indexed at")
MORE_COLUMNS = ("structure from", "summaries by", "summaries made offline", "size on disk",
                "type")  # fmt: skip


def offline_summaries(row: dict[str, Any]) -> int:
    """How many of a document's section summaries the offline engine wrote: all of them
    when it indexed the document, else those a model failed to write (its fallbacks)."""
    if str(row.get("engine") or "").startswith(ENGINE_NAME):
        return int(row.get("total_sections") or 0)
    return int(row.get("summary_fallbacks") or 0)


def table_rows(
    rows: list[dict[str, Any]], registry_path: RegistryLike, language: str | None = None
) -> list[dict[str, Any]]:
    """One row per document as the registry table shows it (sizes from the listed rows;
    the store is asked only for a row that lacks one); an empty value shows as a dash, what
    gave the tree is named in ``language``."""
    store = open_store(registry_path)
    out = []
    for row in rows:
        size = row.get("size_bytes")
        out.append(
            {
                "name": blank(row.get("file_name")),
                "collection": row.get("collection") or "default",
                "pages": str(blank(row.get("total_pages"))),
                "sections": str(blank(row.get("total_sections"))),
                "indexed at": blank(row.get("indexed_at")),
                "structure from": blank(
                    row.get("structure_source") and source_name(row["structure_source"], language)
                ),
                "summaries by": blank(row.get("engine")),
                "summaries made offline": offline_summaries(row),
                "size on disk": human_size(
                    int(size) if size is not None else store.stored_size(row["doc_id"])
                ),
                "type": blank(row.get("source_type")),
            }
        )
    return out


def export_bytes(
    doc_ids: list[str], registry_path: RegistryLike, principal: Principal | None = None
) -> bytes:
    """The chosen documents (one or all) as one export file.

    Takes the registry path explicitly so it needs no Streamlit session (reusable, testable).
    """
    return export_registry(doc_ids, registry_path, principal)


def import_bytes(
    data: bytes,
    registry_path: RegistryLike,
    principal: Principal | None = None,
    collection: str | None = None,
) -> list[str]:
    """Validate then store every document in the file; returns their names.

    Validation and access checks run on the whole file first, so a refused or bad file
    stores nothing.
    """
    saved = import_documents(data, registry_path, principal, collection)
    return [str(document.get("file_name")) for document in saved]
