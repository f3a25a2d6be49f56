"""Retrieval evaluation: did navigation find the gold evidence, and at what cost?

For questions with gold evidence (a document, gold page numbers and/or gold section
titles) this runs navigation only — the answer prompt is built, never sent — and scores:

- page hit: some retrieved node's page range contains a gold page;
- section hit: some retrieved node's title (or a title on its path) is a gold title;
- how much was retrieved (sections, distinct pages, tokens to the answer model), since
  retrieving everything hits trivially.

The chunk baseline (:mod:`.chunk_baseline`) runs on the same questions, with a token
budget per question equal to what navigation sent, so the two are compared at equal cost.
Tokens are characters / 4 throughout.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import TreeragError
from ..qa.answer import Retriever, _prepare, make_retriever
from ..types import Document
from .chunks import ChunkIndex, estimate_tokens, make_chunks, segments_from_nodes
from .chunks import segments_from_pages as _segments_from_pages

DocumentLoader = Callable[[dict[str, Any]], Document]
PageTexts = Callable[[Document], Sequence[str] | None]


@dataclass
class Retrieved:
    """One retrieved item (a tree node or a chunk) as the metrics see it."""

    label: str  # node id or "chunk 17"
    page_start: int | None
    page_end: int | None
    tokens: int
    titles: list[str] = field(default_factory=list)  # own title and its path's titles
    pages: list[int] | None = None  # explicit pages (chunks); else the start..end range

    def page_set(self) -> set[int]:
        if self.pages is not None:
            return set(self.pages)
        if self.page_start is None:
            return set()
        return set(range(self.page_start, (self.page_end or self.page_start) + 1))


@dataclass
class QuestionResult:
    id: str
    question: str
    document: str
    gold_pages: list[int]
    gold_sections: list[str]
    retrieved: list[Retrieved]
    page_hit: bool | None
    section_hit: bool | None
    tokens: int
    note: str = ""

    @property
    def pages_retrieved(self) -> int:
        return len(set().union(*(r.page_set() for r in self.retrieved))) if self.retrieved else 0


# --- metrics (pure) ------------------------------------------------------------------


def page_hit(retrieved: Iterable[Retrieved], gold_pages: Iterable[int]) -> bool | None:
    """True when any gold page lies inside any retrieved item's pages; None without gold."""
    gold = {int(p) for p in gold_pages}
    if not gold:
        return None
    return any(r.page_set() & gold for r in retrieved)


def _norm(title: str) -> str:
    return " ".join(str(title).lower().replace("’", "'").split()).strip(" .:")


def section_hit(retrieved: Iterable[Retrieved], gold_sections: Iterable[str]) -> bool | None:
    """True when a retrieved item's title, or a title above it, equals a gold title
    (case and spacing ignored); None without gold titles."""
    gold = {_norm(t) for t in gold_sections if str(t).strip()}
    if not gold:
        return None
    return any(_norm(t) in gold for r in retrieved for t in r.titles)


def summarize_results(results: Sequence[QuestionResult]) -> dict[str, Any]:
    """Hit rates over the questions that have that kind of gold, and mean costs."""

    def rate(values: list[bool | None]) -> float | None:
        scored = [v for v in values if v is not None]
        return round(sum(scored) / len(scored), 4) if scored else None

    n = len(results) or 1
    return {
        "questions": len(results),
        "page_hit_rate": rate([r.page_hit for r in results]),
        "page_questions": sum(r.page_hit is not None for r in results),
        "section_hit_rate": rate([r.section_hit for r in results]),
        "section_questions": sum(r.section_hit is not None for r in results),
        "mean_sections_retrieved": round(sum(len(r.retrieved) for r in results) / n, 2),
        "mean_pages_retrieved": round(sum(r.pages_retrieved for r in results) / n, 2),
        "mean_tokens": round(sum(r.tokens for r in results) / n, 1),
    }


# --- questions -------------------------------------------------------------------------


class InvalidQuestionsError(TreeragError):
    """A questions file that cannot be evaluated: not UTF-8 JSONL, or a bad line."""


def parse_questions(lines: Iterable[str], source: str) -> list[dict[str, Any]]:
    """Questions from JSONL lines (see :func:`load_questions`); ``source`` names them in
    messages. A line that is not a JSON object with a question, or whose gold pages are
    not page numbers, raises ``InvalidQuestionsError`` with its number."""
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise InvalidQuestionsError(f"{source}, line {number}: not JSON ({exc}).") from exc
        if not isinstance(item, dict) or not str(item.get("question") or "").strip():
            raise InvalidQuestionsError(f"{source}, line {number}: no 'question'.")
        try:
            gold_pages(item)
        except (TypeError, ValueError) as exc:
            raise InvalidQuestionsError(
                f"{source}, line {number}: 'evidence_pages' must be a list of page numbers."
            ) from exc
        item.setdefault("id", f"q{number}")
        out.append(item)
    return out


