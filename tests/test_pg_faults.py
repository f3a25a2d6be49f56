"""Faults on the PostgreSQL store, for real: a worker SIGKILLed mid-job (taken over, stored
once), and a save whose database connection or whole process is killed mid-transaction
(nothing half-written, the store keeps working)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import PROVIDER_ENV

from testkit.fake_llm_servers import FakeLLMServer
from testkit.pg_server import query
from treerag_core import StoreUnavailableError, get_document_by_id, index_document, list_documents
from treerag_core.jobs.api import enqueue_upload, get_job
from treerag_core.store import open_store

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = 40


def _wait(predicate, timeout: float = 60.0, every: float = 0.1):  # noqa: ANN001, ANN202
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError("timed out waiting")


def _start_worker(url: str, name: str, llm: FakeLLMServer, workdir: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in PROVIDER_ENV}
    env.update(OPENAI_API_KEY="test", OPENAI_BASE_URL=llm.url, TREERAG_PROVIDER="openai",
               PYTHONPATH=str(ROOT))  # fmt: skip
    log = open(workdir / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        [sys.executable, "-m", "treerag_core", "--registry", url, "worker", "--name", name,
         "--lease", "2"],
        cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip


@pytest.mark.timeout(120)
def test_a_worker_killed_mid_job_is_taken_over_and_the_document_stored_once(pg_url, tmp_path):
    llm = FakeLLMServer("openai").start()
    llm.delay = 0.4  # each summary call takes a while: the job is killed half-way
    try:
        store = open_store(pg_url)
        text = "".join(
            f"# Part {i}\nText of part {i} about topic {i}: its rules, limits and owners.\n"
            for i in range(SECTIONS)
        )
        job = enqueue_upload("long.md", text.encode(), store)
        first = _start_worker(pg_url, "first", llm, tmp_path)
        running = _wait(lambda: (j := get_job(job["id"], store))["progress_done"] > 3 and j)
        assert running["status"] == "running" and running["worker"] == "first"
        first.send_signal(signal.SIGKILL)
        assert first.wait(timeout=10) == -signal.SIGKILL
        cached = query(pg_url, "SELECT count(*) FROM cache_entries WHERE cache = 'llm'")[0][0]
        assert cached > 0  # summaries paid for before the kill are kept
        second = _start_worker(pg_url, "second", llm, tmp_path)
        try:
            done = _wait(lambda: (j := get_job(job["id"], store))["status"] == "done" and j)
        finally:
            second.send_signal(signal.SIGTERM)  # a graceful stop between jobs
            assert second.wait(timeout=15) == 0
        assert done["worker"] == "second" and done["attempts"] == 2
        rows = list_documents(store)
        assert len(rows) == 1 and rows[0]["doc_id"] == done["doc_id"]
        document = get_document_by_id(done["doc_id"], store)
        assert len(document["flat_nodes"]) == SECTIONS
        assert all(n["summary"].startswith("About") for n in document["flat_nodes"].values())
        summary_calls = llm.kinds().count("summary")
        assert summary_calls < 2 * SECTIONS, "the second worker reused the cached summaries"
    finally:
        llm.stop()


SLOW_SAVE = """
CREATE FUNCTION slow_save() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_sleep({seconds}); RETURN NEW; END $$;
CREATE TRIGGER slow_save AFTER INSERT OR UPDATE ON documents
    FOR EACH ROW EXECUTE FUNCTION slow_save();
"""


def _sleeping_save_pid(url: str) -> int:
    """The backend whose save has written its row and sits in the trigger's sleep."""
    rows = query(
        url,
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event = 'PgSleep' AND query LIKE '%%INSERT INTO documents%%'",
    )
    return rows[0][0] if rows else 0


