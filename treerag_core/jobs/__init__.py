"""jobs: the indexing queue. The app queues uploads in the database; workers on any machine
index them (:mod:`treerag_core.worker`).

``api`` queues and lists jobs under the access rules. The queue itself is the PostgreSQL
store's (``store/postgres/jobs.py``); a registry file has none and indexes in process.
"""

from .api import (
    DEFAULT_MAX_ATTEMPTS,
    enqueue_upload,
    enqueue_url,
    get_job,
    has_job_queue,
    list_jobs,
)

__all__ = [
    "DEFAULT_MAX_ATTEMPTS",
    "enqueue_upload",
    "enqueue_url",
    "get_job",
    "has_job_queue",
    "list_jobs",
]
