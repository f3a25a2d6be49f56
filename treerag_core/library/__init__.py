"""library: the operations people call on stored documents, each applying the access rules
and the audit log once, over the store (storage only).

``build`` turns a read source into a document (sections → tree → summaries → outline, no
saving); ``indexing`` reads, builds and stores it; ``documents`` lists, gets, deletes,
moves and loads documents (and rebuilds their derived fields, the one place that does);
``catalog`` keeps the library index (cards and passages) in step; ``transfer`` exports and
imports; ``migrate`` copies a whole registry into another store; ``asking`` hands the
answer stage only documents its principal may read.
"""

from .catalog import (
    check_library_index,
    document_cards,
    edit_card,
    get_card,
    rebuild_library_index,
)
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
from .sample import SAMPLE_QUESTION, index_sample
from .transfer import export_registry, import_documents

__all__ = [
    "document_cards",
    "index_sample",
    "SAMPLE_QUESTION",
    "check_library_index",
    "delete_document",
    "edit_card",
    "export_registry",
    "get_card",
    "get_document",
    "get_document_by_id",
    "import_documents",
    "index_document",
    "index_upload",
    "list_documents",
    "load_registry",
    "migrate_registry",
    "move_document",
    "rebuild_library_index",
    "save_document",
    "save_registry",
]
