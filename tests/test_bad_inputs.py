"""Hostile and broken files: a typed error with a human message (or a correct index when the
file is merely unusual), in bounded time, and the registry exactly as it was."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fixtures.bad.make_corpus import make_corpus

from testkit.pg_server import query
from treerag_core import (
    DocumentReadError,
    DocumentTooLargeError,
    EmptyDocumentError,
    TreeragError,
    UnsupportedFormatError,
    index_document,
)
from treerag_core.library.indexing import index_upload
from treerag_core.store import open_store

ROOT = Path(__file__).resolve().parents[1]
OK = None  # indexes correctly
EITHER = "either"  # an unusual file: a correct index or a TreeragError are both fine

EXPECTED = {
    "zero.pdf": EmptyDocumentError,
    "truncated.pdf": DocumentReadError,
    "random.pdf": DocumentReadError,
    "password.pdf": DocumentReadError,
    "cyclic_outline.pdf": EITHER,
    "huge_outline.pdf": EITHER,
    "bomb.docx": DocumentTooLargeError,
    "not_a_zip.docx": DocumentReadError,
    "hostile.html": OK,
    "latin1.txt": OK,
    "utf16.txt": OK,
    "nul_bytes.txt": OK,
    "many_headings.md": DocumentTooLargeError,
    "empty.md": EmptyDocumentError,
    "whitespace.txt": EmptyDocumentError,
    "unsupported.numbers": UnsupportedFormatError,
    "bomb.xlsx": DocumentTooLargeError,
    "truncated.pptx": DocumentReadError,
    "encrypted.xlsx": DocumentReadError,
    "million_rows.csv": OK,  # bounded: the first rows, and a section saying what was cut
    "../../escape $(touch pwned); `id` 'q'.md": OK,
    "big_50mb.txt": DocumentTooLargeError,
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return make_corpus(tmp_path_factory.mktemp("bad"))


@pytest.fixture
def registry(tmp_path, any_registry):
    """A registry (file or database) holding one document, and a snapshot of all of it."""
    reg = any_registry.url
    source = tmp_path / "keep.md"
    source.write_text("# Keep\nThis must survive.\n")
    index_document(str(source), registry_path=reg, verbose=False)

    def snapshot():
        if not any_registry.is_file:
            tables = ("documents", "collections", "cache_entries", "jobs")
            rows = {t: query(reg, f"SELECT * FROM {t} ORDER BY 1") for t in tables}
            rows["sources"] = query(reg, "SELECT location, data FROM sources ORDER BY 1")
            return rows
        uploads = tmp_path / "reg.uploads"
        files = [Path(reg), *sorted((tmp_path / "reg.docs").iterdir())]
        files += sorted(p for p in uploads.rglob("*") if p.is_file()) if uploads.exists() else []
        return {str(p.relative_to(tmp_path)): p.read_bytes() for p in files}

    return reg, snapshot


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", ["truncated.pdf", "bomb.docx", "empty.md", "unsupported.numbers"])
def test_bad_upload_keeps_the_stored_document_and_its_source(name, corpus, registry):
    """A good upload, then a broken one under the same name: the first file and its index
    stay, in the file store's folder and in the database's sources table alike."""
    reg, snapshot = registry
    upload_name = "report" + Path(name).suffix
    good = index_upload("report.md", b"# Report\nThe good version.\n", registry_path=reg)
    before = snapshot()
    with pytest.raises(TreeragError):
        index_upload(upload_name, corpus[name].read_bytes(), registry_path=reg)
    with pytest.raises(TreeragError):  # the same name as the good one: its bytes come back
        index_upload("report.md", corpus["empty.md"].read_bytes(), registry_path=reg)
    assert snapshot() == before
    assert open_store(reg).sources.read(good["file_path"]) == b"# Report\nThe good version.\n"


def _all_text(doc) -> str:
    return "\n".join(n["title"] + "\n" + n["text"] for n in doc["flat_nodes"].values())


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", list(EXPECTED))
def test_bad_input(name, corpus, registry):
    reg, snapshot = registry
    before = snapshot()
    expected = EXPECTED[name]
    try:
        doc = index_document(str(corpus[name]), registry_path=reg, verbose=False)
    except TreeragError as exc:
        assert expected is not OK, f"{name}: unexpected {type(exc).__name__}: {exc}"
        if expected is not EITHER:
            assert isinstance(exc, expected), f"{name}: {type(exc).__name__}: {exc}"
        message = str(exc)
        assert 10 < len(message) < 400 and "Traceback" not in message
        assert snapshot() == before, "a failed index must leave the registry untouched"
        return
    assert expected in (OK, EITHER), f"{name} should have failed with {expected.__name__}"
    text = _all_text(doc)
    assert "\x00" not in text
    if name == "hostile.html":
        titles = [n["title"] for n in doc["flat_nodes"].values()]
        assert "Real Title" in titles and "Second" in titles
        for bad in ("alert", "steal()", "evil()", "Injected", "javascript:", "Footer junk"):
            assert bad not in text
    if name == "million_rows.csv":
        titles = [n["title"] for n in doc["flat_nodes"].values()]
        assert titles[-1] == "million_rows: rows not read" and "Item Item 99998:" in text
    if name == "latin1.txt":
        assert "Café crème à Zürich, naïve façade." in text
    if name == "utf16.txt":
        assert "Grüße aus Köln" in text
    if name.startswith("../"):
        assert doc["file_name"] == os.path.basename(corpus[name])
        assert not (Path.cwd() / "pwned").exists()


def test_huge_inputs_stay_within_bounded_memory(corpus):
    """Zip bomb, 50 MB text and 100,000 headings in a fresh process: peak RSS stays bounded."""
    script = (
        "import sys, resource\n"
        "from treerag_core import index_document, TreeragError\n"
        "for path in sys.argv[1:]:\n"
        "    try:\n"
        "        index_document(path, persist=False, verbose=False)\n"
        "    except TreeragError:\n"
        "        pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    names = ["bomb.docx", "big_50mb.txt", "many_headings.md", "huge_outline.pdf"]
    proc = subprocess.run(
        [sys.executable, "-c", script, *[str(corpus[n]) for n in names]],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,  # where ``python -c`` finds the package
    )
    assert proc.returncode == 0, proc.stderr
    peak_mb = int(proc.stdout.strip()) / 1024
    assert peak_mb < 800, f"peak RSS {peak_mb:.0f} MB"