@pytest.mark.timeout(120)
@pytest.mark.parametrize("killed", ["database connection", "saving process"])
def test_a_save_killed_mid_transaction_leaves_nothing_half_written(pg_url, tmp_path, killed):
    store = open_store(pg_url)
    source = tmp_path / "report.md"
    source.write_text("# Report\nversion one\n")
    kept = index_document(str(source), registry_path=store, verbose=False)
    before = query(pg_url, "SELECT doc_id, indexed_at, body FROM documents")
    query(pg_url, SLOW_SAVE.format(seconds=30 if killed == "database connection" else 2))
    source.write_text("# Report\nversion two\n## Added\na new section\n")
    (tmp_path / "new.md").write_text("# New\nnever stored\n")

    if killed == "database connection":
        errors: list[BaseException] = []

        def save(path: Path) -> None:
            try:
                index_document(str(path), registry_path=store, verbose=False)
            except BaseException as exc:  # noqa: BLE001 - checked below
                errors.append(exc)

        for path in (source, tmp_path / "new.md"):  # a replacement, then a new document
            thread = threading.Thread(target=save, args=(path,))
            thread.start()
            pid = _wait(lambda: _sleeping_save_pid(pg_url))
            assert query(pg_url, "SELECT pg_terminate_backend(%s)", (pid,)) == [(True,)]
            thread.join(timeout=30)
        assert len(errors) == 2 and all(isinstance(e, StoreUnavailableError) for e in errors)
        assert "Nothing was half-written" in str(errors[0])
    else:
        script = (
            "from treerag_core import index_document\n"
            f"index_document({str(source)!r}, registry_path={pg_url!r}, verbose=False)\n"
        )
        proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
        _wait(lambda: _sleeping_save_pid(pg_url))
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=10) == -signal.SIGKILL
        # The server rolls the transaction back once the trigger returns and finds no client.
        _wait(lambda: not _sleeping_save_pid(pg_url), timeout=30)

    query(pg_url, "DROP TRIGGER slow_save ON documents")
    assert query(pg_url, "SELECT doc_id, indexed_at, body FROM documents") == before
    assert get_document_by_id(kept["doc_id"], store)["flat_nodes"]["0000"]["text"] == "version one"
    # The pool replaced the dead connection: the same store object saves again.
    again = index_document(str(source), registry_path=store, verbose=False)
    assert again["doc_id"] == kept["doc_id"] and again["total_sections"] == 2
    assert len(list_documents(store)) == 1


@pytest.mark.timeout(120)
def test_two_saves_of_one_library_entry_wait_for_each_other(pg_url, tmp_path):
    """Two processes re-indexing one file write its library entry at once: the second waits
    for the first and replaces its terms (it failed on a duplicate key when both deleted
    the old terms before either wrote). A held row lock plays the first save, for sure."""
    import psycopg

    from treerag_core.library.catalog import library_entry

    store = open_store(pg_url)
    source = tmp_path / "shared.md"
    source.write_text("# Shared\nintro words\n## Detail\nmore words here\n")
    document = index_document(str(source), registry_path=store, verbose=False)
    doc_id = document["doc_id"]
    terms = query(pg_url, "SELECT term, postings FROM library_section_terms WHERE doc_id = %s",
                  (doc_id,))  # fmt: skip
    assert terms
    query(pg_url, "DELETE FROM library_section_terms WHERE doc_id = %s", (doc_id,))
    errors: list[BaseException] = []

    def second_save() -> None:
        try:
            store.library_index().put(library_entry(document))
        except BaseException as exc:  # noqa: BLE001 - checked below
            errors.append(exc)

    with psycopg.connect(pg_url) as first:  # one transaction, open until the commit below
        first.execute("SELECT 1 FROM library_entries WHERE doc_id = %s FOR UPDATE", (doc_id,))
        thread = threading.Thread(target=second_save)
        thread.start()
        _wait(lambda: query(
            pg_url, "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND query LIKE '%%library_entries%%'",
        ))  # fmt: skip
        for term, postings in terms:  # the first save's terms, written while the second waits
            first.execute(
                "INSERT INTO library_section_terms (term, doc_id, postings) VALUES (%s, %s, %s)",
                (term, doc_id, postings),
            )
        first.commit()
    thread.join(timeout=60)
    assert not errors, errors
    again = query(pg_url, "SELECT count(*) FROM library_section_terms WHERE doc_id = %s", (doc_id,))
    assert again == [(len(terms),)]
