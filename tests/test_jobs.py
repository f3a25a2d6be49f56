"""Indexing jobs on a real PostgreSQL database: queued by one store object (a replica),
run by workers, read back by another; failures, retries, lease takeover, access rules."""

from __future__ import annotations

import threading

import pytest

from testkit.pg_server import query
from treerag_core import AccessDeniedError, UnsupportedFormatError, list_documents
from treerag_core.access.audit import read_audit_log
from treerag_core.access.collections import set_collection_access
from treerag_core.access.principal import Principal
from treerag_core.errors import JobsUnavailableError
from treerag_core.jobs.api import enqueue_upload, enqueue_url, get_job, list_jobs
from treerag_core.store import open_store
from treerag_core.worker import Worker

DOC = b"# Revenue\nRevenue grew to $5 million.\n## Staff\nWe employ 40 people.\n"


def _worker(store, name="w1", **kw) -> Worker:
    return Worker(store, name=name, poll_s=0.05, retry_delay_s=0.0, **kw)


def test_a_job_queued_on_one_replica_is_run_by_a_worker_and_seen_on_another(pg_url):
    app_a, app_b, worker_store = open_store(pg_url), open_store(pg_url), open_store(pg_url)
    job = enqueue_upload("report.md", DOC, app_a)
    assert job["status"] == "queued" and job["attempts"] == 0 and "payload" not in job
    assert [j["id"] for j in list_jobs(app_b)] == [job["id"]]
    assert _worker(worker_store).run(drain=True) == 1
    done = get_job(job["id"], app_b)
    assert done["status"] == "done" and done["attempts"] == 1 and done["worker"] == "w1"
    assert done["progress_done"] == done["progress_total"] and "2 sections" in done["message"]
    row = list_documents(app_b)[0]
    assert row["doc_id"] == done["doc_id"] and row["file_path"] == "db:uploads/report.md/report.md"
    assert app_b.sources.read(row["file_path"]) == DOC
    assert query(pg_url, "SELECT payload IS NULL FROM jobs") == [(True,)]  # bytes dropped
    actions = [e["action"] for e in read_audit_log(app_b)]
    assert actions == ["index", "enqueue"]  # newest first


def test_an_unreadable_file_fails_at_once_and_the_registry_keeps_the_old_version(pg_url):
    store = open_store(pg_url)
    enqueue_upload("report.md", DOC, store)
    _worker(store).run(drain=True)
    before = query(pg_url, "SELECT doc_id, body FROM documents")
    job = enqueue_upload("report.md", b"   \n", store, overwrite=True)
    _worker(store).run(drain=True)
    failed = get_job(job["id"], store)
    assert failed["status"] == "failed" and failed["attempts"] == 1  # not retried
    assert "nothing to index" in failed["error"]
    assert query(pg_url, "SELECT doc_id, body FROM documents") == before
    assert store.sources.read("db:uploads/report.md/report.md") == DOC  # old bytes back


def lease_runs_out(url: str, job_id: int) -> None:
    """The time a dead worker's lease takes to run out, passed at once: the lease is set to
    have ended a second ago on the database's own clock, which the queue reads."""
    query(url, "UPDATE jobs SET lease_until = now() - interval '1 second' WHERE id = %s",
          (job_id,))  # fmt: skip


def test_a_crash_is_retried_up_to_the_limit(pg_url):
    store = open_store(pg_url)
    calls = []

    def crashing(_prompt):
        def summarize(nodes, progress=None):
            calls.append(len(nodes))
            raise RuntimeError("the summarizer fell over")

        return summarize

    job = enqueue_upload("report.md", DOC, store, max_attempts=3)
    assert _worker(store, summarizer_for=crashing).run(drain=True) == 3
    failed = get_job(job["id"], store)
    assert failed["status"] == "failed" and failed["attempts"] == 3 and len(calls) == 3
    assert "RuntimeError: the summarizer fell over" in failed["error"]
    assert list_documents(store) == []


