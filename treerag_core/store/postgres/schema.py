"""The database schema, created and migrated by the app: numbered steps and a version table.

``treerag_schema`` holds one row per applied step. Opening a store checks the highest
version (one query); an older database is brought up to date in one transaction under an
advisory lock, so several replicas starting at once migrate it once, and a failed step
leaves the previous schema whole. A database written by a newer treerag is refused.

Adding a table is one more entry at the end of ``MIGRATIONS``;
never edit an applied step.

Layout, and why (measured in ``bench/pg.py``): a document is one row, its metadata as
columns and ``meta`` (what ``list`` returns, without reading any document) and the stored
document as one ``jsonb`` value (``body``: flat nodes included). ``get`` reads one row.
Measured on a 2,000-section document (``bench/results/pg.md``): a node table (one row per
section, COPY in) saves in half the time (34 vs 70 ms) but loads slower (27 vs 19 ms) and
takes four times the space (3.1 vs 0.8 MB: one large value is TOAST-compressed, 2,000 small
rows are not); a document is read far more often than it is written, so one row.
"""

from __future__ import annotations

from typing import Any

import psycopg

from ...errors import RegistryError

# Taken (transaction-scoped) while migrating: one replica migrates, the others wait, then see
# the new version. The key is arbitrary but fixed ("tree" in ASCII).
MIGRATION_LOCK_KEY = 0x74726565

MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "documents, collections, audit log, sources, caches",
        """
        CREATE TABLE documents (
            doc_id      text PRIMARY KEY,
            file_path   text NOT NULL UNIQUE,
            collection  text NOT NULL DEFAULT 'default',
            indexed_at  text NOT NULL DEFAULT '',
            meta        jsonb NOT NULL,
            body        jsonb NOT NULL,
            size_bytes  bigint NOT NULL
        );
        CREATE INDEX documents_newest ON documents (indexed_at DESC);
        CREATE TABLE collections (
            name     text PRIMARY KEY,
            readers  jsonb NOT NULL DEFAULT '[]',
            editors  jsonb NOT NULL DEFAULT '[]'
        );
        CREATE TABLE audit_log (
            id     bigserial PRIMARY KEY,
            entry  jsonb NOT NULL
        );
        CREATE FUNCTION treerag_audit_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'the audit log is append-only';
        END $$;
        CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
            FOR EACH ROW EXECUTE FUNCTION treerag_audit_is_append_only();
        CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
            FOR EACH STATEMENT EXECUTE FUNCTION treerag_audit_is_append_only();
        CREATE TABLE sources (
            location   text PRIMARY KEY,
            data       bytea NOT NULL,
            stored_at  timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE cache_entries (
            cache  text NOT NULL,
            key    text NOT NULL,
            value  jsonb NOT NULL,
            PRIMARY KEY (cache, key)
        );
        """,
    ),
    (
        "indexing jobs",
        """
        CREATE TABLE jobs (
            id              bigserial PRIMARY KEY,
            name            text NOT NULL,
            collection      text,
            options         jsonb NOT NULL DEFAULT '{}',
            payload         bytea,
            status          text NOT NULL DEFAULT 'queued'
                            CHECK (status IN ('queued', 'running', 'done', 'failed')),
            attempts        integer NOT NULL DEFAULT 0,
            max_attempts    integer NOT NULL DEFAULT 3,
            run_after       timestamptz NOT NULL DEFAULT now(),
            worker          text,
            lease_until     timestamptz,
            heartbeat_at    timestamptz,
            progress_done   integer NOT NULL DEFAULT 0,
            progress_total  integer NOT NULL DEFAULT 1,
            message         text NOT NULL DEFAULT 'Waiting for a worker',
            error           text,
            doc_id          text,
            created_by      text,
            created_at      timestamptz NOT NULL DEFAULT now(),
            started_at      timestamptz,
            finished_at     timestamptz
        );
        CREATE INDEX jobs_waiting ON jobs (id) WHERE status IN ('queued', 'running');
        CREATE INDEX jobs_newest ON jobs (created_at DESC);
        """,
    ),
    (
        "conversation threads, saved evaluation questions",
        """
        CREATE TABLE threads (
            owner       text NOT NULL,
            thread_id   text NOT NULL,
            title       text NOT NULL DEFAULT '',
            doc_ids     jsonb NOT NULL DEFAULT '[]',
            created_at  text NOT NULL DEFAULT '',
            updated_at  text NOT NULL DEFAULT '',
            turns       integer NOT NULL DEFAULT 0,
            body        jsonb NOT NULL,
            PRIMARY KEY (owner, thread_id)
        );
        CREATE INDEX threads_recent ON threads (owner, updated_at DESC);
        CREATE TABLE saved_questions (
            id        text PRIMARY KEY,
            position  bigserial NOT NULL,
            question  jsonb NOT NULL
        );
        """,
    ),
    (
        "the library index: cards and passages for full-text search",
        """
        CREATE TABLE library_entries (
            doc_id     text PRIMARY KEY REFERENCES documents (doc_id) ON DELETE CASCADE,
            stamp      text NOT NULL,
            card       jsonb NOT NULL,
            card_text  tsvector NOT NULL
        );
        CREATE INDEX library_entries_text ON library_entries USING gin (card_text);
        CREATE TABLE library_passages (
            doc_id   text NOT NULL REFERENCES documents (doc_id) ON DELETE CASCADE,
            node_id  text NOT NULL,
            body     tsvector NOT NULL
        );
        CREATE INDEX library_passages_doc ON library_passages (doc_id);
        CREATE INDEX library_passages_body ON library_passages USING gin (body);
        """,
    ),
    (
        "the library index again: scripts without spaces indexed as bigrams (the next "
        "question over the library indexes every document anew)",
        """
        DELETE FROM library_passages;
        DELETE FROM library_entries;
        """,
    ),
    (
        "synced folders and buckets: their settings and sync state; documents by source",
        """
        CREATE TABLE sync_sources (
            source_id   text PRIMARY KEY,
            config      jsonb NOT NULL,
            state       jsonb NOT NULL DEFAULT '{}',
            created_at  timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX documents_origin ON documents ((meta -> 'origin' ->> 'source_id'))
            WHERE meta -> 'origin' ->> 'source_id' IS NOT NULL;
        """,
    ),
    (
        "the library index by sections: each document's own section statistics, summed over "
        "the documents a question may read (the next question indexes every document anew)",
        """
        DROP TABLE library_passages;
        DELETE FROM library_entries;
        ALTER TABLE library_entries DROP COLUMN card_text;
        ALTER TABLE library_entries ADD COLUMN totals jsonb NOT NULL DEFAULT '{}';
        ALTER TABLE library_entries ADD COLUMN sections jsonb NOT NULL DEFAULT '{}';
        CREATE TABLE library_section_terms (
            term      text NOT NULL,
            doc_id    text NOT NULL REFERENCES documents (doc_id) ON DELETE CASCADE,
            postings  text NOT NULL,
            PRIMARY KEY (term, doc_id)
        );
        CREATE INDEX library_section_terms_doc ON library_section_terms (doc_id);
        """,
    ),
    (
        "the library index packed: postings as packed integers, each section's lengths once "
        "per document (the next question indexes every document anew)",
        """
        DELETE FROM library_section_terms;
        DELETE FROM library_entries;
        ALTER TABLE library_section_terms ALTER COLUMN postings TYPE bytea
            USING convert_to(postings, 'UTF8');
        ALTER TABLE library_entries ADD COLUMN lengths bytea NOT NULL DEFAULT '';
        """,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(conn: psycopg.Connection[Any]) -> int:
    """The database's schema version (0: a database treerag never wrote)."""
    row = conn.execute("SELECT to_regclass('treerag_schema') IS NOT NULL AS present").fetchone()
    if not row or not row["present"]:
        return 0
    row = conn.execute("SELECT coalesce(max(version), 0) AS version FROM treerag_schema").fetchone()
    return int(row["version"]) if row else 0


def ensure_schema(conn: psycopg.Connection[Any], shown_url: str, upto: int = SCHEMA_VERSION) -> int:
    """Bring the database to ``upto`` (default: current) in the caller's transaction."""
    version = schema_version(conn)
    if version > SCHEMA_VERSION:
        raise RegistryError(  # worded as the catalogue's key (store: no text layer)
            f"The registry database {shown_url} was written by a newer treerag (schema "
            f"{version}; this one knows {SCHEMA_VERSION}): upgrade treerag to open it.",
            key="error.registry_db_newer",
            values={"url": shown_url, "version": version, "known": SCHEMA_VERSION},
        )
    if version >= upto:
        return version
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK_KEY,))
    conn.execute(
        "CREATE TABLE IF NOT EXISTS treerag_schema (version integer PRIMARY KEY, "
        "description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
    )
    version = schema_version(conn)  # another replica may have migrated while we waited
    for number, (description, statements) in enumerate(MIGRATIONS[version:upto], version + 1):
        conn.execute(statements)  # fixed DDL, no parameters
        conn.execute(
            "INSERT INTO treerag_schema (version, description) VALUES (%s, %s)",
            (number, description),
        )
    return max(version, upto)
