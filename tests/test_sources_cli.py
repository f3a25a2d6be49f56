"""Synced sources from the command line, a watched folder, and a sync shared by the
indexing workers (PostgreSQL): files queued once, run by several workers, periodic syncs."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from browser_helpers import until
from conftest import ROOT

from testkit.sources_helpers import folder_hashes, synced_docs
from treerag_core import list_documents, make_summarizer
from treerag_core.cli.main import main
from treerag_core.store import open_store
from treerag_core.sync.queue import queue_sync
from treerag_core.sync.sources import add_source, list_sources
from treerag_core.sync.watch import watch_folders
from treerag_core.worker import Worker


def cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "treerag_core", *args], env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def test_source_add_list_sync_remove_from_the_command_line(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    share = tmp_path / "share"
    (share / "sub").mkdir(parents=True)
    (share / "a.md").write_text("# Alpha\nThe alpha rule is ten days.\n")
    (share / "sub" / "b.pdf").write_bytes(b"%PDF-1.4 broken")
    (share / "c.txt").write_text("not included\n")
    reg = str(tmp_path / "reg.json")
    added = cli("--registry", reg, "source", "add", "folder", str(share), "--collection", "ops",
                "--include", "*.md", "--include", "*.pdf")  # fmt: skip
    assert added.returncode == 0, added.stderr
    source_id = added.stdout.split()[0]
    synced = cli("--registry", reg, "sync", "--no-summaries")
    assert synced.returncode == 0, synced.stderr
    out = synced.stdout
    assert f"{source_id}: 1 added, 1 failed" in out and "failed sub/b.pdf" in out
    assert synced.stderr == ""  # pypdf's own log ("EOF marker not found") is not printed
    assert main(["--registry", reg, "source", "list"]) == 0
    listed = capsys.readouterr().out
    assert "[ops]  *.md, *.pdf  last sync: 20" in listed and "failed sub/b.pdf" in listed
    assert main(["--registry", reg, "sync", source_id]) == 0
    assert "1 unchanged, 1 failed" in capsys.readouterr().out
    assert main(["--registry", reg, "source", "remove", source_id, "--keep-documents"]) == 0
    assert "0 documents deleted, 1 kept" in capsys.readouterr().out
    assert main(["--registry", reg, "sync", "src-nope"]) == 2


def test_a_watched_folder_is_synced_after_its_changes_settle(tmp_path: Path) -> None:
    share = tmp_path / "share"
    share.mkdir()
    (share / "first.md").write_text("# First\nThe first note.\n")
    reg = str(tmp_path / "reg.json")
    source = add_source("folder", str(share), registry_path=reg)
    watcher = subprocess.Popen(
        [sys.executable, "-m", "treerag_core", "--registry", reg, "sync", "--watch",
         "--quiet", "0.3", "--no-summaries"],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        until(lambda: len(list_documents(reg)) == 1, "the first sync")
        until(lambda: "Watching 1 folder" in (watcher.stdout.readline() or ""), "the watch")
        (share / "second.md").write_text("# Second\nThe second note.\n")
        (share / "draft.numbers").write_text("not a document")  # no event worth a sync
        until(lambda: len(list_documents(reg)) == 2, "the new file synced")
        (share / "first.md").rename(share / "renamed.md")
        until(lambda: "renamed.md" in synced_docs(reg), "the rename followed")
    finally:
        watcher.terminate()
        watcher.wait(timeout=30)
    assert set(synced_docs(reg, source["source_id"])) == {"renamed.md", "second.md"}


def test_the_watch_loop_calls_back_once_per_burst(tmp_path: Path) -> None:
    share = tmp_path / "share"
    share.mkdir()
    calls: list[str] = []
    stop = threading.Event()
    folders = {"src-1": {"path": str(share), "include": ["*.md"], "exclude": []}}
    ready = threading.Event()
    thread = threading.Thread(
        target=watch_folders, args=(folders, calls.append, stop, 1.0, ready.set)
    )
    thread.start()
    try:
        until(ready.is_set, "the folder watched")
        for i in range(20):
            (share / f"n{i}.md").write_text("x")
        until(lambda: calls, "a sync after the burst")
        (share / "ignored.bin").write_text("x")
        (share / "last.md").write_text("y")
        until(lambda: len(calls) == 2, "a second sync")
    finally:
        stop.set()
        thread.join(30)
    assert calls == ["src-1", "src-1"]


def test_a_sync_on_workers_queues_each_file_once_and_they_share_them(
    pg_url: str, tmp_path: Path
) -> None:
    share = tmp_path / "share"
    share.mkdir()
    for i in range(6):
        (share / f"doc-{i}.md").write_text(f"# Document {i}\n\n## Body\nFigure {i * 7} here.\n")
    (share / "broken.pdf").write_bytes(b"no pdf")
    store = open_store(pg_url)
    sid = add_source("folder", str(share), "ops", registry_path=store)["source_id"]
    first = queue_sync(sid, store)
    assert first["queued"] == 7
    assert queue_sync(sid, store)["queued"] == 0  # waiting jobs are not queued again
    workers = [Worker(open_store(pg_url), name=f"w{i}", poll_s=0.05,
                      summarizer_for=lambda _p: make_summarizer(None)) for i in range(2)]  # fmt: skip
    threads = [threading.Thread(target=w.run, kwargs={"drain": True}) for w in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    held = synced_docs(store, sid)
    assert {p: d["content_hash"] for p, d in held.items()} == {
        p: h for p, h in folder_hashes(share).items() if p != "broken.pdf"
    }
    jobs = store.jobs.recent(50)
    assert sorted(j["status"] for j in jobs) == ["done"] * 6 + ["failed"]
    assert {j["worker"] for j in jobs if j["status"] == "done"} <= {"w0", "w1"}
    state = list_sources(store)[0]["state"]
    assert list(state["errors"]) == ["broken.pdf"]  # recorded by the worker that failed it

    (share / "doc-0.md").unlink()
    (share / "doc-1.md").rename(share / "moved.md")
    (share / "broken.pdf").unlink()
    periodic = Worker(store, name="w-sync", poll_s=0.05, sync_every_s=3600,
                      summarizer_for=lambda _p: make_summarizer(None))  # fmt: skip
    assert periodic.sync_if_due() == 0  # deletes and moves are done at once, nothing queued
    assert set(synced_docs(store, sid)) == {f"doc-{i}.md" for i in range(2, 6)} | {"moved.md"}
    assert periodic.sync_if_due() == 0  # not due again for an hour
