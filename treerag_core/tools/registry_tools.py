"""The registry as agent tools: list, browse, search, read and ask, one implementation.

An agent reads a team's documents the way a person does in the tree browser: it lists what
it may read, browses an outline a few levels at a time, searches for the sections that
match, reads a section a page at a time, and asks for a full answer with references. The
LangChain tools (:mod:`.langchain_tools`) and the MCP server (:mod:`.mcp_server`) are thin
adapters over :class:`RegistryTools`; the access rules apply here, through the core
functions' ``principal=``, so every front end sees exactly what its caller may read.

Every result is a plain JSON-serialisable dict naming ``doc_id``, ``node_id``, ``title``,
``path`` and ``pages`` so an agent can cite, bounded in size, and saying (``truncated``,
``next_offset``, ``more``) when something was left out and which call brings the rest.

Annotations here are real objects, not strings (no ``from __future__ import annotations``):
the adapters build argument schemas from these signatures.
"""

from typing import Any

from ..answer.ask import ask_multi
from ..answer.excerpt import best_window
from ..answer.library import ask_library
from ..answer.retriever import Retriever
from ..client import Library
from ..errors import AccessDeniedError, DocumentNotFoundError
from ..library.catalog import document_cards
from ..library.documents import get_document_by_id, list_documents, load_document
from ..llm.call import model_name
from ..navigate.ranking import expand_query, rank_nodes
from ..store.base import collection_of
from ..summarize.summarizers import cut_point, truncate
from ..text import ENGINE_NAME
from ..text.messages import raised
from ..tree.nodes import excerpt_pages
from ..types import Document
from ..views.tree_view import tree_slice
from .arguments import (
    DEFAULT_READ_CHARS,
    AskDocIds,
    Depth,
    DocId,
    K,
    MaxChars,
    NodeId,
    Offset,
    OptionalDocIds,
    OptionalNodeId,
    Page,
    Query,
    Question,
    ToolArgumentError,
    checked,
)
from .shapes import MAX_TITLE_CHARS, SNIPPET_CHARS, cited_node, clip, node_entry, pages, unit_of

# Documents per list_documents page: ~100 tokens each, a screenful for an agent.
LIST_PAGE_SIZE = 50
# An outline reply: at most this many sections (~60 tokens each with a summary), the first
# level shown this many at a time, and a deeper level only while it stays this narrow.
BROWSE_MAX_NODES = 60
BROWSE_PAGE_SIZE = 25
BROWSE_LEVEL_WIDTH = 40
# A search over "every readable document" ranks at most this many (newest first, ~0.1 s
# each for a 150-page filing); name doc_ids to search others.
MAX_SEARCH_DOCUMENTS = 50
# Sub-sections listed under a section that is read (ids and titles, to read on).
MAX_READ_CHILDREN = 30
# The answer text: a model's answer is short; an extractive one is cut here.
MAX_ANSWER_CHARS = 6_000
MAX_CARD_CHARS = 240  # a listed document's description: enough to tell it from the others
# The answer's references: as many as the offline engine sends (qa.navigate.OFFLINE_SECTIONS).
MAX_ANSWER_REFERENCES = 24
# A cited reference's quoted sentences, so the agent can check a claim without reading.
MAX_QUOTE_CHARS = 400


