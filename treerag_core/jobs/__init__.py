"""Indexing jobs: the app queues uploads in the database, workers on any machine index them.

``api`` queues and lists jobs (under the access rules); ``worker`` claims and runs them
(``python -m treerag_core worker``, ``--sync-every`` for periodic syncs); ``sync`` plans a
sync of a folder or bucket and queues its files for the workers. The queue itself is the
PostgreSQL store's (``store/postgres/jobs.py``); a registry file has none and indexes in
process.
"""

from .api import (
    DEFAULT_MAX_ATTEMPTS,
    enqueue_upload,
    enqueue_url,
    get_job,
    has_job_queue,
    list_jobs,
)
from .sync import queue_sync
from .worker import DEFAULT_LEASE_S, Worker

__all__ = [
    "DEFAULT_LEASE_S",
    "DEFAULT_MAX_ATTEMPTS",
    "Worker",
    "enqueue_upload",
    "enqueue_url",
    "get_job",
    "has_job_queue",
    "list_jobs",
    "queue_sync",
]