def load_questions(path: str) -> list[dict[str, Any]]:
    """A JSONL file, one question a line. Accepted keys: ``id``, ``question``, the document
    (``doc_id``, ``file``, ``doc_name`` or ``document``), ``evidence_pages`` /
    ``gold_pages`` and ``gold_sections``. A line that is not JSON raises with its number."""
    try:
        with open(path, encoding="utf-8") as fh:
            return parse_questions(fh, path)
    except UnicodeDecodeError as exc:
        raise InvalidQuestionsError(f"{path} is not UTF-8 text ({exc.reason}).") from exc


def gold_pages(item: dict[str, Any]) -> list[int]:
    return [int(p) for p in item.get("evidence_pages") or item.get("gold_pages") or []]


def gold_sections(item: dict[str, Any]) -> list[str]:
    raw = item.get("gold_sections") or []
    return [raw] if isinstance(raw, str) else [str(t) for t in raw]


def document_key(item: dict[str, Any]) -> str:
    """How a question names its document, for messages and grouping."""
    for key in ("doc_id", "file", "doc_name", "document"):
        if item.get(key):
            return str(item[key])
    return ""


# --- the two retrieval methods ---------------------------------------------------------


def _titles(document: Document, node_id: str) -> list[str]:
    flat = document.get("flat_nodes") or {}
    titles = []
    while node_id and node_id in flat:
        titles.append(flat[node_id].get("title", ""))
        node_id = flat[node_id].get("parent_id") or ""
    return titles


def navigation_retrieve(
    question: str, document: Document, retriever: Retriever
) -> tuple[list[Retrieved], int]:
    """Navigate, then build (not send) the answer prompt: the items and its tokens."""
    nav = retriever.navigate(question, document)
    prepared = _prepare(question, [document], [nav], retriever, "")
    items = [
        Retrieved(
            label=ref["node_id"],
            page_start=ref.get("page_start"),
            page_end=ref.get("page_end"),
            tokens=estimate_tokens(section["text"]),
            titles=_titles(document, ref["node_id"]),
        )
        for ref, section in zip(prepared.references, prepared.sections, strict=True)
    ]
    return items, estimate_tokens(prepared.system + prepared.user)


def chunk_retrieve(index: ChunkIndex, question: str, token_budget: int) -> list[Retrieved]:
    return [
        Retrieved(
            label=f"chunk {c.index}",
            page_start=min(c.pages) if c.pages else None,
            page_end=max(c.pages) if c.pages else None,
            tokens=c.tokens,
            titles=list(c.titles),
            pages=list(c.pages),
        )
        for c in index.top_for_budget(question, token_budget)
    ]


def chunk_index_for(
    document: Document,
    page_texts: Sequence[str] | None,
    chunk_tokens: int = 500,
    overlap_tokens: int = 50,
) -> ChunkIndex:
    """Chunks over the real pages when known (PDF), else over the sections in order."""
    segments = (
        _segments_from_pages(page_texts)
        if page_texts
        else segments_from_nodes(document.get("flat_nodes") or {})
    )
    return ChunkIndex(make_chunks(segments, chunk_tokens, overlap_tokens))


# --- the evaluation --------------------------------------------------------------------


@dataclass
class Evaluation:
    navigation: list[QuestionResult]
    baseline: list[QuestionResult] | None
    errors: list[dict[str, str]]

    def summary(self) -> dict[str, Any]:
        out = {"navigation": summarize_results(self.navigation), "errors": len(self.errors)}
        if self.baseline is not None:
            out["chunks"] = summarize_results(self.baseline)
        return out

    def misses(self, method: str = "navigation") -> list[QuestionResult]:
        results = self.navigation if method == "navigation" else (self.baseline or [])
        return [r for r in results if r.page_hit is False or r.section_hit is False]

    def as_dict(self) -> dict[str, Any]:
        def rows(results: list[QuestionResult]) -> list[dict[str, Any]]:
            return [{**asdict(r), "pages_retrieved": r.pages_retrieved} for r in results]

        return {
            "summary": self.summary(),
            "navigation": rows(self.navigation),
            "chunks": rows(self.baseline) if self.baseline is not None else None,
            "errors": self.errors,
        }


