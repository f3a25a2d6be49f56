"""The redesign's seams: a store object instead of a path, the format table, the structure
strategies in order, rich PDF pages, and the opt-in filing profile."""

from __future__ import annotations

import copy
import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fpdf import FPDF

from treerag_core import (
    DocumentNotFoundError,
    DocumentTooLargeError,
    UnsupportedFormatError,
    ask,
    get_document_by_id,
    index_document,
    list_documents,
    make_retriever,
    make_summarizer,
)
from treerag_core.library.indexing import index_upload
from treerag_core.limits import Limits
from treerag_core.read.formats import (
    FORMATS,
    accepted_extensions,
    accepted_mime_types,
    check_upload,
    format_for_name,
)
from treerag_core.read.readers.pdf import read_pdf
from treerag_core.settings import load
from treerag_core.store import open_store
from treerag_core.store.base import DocumentStore
from treerag_core.structure.text_rules import structure_text
from treerag_core.tree.nodes import with_derived_fields
from treerag_core.types import Document


class MemoryStore:
    """A whole second backend in a hundred lines: nothing touches the disk."""

    location = "memory://test"

    def __init__(self) -> None:
        self.docs: dict[str, Document] = {}
        self.caches: dict[str, dict[str, dict[str, Any]]] = {}
        self.sources = MemorySources()
        self.members: dict[str, dict[str, Any]] = {}
        self.audit: list[dict[str, Any]] = []
        self.conversations: dict[tuple[str, str], dict[str, Any]] = {}
        self.questions: dict[str, dict[str, Any]] = {}

    def list(self) -> list[dict[str, Any]]:
        rows = [{k: v for k, v in d.items() if k != "flat_nodes"} for d in self.docs.values()]
        return sorted(rows, key=lambda r: r.get("indexed_at") or "", reverse=True)

    def meta(self, doc_id: str) -> dict[str, Any] | None:
        return next((r for r in self.list() if r["doc_id"] == doc_id), None)

    def get(self, doc_id: str) -> Document:
        if doc_id not in self.docs:
            raise DocumentNotFoundError(doc_id)
        return with_derived_fields(copy.deepcopy(self.docs[doc_id]))

    def find_by_source(self, source: str) -> dict[str, Any] | None:
        return next((r for r in self.list() if r["file_path"] == source), None)

    def save(self, document: Document) -> Document:
        same = self.find_by_source(document["file_path"])
        if same:
            document = {**document, "doc_id": same["doc_id"]}
        self.docs[document["doc_id"]] = copy.deepcopy(document)
        return document

    def delete(self, doc_id: str) -> bool:
        return self.docs.pop(doc_id, None) is not None

    def replace_all(self, documents: dict[str, Document]) -> None:
        self.docs = copy.deepcopy(documents)

    def stored_size(self, doc_id: str) -> int:
        return len(str(self.docs.get(doc_id, "")))

    def cache(self, name: str) -> dict[str, dict[str, Any]]:
        return self.caches.setdefault(name, {})

    def collections(self) -> dict[str, dict[str, Any]]:
        return copy.deepcopy(self.members)

    def set_collection(self, name: str, readers: list[str], editors: list[str]) -> None:
        self.members[name] = {"readers": list(readers), "editors": list(editors)}

    def set_document_collection(self, doc_id: str, collection: str) -> bool:
        if doc_id not in self.docs:
            return False
        self.docs[doc_id]["collection"] = collection
        return True

    def append_audit(self, entry: dict[str, Any]) -> None:
        self.audit.append(dict(entry))

    def audit_log(self) -> list[dict[str, Any]]:
        return list(self.audit)

    def threads(self, owner: str) -> list[dict[str, Any]]:
        rows = [
            {**{k: v for k, v in t.items() if k != "turns"}, "turns": len(t["turns"])}
            for (who, _), t in self.conversations.items()
            if who == owner
        ]
        return sorted(rows, key=lambda r: r["updated_at"], reverse=True)

    def get_thread(self, owner: str, thread_id: str) -> dict[str, Any] | None:
        return copy.deepcopy(self.conversations.get((owner, thread_id)))

    def save_thread(self, thread: dict[str, Any]) -> None:
        self.conversations[thread["owner"], thread["thread_id"]] = copy.deepcopy(thread)

    def update_thread(self, owner: str, thread_id: str, change: Any) -> dict[str, Any] | None:
        thread = self.get_thread(owner, thread_id)
        if thread is None:
            return None
        self.save_thread(change(thread))
        return self.get_thread(owner, thread_id)

    def delete_thread(self, owner: str, thread_id: str) -> bool:
        return self.conversations.pop((owner, thread_id), None) is not None

    def saved_questions(self) -> list[dict[str, Any]]:
        return copy.deepcopy(list(self.questions.values()))

    def save_question(self, row: dict[str, Any]) -> None:
        self.questions[row["id"]] = copy.deepcopy(row)

    def delete_saved_question(self, question_id: str) -> bool:
        return self.questions.pop(question_id, None) is not None


