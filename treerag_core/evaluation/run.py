"""Run an evaluation: navigation (answer prompt built, never sent) and the chunk baseline.

The baseline (:mod:`.chunks`) runs on the same questions with a token budget per question
equal to what navigation sent, over the same page text navigation indexed (see
:mod:`.page_texts`), so the two are compared at equal cost on equal text. With the offline
engine, questions whose gold answer prints a figure are also answered, from navigation's
sections and from the baseline's chunks alike, and graded by :mod:`.answers`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from typing import Any

from ..access.principal import Principal
from ..answer.context import Prepared, prepare_answer
from ..answer.offline.answerer import offline_reply
from ..answer.offline.extractive import extractive_answer
from ..answer.result import mark_cited
from ..answer.retriever import Retriever, make_retriever
from ..answer.support import check_support
from ..errors import TreeragError
from ..library.asking import readable_loader
from ..navigate.history import conversation
from ..store.base import RegistryLike
from ..text.tokens import estimate_tokens
from ..tree.outline import heading_label
from ..types import Document
from .answers import answer_hit, evidence_texts, first_line, printed_figures
from .chunks import Chunk, ChunkIndex, make_chunks, segments_from_nodes, segments_from_pages
from .metrics import QuestionResult, Retrieved, page_hit, section_hit, summarize_results
from .questions import document_key, gold_pages, gold_sections

DocumentLoader = Callable[[dict[str, Any]], Document]
PageTexts = Callable[[Document], Sequence[str] | None]


def _titles(document: Document, node_id: str) -> list[str]:
    flat = document.get("flat_nodes") or {}
    titles = []
    while node_id and node_id in flat:
        titles.append(heading_label(flat[node_id]))
        node_id = flat[node_id].get("parent_id") or ""
    return titles


def navigation_retrieve(
    question: str,
    document: Document,
    retriever: Retriever,
    history: list[dict[str, Any]] | None = None,
) -> tuple[list[Retrieved], int, Prepared]:
    """Navigate, then build (not send) the answer prompt: the items, its tokens, the prompt."""
    talk = conversation(question, history, retriever.history_tokens)
    nav = retriever.navigate(question, document, "", talk)
    prepared = prepare_answer(question, [document], [nav], retriever, "", talk)
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
    return items, estimate_tokens(prepared.system + prepared.user), prepared


def history_turns(
    earlier: Sequence[Any], document: Document, retriever: Retriever
) -> list[dict[str, Any]]:
    """A question's ``history`` as the chat would have it: each earlier question (a string,
    or a turn without references) is asked first, with the turns before it, and answered
    by the offline engine's extractive answer (evaluation never sends an answer call).
    Turns that already carry their references are used as given."""
    turns: list[dict[str, Any]] = []
    for item in earlier:
        if isinstance(item, dict) and isinstance(item.get("references"), list):
            turns.append(item)
            continue
        question = str(item.get("question") if isinstance(item, dict) else item)
        talk = conversation(question, turns, retriever.history_tokens)
        nav = retriever.navigate(question, document, "", talk)
        prepared = prepare_answer(question, [document], [nav], retriever, "", talk)
        reply = offline_reply(question, prepared)
        mark_cited(prepared.references, reply.text)
        turns.append(
            {"question": question, "answer": reply.text, "references": prepared.references}
        )
    return turns


def chunk_retrieve(index: ChunkIndex, question: str, token_budget: int) -> list[Chunk]:
    return index.top_for_budget(question, token_budget)


def chunk_items(chunks: list[Chunk]) -> list[Retrieved]:
    return [
        Retrieved(
            label=f"chunk {c.index}",
            page_start=min(c.pages) if c.pages else None,
            page_end=max(c.pages) if c.pages else None,
            tokens=c.tokens,
            titles=list(c.titles),
            pages=list(c.pages),
        )
        for c in chunks
    ]


def chunk_sections(chunks: list[Chunk], file_name: str = "") -> list[dict[str, Any]]:
    """Chunks as the offline answer reads sections: text, a label with the pages, and the
    file they come from (as navigation's sections have it)."""
    out = []
    for n, c in enumerate(chunks, 1):
        pages = sorted(set(c.pages))
        where = f", pp. {pages[0]}–{pages[-1]}" if len(pages) > 1 else ""
        where = f", p. {pages[0]}" if len(pages) == 1 else where
        label = f"C{n} · chunk {c.index}{where}"
        out.append({"label": label, "text": c.text, "file_name": file_name})
    return out


def grade_answer(result: QuestionResult, question: str, sections: list[dict[str, Any]]) -> None:
    """Answer offline from ``sections`` and grade it, when the question has a printed figure."""
    if not result.answer_figures:
        return
    result.answer = extractive_answer(question, sections)[0] if sections else ""
    wanted = [Decimal(f) for f in result.answer_figures]
    result.answer_hit = answer_hit(result.answer, wanted)
    result.first_line_hit = answer_hit(first_line(result.answer), wanted)
    support = check_support(result.answer, sections, question)
    result.sentences = sum(support["counts"].values())
    result.sentences_supported = support["counts"]["supported"]
    result.flagged = bool(support["flagged"])


def chunk_index_for(
    document: Document,
    page_texts: Sequence[str] | None,
    chunk_tokens: int = 500,
    overlap_tokens: int = 50,
) -> ChunkIndex:
    """Chunks over the real pages when known (PDF), else over the sections in order."""
    segments = (
        segments_from_pages(page_texts)
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

    def answer_misses(self, method: str = "navigation") -> list[QuestionResult]:
        """Graded questions whose answer lacks a printed gold figure."""
        results = self.navigation if method == "navigation" else (self.baseline or [])
        return [r for r in results if r.answer_hit is False]

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
    principal: Principal | None = None,
    registry_path: RegistryLike | None = None,
) -> Evaluation:
    """Score navigation (and the chunk baseline) on questions with gold evidence.

    ``load_document(question)`` returns the indexed document the question is about;
    ``retriever`` defaults to the offline engine; ``page_texts(document)`` gives the
    source's page texts for the baseline and the answer metric (``None``: chunk the
    sections, read evidence pages from them). With the offline engine, a question whose
    gold ``answer`` prints a figure on an evidence page is answered and graded (a model's
    answer is not requested: evaluation makes no model calls for answers). A question
    whose document fails to load is reported in ``errors``, not raised; with a
    ``principal``, so is one whose document it may not read in ``registry_path``.
    """
    run = _Run(retriever or make_retriever(), page_texts, chunk_tokens, overlap_tokens)
    load_document = readable_loader(load_document, registry_path, principal)
    evaluation = Evaluation([], [] if baseline else None, [])
    for number, item in enumerate(questions, 1):
        question = str(item["question"])
        if progress:
            progress(number - 1, len(questions), f"{item['id']}: {question[:60]}")
        try:
            document = load_document(item)
        except (TreeragError, OSError) as exc:
            error = {"id": str(item["id"]), "document": document_key(item), "error": str(exc)}
            evaluation.errors.append(error)
            continue
        run.score(item, document, evaluation)
    if progress:
        progress(len(questions), len(questions), "done")
    return evaluation


@dataclass
class _Run:
    """One evaluation's settings, and what it keeps per document between questions."""

    retriever: Retriever
    page_texts: PageTexts | None
    chunk_tokens: int
    overlap_tokens: int
    texts_of: dict[str, Sequence[str] | None] = field(default_factory=dict)
    chunk_indexes: dict[str, ChunkIndex] = field(default_factory=dict)

    @property
    def answers(self) -> bool:
        """Only the offline engine's answers are graded: evaluation sends no answer call."""
        return self.retriever.llm is None

    def score(self, item: dict[str, Any], document: Document, evaluation: Evaluation) -> None:
        """Navigation's result for one question and, with the baseline, the chunks' result."""
        question = str(item["question"])
        history = history_turns(item.get("history") or [], document, self.retriever)
        items, tokens, prepared = navigation_retrieve(question, document, self.retriever, history)
        doc_key = str(document.get("doc_id") or document_key(item))
        if evaluation.baseline is not None or (self.answers and item.get("answer")):
            self._read_page_texts(doc_key, document)
        figures = self._figures(item, document, doc_key)
        nav = _result(item, items, tokens, figures)
        grade_answer(nav, prepared.searched_as or question, prepared.sections)
        evaluation.navigation.append(nav)
        if evaluation.baseline is not None:
            evaluation.baseline.append(self._chunk_result(item, document, doc_key, nav))

    def _read_page_texts(self, doc_key: str, document: Document) -> None:
        """A document's page texts, read once however many questions are about it."""
        if doc_key not in self.texts_of:
            self.texts_of[doc_key] = self.page_texts(document) if self.page_texts else None

    def _figures(self, item: dict[str, Any], document: Document, doc_key: str) -> list[str]:
        """The gold answer's figures printed on an evidence page: what an answer must say."""
        pages = gold_pages(item)
        if not (self.answers and item.get("answer") and pages):
            return []
        evidence = evidence_texts(document.get("flat_nodes") or {}, pages, self.texts_of[doc_key])
        return [format(f.normalize(), "f") for f in printed_figures(str(item["answer"]), evidence)]

    def _chunk_result(
        self, item: dict[str, Any], document: Document, doc_key: str, nav: QuestionResult
    ) -> QuestionResult:
        """The chunk baseline at navigation's cost: the tokens its sections took."""
        if doc_key not in self.chunk_indexes:
            self.chunk_indexes[doc_key] = chunk_index_for(
                document, self.texts_of[doc_key], self.chunk_tokens, self.overlap_tokens
            )
        budget = sum(r.tokens for r in nav.retrieved)
        chunks = chunk_retrieve(self.chunk_indexes[doc_key], nav.question, budget)
        got = chunk_items(chunks)
        tokens = nav.tokens - budget + sum(c.tokens for c in got)
        chunk = _result(item, got, tokens, nav.answer_figures, note=f"budget {budget} tokens")
        sections = chunk_sections(chunks, str(document.get("file_name") or ""))
        grade_answer(chunk, nav.question, sections)
        return chunk


def _result(
    item: dict[str, Any],
    retrieved: list[Retrieved],
    tokens: int,
    figures: list[str],
    note: str = "",
) -> QuestionResult:
    """One method's result for a question, its hits judged against the question's gold."""
    pages, sections = gold_pages(item), gold_sections(item)
    return QuestionResult(
        id=str(item["id"]),
        question=str(item["question"]),
        document=document_key(item),
        gold_pages=pages,
        gold_sections=sections,
        retrieved=retrieved,
        page_hit=page_hit(retrieved, pages),
        section_hit=section_hit(retrieved, sections),
        tokens=tokens,
        note=note,
        answer_figures=figures,
    )
