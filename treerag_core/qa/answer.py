"""``ask`` / ``aask`` / ``ask_multi`` / ``aask_multi`` and the retrievers that power them.

Two model calls per question on a document whose outline fits the search budget: the
search model reads the outline and names sections; the answer model reads only those
sections' text, quoted as data. ``ask_multi`` navigates each document (concurrently),
merges, and makes ONE answer call; every reference names its ``doc_id`` and ``file_name``
so two documents' node ``0000`` never collide.

Failure policy: a failed or unusable *search* falls back to the offline ranking (the trace
says so); a failed *answer* call raises :class:`LLMError` with a readable message — in a
stream, after the chunks already delivered — because an answer that silently stops is
worse than a visible error.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage

from ..errors import TreeragError
from ..ingest.outline import page_label
from ..ingest.summarize import truncate
from ..ingest.tree import subtree_page_range
from ..llm.call import (
    DEFAULT_STREAM_MAX_CHARS,
    DEFAULT_STREAM_MAX_SECONDS,
    LLMReply,
    StreamState,
    ainvoke,
    astream,
    invoke,
    model_name,
    stream,
)
from ..llm.prompts import (
    ANSWER_SYSTEM_PROMPT,
    ANSWER_USER_PROMPT,
    SEARCH_SYSTEM_PROMPT,
    SEARCH_USER_PROMPT,
    format_extra_context,
    quote_section,
)
from ..store.llm_cache import LLMCache
from ..text.offline import ENGINE_NAME, extractive_answer
from ..types import Document, FlatNode
from .excerpt import section_excerpt
from .navigate import NavigationConfig, NavigationResult, SearchPrompts, anavigate, navigate

EMPTY_ANSWER = "The document has no indexed text, so there is nothing to answer from."


class AnswerMessage(AIMessage):
    """A LangChain ``AIMessage`` with the sections the answer was drawn from."""

    references: list[dict[str, Any]] = []


@dataclass(frozen=True, eq=False)
class Retriever:
    """Everything a question needs besides the document: models, prompts, budgets, cache.

    Calling it returns the references navigation picks, without answering.
    """

    llm: Any = None
    search_llm: Any = None
    answer_system_prompt: str = ANSWER_SYSTEM_PROMPT
    answer_user_prompt_template: str = ANSWER_USER_PROMPT
    search_prompts: SearchPrompts = field(default_factory=SearchPrompts)
    navigation: NavigationConfig = field(default_factory=NavigationConfig)
    max_context_chars: int = 48_000
    cache: LLMCache | None = None
    is_async: bool = False
    answer_max_chars: int = DEFAULT_STREAM_MAX_CHARS
    answer_max_seconds: float = DEFAULT_STREAM_MAX_SECONDS

    def __call__(
        self, query: str, document: Document, extra_context: str = ""
    ) -> list[dict[str, Any]]:
        nav = self.navigate(query, document, extra_context)
        return [_reference(document, nid) for nid in nav.node_ids]

    def navigate(self, query: str, document: Document, extra_context: str = "") -> NavigationResult:
        return navigate(
            query,
            document,
            self.search_llm,
            self.navigation,
            self.search_prompts,
            extra_context,
            self.cache,
        )

    async def anavigate(
        self, query: str, document: Document, extra_context: str = ""
    ) -> NavigationResult:
        return await anavigate(
            query,
            document,
            self.search_llm,
            self.navigation,
            self.search_prompts,
            extra_context,
            self.cache,
        )


def make_retriever(
    llm: Any = None,
    search_llm: Any = None,
    search_system_prompt: str = SEARCH_SYSTEM_PROMPT,
    search_user_prompt_template: str = SEARCH_USER_PROMPT,
    answer_system_prompt: str = ANSWER_SYSTEM_PROMPT,
    answer_user_prompt_template: str = ANSWER_USER_PROMPT,
    navigation: NavigationConfig | None = None,
    max_context_chars: int = 48_000,
    cache: LLMCache | None = None,
    answer_max_chars: int = DEFAULT_STREAM_MAX_CHARS,
    answer_max_seconds: float = DEFAULT_STREAM_MAX_SECONDS,
) -> Retriever:
    """A retriever for :func:`ask`; ``search_llm`` defaults to ``llm``; ``None`` = offline."""
    return Retriever(
        llm=llm,
        search_llm=search_llm if search_llm is not None else llm,
        answer_system_prompt=answer_system_prompt,
        answer_user_prompt_template=answer_user_prompt_template,
        search_prompts=SearchPrompts(system=search_system_prompt, user=search_user_prompt_template),
        navigation=navigation or NavigationConfig(),
        max_context_chars=max_context_chars,
        cache=cache,
        is_async=False,
        answer_max_chars=answer_max_chars,
        answer_max_seconds=answer_max_seconds,
    )


def make_async_retriever(llm: Any = None, search_llm: Any = None, **kwargs: Any) -> Retriever:
    """Same as :func:`make_retriever`; :func:`aask` uses ``ainvoke`` / ``astream`` with it."""
    base = make_retriever(llm, search_llm, **kwargs)
    return Retriever(**{**base.__dict__, "is_async": True})


# --- building the answer prompt ---------------------------------------------------------


@dataclass
class _Prepared:
    system: str
    user: str
    references: list[dict[str, Any]]
    sections: list[dict[str, Any]]  # {"label", "text"} for the offline engine
    trace: dict[str, Any]
    navs: list[NavigationResult]


def _reference(document: Document, node_id: str) -> dict[str, Any]:
    flat = document.get("flat_nodes") or {}
    node = flat[node_id]
    start, end = node.get("page_start"), node.get("page_end")
    if node.get("children") and len(node.get("text") or "") < 200:
        start, end = subtree_page_range(flat, node_id)
    return {
        "node_id": node_id,
        "title": node.get("title", ""),
        "path": node.get("path", node.get("title", "")),
        "file_name": document.get("file_name", ""),
        "doc_id": document.get("doc_id", ""),
        "page_start": start,
        "page_end": end,
    }


def _section_text(
    flat: dict[str, FlatNode], node_id: str, query: str, max_chars: int
) -> tuple[str, int | None, int | None]:
    """Text for the answer model and the pages it comes from.

    A heading with little text of its own brings its sub-sections; a long section is cut
    to its passage that best matches the question (see :mod:`.excerpt`).
    """
    node = flat[node_id]
    if not (node.get("children") and len(node.get("text") or "") < 200):
        return section_excerpt(node, query, max_chars)
    parts = [str(node.get("text") or "")]
    todo = list(reversed(node["children"]))
    size = len(parts[0])
    last_page = node.get("page_end")
    while todo and size < max_chars:
        child = flat[todo.pop()]
        piece = f"\n\n{child.get('title', '')}\n{child.get('text') or ''}"
        parts.append(piece)
        size += len(piece)
        last_page = child.get("page_end") or last_page
        todo.extend(reversed(child.get("children") or []))
    return truncate("".join(parts).strip(), max_chars), node.get("page_start"), last_page


def _pages(ref: dict[str, Any]) -> str:
    return page_label(ref.get("page_start"), ref.get("page_end"))


def _prepare(
    query: str,
    documents: list[Document],
    navs: list[NavigationResult],
    retriever: Retriever,
    extra_context: str,
) -> _Prepared:
    picks = [(doc, nid) for doc, nav in zip(documents, navs, strict=True) for nid in nav.node_ids]
    share = max(500, retriever.max_context_chars // max(1, len(picks)))
    references, quoted, sections = [], [], []
    for index, (doc, nid) in enumerate(picks, 1):
        ref = _reference(doc, nid)
        text, ref["page_start"], ref["page_end"] = _section_text(
            doc["flat_nodes"], nid, query, share
        )
        ref["ref"] = f"S{index}"
        attributes = {"ref": ref["ref"], "file": ref["file_name"], "path": ref["path"]}
        if _pages(ref):
            attributes["pages"] = _pages(ref)
        references.append(ref)
        quoted.append(quote_section(text, attributes))
        where = f"{ref['file_name']} › {ref['path']}" if len(documents) > 1 else ref["path"]
        label = f"{ref['ref']} · {where}"
        sections.append(
            {"label": label + (f", {_pages(ref)}" if _pages(ref) else ""), "text": text}
        )
    user = retriever.answer_user_prompt_template.format(
        query=query, extra_context=format_extra_context(extra_context), sections="\n\n".join(quoted)
    )
    trace = {
        "documents": [
            {
                "doc_id": doc.get("doc_id", ""),
                "file_name": doc.get("file_name", ""),
                "mode": nav.mode,
                "fallback": nav.fallback,
                "chosen": nav.node_ids,
                "steps": nav.trace,
            }
            for doc, nav in zip(documents, navs, strict=True)
        ],
        "sections_sent": len(references),
        "context_chars": sum(len(s["text"]) for s in sections),
    }
    return _Prepared(retriever.answer_system_prompt, user, references, sections, trace, navs)


def _usage(navs: list[NavigationResult], answer: LLMReply | None) -> dict[str, Any]:
    search = {"calls": 0, "input_tokens": 0, "output_tokens": 0, "models": set()}
    for nav in navs:
        u = nav.usage()
        search["calls"] += u["calls"]
        search["input_tokens"] += u["input_tokens"]
        search["output_tokens"] += u["output_tokens"]
        search["models"].update(u["models"])
    search["models"] = sorted(search["models"])
    search["total_tokens"] = search["input_tokens"] + search["output_tokens"]
    ans = answer.usage() if answer else {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
    ans["calls"] = 1 if answer and not answer.model == ENGINE_NAME else 0
    tin = search["input_tokens"] + ans["input_tokens"]
    tout = search["output_tokens"] + ans["output_tokens"]
    return {
        "search": search,
        "answer": ans,
        "llm_calls": search["calls"] + ans["calls"],
        "input_tokens": tin,
        "output_tokens": tout,
        "total_tokens": tin + tout,
    }


def _offline_reply(query: str, prepared: _Prepared) -> LLMReply:
    if not prepared.sections:
        return LLMReply(text=EMPTY_ANSWER, model=ENGINE_NAME)
    text, _used = extractive_answer(query, prepared.sections)
    return LLMReply(text=text, model=ENGINE_NAME)


def _result(
    prepared: _Prepared, reply: LLMReply, retriever: Retriever, return_raw: bool, verbose: bool
) -> AnswerMessage | dict[str, Any]:
    usage = _usage(prepared.navs, reply)
    _mark_cited(prepared.references, reply.text)
    if verbose:
        _print_trace(prepared.trace, usage)
    if not return_raw:
        return {
            "answer": reply.text,
            "references": prepared.references,
            "trace": prepared.trace,
            "usage": usage,
        }
    search_model = (
        model_name(retriever.search_llm) if retriever.search_llm is not None else ENGINE_NAME
    )
    metadata = {
        "token_usage": {
            "prompt_tokens": usage["input_tokens"],
            "completion_tokens": usage["output_tokens"],
            "total_tokens": usage["total_tokens"],
            "search": usage["search"],
            "answer": usage["answer"],
        },
        "model_name": reply.model or ENGINE_NAME,
        "search_model_name": search_model,
        "finish_reason": reply.finish_reason,
        "llm_calls": usage["llm_calls"],
        "trace": prepared.trace,
    }
    return AnswerMessage(
        content=reply.text,
        references=prepared.references,
        response_metadata=metadata,
        usage_metadata={
            "input_tokens": usage["input_tokens"],
            "output_tokens": usage["output_tokens"],
            "total_tokens": usage["total_tokens"],
        },
    )


_CITATION = re.compile(r"\[S(\d+)\b")


def _mark_cited(references: list[dict[str, Any]], answer: str) -> None:
    """Flag the references the answer cites (``[S2]``): the sections it actually used come
    first for the reader; when the answer cites none, every section sent counts as used."""
    cited = {f"S{n}" for n in _CITATION.findall(answer)}
    for ref in references:
        ref["cited"] = not cited or ref.get("ref") in cited


def _final_chunk(prepared: _Prepared, reply: LLMReply) -> dict[str, Any]:
    _mark_cited(prepared.references, reply.text)
    return {
        "__references__": prepared.references,
        "trace": prepared.trace,
        "usage": _usage(prepared.navs, reply),
        "model_name": reply.model,
    }


def _print_trace(trace: dict[str, Any], usage: dict[str, Any]) -> None:
    for doc in trace["documents"]:
        print(
            f"[treerag] {doc['file_name']}: {doc['mode']} → {', '.join(doc['chosen']) or 'nothing'}"
        )
        if doc["fallback"]:
            print(f"[treerag]   fallback: {doc['fallback']}")
        for step in doc["steps"]:
            if step.get("reasoning"):
                print(f"[treerag]   step {step.get('step')}: {step['reasoning']}")
    print(f"[treerag] {usage['llm_calls']} LLM calls, {usage['total_tokens']} tokens")


def _check(query: str, documents: list[Document]) -> None:
    if not str(query or "").strip():
        raise TreeragError("The question is empty: type a question first.")
    for doc in documents:
        if not isinstance(doc, dict) or "flat_nodes" not in doc:
            raise TreeragError(
                "That is not an indexed document: pass the dict index_document returned."
            )


def _unique(documents: list[Document]) -> list[Document]:
    seen: set[str] = set()
    out = []
    for doc in documents:
        key = doc.get("doc_id") or str(id(doc))
        if key not in seen:
            seen.add(key)
            out.append(doc)
    return out


# --- sync -------------------------------------------------------------------------------


def _answer_sync(
    query: str,
    documents: list[Document],
    navs: list[NavigationResult],
    retriever: Retriever,
    extra_context: str,
    stream_mode: bool,
    return_raw: bool,
    verbose: bool,
) -> Any:
    prepared = _prepare(query, documents, navs, retriever, extra_context)
    if retriever.llm is None or not prepared.references:
        reply = _offline_reply(query, prepared)
        if stream_mode:
            return _replay(prepared, reply)
        return _result(prepared, reply, retriever, return_raw, verbose)
    if stream_mode:
        return _stream_answer(prepared, retriever, verbose)
    reply = invoke(retriever.llm, prepared.system, prepared.user, what="answer")
    return _result(prepared, reply, retriever, return_raw, verbose)


def _replay(prepared: _Prepared, reply: LLMReply) -> Iterator[str | dict[str, Any]]:
    yield from reply.text.splitlines(keepends=True)
    yield _final_chunk(prepared, reply)


def _stream_answer(
    prepared: _Prepared, retriever: Retriever, verbose: bool
) -> Iterator[str | dict[str, Any]]:
    state = StreamState()
    yield from stream(
        retriever.llm,
        prepared.system,
        prepared.user,
        state,
        max_chars=retriever.answer_max_chars,
        max_seconds=retriever.answer_max_seconds,
    )
    final = _final_chunk(prepared, state.reply or LLMReply(text="".join(state.parts)))
    if verbose:
        _print_trace(prepared.trace, final["usage"])
    yield final


def ask(
    query: str,
    document: Document,
    retriever: Retriever,
    extra_context: str = "",
    stream: bool = False,
    return_raw: bool = True,
    verbose: bool = False,
) -> AnswerMessage | dict[str, Any] | Iterator[str | dict[str, Any]]:
    """Answer ``query`` from ``document``: navigate the outline, then answer from the text.

    ``stream=True`` returns a generator of text chunks ending with one
    ``{"__references__": [...], "trace": ..., "usage": ...}`` dict.
    """
    _check(query, [document])
    if stream:
        return _lazy(
            lambda: _answer_sync(
                query,
                [document],
                [retriever.navigate(query, document, extra_context)],
                retriever,
                extra_context,
                True,
                return_raw,
                verbose,
            )
        )
    nav = retriever.navigate(query, document, extra_context)
    return _answer_sync(
        query, [document], [nav], retriever, extra_context, False, return_raw, verbose
    )


def ask_multi(
    query: str,
    documents: list[Document],
    retriever: Retriever,
    extra_context: str = "",
    stream: bool = False,
    return_raw: bool = True,
    verbose: bool = False,
) -> AnswerMessage | dict[str, Any] | Iterator[str | dict[str, Any]]:
    """One answer over several documents: navigate each (in parallel), merge, answer once."""
    documents = _unique(list(documents))
    _check(query, documents)

    def run(stream_mode: bool) -> Any:
        with ThreadPoolExecutor(max_workers=max(1, min(4, len(documents)))) as pool:
            navs = list(pool.map(lambda d: retriever.navigate(query, d, extra_context), documents))
        return _answer_sync(
            query, documents, navs, retriever, extra_context, stream_mode, return_raw, verbose
        )

    if stream:
        return _lazy(lambda: run(True))
    return run(False)


def _lazy(start: Any) -> Iterator[str | dict[str, Any]]:
    """Defer navigation until the caller starts iterating (the seed's generator contract)."""
    yield from start()


# --- async ------------------------------------------------------------------------------


async def _answer_async(
    query: str,
    documents: list[Document],
    navs: list[NavigationResult],
    retriever: Retriever,
    extra_context: str,
    return_raw: bool,
    verbose: bool,
) -> Any:
    prepared = _prepare(query, documents, navs, retriever, extra_context)
    if retriever.llm is None or not prepared.references:
        return _result(prepared, _offline_reply(query, prepared), retriever, return_raw, verbose)
    reply = await ainvoke(retriever.llm, prepared.system, prepared.user, what="answer")
    return _result(prepared, reply, retriever, return_raw, verbose)


async def _astream_answer(
    query: str, documents: list[Document], retriever: Retriever, extra_context: str, verbose: bool
) -> AsyncIterator[str | dict[str, Any]]:
    navs = list(
        await asyncio.gather(*(retriever.anavigate(query, d, extra_context) for d in documents))
    )
    prepared = _prepare(query, documents, navs, retriever, extra_context)
    if retriever.llm is None or not prepared.references:
        reply = _offline_reply(query, prepared)
        for line in reply.text.splitlines(keepends=True):
            yield line
        yield _final_chunk(prepared, reply)
        return
    state = StreamState()
    async for chunk in astream(
        retriever.llm,
        prepared.system,
        prepared.user,
        state,
        max_chars=retriever.answer_max_chars,
        max_seconds=retriever.answer_max_seconds,
    ):
        yield chunk
    final = _final_chunk(prepared, state.reply or LLMReply(text="".join(state.parts)))
    if verbose:
        _print_trace(prepared.trace, final["usage"])
    yield final


async def aask(
    query: str,
    document: Document,
    retriever: Retriever,
    extra_context: str = "",
    stream: bool = False,
    return_raw: bool = True,
    verbose: bool = False,
) -> AnswerMessage | dict[str, Any] | AsyncIterator[str | dict[str, Any]]:
    """Async :func:`ask`. With ``stream=True``: ``async for chunk in await aask(...)``."""
    _check(query, [document])
    if stream:
        return _astream_answer(query, [document], retriever, extra_context, verbose)
    nav = await retriever.anavigate(query, document, extra_context)
    return await _answer_async(
        query, [document], [nav], retriever, extra_context, return_raw, verbose
    )


async def aask_multi(
    query: str,
    documents: list[Document],
    retriever: Retriever,
    extra_context: str = "",
    stream: bool = False,
    return_raw: bool = True,
    verbose: bool = False,
) -> AnswerMessage | dict[str, Any] | AsyncIterator[str | dict[str, Any]]:
    """Async :func:`ask_multi`: the documents are navigated concurrently."""
    documents = _unique(list(documents))
    _check(query, documents)
    if stream:
        return _astream_answer(query, documents, retriever, extra_context, verbose)
    navs = list(
        await asyncio.gather(*(retriever.anavigate(query, d, extra_context) for d in documents))
    )
    return await _answer_async(
        query, documents, navs, retriever, extra_context, return_raw, verbose
    )
