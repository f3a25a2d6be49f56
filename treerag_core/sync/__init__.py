"""Synced folders and buckets: what a sync must do and the readers of each kind of source.

``plan`` decides (pure: a listing and what the library holds → steps), ``folder`` and
``s3`` list and read, confined to their root or prefix, ``config`` makes and checks a
source's settings, ``watch`` turns a folder's file events into debounced syncs. The
operations people call (under the access rules, with the audit log) are the library's
(``treerag_core.library.syncing``); this package touches no store.
"""
