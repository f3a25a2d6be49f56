"""The PostgreSQL backend (``TREERAG_REGISTRY=postgresql://…``): documents, access data,
sources, caches and the indexing job queue in one database shared by every app replica and
worker. Imported only when such a registry is opened, so psycopg is needed only then."""

from .store import PostgresStore

__all__ = ["PostgresStore"]
