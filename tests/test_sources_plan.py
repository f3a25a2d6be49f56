"""The sync planner, pure: a listing and what the library holds in, steps out; and the
pieces beside it that decide without touching anything (patterns, keys, the debounce)."""

from __future__ import annotations

import pytest

from treerag_core.store.originals import synced_key
from treerag_core.sync.patterns import wanted
from treerag_core.sync.plan import (
    DELETE,
    INDEX,
    REINDEX,
    REPOINT,
    UNCHANGED,
    Held,
    Listed,
    fingerprints_needed,
    held_from_rows,
    plan_sync,
)
from treerag_core.sync.s3 import unsafe_key
from treerag_core.sync.watch import Debounce


def actions(plan) -> dict[str, str]:  # noqa: ANN001
    return {step.path: step.action for step in plan.steps}


def test_new_files_are_indexed_and_known_unchanged_ones_are_not_read() -> None:
    held = [Held("d1", "a.pdf", "h-a", 10, 100)]
    listing = [Listed("a.pdf", 10, 100), Listed("b.pdf", 20, 200)]
    assert fingerprints_needed(listing, held) == []  # nothing vanished: nothing to hash
    plan = plan_sync(listing, held)
    assert actions(plan) == {"a.pdf": UNCHANGED, "b.pdf": INDEX}
    assert plan.counts() == {INDEX: 1, REINDEX: 0, REPOINT: 0, DELETE: 0, UNCHANGED: 1}


def test_a_size_or_time_change_is_reindexed_keeping_the_document() -> None:
    held = [Held("d1", "a.pdf", "h-a", 10, 100), Held("d2", "b.pdf", "h-b", 20, 200)]
    plan = plan_sync([Listed("a.pdf", 11, 100), Listed("b.pdf", 20, 201)], held)
    assert actions(plan) == {"a.pdf": REINDEX, "b.pdf": REINDEX}
    assert {s.doc_id for s in plan.steps} == {"d1", "d2"}


def test_a_renamed_file_is_hashed_then_repointed_not_reindexed() -> None:
    held = [Held("d1", "old/a.pdf", "h-a", 10, 100), Held("d2", "b.pdf", "h-b", 20, 200)]
    listing = [Listed("new/a.pdf", 10, 999), Listed("b.pdf", 20, 200), Listed("c.pdf", 30, 1)]
    # Only the new file of the vanished file's size is hashed (c.pdf cannot be a.pdf moved).
    assert fingerprints_needed(listing, held) == ["new/a.pdf"]
    plan = plan_sync(listing, held, {"new/a.pdf": "h-a"})
    assert actions(plan) == {"new/a.pdf": REPOINT, "b.pdf": UNCHANGED, "c.pdf": INDEX}
    step = next(s for s in plan.steps if s.action == REPOINT)
    assert (step.doc_id, step.previous_path) == ("d1", "old/a.pdf")


def test_a_renamed_and_edited_file_is_a_new_document_and_the_old_one_goes() -> None:
    held = [Held("d1", "a.pdf", "h-a", 10, 100)]
    plan = plan_sync([Listed("b.pdf", 10, 5)], held, {"b.pdf": "h-other"})
    assert actions(plan) == {"b.pdf": INDEX, "a.pdf": DELETE}


def test_a_copy_and_its_original_moved_repoints_one_and_indexes_the_other() -> None:
    held = [Held("d1", "a.pdf", "h-a", 10, 100)]
    listing = [Listed("x/a.pdf", 10, 1), Listed("y/a.pdf", 10, 2)]
    plan = plan_sync(listing, held, dict.fromkeys(["x/a.pdf", "y/a.pdf"], "h-a"))
    assert sorted(actions(plan).values()) == [INDEX, REPOINT]


def test_deleted_files_are_deleted_unless_the_listing_was_cut() -> None:
    held = [Held("d1", "a.pdf", "h-a", 10, 100), Held("d2", "b.pdf", "h-b", 20, 200)]
    assert actions(plan_sync([Listed("a.pdf", 10, 100)], held)) == {
        "a.pdf": UNCHANGED,
        "b.pdf": DELETE,
    }
    cut = plan_sync([Listed("a.pdf", 10, 100)], held, complete=False)
    assert actions(cut) == {"a.pdf": UNCHANGED}  # b.pdf may be past the cut: kept