def evaluate(
    questions: Sequence[dict[str, Any]],
    load_document: DocumentLoader,
    retriever: Retriever | None = None,
    baseline: bool = True,
    page_texts: PageTexts | None = None,
    chunk_tokens: int = 500,
    overlap_tokens: int = 50,
    progress: Callable[[int, int, str], None] | None = None,
) -> Evaluation:
    """Score navigation (and the chunk baseline) on questions with gold evidence.

    ``load_document(question)`` returns the indexed document the question is about;
    ``retriever`` defaults to the offline engine; ``page_texts(document)`` gives the
    source's page texts for the baseline (``None``: chunk the sections instead). A question
    whose document fails to load is reported in ``errors``, not raised.
    """
    retriever = retriever or make_retriever()
    nav_results: list[QuestionResult] = []
    chunk_results: list[QuestionResult] = []
    errors: list[dict[str, str]] = []
    chunk_indexes: dict[str, ChunkIndex] = {}
    for number, item in enumerate(questions, 1):
        question = str(item["question"])
        key = document_key(item)
        if progress:
            progress(number - 1, len(questions), f"{item['id']}: {question[:60]}")
        try:
            document = load_document(item)
        except (TreeragError, OSError) as exc:
            errors.append({"id": str(item["id"]), "document": key, "error": str(exc)})
            continue
        pages, sections = gold_pages(item), gold_sections(item)
        items, tokens = navigation_retrieve(question, document, retriever)
        nav_results.append(
            QuestionResult(
                str(item["id"]),
                question,
                key,
                pages,
                sections,
                items,
                page_hit(items, pages),
                section_hit(items, sections),
                tokens,
            )
        )
        if not baseline:
            continue
        doc_key = str(document.get("doc_id") or key)
        if doc_key not in chunk_indexes:
            texts = page_texts(document) if page_texts else None
            chunk_indexes[doc_key] = chunk_index_for(document, texts, chunk_tokens, overlap_tokens)
        budget = sum(r.tokens for r in items)
        chunks = chunk_retrieve(chunk_indexes[doc_key], question, budget)
        chunk_results.append(
            QuestionResult(
                str(item["id"]),
                question,
                key,
                pages,
                sections,
                chunks,
                page_hit(chunks, pages),
                section_hit(chunks, sections),
                tokens - budget + sum(c.tokens for c in chunks),
                note=f"budget {budget} tokens",
            )
        )
    if progress:
        progress(len(questions), len(questions), "done")
    return Evaluation(nav_results, chunk_results if baseline else None, errors)


# --- loading documents for the CLI -----------------------------------------------------


def registry_loader(
    registry_path: str,
    source_root: str | None = None,
    index_missing: bool = True,
    summarizer: Any = None,
) -> DocumentLoader:
    """Find a question's document in the registry by id, path or file name; index the
    file under ``source_root`` when it is not there yet (and ``index_missing``)."""
    from ..ingest.indexer import index_document
    from ..ingest.summarize import offline_summarizer
    from ..store.tinydb_store import Registry

    registry = Registry(registry_path)
    cache: dict[str, Document] = {}

    def load(item: dict[str, Any]) -> Document:
        if item.get("doc_id"):
            return registry.get(str(item["doc_id"]))
        ref = str(item.get("file") or item.get("document") or item.get("doc_name") or "")
        if not ref:
            raise TreeragError(f"Question {item.get('id')} names no document.")
        if ref in cache:
            return cache[ref]
        path = os.path.join(source_root, ref) if source_root else ref
        name = os.path.basename(ref)
        rows = registry.list()
        row = next((r for r in rows if r.get("file_path") == os.path.abspath(path)), None)
        row = row or next((r for r in rows if r.get("file_name") in {name, f"{name}.pdf"}), None)
        if row is not None:
            cache[ref] = registry.get(row["doc_id"])
        elif index_missing and os.path.exists(path):
            cache[ref] = index_document(
                path,
                summarizer=summarizer or offline_summarizer,
                registry_path=registry_path,
                verbose=False,
            )
        else:
            raise TreeragError(f"{ref} is neither in {registry_path} nor a readable file.")
        return cache[ref]

    return load


def pdf_page_texts(document: Document) -> list[str] | None:
    """Per-page pypdf text of a PDF document's source file (None for other sources)."""
    path = str(document.get("file_path") or "")
    if not path.lower().endswith(".pdf") or not os.path.exists(path):
        return None
    from pypdf import PdfReader

    reader = PdfReader(path)
    if reader.is_encrypted:
        reader.decrypt("")
    return [page.extract_text() or "" for page in reader.pages]


