"""Questions about a document as a whole: "Summarise the Boeing 10-K", "What is this
handbook about?".

A few leaf sections that happen to share the question's words are the wrong evidence for
these: the answer is what the document is (its card: kind, periods, description) and how
it is built (its top-level parts and their summaries). So no section is searched; the
parts are quoted by their summaries, and cited like any section (a part's pages are its
whole span). Offline the answer is written from the card and the parts; with a model the
answer model reads the same, once.

A question is about the whole document only when what it asks about names nothing but the
document: deictic words ("this", "these documents"), words for documents ("report",
"handbook"), and the words of the document's own card (its title, file name, kind,
periods, names). "Summarise the leave policy" asked of a handbook names a section, and is
searched as usual.
"""

from __future__ import annotations

import os
import re
from typing import Any

from ..llm.prompts import format_extra_context, quote_section
from ..navigate.base import NavigationResult
from ..navigate.history import Conversation
from ..summarize.card import build_card, card_line, card_naming
from ..summarize.describe import main_parts
from ..summarize.digest import boilerplate_kind, clean_lines, leading_summary
from ..text.messages import Phrase, message
from ..text.tokens import STOPWORDS
from ..tree.labels import page_label
from ..tree.nodes import subtree_page_range
from ..types import Document, FlatNode
from .context import Prepared, answer_language, reference, said_steps
from .highlights import highlights
from .retriever import Retriever

# The shapes of a question about a document as a whole; ``object`` is what it is about.
# English; a named constant, to extend or replace for other languages.
OVERVIEW_QUESTIONS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(pattern)
    for pattern in (
        r"^(?:please |can you |could you )?(?:summari[sz]e|give (?:me )?(?:a |an )?(?:short "
        r"|brief |quick )?(?:summary|overview) of|provide (?:a |an )?(?:short |brief )?"
        r"(?:summary|overview) of|(?:a |an )?(?:short |brief )?(?:summary|overview) of|"
        r"tl;?dr(?: of)?|describe) (?P<object>.+?)[?.! ]*$",
        r"^what (?:is|are) (?P<object>.+?) (?:about|for)[?.! ]*$",
        r"^what does (?P<object>.+?) (?:cover|contain|say|describe|deal with)[?.! ]*$",
        r"^what(?:'s| is| are) in (?P<object>.+?)[?.! ]*$",
        r"^(?:summary|overview|tl;?dr)[?.! ]*$",
    )
)
# Words that stand for "the document" in such a question.
DOCUMENT_WORDS = frozenset(
    """document documents doc docs file files report reports filing filings handbook
    handbooks manual manuals guide guides deck decks slides slide presentation presentation
    policy policies contract contracts agreement agreements paper papers book books
    spreadsheet spreadsheets sheet minutes specification spec text pdf whole entire all
    everything it them annual quarterly form 10k 10q 8k 20f main points key""".split()
)
# Parts listed in the offline overview; a longer document ends with "and N more".
OVERVIEW_PARTS = 8
PART_SUMMARY_CHARS = 240  # one part's line in the overview: its summary's first sentences
_WORD = re.compile(r"[^\W_]+")
_POSSESSIVE = re.compile(r"['’]s\b")


def overview_object(query: str) -> str | None:
    """What an overview-shaped question is about ("" for "Summary?"), or None."""
    text = " ".join(str(query or "").lower().split())
    for pattern in OVERVIEW_QUESTIONS:
        found = pattern.match(text)
        if found:
            return found.groupdict().get("object") or ""
    return None


def _words(text: str) -> set[str]:
    """Lower-case words, hyphens joined ("10-K" → "10k"), possessives dropped."""
    return set(_WORD.findall(_POSSESSIVE.sub("", text.lower().replace("-", ""))))


def card_words(document: Document) -> set[str]:
    """The words a question may name a document by: its card's title, file, kind and
    periods (not the card's names: those include its sections' subjects)."""
    card = card_naming(document)
    stem = os.path.splitext(str(card.get("file_name") or ""))[0].replace("_", " ")
    named = [card.get("title"), stem, card.get("kind"), card.get("collection")]
    named += list(card.get("periods") or [])
    words: set[str] = set()
    for text in named:
        words |= _words(str(text or ""))
    return words


def asks_about_whole(query: str, document: Document) -> bool:
    """Whether ``query`` asks about ``document`` as a whole (see the module docstring)."""
    thing = overview_object(query)
    if thing is None:
        return False
    left = _words(thing) - STOPWORDS - DOCUMENT_WORDS
    return not left or left <= card_words(document)


def overview_parts(flat: dict[str, FlatNode]) -> list[str]:
    """The document's top-level parts (``summarize.describe.main_parts``), without the
    pages every such document has (cover, contents, signatures): they say nothing of it."""
    parts = main_parts(flat)
    kept = [nid for nid in parts if not _boilerplate(flat[nid], flat)]
    return kept or parts


def _boilerplate(node: FlatNode, flat: dict[str, FlatNode]) -> bool:
    """A cover, contents or signature page, or a heading holding only such pages."""
    title = str(node.get("title") or "")
    lines = clean_lines(str(node.get("text") or ""), title)
    if lines:
        return boilerplate_kind(title, lines) is not None
    kids = [flat[c] for c in node.get("children") or [] if c in flat]
    return bool(kids) and all(_boilerplate(kid, flat) for kid in kids)


