"""A real folder followed by the library, against the registry file and PostgreSQL: files
created, changed, renamed, deleted, one that fails to index; a sync killed with SIGKILL
and run again; two syncs at once; symbolic links out of the folder; the limits; the rules."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import ROOT, RegistryUnderTest

from testkit.builders import make_pdf
from testkit.sources_helpers import GatedSummarizer, folder_hashes, synced_docs
from treerag_core import AccessDeniedError, get_document_by_id, list_documents, make_summarizer
from treerag_core.access.audit import read_audit_log
from treerag_core.access.principal import Principal
from treerag_core.errors import InvalidSourceError, SyncBusyError
from treerag_core.limits import Limits
from treerag_core.store import open_store
from treerag_core.sync.folder import FolderSource
from treerag_core.sync.run import sync_source
from treerag_core.sync.sources import add_source, edit_source, list_sources, remove_source

ADMIN = Principal("root@example.com", admin=True)
ANA = Principal("ana@example.com", groups=frozenset({"hr"}))


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def policy(title: str, *sections: str) -> str:
    return f"# {title}\n\n" + "\n\n".join(
        f"## {s}\nThe {s.lower()} rule of the {title.lower()} applies to every team member."
        for s in sections
    )


@pytest.fixture
def share(tmp_path: Path) -> Path:
    folder = tmp_path / "share"
    write(folder, "leave.md", policy("Leave policy", "Parental leave", "Sick leave"))
    write(folder, "travel/trips.md", policy("Travel policy", "Hotels", "Trains"))
    write(folder, "handbook.txt", "OFFICE HANDBOOK\n\nThe guest wifi password is tangerine-42.\n")
    (folder / "broken.pdf").write_bytes(b"this is not a PDF at all")
    return folder


def test_a_folder_is_followed_through_create_change_rename_delete(
    any_registry: RegistryUnderTest, share: Path
) -> None:
    reg = any_registry.url
    summarizer = make_summarizer(None)
    source = add_source("folder", str(share), "team", registry_path=reg)
    sid = source["source_id"]

    first = sync_source(sid, reg, summarizer=summarizer)
    assert first["counts"]["added"] == 3 and first["counts"]["failed"] == 1
    assert "broken.pdf" in first["errors"] and "PDF" in first["errors"]["broken.pdf"]
    held = synced_docs(reg, sid)
    assert set(held) == {"leave.md", "travel/trips.md", "handbook.txt"}
    assert {d["collection"] for d in held.values()} == {"team"}

    again = sync_source(sid, reg, summarizer=summarizer)
    assert again["counts"]["unchanged"] == 3 and again["counts"]["added"] == 0
    assert again["bytes_read"] == len(b"this is not a PDF at all")  # only the failed file

    write(share, "leave.md", policy("Leave policy", "Parental leave", "Sick leave", "Holidays"))
    os.rename(share / "travel" / "trips.md", share / "trips-2024.md")
    (share / "handbook.txt").unlink()
    make_pdf(share / "broken.pdf", ["Budget 2024\n\nThe budget is 40,000 euros."])
    later = sync_source(sid, reg, summarizer=summarizer)
    counts = later["counts"]
    assert (counts["updated"], counts["moved"], counts["removed"], counts["added"]) == (1, 1, 1, 1)
    assert later["errors"] == {}  # the failed file was retried, and now it indexes
    now = synced_docs(reg, sid)
    assert set(now) == {"leave.md", "trips-2024.md", "broken.pdf"}
    assert now["leave.md"]["doc_id"] == held["leave.md"]["doc_id"]  # re-indexed in place
    assert now["trips-2024.md"]["doc_id"] == held["travel/trips.md"]["doc_id"]  # re-pointed
    assert now["trips-2024.md"]["file_name"] == "trips-2024.md"
    leave = get_document_by_id(now["leave.md"]["doc_id"], reg)
    # the unchanged sections' summaries; the policy's own names its parts, one more now
    assert leave["stats"]["summaries_reused"] == 2
    state = list_sources(reg)[0]["state"]
    assert state["last_sync"]["counts"] == counts and state["errors"] == {}
    assert {h: p for p, h in folder_hashes(share).items()} == {
        d["content_hash"]: p for p, d in now.items()
    }


def test_a_renamed_file_is_not_read_again_beyond_its_hash(
    any_registry: RegistryUnderTest, share: Path
) -> None:
    reg = any_registry.url
    sid = add_source("folder", str(share), include="*.md", registry_path=reg)["source_id"]
    sync_source(sid, reg)
    os.rename(share / "leave.md", share / "leave-renamed.md")
    report = sync_source(sid, reg)
    assert report["counts"]["moved"] == 1 and report["counts"]["added"] == 0
    assert report["bytes_read"] == (share / "leave-renamed.md").stat().st_size


KILLER = """
import os, signal, sys
from treerag_core import sync_source
from treerag_core.summarize.summarizers import make_summarizer
offline, calls = make_summarizer(None), [0]
def dying(nodes, progress=None):
    calls[0] += 1
    if calls[0] == int(sys.argv[3]):
        os.kill(os.getpid(), signal.SIGKILL)  # mid-file: its copy kept, the document not
    return offline(nodes, progress=progress)
