"""Upload & index page (AppTest): results, re-upload, refusals, and helper functions."""

from __future__ import annotations

from pathlib import Path

from conftest import SAMPLE_MD, texts

from treerag_core import list_documents
from treerag_core.store.originals import SourceFolder, safe_file_name


def _upload(at, *files):  # noqa: ANN001, ANN202
    at.file_uploader[0].set_value(list(files))
    at.run()
    next(b for b in at.button if b.label == "Index").click().run()
    return at


def test_upload_two_files_shows_result_cards(make_app, app_registry: Path) -> None:
    at = make_app("pages/upload.py")
    _upload(
        at,
        ("a.md", SAMPLE_MD.encode(), "text/markdown"),
        ("notes.txt", b"Just one paragraph of notes about Paris.", "text/plain"),
    )
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Sections"] in ("4", "1")
    assert {m.label for m in at.metric} >= {"Sections", "Pages", "LLM calls", "Tokens", "Seconds"}
    assert "Summaries reused" in {m.label for m in at.metric}
    names = sorted(r["file_name"] for r in list_documents(str(app_registry)))
    assert names == ["a.md", "notes.txt"]
    stored = app_registry.parent / "indexed_docs.uploads" / "a.md" / "a.md"
    assert stored.read_text() == SAMPLE_MD


def test_same_name_new_content_reindexes_same_document(make_app, app_registry: Path) -> None:
    at = make_app("pages/upload.py")
    _upload(at, ("a.md", SAMPLE_MD.encode(), "text/markdown"))
    first = list_documents(str(app_registry))
    changed = SAMPLE_MD + "\n# Appendix\nA new closing section.\n"
    _upload(at, ("a.md", changed.encode(), "text/markdown"))
    second = list_documents(str(app_registry))
    assert len(first) == len(second) == 1
    assert first[0]["doc_id"] == second[0]["doc_id"]
    assert second[0]["total_sections"] == 5
    reused = next(m.value for m in at.metric if m.label == "Summaries reused")
    assert reused == "4"


def test_unchanged_upload_keeps_stored_index(make_app, app_registry: Path) -> None:
    at = make_app("pages/upload.py")
    _upload(at, ("a.md", SAMPLE_MD.encode(), "text/markdown"))
    _upload(at, ("a.md", SAMPLE_MD.encode(), "text/markdown"))
    assert "Unchanged since it was last indexed" in texts(at)


def test_separate_copy_makes_a_second_document(make_app, app_registry: Path) -> None:
    at = make_app("pages/upload.py")
    _upload(at, ("a.md", SAMPLE_MD.encode(), "text/markdown"))
    at.checkbox(key="upload_separate").check().run()
    _upload(at, ("a.md", b"# Other\nA different file with the same name.", "text/markdown"))
    assert len(list_documents(str(app_registry))) == 2


def test_oversized_upload_is_refused(make_app, app_registry: Path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("TREERAG_MAX_FILE_BYTES", "100")
    at = make_app("pages/upload.py")
    _upload(at, ("big.md", b"# Big\n" + b"x" * 500, "text/markdown"))
    assert not at.exception
    assert any("over the upload limit" in e.value for e in at.error)
    assert list_documents(str(app_registry)) == []


def test_failed_reindex_keeps_previous_file_and_index(make_app, app_registry: Path) -> None:
    at = make_app("pages/upload.py")
    _upload(at, ("a.md", SAMPLE_MD.encode(), "text/markdown"))
    _upload(at, ("a.md", b"   \n", "text/markdown"))
    assert not at.exception
    assert [e.value for e in at.error] == ["a.md is empty: there is nothing to index."]
    docs = list_documents(str(app_registry))
    assert len(docs) == 1 and docs[0]["total_sections"] == 4
    stored = app_registry.parent / "indexed_docs.uploads" / "a.md" / "a.md"
    assert stored.read_text() == SAMPLE_MD


def test_blocked_url_shows_message(make_app, app_registry: Path) -> None:
    at = make_app("pages/upload.py")
    at.text_input(key="upload_url").input("http://127.0.0.1:9/secret").run()
    next(b for b in at.button if b.label == "Index").click().run()
    assert not at.exception
    [shown] = [e.value for e in at.error]
    assert shown.startswith("Refusing to fetch '127.0.0.1': 127.0.0.1 is a loopback address.")
    assert list_documents(str(app_registry)) == []


def test_custom_prompt_field_appears(make_app) -> None:
    at = make_app("pages/upload.py")
    at.selectbox(key="upload_preset").select("Custom").run()
    assert at.text_area(key="upload_custom")
    assert [o for o in at.selectbox(key="upload_preset").options] == [
        "General", "Legal", "Historical", "Medical", "Financial", "Custom",
    ]  # fmt: skip


def test_safe_file_name() -> None:
    assert safe_file_name("../../etc/passwd") == "passwd"
    assert safe_file_name("a;rm -rf $HOME`.pdf") == "a_rm -rf _HOME.pdf"
    assert safe_file_name("..\\..\\x.PDF") == "x.pdf"
    assert safe_file_name(".hidden") == "hidden"
    assert safe_file_name("Résumé 2024 (final).docx") == "Résumé 2024 (final).docx"
    assert safe_file_name("") == "upload"
    assert safe_file_name("-rf.txt") == "rf.txt"


def test_upload_path_decision(tmp_path: Path) -> None:
    sources = SourceFolder(str(tmp_path))
    one = sources.location_for("r.pdf", b"1")
    assert one == sources.location_for("r.pdf", b"2")  # same name = same document
    assert sources.location_for("r.pdf", b"1", separate=True) != sources.location_for(
        "r.pdf", b"2", separate=True
    )
    assert Path(one).name == "r.pdf" and Path(one).parent.parent == tmp_path
