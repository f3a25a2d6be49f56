"""The library: the operations people call, each applying the access rules and the audit
log once, over the store (storage only) and the ingest pipeline (reading and building).

``documents`` lists, gets, deletes, moves and loads documents (and rebuilds their derived
fields, the one place that does); ``indexing`` reads, builds and stores them; ``transfer``
exports and imports; ``migrate`` copies a whole registry into another store; ``asking``
hands ``ask_multi`` and ``evaluate`` only documents their principal may read; ``sources``
and ``syncing`` follow folders and buckets (add, edit, list, remove; sync).
"""

from .catalog import check_library_index, edit_card, get_card, rebuild_library_index
from .documents import (
    delete_document,
    get_document,
    get_document_by_id,
    list_documents,
    load_registry,
    move_document,
    save_document,
    save_registry,
)
from .indexing import index_document, index_upload
from .migrate import migrate_registry
from .sources import add_source, edit_source, list_sources, remove_source
from .syncing import SYNC_COUNTS, sync_source, sync_summary
from .transfer import export_registry, import_documents

__all__ = [
    "SYNC_COUNTS",
    "add_source",
    "check_library_index",
    "delete_document",
    "edit_card",
    "edit_source",
    "export_registry",
    "get_card",
    "get_document",
    "get_document_by_id",
    "import_documents",
    "index_document",
    "index_upload",
    "list_documents",
    "list_sources",
    "load_registry",
    "migrate_registry",
    "move_document",
    "remove_source",
    "rebuild_library_index",
    "save_document",
    "save_registry",
    "sync_source",
    "sync_summary",
]