def cached_page_texts(cache_dir: str) -> PageTexts:
    """``pdf_page_texts`` with an on-disk cache keyed by the source's content hash.

    Why: extraction costs ~0.1 s a page; an evaluation is re-run many times while tuning.
    """

    def load(document: Document) -> list[str] | None:
        key = str(document.get("content_hash") or "")
        cache = os.path.join(cache_dir, f"{key}.json") if key else ""
        if cache and os.path.exists(cache):
            with open(cache, encoding="utf-8") as fh:
                return json.load(fh)
        pages = pdf_page_texts(document)
        if pages is not None and cache:
            os.makedirs(cache_dir, exist_ok=True)
            with open(cache + ".tmp", "w", encoding="utf-8") as fh:
                json.dump(pages, fh, ensure_ascii=False)
            os.replace(cache + ".tmp", cache)
        return pages

    return load


# --- reporting -------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f}%"


def summary_table(summary: dict[str, Any]) -> str:
    """Markdown table: one row per method."""
    lines = [
        "| method | page hit rate | section hit rate | mean sections | mean pages | mean tokens |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    names = {"navigation": "tree navigation", "chunks": "chunk baseline (BM25)"}
    for key in ("navigation", "chunks"):
        s = summary.get(key)
        if not s:
            continue
        lines.append(
            f"| {names[key]} | {_pct(s['page_hit_rate'])} ({s['page_questions']} q) | "
            f"{_pct(s['section_hit_rate'])} ({s['section_questions']} q) | "
            f"{s['mean_sections_retrieved']} | {s['mean_pages_retrieved']} | {s['mean_tokens']:,.0f} |"
        )
    return "\n".join(lines)


def describe_miss(result: QuestionResult) -> str:
    got = ", ".join(
        f"{r.label} {range_label(r)}" + (f" “{r.titles[0][:40]}”" if r.titles else "")
        for r in result.retrieved
    )
    gold = f"pages {result.gold_pages}" if result.gold_pages else ""
    if result.gold_sections:
        gold += (" / " if gold else "") + f"sections {result.gold_sections}"
    return f"- {result.id} [{result.document}] {result.question[:90]} — gold {gold}; got {got or 'nothing'}"


def range_label(r: Retrieved) -> str:
    if r.pages is not None:
        return f"(pp. {_compact(r.pages)})" if r.pages else "(no pages)"
    if r.page_start is None:
        return "(no pages)"
    if r.page_end in (None, r.page_start):
        return f"(p. {r.page_start})"
    return f"(pp. {r.page_start}–{r.page_end})"


def _compact(pages: list[int]) -> str:
    pages = sorted(set(pages))
    runs, start = [], pages[0]
    for prev, cur in zip(pages, pages[1:] + [None], strict=True):
        if cur != (prev + 1 if prev is not None else None):
            runs.append(f"{start}" if start == prev else f"{start}–{prev}")
            start = cur
    return ",".join(runs)


def format_report(evaluation: Evaluation, max_misses: int | None = None) -> str:
    """The console/Markdown report: the table, then every miss of each method."""
    out = [summary_table(evaluation.summary())]
    for method, label in (("navigation", "tree navigation"), ("chunks", "chunk baseline")):
        if method == "chunks" and evaluation.baseline is None:
            continue
        misses = evaluation.misses(method)
        out.append(f"\nMisses, {label} ({len(misses)}):")
        out.extend(describe_miss(m) for m in misses[:max_misses])
    for err in evaluation.errors:
        out.append(f"- error {err['id']} [{err['document']}]: {err['error']}")
    return "\n".join(out)


def run_cli(
    questions_path: str,
    registry_path: str,
    source_root: str | None,
    baseline: str,
    json_out: str | None,
) -> int:
    """``python -m treerag_core eval``: offline engine, report to stdout, JSON optionally."""
    questions = load_questions(questions_path)
    root = source_root or os.path.dirname(os.path.abspath(questions_path))
    evaluation = evaluate(
        questions,
        registry_loader(registry_path, root),
        baseline=baseline == "chunks",
        page_texts=cached_page_texts(os.path.splitext(registry_path)[0] + ".pages"),
    )
    print(format_report(evaluation))
    if json_out:
        with open(json_out, "w", encoding="utf-8") as fh:
            json.dump(evaluation.as_dict(), fh, indent=1)
    return 0 if not evaluation.errors else 1