dying.signature = offline.signature
sync_source(sys.argv[2], sys.argv[1], summarizer=dying)
"""


def test_a_sync_killed_half_way_and_run_again_ends_in_the_same_library(
    any_registry: RegistryUnderTest, share: Path, tmp_path: Path
) -> None:
    for i in range(6):
        write(share, f"notes/note-{i}.md", policy(f"Note {i}", "Scope", "Rules"))
    reg = any_registry.url
    sid = add_source("folder", str(share), registry_path=reg)["source_id"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", KILLER, reg, sid, "4"], env=env, timeout=300)
    assert done.returncode == -signal.SIGKILL
    partial = synced_docs(reg, sid)
    assert 0 < len(partial) < 9  # killed half-way
    assert list_sources(reg)[0]["running"] is False  # the kernel freed its lock

    resumed = sync_source(sid, reg, summarizer=make_summarizer(None))
    assert resumed["counts"]["added"] == 9 - len(partial)
    whole = tmp_path / "uninterrupted.json"
    other = add_source("folder", str(share), registry_path=str(whole))["source_id"]
    sync_source(other, str(whole), summarizer=make_summarizer(None))

    def shape(docs: dict) -> dict:
        return {path: (d["content_hash"], d["file_name"]) for path, d in docs.items()}

    assert shape(synced_docs(reg, sid)) == shape(synced_docs(str(whole), other))
    assert len(list_documents(reg)) == 9  # nothing twice, nothing left over


def test_two_syncs_of_one_source_at_once_never_index_a_file_twice(
    any_registry: RegistryUnderTest, share: Path
) -> None:
    reg = any_registry.url
    sid = add_source("folder", str(share), registry_path=reg)["source_id"]
    gate = GatedSummarizer()
    errors: list[BaseException] = []

    def first() -> None:
        try:
            sync_source(sid, reg, summarizer=gate)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    thread = threading.Thread(target=first)
    thread.start()
    assert gate.entered.wait(60)
    assert list_sources(reg)[0]["running"] is True
    with pytest.raises(SyncBusyError, match="already running"):
        sync_source(sid, reg, summarizer=make_summarizer(None))
    gate.release.set()
    thread.join(120)
    assert not errors
    indexed = [e for e in read_audit_log(reg) if e["action"] == "index" and e["outcome"] == "ok"]
    assert sorted(e["document"] for e in indexed) == ["handbook.txt", "leave.md", "trips.md"]


def test_links_out_of_the_folder_and_dotdot_are_never_followed(
    any_registry: RegistryUnderTest, share: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    write(outside, "secret.md", "# Secret\nThe root password is hunter2.\n")
    os.symlink(outside / "secret.md", share / "secret-link.md")
    os.symlink(outside, share / "outside-dir")
    os.symlink(share / "leave.md", share / "leave-link.md")  # inside: read at its target
    os.symlink(share / "travel", share / "travel-again")  # a folder link: never entered
    reg = any_registry.url
    sid = add_source("folder", str(share), registry_path=reg)["source_id"]
    report = sync_source(sid, reg)
    assert "out of the folder" in report["skipped"]["secret-link.md"]
    held = synced_docs(reg, sid)
    assert "leave-link.md" in held and not any("secret" in p or "again" in p for p in held)
    assert all("hunter2" not in str(get_document_by_id(d["doc_id"], reg)) for d in held.values())

    reader = FolderSource({"path": str(share)}, Limits())
    for path in ("../outside/secret.md", "outside-dir/secret.md", "/etc/passwd", "a/../../x.md"):
        with pytest.raises((InvalidSourceError, OSError)):
            reader.read(path)
    # A folder swapped for a link between the listing and the read: the open refuses it.
    os.rename(share / "travel", tmp_path / "moved-away")
    os.symlink(outside, share / "travel")
    with pytest.raises((InvalidSourceError, OSError)):
        reader.read("travel/secret.md")


def test_limits_on_files_depth_and_size(any_registry: RegistryUnderTest, share: Path) -> None:
    write(share, "a/b/c/deep.md", "# Deep\nA deep file.\n")
    write(share, "big.md", "# Big\n" + "A long line of text.\n" * 500)
    reg = any_registry.url
    sid = add_source("folder", str(share), registry_path=reg)["source_id"]
    limits = replace(Limits(), sync_max_depth=2, max_file_bytes=2_000)
    report = sync_source(sid, reg, limits=limits)
    assert "deeper than 2" in report["skipped"]["a/b/c"]
    assert "over the upload limit" in report["errors"]["big.md"]
    assert report["bytes_read"] < 2_000 * 4  # the big file was refused before it was read
    cut = sync_source(sid, reg, limits=replace(limits, sync_max_files=1))
    assert cut["complete"] is False and cut["counts"]["removed"] == 0  # nothing deleted


def test_only_admins_manage_sources_and_each_change_is_audited(
    any_registry: RegistryUnderTest, share: Path
) -> None:
    reg = any_registry.url
    with pytest.raises(AccessDeniedError, match="Only admins may manage synced"):
        add_source("folder", str(share), registry_path=reg, principal=ANA)
    sid = add_source("folder", str(share), "hr", registry_path=reg, principal=ADMIN)["source_id"]
    for call in (
        lambda: list_sources(reg, ANA),
        lambda: sync_source(sid, reg, ANA),
        lambda: remove_source(sid, registry_path=reg, principal=ANA),
        lambda: edit_source(sid, collection="eng", registry_path=reg, principal=ANA),
    ):
        with pytest.raises(AccessDeniedError):
            call()
    sync_source(sid, reg, ADMIN)
    actions = [(e["action"], e["outcome"]) for e in read_audit_log(reg)]
    assert ("source-add", "denied") in actions and ("source-add", "ok") in actions
    assert ("sync", "ok") in actions and ("sync", "denied") in actions
    assert sum(1 for a in actions if a == ("index", "ok")) == 3


def test_editing_the_collection_moves_the_documents_and_removing_keeps_or_deletes(
    any_registry: RegistryUnderTest, share: Path
) -> None:
    reg = any_registry.url
    sid = add_source("folder", str(share), "hr", registry_path=reg)["source_id"]
    sync_source(sid, reg)
    edit_source(sid, collection="people", include="*.md", registry_path=reg)
    assert {d["collection"] for d in synced_docs(reg, sid).values()} == {"people"}
    assert sync_source(sid, reg)["counts"]["removed"] == 1  # handbook.txt no longer included
    copies = [row["file_path"] for row in list_documents(reg)]
    assert remove_source(sid, keep_documents=True, registry_path=reg) == {"removed": 0, "kept": 2}
    assert len(list_documents(reg)) == 2 and list_sources(reg) == []
    sid = add_source("folder", str(share), registry_path=reg)["source_id"]
    sync_source(sid, reg)
    done = remove_source(sid, registry_path=reg)
    assert done["removed"] == 3 and len(list_documents(reg)) == 2
    store = open_store(reg)
    assert all(store.sources.read(location) for location in copies)  # kept ones still there


def test_bad_sources_are_refused_with_a_message(tmp_path: Path, share: Path) -> None:
    reg = str(tmp_path / "reg.json")
    with pytest.raises(InvalidSourceError, match="is not a folder"):
        add_source("folder", str(tmp_path / "nowhere"), registry_path=reg)
    with pytest.raises(InvalidSourceError, match="folder or an s3 bucket"):
        add_source("ftp", "ftp://x", registry_path=reg)
    with pytest.raises(InvalidSourceError, match="inside"):
        add_source("folder", str(tmp_path), registry_path=reg)  # holds the registry itself
    with pytest.raises(InvalidSourceError, match="not both"):
        add_source("s3", "s3://b/p", credentials_env="X", credentials_file="/y", registry_path=reg)
    assert list_sources(reg) == []


def test_a_migrated_registry_keeps_following_its_folder(
    share: Path, tmp_path: Path, pg_url: str
) -> None:
    from treerag_core.library.migrate import migrate_registry

    reg = str(tmp_path / "reg.json")
    sid = add_source("folder", str(share), "team", registry_path=reg)["source_id"]
    sync_source(sid, reg)
    counts = migrate_registry(reg, pg_url)
    assert counts["synced_sources"] == 1 and counts["documents"] == 3
    report = sync_source(sid, pg_url)
    assert report["counts"]["unchanged"] == 3 and report["counts"]["added"] == 0
    assert set(synced_docs(pg_url, sid)) == set(synced_docs(reg, sid))


def test_a_synced_document_reindexed_by_hand_stays_the_sources(
    any_registry: RegistryUnderTest, share: Path
) -> None:
    from treerag_core.library.indexing import index_upload

    reg = any_registry.url
    sid = add_source("folder", str(share), include="*.md", registry_path=reg)["source_id"]
    sync_source(sid, reg)
    row = next(r for r in list_documents(reg) if r["file_name"] == "leave.md")
    data = open_store(reg).sources.read(row["file_path"])
    again = index_upload("leave.md", data, registry_path=reg, overwrite=True,
                         location=row["file_path"])  # fmt: skip
    assert again["doc_id"] == row["doc_id"] and again["origin"] == row["origin"]
    assert sync_source(sid, reg)["counts"]["unchanged"] == 2