class RegistryTools:
    """The five tools over one library, as its person (``library.principal``; None: library
    or local use, nothing filtered) may use them, answering with its models."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.store = library.store
        self.principal = library.principal

    @property
    def retriever(self) -> Retriever:
        return self.library.retriever

    # --- the tools ------------------------------------------------------------------------

    @checked
    def list_documents(self, offset: Offset = 0) -> dict[str, Any]:
        rows = list_documents(self.store, principal=self.principal)
        window = rows[offset : offset + LIST_PAGE_SIZE]
        cards = document_cards(self.store, window)
        result: dict[str, Any] = {
            "documents": [
                {
                    "doc_id": row["doc_id"],
                    "name": row.get("file_name", ""),
                    "collection": collection_of(row),
                    "pages": row.get("total_pages"),
                    "sections": row.get("total_sections"),
                    "indexed_at": row.get("indexed_at"),
                    **_card_fields(cards.get(row["doc_id"])),
                }
                for row in window
            ],
            "total": len(rows),
        }
        _continue(result, offset + len(window), len(rows), "list_documents")
        return result

    @checked
    def browse(
        self, doc_id: DocId, node_id: OptionalNodeId = None, depth: Depth = 2, page: Page = 0
    ) -> dict[str, Any]:
        document = self._document(doc_id)
        flat = document.get("flat_nodes") or {}
        if node_id:
            self._node(document, node_id)
        view = tree_slice(
            flat,
            focus=node_id or None,
            depth=depth + 1 if node_id else depth,
            max_nodes=BROWSE_MAX_NODES,
            page=page,
            page_size=BROWSE_PAGE_SIZE,
            max_level_width=BROWSE_LEVEL_WIDTH,
        )
        if page >= view.pages and page:
            raise raised(ToolArgumentError, "error.tool_page_past", page=page, last=view.pages - 1)
        drawn = set(view.node_ids)
        below: dict[str, list[str]] = {}
        for parent, child in view.edges:
            below.setdefault(parent, []).append(child)

        def nest(nid: str) -> dict[str, Any]:
            entry = node_entry(flat, nid)
            if below.get(nid):
                entry["below"] = [nest(c) for c in below[nid]]
            return entry

        children = {child for _, child in view.edges}
        top = below.get(node_id, []) if node_id else [n for n in view.node_ids if n not in children]
        result: dict[str, Any] = {"doc_id": doc_id, "file_name": document.get("file_name", "")}
        if node_id:
            result["node"] = cited_node(document, node_id)
        result["total_sections"] = len(flat)
        result["outline"] = [nest(n) for n in top if n in drawn]
        notes = []
        if view.pages > 1:
            notes.append(
                f"first level page {view.page} of 0-{view.pages - 1}: "
                f"call browse with page={view.page + 1 if view.page + 1 < view.pages else 0}"
            )
        if node_id and not flat[node_id].get("children"):
            notes.append("this section has no sub-sections: read it")
        if view.hidden_children:
            notes.append("a section with 'children' but no 'below': browse with its node_id")
        result["truncated"] = view.pages > 1 or view.truncated
        if notes:
            result["more"] = "; ".join(notes)
        return result

    @checked
    def search(self, query: Query, doc_ids: OptionalDocIds = None, k: K = 8) -> dict[str, Any]:
        if not query.strip():
            raise raised(ToolArgumentError, "error.tool_query_empty")
        if doc_ids:
            documents = [self._document(d) for d in dict.fromkeys(doc_ids)]
            skipped = 0
        else:
            rows = list_documents(self.store, principal=self.principal)
            documents = [
                load_document(self.store, row["doc_id"]) for row in rows[:MAX_SEARCH_DOCUMENTS]
            ]
            skipped = max(0, len(rows) - MAX_SEARCH_DOCUMENTS)
        # One ranking over every document's sections, so scores compare across documents
        # (BM25 weighs a word by how rare it is in what is ranked together).
        sections = {
            f"{i}/{nid}": node
            for i, document in enumerate(documents)
            for nid, node in (document.get("flat_nodes") or {}).items()
        }
        wanted = expand_query(query)
        hits = []
        for key, score in rank_nodes(query, sections, k=k):
            index, nid = key.split("/", 1)
            hits.append(self._hit(documents[int(index)], nid, score, wanted))
        result: dict[str, Any] = {
            "query": query,
            "hits": hits,
            "documents_searched": len(documents),
        }
        if skipped:
            result["truncated"] = True
            result["more"] = (
                f"{skipped} older documents were not searched: pass their ids as doc_ids"
            )
        return result

    @checked
    def read(
        self,
        doc_id: DocId,
        node_id: NodeId,
        max_chars: MaxChars = DEFAULT_READ_CHARS,
        offset: Offset = 0,
    ) -> dict[str, Any]:
        document = self._document(doc_id)
        node = self._node(document, node_id)
        text = str(node.get("text") or "")
        if offset and offset >= len(text):
            raise raised(
                ToolArgumentError, "error.tool_offset_past", offset=offset, chars=len(text)
            )
        end = offset + cut_point(text[offset:], max_chars)
        result = cited_node(document, node_id)
        if end > offset:
            result["pages"] = pages(*excerpt_pages(node, offset, end))
        result.update({"offset": offset, "text": text[offset:end], "total_chars": len(text)})
        kids = [c for c in node.get("children") or [] if c in document["flat_nodes"]]
        if kids:
            result["children"] = [
                node_entry(document["flat_nodes"], c, summary=False)
                for c in kids[:MAX_READ_CHILDREN]
            ]
        notes = []
        if end < len(text):
            result["next_offset"] = end
            notes.append(f"{len(text) - end:,} more characters: call read with offset={end}")
        if len(kids) > MAX_READ_CHILDREN:
            notes.append(f"{len(kids)} sub-sections, first {MAX_READ_CHILDREN} listed: browse it")
        elif kids:
            notes.append("its sub-sections' text is not included: read them by node_id")
        result["truncated"] = end < len(text) or len(kids) > MAX_READ_CHILDREN
        if notes:
            result["more"] = "; ".join(notes)
        return result

    @checked
    def ask(self, question: Question, doc_ids: AskDocIds = None) -> dict[str, Any]:
        retriever = self.retriever
        if doc_ids:
            reply = ask_multi(
                question, [self._document(doc_id) for doc_id in doc_ids], retriever,
                return_raw=False, principal=self.principal, registry_path=self.store,
            )  # fmt: skip
        else:
            reply = ask_library(
                question, retriever, registry_path=self.store, principal=self.principal,
                return_raw=False,
            )  # fmt: skip
        assert isinstance(reply, dict)
        references = [_reference(ref) for ref in reply["references"]]
        answer = str(reply["answer"])
        result: dict[str, Any] = {
            "answer": truncate(answer, MAX_ANSWER_CHARS),
            "engine": model_name(retriever.llm) if retriever.llm is not None else ENGINE_NAME,
            "references": references[:MAX_ANSWER_REFERENCES],
            "llm_calls": reply["usage"]["llm_calls"],
            "support": _support(reply.get("support")),
        }
        if reply.get("model_answer"):
            result["model_answer"] = truncate(str(reply["model_answer"]), MAX_ANSWER_CHARS)
        cut = len(answer) > MAX_ANSWER_CHARS or len(references) > MAX_ANSWER_REFERENCES
        result["truncated"] = cut
        if cut:
            result["more"] = "answer or references cut: read the cited sections by node_id"
        return result

    # --- what MCP resources show ------------------------------------------------------------

    def outline_text(self, doc_id: str) -> str:
        """The document's whole outline (ids, titles, pages, summaries), one line a section."""
        document = self._document(doc_id)
        return f"# {document.get('file_name', '')} ({doc_id})\n\n{document.get('tree_outline', '')}"

    def node_text(self, doc_id: str, node_id: str) -> str:
        """A section's whole text, headed by where it is and its pages."""
        document = self._document(doc_id)
        node = self._node(document, node_id)
        cited = cited_node(document, node_id)
        span = cited["pages"]
        where = f" (pages {span[0]}-{span[1]})" if span else ""
        return f"# {cited['path']}{where}\n\n{node.get('text') or ''}"

    # --- helpers --------------------------------------------------------------------------

    def _document(self, doc_id: str) -> Document:
        """The document if the caller may read it; one message for missing and hidden."""
        try:
            return get_document_by_id(doc_id, self.store, principal=self.principal)
        except (AccessDeniedError, DocumentNotFoundError):
            raise raised(DocumentNotFoundError, "error.tool_no_document", id=repr(doc_id)) from None

    def _node(self, document: Document, node_id: str) -> dict[str, Any]:
        node = (document.get("flat_nodes") or {}).get(node_id)
        if node is None:
            raise raised(
                ToolArgumentError, "error.tool_no_section", id=repr(document.get("doc_id")),
                node=repr(node_id),
            )  # fmt: skip
        return dict(node)

    def _hit(self, document: Document, nid: str, score: float, query: str) -> dict[str, Any]:
        node = document["flat_nodes"][nid]
        text = str(node.get("text") or "")
        start, end = best_window(text, query, SNIPPET_CHARS)
        if start and not text[start - 1].isspace():  # begin on a word, not inside one
            space = text.find(" ", start, start + SNIPPET_CHARS // 4)
            start = space + 1 if space >= 0 else start
        hit = cited_node(document, nid)
        if text.strip():
            hit["pages"] = pages(*excerpt_pages(node, start, end)) or hit["pages"]
            hit["snippet"] = clip(text[start:end], SNIPPET_CHARS)
            hit["offset"] = start  # read(..., offset=this) starts at the passage
        hit["score"] = round(score, 2)
        return hit


def _continue(result: dict[str, Any], shown: int, total: int, tool: str) -> None:
    result["truncated"] = shown < total
    if shown < total:
        result["next_offset"] = shown
        result["more"] = f"{total - shown} more: call {tool} with offset={shown}"


def _card_fields(card: dict[str, Any] | None) -> dict[str, Any]:
    """What a document's card says of it: kind, periods, names, a short description."""
    if not card:
        return {}
    return {
        "title": card.get("title"),
        "kind": card.get("kind"),
        "periods": list(card.get("periods") or [])[:4],
        "description": truncate(str(card.get("description") or ""), MAX_CARD_CHARS),
    }


def _support(support: dict[str, Any] | None) -> dict[str, Any]:
    """The answer's support for an agent: the verdict and score, and each sentence's
    verdict with the section and page that support it (or why none does)."""
    support = support or {}
    sentences = []
    for sentence in support.get("sentences") or []:
        found = sentence.get("support") or {}
        sentences.append({
            "text": clip(sentence.get("text"), MAX_QUOTE_CHARS), "verdict": sentence["verdict"],
            **({"ref": found["ref"], "page": found.get("page")} if found else {}),
            **({"why": sentence["why"]} if sentence.get("why") else {}),
        })  # fmt: skip
    out: dict[str, Any] = {
        k: support.get(k) for k in ("verdict", "score", "flagged") if k in support
    }
    if support.get("model"):  # the model's answer was set aside for the extractive one
        out["model_answer_set_aside"] = True
    return {**out, "sentences": sentences[:MAX_ANSWER_REFERENCES]}


def _reference(ref: dict[str, Any]) -> dict[str, Any]:
    """An answer's reference, without the PDF highlight boxes an agent cannot use."""
    out = {
        "ref": ref.get("ref"),
        "doc_id": ref.get("doc_id"),
        "file_name": ref.get("file_name"),
        "node_id": ref.get("node_id"),
        "title": clip(ref.get("title"), MAX_TITLE_CHARS),
        "path": ref.get("path"),
        "pages": pages(ref.get("page_start"), ref.get("page_end")),
        **unit_of(ref),
        "cited": bool(ref.get("cited")),
    }
    if ref.get("cited") and ref.get("sentences"):
        out["quote"] = clip(" … ".join(ref["sentences"]), MAX_QUOTE_CHARS)
    return out