def test_bucket_objects_compare_by_etag_without_any_read() -> None:
    held = [Held("d1", "a.pdf", "etag:1"), Held("d2", "b.pdf", "etag:2")]
    listing = [Listed("a.pdf", 10, etag="1"), Listed("moved/b.pdf", 20, etag="2"),
               Listed("c.pdf", 5, etag="9")]  # fmt: skip
    assert fingerprints_needed(listing, held) == []
    assert actions(plan_sync(listing, held)) == {
        "a.pdf": UNCHANGED, "moved/b.pdf": REPOINT, "c.pdf": INDEX,
    }  # fmt: skip
    assert actions(plan_sync([Listed("a.pdf", 10, etag="1b")], held[:1])) == {"a.pdf": REINDEX}


def test_two_documents_claiming_one_path_leave_one() -> None:
    held = [Held("d1", "a.pdf", "h", 10, 1), Held("d2", "a.pdf", "h", 10, 1)]
    plan = plan_sync([Listed("a.pdf", 10, 1)], held)
    assert [(s.action, s.doc_id) for s in plan.steps] == [(UNCHANGED, "d1"), (DELETE, "d2")]


def test_the_todo_runs_cheap_steps_first() -> None:
    held = [Held("d1", "a.pdf", "h-a", 10, 100), Held("d2", "gone.pdf", "h-g", 7, 7)]
    plan = plan_sync([Listed("new.pdf", 1, 1), Listed("b.pdf", 10, 9)], held, {"b.pdf": "h-a"})
    assert [s.action for s in plan.todo()] == [REPOINT, DELETE, INDEX]


def test_held_rows_come_from_the_documents_origins() -> None:
    rows = [
        {"doc_id": "d1", "origin": {"source_id": "s", "path": "a.md", "fingerprint": "h",
                                    "size": 3, "mtime_ns": 4}},
        {"doc_id": "d2"},  # an upload, not synced
    ]  # fmt: skip
    assert held_from_rows(rows) == [Held("d1", "a.md", "h", 3, 4)]


@pytest.mark.parametrize(
    ("path", "include", "exclude", "expected"),
    [
        ("a/b/report.pdf", [], [], True),
        ("a/b/REPORT.PDF", ["*.pdf"], [], True),
        ("notes.txt", ["*.pdf"], [], False),
        ("archive/old.pdf", [], ["archive/*"], False),
        ("policies/leave.md", ["policies/*.md"], [], True),
        ("data.numbers", [], [], False),  # not a format treerag reads
        ("~$draft.docx", [], [], False),  # an office lock file
        (".hidden.md", [], [], False),
    ],
)
def test_which_files_a_source_syncs(
    path: str, include: list, exclude: list, expected: bool
) -> None:
    assert wanted(path, include, exclude) is expected


def test_a_key_naming_a_parent_or_the_root_is_unsafe_and_never_a_folder_of_the_store() -> None:
    for key in ("../evil.md", "a/../../evil.md", "/etc/passwd.md", "a//b.md", "a\\..\\b.md"):
        assert unsafe_key(key), key
    assert not unsafe_key("policies/2024/leave.md")
    kept = synced_key("src-1", "../../etc/passwd.md")
    assert kept.startswith("__synced/src-1/") and ".." not in kept.split("/")
    assert synced_key("src-1", "a b?.md") != synced_key("src-1", "a b_.md")  # no clash


def test_the_debounce_fires_once_after_the_events_stop() -> None:
    debounce = Debounce(quiet_s=2.0)
    assert not debounce.due(0.0)
    debounce.event(1.0)
    debounce.event(2.5)  # a burst: the deadline moves
    assert not debounce.due(4.0)
    assert debounce.due(4.5)
    assert not debounce.due(10.0)  # once per burst
