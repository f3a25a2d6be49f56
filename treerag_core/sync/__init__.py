"""sync: the folders and buckets the library follows, in one place.

``sources`` adds, edits, lists and removes them (under the access rules); ``run`` syncs
one: list (``folder``, ``s3``, confined to their root or prefix; ``listing``,
``patterns``), plan (``plan``: pure, a listing and what the library holds → steps), carry
out (index, re-point, delete, each a library write); ``queue`` hands a sync's files to the
indexing workers; ``watch`` turns a folder's file events into debounced syncs; ``config``
makes and checks a source's settings. Where a source's settings and state are kept is the
store's (``store/sync_sources.py``, ``store/postgres/sync_sources.py``).
"""

from .queue import queue_sync
from .run import SYNC_COUNTS, sync_source, sync_summary
from .sources import add_source, edit_source, list_sources, remove_source

__all__ = [
    "SYNC_COUNTS",
    "add_source",
    "edit_source",
    "list_sources",
    "queue_sync",
    "remove_source",
    "sync_source",
    "sync_summary",
]