def test_a_job_whose_worker_stopped_answering_is_taken_over_after_its_lease(pg_url):
    store = open_store(pg_url)
    job = enqueue_upload("report.md", DOC, store)
    dead = store.jobs.claim("dead-worker", 600)  # claims, then never beats again
    assert dead["id"] == job["id"]
    assert _worker(store, name="w2").run(drain=True) == 0  # the lease still holds
    lease_runs_out(pg_url, job["id"])
    assert _worker(store, name="w2").run(drain=True) == 1
    done = get_job(job["id"], store)
    assert done["status"] == "done" and done["attempts"] == 2 and done["worker"] == "w2"
    assert not store.jobs.finish(job["id"], "dead-worker", "x", "late")  # no longer its job
    assert len(list_documents(store)) == 1


def test_a_job_whose_worker_died_on_its_last_attempt_fails_for_good(pg_url):
    store = open_store(pg_url)
    job = enqueue_upload("report.md", DOC, store, max_attempts=1)
    store.jobs.claim("dead-worker", 600)
    lease_runs_out(pg_url, job["id"])
    assert _worker(store).run(drain=True) == 0
    failed = get_job(job["id"], store)
    assert failed["status"] == "failed" and "stopped answering 1 time(s)" in failed["error"]


def test_workers_in_parallel_never_run_a_job_twice(pg_url):
    store = open_store(pg_url)
    ids = [
        enqueue_upload(f"doc{i}.md", DOC + f"\n# N{i}\n".encode(), store)["id"] for i in range(12)
    ]
    counts: dict[str, int] = {}

    def run(name: str) -> None:
        counts[name] = _worker(open_store(pg_url), name=name).run(drain=True)

    threads = [threading.Thread(target=run, args=(f"w{i}",)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(counts.values()) == 12
    jobs = [get_job(i, store) for i in ids]
    assert all(j["status"] == "done" and j["attempts"] == 1 for j in jobs)
    assert len(list_documents(store)) == 12


def test_access_rules_apply_when_queued_and_when_run(pg_url):
    store = open_store(pg_url)
    set_collection_access("hr", readers=["staff"], editors=["hr-leads"], registry_path=store)
    reader = Principal("ana@example.com", frozenset({"staff"}))
    editor = Principal("bob@example.com", frozenset({"hr-leads"}))
    with pytest.raises(AccessDeniedError):
        enqueue_upload("pay.md", DOC, store, collection="hr", principal=reader)
    assert list_jobs(store) == []
    job = enqueue_upload("pay.md", DOC, store, collection="hr", principal=editor)
    assert [j["id"] for j in list_jobs(store, reader)] == [job["id"]]  # readers see hr's jobs
    assert list_jobs(store, Principal("eve@example.com")) == []
    with pytest.raises(AccessDeniedError):
        get_job(job["id"], store, Principal("eve@example.com"))
    set_collection_access("hr", readers=["staff"], editors=[], registry_path=store)  # revoked
    _worker(store).run(drain=True)
    failed = get_job(job["id"], store)
    assert failed["status"] == "failed" and "not an editor" in failed["error"]
    assert list_documents(store) == []
    entries = [(e["action"], e["who"], e["outcome"]) for e in read_audit_log(store)]
    assert ("enqueue", "bob@example.com", "ok") in entries
    assert entries[0] == ("index", "bob@example.com", "denied")  # the run, under bob


def test_bad_uploads_are_refused_when_queued(pg_url):
    store = open_store(pg_url)
    with pytest.raises(UnsupportedFormatError):
        enqueue_upload("sheet.numbers", b"PK\x03\x04", store)
    assert list_jobs(store) == []


def test_a_url_job_runs_under_the_network_guard(pg_url):
    store = open_store(pg_url)
    job = enqueue_url("http://127.0.0.1:9/private", store)  # refused before any connection
    _worker(store).run(drain=True)
    failed = get_job(job["id"], store)
    assert failed["status"] == "failed" and failed["attempts"] == 1
    assert "private" in failed["error"].lower() or "loopback" in failed["error"].lower()


def test_a_registry_file_has_no_job_queue(tmp_path):
    with pytest.raises(JobsUnavailableError, match="PostgreSQL"):
        enqueue_upload("report.md", DOC, str(tmp_path / "reg.json"))