class MemorySources:
    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def location_for(
        self, name: str, data: bytes, separate: bool = False, collection: str = "default"
    ) -> str:
        return (
            f"memory://sources/{name}"
            if collection == "default"
            else f"memory://sources/{collection}/{name}"
        )

    @contextmanager
    def staged(self, location: str, data: bytes) -> Iterator[str]:
        previous = self.files.get(location)
        self.files[location] = data
        try:
            yield location
        except BaseException:
            if previous is None:
                del self.files[location]
            else:
                self.files[location] = previous
            raise

    def read(self, location: str) -> bytes | None:
        return self.files.get(location)


MD = b"# Revenue\nRevenue grew to $5 million in 2024.\n\n# Staff\nWe employ 40 people in three offices.\n"


def test_a_store_object_works_wherever_a_registry_path_does() -> None:
    store = MemoryStore()
    assert isinstance(store, DocumentStore)
    assert open_store(store) is store
    doc = index_upload("notes.md", MD, make_summarizer(None), registry_path=store)
    assert store.sources.read("memory://sources/notes.md") == MD
    assert [r["doc_id"] for r in list_documents(store)] == [doc["doc_id"]]
    loaded = get_document_by_id(doc["doc_id"], store)
    assert loaded["structure_source"] == "markdown headings"
    answer = ask("How many people are employed?", loaded, make_retriever(None))
    assert "40 people" in answer.content
    # a failed re-upload leaves the stored source and document as they were
    with pytest.raises(UnsupportedFormatError):
        index_upload("notes.exe", b"MZ", registry_path=store)
    empty = b"   "
    with pytest.raises(Exception, match="empty"):
        index_upload("notes.md", empty, registry_path=store)
    assert store.sources.read("memory://sources/notes.md") == MD
    assert len(store.docs) == 1


def test_file_store_owns_its_side_folders(tmp_path: Path) -> None:
    registry = tmp_path / "reg.json"
    doc = index_upload("a.md", MD, registry_path=str(registry))
    store = open_store(str(registry))
    assert store.sources.read(doc["file_path"]) == MD
    assert Path(doc["file_path"]).is_relative_to(tmp_path / "reg.uploads")
    store.cache("llm").put("k" * 64, {"text": "hi"})
    assert store.cache("llm").get("k" * 64) == {"text": "hi"}
    assert (tmp_path / "reg.cache" / "llm").is_dir()


def test_one_format_table_drives_uploads_urls_and_messages() -> None:
    assert accepted_extensions() == [e.lstrip(".") for f in FORMATS for e in f.extensions]
    assert {"pdf", "docx", "md", "txt", "html"} <= set(accepted_extensions())
    assert "application/pdf" in accepted_mime_types()
    assert format_for_name("Report.PDF").kind == "pdf"
    with pytest.raises(UnsupportedFormatError, match="Supported: PDF"):
        format_for_name("x.numbers")
    small = Limits(max_file_bytes=100, max_text_bytes=10)
    check_upload("a.pdf", 50, small)
    with pytest.raises(DocumentTooLargeError):
        check_upload("a.md", 50, small)  # text-like formats have the smaller limit too


