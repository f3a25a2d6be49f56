"""What the answer model reads: the chosen sections' text, quoted, with their references.

One step shared by every way of asking (sync, async, one or many documents, streamed or
not) and by the evaluation, which builds this prompt without sending it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from ..llm.prompts import format_extra_context, quote_section
from ..navigate.base import NavigationResult
from ..navigate.history import Conversation
from ..navigate.line_items import named_labels, remembered_labels
from ..navigate.ranking import RankingMemory, question_terms, remembered
from ..summarize.summarizers import cut_point
from ..text.language import detect_language, document_language, document_languages
from ..text.messages import said_in
from ..text.table_data import tables_of
from ..tree.labels import context_label, repeated_titles
from ..tree.nodes import subtree_page_range
from ..tree.outline import heading_label, page_label
from ..types import Document, FlatNode
from .cells import TABLES_NOTE, SentTables, tabled
from .excerpt import LEAD_CHARS, Excerpt, section_excerpt
from .retriever import Retriever

# A section with sub-sections and less text of its own than this is a heading: it stands
# for its sub-sections (its pages and, for the answer, their text).
HEADING_ONLY_CHARS = 200
# No section is cut below this, however many are sent (a table row needs room).
MIN_SHARE_CHARS = 500


@dataclass
class Prepared:
    """The answer call, ready to send (or to answer offline from ``sections``)."""

    system: str
    user: str
    references: list[dict[str, Any]]
    # {"label", "text", "ref", "lead", "page_start", "page_marks", "file_name"}: what the
    # offline engine reads (see text.extractive)
    sections: list[dict[str, Any]]
    trace: dict[str, Any]
    navs: list[NavigationResult]
    documents: dict[str, Document]  # by doc_id: where the references' evidence is found
    searched_as: str = ""  # the question as searched (a follow-up resolved): what is quoted
    memory: RankingMemory | None = None  # the retriever's: the offline answer reuses it
    overview: str = ""  # a question about documents as wholes: the offline answer, written
    # the tables the prompt carries in compact form (their cells named T1.r3.c2)
    sent_tables: SentTables = field(default_factory=SentTables)
    # figures the app computed from cited cells for this answer (the support check's too)
    computed: list[str] = field(default_factory=list)
    # our words in an answer in another language than English (a computed answer's label
    # and working, said in German where the English question said them): the support
    # check takes them as the question's own, as it takes the English ones
    said: list[str] = field(default_factory=list)
    # a comparison's table the app computed for the answer model: it leads the model's answer
    compared: str = ""
    # what the model wrote itself, when the app computed and wrote the rest of its answer
    model_words: str | None = None

    def language(self, query: str) -> str:
        """The documents' language when they share one, else the question's (if it can be
        told): what the offline answer and the support check read the sections in."""
        return answer_language(self.documents.values(), query)


def answer_language(documents: Iterable[Document], query: str) -> str:
    """The answer's language: the documents' when they share one, else the question's (if
    it can be told)."""
    languages = {document_language(doc) for doc in documents}
    return languages.pop() if len(languages) == 1 else detect_language(query)


def is_heading_only(node: FlatNode) -> bool:
    return bool(node.get("children")) and len(node.get("text") or "") < HEADING_ONLY_CHARS


def reference(
    document: Document, node_id: str, repeated: frozenset[str] | None = None
) -> dict[str, Any]:
    """What an answer cites: the section, its path, its document and its pages
    (``repeated``: the document's :func:`~..tree.labels.repeated_titles`, if known)."""
    flat = document.get("flat_nodes") or {}
    node = flat[node_id]
    start, end = node.get("page_start"), node.get("page_end")
    if is_heading_only(node):
        start, end = subtree_page_range(flat, node_id)
    return {
        "node_id": node_id,
        "title": heading_label(node),
        # the title with its parent where the document repeats it: how lists show it
        "label": context_label(flat, node_id, repeated),
        "path": node.get("path", heading_label(node)),
        "file_name": document.get("file_name", ""),
        "doc_id": document.get("doc_id", ""),
        "page_start": start,
        "page_end": end,
        "page_unit": document.get("page_unit") or "page",
    }


def section_text(
    flat: dict[str, FlatNode],
    node_id: str,
    query: str,
    max_chars: int,
    memory: RankingMemory | None = None,
) -> Excerpt:
    """Text for the answer model, the pages it comes from and where each page begins.

    A heading brings its sub-sections; a long section is cut to its passage that best
    matches the question (see :mod:`.excerpt`). A passage that opens its section carries the
    previous section's last lines as its lead: a statement whose header line ended up
    under the heading before ("May 31, 2019 2018" / "ASSETS" / rows) keeps its columns.
    """
    node = flat[node_id]
    if not is_heading_only(node):
        found = section_excerpt(node, query, max_chars, memory)
        if not found.lead:
            found.lead = _previous_tail(flat, node_id) + f"\n{node.get('title', '')}"
        return found
    own = str(node.get("text") or "")
    parts, spans = [own], [(node_id, 0, len(own))] if own.strip() else []
    marks: list[list[int]] = [list(m) for m in node.get("page_marks") or []]
    size = len(own)
    last_page = node.get("page_end")
    todo = list(reversed(node["children"]))
    while todo and size < max_chars:
        child = flat[todo.pop()]
        head = f"\n\n{child.get('title', '')}\n"
        text = str(child.get("text") or "")
        room = max_chars - size - len(head)
        if room <= 0:
            break
        kept = text if len(text) <= room else text[: cut_point(text, room)]
        body_at = size + len(head)
        if child.get("page_start") is not None:
            marks.append([size + 2, child["page_start"]])  # type: ignore[list-item]  # not None: checked above
        marks += [[body_at + o, page] for o, page in child.get("page_marks") or [] if o < len(kept)]
        parts.append(head + kept)
        if kept.strip():
            spans.append((child["node_id"], 0, len(kept)))
            last_page = child.get("page_end") or last_page
        size += len(head) + len(kept)
        if len(kept) < len(text):
            parts.append(f"\n[… {len(text) - len(kept):,} more characters not shown]")
            break
        todo.extend(reversed(child.get("children") or []))
    joined = "".join(parts)
    shift = len(joined) - len(joined.lstrip())
    text = joined.strip()
    marks = [[o - shift, page] for o, page in marks if 0 <= o - shift < len(text)]
    lead = _previous_tail(flat, node_id) + f"\n{node.get('title', '')}"
    return Excerpt(text, node.get("page_start"), last_page, marks, lead, spans)


def _previous_tail(flat: dict[str, FlatNode], node_id: str) -> str:
    """The last lines of the section printed just before ``node_id`` (document order)."""
    ids = list(flat)
    at = ids.index(node_id)
    return str(flat[ids[at - 1]].get("text") or "")[-LEAD_CHARS:] if at > 0 else ""


def prepare_answer(
    query: str,
    documents: list[Document],
    navs: list[NavigationResult],
    retriever: Retriever,
    extra_context: str,
    conversation: Conversation | None = None,
) -> Prepared:
    """Quote every chosen section (an equal share of the context each) and trace the picks.

    Long sections are cut to their passage that best matches the question as searched (a
    follow-up's resolved form); the answer prompt shows the conversation's recent turns.
    """
    conversation = conversation or Conversation(query)
    searched = conversation.searched_as
    picks = [(doc, nid) for doc, nav in zip(documents, navs, strict=True) for nid in nav.node_ids]
    share = max(MIN_SHARE_CHARS, retriever.max_context_chars // max(1, len(picks)))
    many = len(documents) > 1
    sent = SentTables()
    picked = {id(doc): doc for doc, _ in picks}  # each document's titles counted once
    titles = {key: repeated_titles(doc.get("flat_nodes") or {}) for key, doc in picked.items()}
    memory = retriever.ranking_memory
    named = {key: _rows_named(doc, searched, memory) for key, doc in picked.items()}
    quotes = [
        _quote(
            index,
            doc,
            nid,
            searched,
            share,
            memory,
            many,
            sent,
            titles[id(doc)],
            named[id(doc)].get(nid, []),
        )  # fmt: skip
        for index, (doc, nid) in enumerate(picks, 1)
    ]
    references = [q.reference for q in quotes]
    sections = [q.section for q in quotes]
    quoted = "\n\n".join(q.quoted for q in quotes)
    user = retriever.answer_user_prompt_template.format(
        query=query,
        extra_context=format_extra_context(extra_context),
        sections=f"{quoted}\n\n{TABLES_NOTE}" if sent.tables else quoted,
        history=conversation.block(),
    )
    trace = _trace(conversation, documents, navs, sections, answer_language(documents, query))
    by_id = {str(doc.get("doc_id", "")): doc for doc in documents}
    return Prepared(
        retriever.answer_system_prompt, user, references, sections, trace, navs, by_id, searched,
        retriever.ranking_memory, sent_tables=sent,
    )  # fmt: skip


class _Quote(NamedTuple):
    """One chosen section, three ways."""

    reference: dict[str, Any]  # what the answer cites
    quoted: str  # what the answer prompt quotes
    section: dict[str, Any]  # what the offline engine reads (see :class:`Prepared`)


def _quote(
    number: int,
    document: Document,
    node_id: str,
    searched: str,
    share: int,
    memory: RankingMemory | None,
    many_documents: bool,
    sent: SentTables,
    repeated: frozenset[str] | None = None,
    rows: list[str] | None = None,
) -> _Quote:
    """Section ``S{number}``: its pages are those of the passage quoted, not of the whole
    section; a label names the file only when several documents are asked. The model reads
    its tables in compact form (:mod:`.cells`); the offline engine reads the text. A long
    section is quoted around the table ``rows`` the question names (:func:`_rows_named`)."""
    ref = reference(document, node_id, repeated)
    window = "\n".join([searched, *(rows or [])])
    quote = section_text(document["flat_nodes"], node_id, window, share, memory)
    ref["page_start"], ref["page_end"] = quote.page_start, quote.page_end
    ref["spans"] = [{"node_id": n, "start": s, "end": e} for n, s, e in quote.spans]
    ref["ref"] = f"S{number}"
    pages = page_label(ref.get("page_start"), ref.get("page_end"), ref["page_unit"])
    attributes = {"ref": ref["ref"], "file": ref["file_name"], "path": ref["path"]}
    if pages:
        attributes["pages"] = pages
    where = f"{ref['file_name']} › {ref['path']}" if many_documents else ref["path"]
    section = {
        "label": f"{ref['ref']} · {where}" + (f", {pages}" if pages else ""),
        "text": quote.text,
        "ref": ref["ref"],
        "lead": quote.lead,
        "page_start": quote.page_start,
        "page_marks": quote.page_marks,
        "page_unit": ref["page_unit"],
        "file_name": ref["file_name"],  # whose figures: the offline answer's subjects
    }
    return _Quote(ref, quote_section(_with_tables(document, quote, memory, sent), attributes),
                  section)  # fmt: skip


def _rows_named(
    document: Document, searched: str, memory: RankingMemory | None
) -> dict[str, list[str]]:
    """Each section's table rows the question names whole (``{node_id: labels}``:
    "Inventories" for "How much inventory …"): a long statement is quoted around them, as
    navigation read it for them (:mod:`~..navigate.line_items`), not around the company's
    name. Once per document and question."""
    language = document_languages(document)
    labels = remembered_labels(document, language, memory)
    if not labels:
        return {}
    asked = set(question_terms(searched, language))
    return {nid: named for nid, rows in labels.items() if (named := named_labels(asked, rows))}


def _with_tables(
    document: Document, quote: Excerpt, memory: RankingMemory | None, sent: SentTables
) -> str:
    """The quote's text with the tables of the sections it spans in compact form."""
    doc_id = str(document.get("doc_id", ""))
    key = ("document-tables", doc_id, str(document.get("indexed_at", "")))
    tables = remembered(memory, key, partial(tables_of, document))
    nodes = {node_id for node_id, _start, _end in quote.spans}
    mine = [(doc_id, t) for t in tables if t.get("node_id") in nodes]
    return tabled(quote.text, mine, sent) if mine else quote.text


def said_steps(steps: list[dict[str, Any]], language: str | None) -> list[dict[str, Any]]:
    """A navigation's steps with their notes (the offline ranking's, a fallback's, the
    offline check's) said in ``language``; the model's own reasoning stays as it wrote it."""
    return [{key: said_in(value, language) if isinstance(value, str) else value
             for key, value in step.items()} for step in steps]  # fmt: skip


def _trace(
    conversation: Conversation,
    documents: list[Document],
    navs: list[NavigationResult],
    sections: list[dict[str, Any]],
    language: str,
) -> dict[str, Any]:
    """The answer's trace: the conversation, each document's navigation (its notes in the
    answer's ``language``), and what was sent."""
    return {
        **conversation.trace(),
        "documents": [
            {
                "doc_id": doc.get("doc_id", ""),
                "file_name": doc.get("file_name", ""),
                "mode": nav.mode,
                "fallback": said_in(nav.fallback, language) if nav.fallback else nav.fallback,
                "chosen": nav.node_ids,
                "steps": said_steps(nav.trace, language),
            }
            for doc, nav in zip(documents, navs, strict=True)
        ],
        "sections_sent": len(sections),
        "context_chars": sum(len(s["text"]) for s in sections),
    }