def overview_navigation(document: Document) -> NavigationResult:
    """The "navigation" of an overview question: the top-level parts, nothing searched."""
    parts = overview_parts(document.get("flat_nodes") or {})
    step = {"step": 1, "mode": "overview", "reasoning": Phrase("nav.overview")}
    return NavigationResult(parts, "overview", [step])


def part_summary(flat: dict[str, FlatNode], node_id: str) -> str:
    """A part in a few sentences: its summary, else its lead, else its first sub-part's."""
    node = flat[node_id]
    for candidate in (node, *(flat[c] for c in (node.get("children") or [])[:1] if c in flat)):
        text = str(candidate.get("summary") or "").strip() or leading_summary(
            str(candidate.get("text") or ""), str(candidate.get("title") or ""),
            PART_SUMMARY_CHARS,
        )  # fmt: skip
        if text:
            return text
    return ""


def overview_reference(document: Document, node_id: str, number: int) -> dict[str, Any]:
    """A part as the answer cites it: its whole span of pages."""
    ref = reference(document, node_id)
    ref["page_start"], ref["page_end"] = subtree_page_range(document["flat_nodes"], node_id)
    return {**ref, "spans": [], "ref": f"S{number}"}


def overview_text(
    line: str, references: list[dict[str, Any]], summaries: list[str],
    facts: list[tuple[dict[str, Any], str]] = (),  # type: ignore[assignment]
) -> str:  # fmt: skip
    """The offline overview of one document: its card's line, what a reader wants first
    (what the organisation does, headline figures, main risks), then its parts, each cited."""
    lines = [line, ""]
    for ref, text in facts:
        pages = page_label(ref.get("page_start"), ref.get("page_end"), ref.get("page_unit"))
        lines.append(f"{text}" + (f" ({pages})" if pages else "") + f" [{ref['ref']}]")
    lines += ([""] if facts else []) + [f"It has {len(references)} main parts:"]
    for ref, summary in list(zip(references, summaries, strict=True))[:OVERVIEW_PARTS]:
        lines.append(f"- {ref['title']}" + (f": {summary}" if summary else "") + f" [{ref['ref']}]")
    if len(references) > OVERVIEW_PARTS:
        lines.append(f"- and {len(references) - OVERVIEW_PARTS} more.")
    return "\n".join(lines)


def quoted_part(ref: dict[str, Any], summary: str, document_line: str | None) -> str:
    """A part as the answer model reads it: its summary, quoted as data (with its
    document's line when several documents are asked)."""
    attributes = {"ref": ref["ref"], "file": ref["file_name"], "path": ref["path"]}
    if document_line:
        attributes["document"] = document_line[:200]
    return quote_section(summary or ref["title"], attributes)


def prepare_overview(
    query: str,
    documents: list[Document],
    retriever: Retriever,
    extra_context: str,
    conversation: Conversation,
) -> Prepared:
    """The answer call for an overview question (and, in ``overview``, the offline answer)."""
    many = len(documents) > 1
    navs = [overview_navigation(document) for document in documents]
    references: list[dict[str, Any]]
    references, quotes, sections, blocks, lines = [], [], [], [], []
    for document, nav in zip(documents, navs, strict=True):
        line = card_line(build_card(document))  # the card is built once per document
        found = highlights(document["flat_nodes"])
        for h in found:  # said once: as a cited fact, not also in the card's line
            line = line.replace(" " + h.text.split(": ", 1)[-1], "")
        facts = [({**reference(document, h.node_id), "spans": [],
                   "ref": f"S{len(references) + i}"}, h.text)
                 for i, h in enumerate(found, 1)]  # fmt: skip
        references += [ref for ref, _ in facts]
        quotes += [quoted_part(ref, text, line if many else None) for ref, text in facts]
        refs = [overview_reference(document, nid, len(references) + i)
                for i, nid in enumerate(nav.node_ids, 1)]  # fmt: skip
        summaries = [part_summary(document["flat_nodes"], ref["node_id"]) for ref in refs]
        references += refs
        quotes += [quoted_part(ref, text, line if many else None)
                   for ref, text in zip(refs, summaries, strict=True)]  # fmt: skip
        sections += [{"label": f"{ref['ref']} · {ref['path']}", "ref": ref["ref"], "lead": "",
                      "text": text, "page_start": ref["page_start"], "page_marks": []}
                     for ref, text in zip(refs, summaries, strict=True)]  # fmt: skip
        blocks.append(overview_text(line, refs, summaries, facts))
        lines.append(line)
    about = " | ".join(lines)
    user = retriever.answer_user_prompt_template.format(
        query=query,
        extra_context=format_extra_context(f"{extra_context} About the document: {about}"),
        sections="\n\n".join(quotes),
        history=conversation.block(),
    )
    language = answer_language(documents, query)  # the trace's and the note's
    trace = {
        **conversation.trace(),
        "documents": [{"doc_id": d.get("doc_id", ""), "file_name": d.get("file_name", ""),
                       "mode": nav.mode, "fallback": None, "chosen": nav.node_ids,
                       "steps": said_steps(nav.trace, language)}
                      for d, nav in zip(documents, navs, strict=True)],
        "sections_sent": len(sections),
        "context_chars": sum(len(s["text"]) for s in sections),
    }  # fmt: skip
    by_id = {str(d.get("doc_id", "")): d for d in documents}
    return Prepared(
        retriever.answer_system_prompt, user, references, sections, trace, navs, by_id, query,
        retriever.ranking_memory, overview="\n\n".join(blocks) + "\n\n" + message("note.offline", language),
    )  # fmt: skip