TOPICS = ["Introduction", "Methods", "Results", "Discussion", "Limits", "Outlook"]


def _pdf(
    path: Path, outline: bool, headed: bool = True, pages: int = 3, plain: bool = False
) -> bytes:
    """``plain``: headings set like the body text, found only by their numbering."""
    pdf = FPDF()
    for n in range(1, pages + 1):
        topic = TOPICS[(n - 1) % len(TOPICS)]
        pdf.add_page()
        if outline:
            pdf.start_section(topic, level=0)
        if headed:
            pdf.set_font("helvetica", "" if plain else "B", 11 if plain else 18)
            pdf.cell(0, 12, f"{n} {topic}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", "", 11)
        words = " ".join(TOPICS[: n % len(TOPICS) + 1])
        pdf.multi_cell(0, 6, f"The {topic.lower()} page {n} says {words}. " * 4)
    pdf.output(str(path))
    return path.read_bytes()


def test_structure_strategies_in_order_and_recorded(tmp_path: Path) -> None:
    reg = str(tmp_path / "reg.json")
    with_outline = tmp_path / "outlined.pdf"
    _pdf(with_outline, outline=True)
    styled = tmp_path / "styled.pdf"
    _pdf(styled, outline=False)
    numbered = tmp_path / "numbered.pdf"
    _pdf(numbered, outline=False, plain=True)
    bare = tmp_path / "bare.pdf"
    _pdf(bare, outline=False, headed=False, pages=12)
    got = {
        p.name: index_document(str(p), registry_path=reg, verbose=False)["structure_source"]
        for p in (with_outline, styled, numbered, bare)
    }
    assert got == {
        "outlined.pdf": "bookmarks",
        "styled.pdf": "typography and numbering",
        "numbered.pdf": "numbering and keywords",
        "bare.pdf": "page groups",
    }
    assert {r["file_name"]: r["structure_source"] for r in list_documents(reg)} == got


def test_pdf_pages_carry_each_lines_typography(tmp_path: Path) -> None:
    data = _pdf(tmp_path / "t.pdf", outline=False)
    result = read_pdf(data, Limits())
    page = result.pages[0]
    head = next(line for line in page.lines if line.text.strip() == "1 Introduction")
    body = next(line for line in page.lines if line.text.startswith("The introduction"))
    assert head.size == pytest.approx(18, abs=0.5) and head.bold
    assert body.size == pytest.approx(11, abs=0.5) and not body.bold
    left, bottom, right, top = head.box
    assert 0 < left < right < page.width and 0 < bottom < top < page.height
    assert page.image_count == 0 and page.text_chars > 100


def test_a_page_that_is_only_an_image_says_so(tmp_path: Path) -> None:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (200, 100), "white").save(buf, format="PNG")
    pdf = FPDF()
    pdf.add_page()
    pdf.image(io.BytesIO(buf.getvalue()), x=10, y=10, w=100)
    path = tmp_path / "scan.pdf"
    pdf.output(str(path))
    page = read_pdf(path.read_bytes(), Limits()).pages[0]
    assert page.text_chars == 0 and page.image_count == 1


def test_filing_rules_are_an_opt_in_profile() -> None:
    statements = "Consolidated Balance Sheets\n(in millions)\nTotal assets 1 2\n"
    two = statements + "\fConsolidated Statements of Cash Flows\nNet income 5 6\n"
    assert structure_text(two).profile == "financial report"
    assert "# Consolidated Balance Sheets" in structure_text(two).text
    one = "Balance sheet\nThe kitchen's balance sheet is a list of pots.\n"
    assert structure_text(one).profile == "generic"
    assert "# Balance sheet" not in structure_text(one).text
    cover = "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\n\fBody\n"
    assert structure_text(cover).profile == "financial report"
    generic = load(structure_profile="generic").limits()
    assert generic.structure_profile == "generic"
