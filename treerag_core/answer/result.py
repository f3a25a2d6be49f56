"""How an answer comes back: usage over both calls, the cited references, the message.

The last step of every way of asking: a blocking ``ask`` returns :func:`finish`'s message
(or dict), a stream ends with :func:`final_chunk`.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from ..evidence.locate import attach_evidence
from ..llm.call import LLMReply, model_name
from ..navigate.base import NavigationResult
from ..text import ENGINE_NAME, detect_language
from .calculations import calculated
from .checked import Checked, checked_reply
from .context import Prepared
from .retriever import Retriever

if TYPE_CHECKING:
    from .message import AnswerMessage

log = logging.getLogger("treerag.qa")

_CITATION = re.compile(r"\[S(\d+)\b")


def usage(navs: list[NavigationResult], answer: LLMReply | None) -> dict[str, Any]:
    """Calls and tokens of the search step(s) and the answer call, and their totals."""
    search: dict[str, Any] = {"calls": 0, "input_tokens": 0, "output_tokens": 0}
    models: set[str] = set()
    for nav in navs:
        u = nav.usage()
        for key in ("calls", "input_tokens", "output_tokens"):
            search[key] += u[key]
        models.update(u["models"])
    search["models"] = sorted(models)
    search["total_tokens"] = search["input_tokens"] + search["output_tokens"]
    ans = answer.usage() if answer else {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
    ans["calls"] = 1 if answer and answer.model != ENGINE_NAME else 0
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


def mark_cited(references: list[dict[str, Any]], answer: str) -> None:
    """Flag the references the answer cites (``[S2]``): the sections it actually used come
    first for the reader; when the answer cites none, every section sent counts as used."""
    cited = {f"S{n}" for n in _CITATION.findall(answer)}
    for ref in references:
        ref["cited"] = not cited or ref.get("ref") in cited


def _cite(prepared: Prepared, answer: str, retriever: Retriever) -> None:
    """Mark what the answer cites and locate that evidence in the sources."""
    mark_cited(prepared.references, answer)
    attach_evidence(
        answer, prepared.references, prepared.documents, retriever.read_source,
        retriever.ocr_cache, retriever.ranking_memory,
    )  # fmt: skip


def report_trace(trace: dict[str, Any], use: dict[str, Any], verbose: bool) -> None:
    """The navigation and its cost to the ``treerag.qa`` log; printed too with ``verbose``."""
    lines = []
    for doc in trace["documents"]:
        lines.append(f"{doc['file_name']}: {doc['mode']} → {', '.join(doc['chosen']) or 'nothing'}")
        if doc["fallback"]:
            lines.append(f"  fallback: {doc['fallback']}")
        lines += [
            f"  step {step.get('step')}: {step['reasoning']}"
            for step in doc["steps"]
            if step.get("reasoning")
        ]
    lines.append(f"{use['llm_calls']} LLM calls, {use['total_tokens']} tokens")
    for line in lines:
        log.info(line)
        if verbose:
            print(f"[treerag] {line}")


def finish(
    prepared: Prepared, reply: LLMReply, retriever: Retriever, return_raw: bool, verbose: bool
) -> AnswerMessage | dict[str, Any]:
    """The answer as an ``AnswerMessage`` (the seed's contract) or a plain dict."""
    use = usage(prepared.navs, reply)
    shown = _checked(prepared, reply)
    _cite(prepared, shown.text, retriever)
    report_trace(prepared.trace, use, verbose)
    if not return_raw:
        return {
            "answer": shown.text,
            "references": prepared.references,
            "trace": prepared.trace,
            "usage": use,
            "support": shown.support,
            "model_answer": shown.model_answer,
        }
    search_model = (
        model_name(retriever.search_llm) if retriever.search_llm is not None else ENGINE_NAME
    )
    metadata = {
        "token_usage": {
            "prompt_tokens": use["input_tokens"],
            "completion_tokens": use["output_tokens"],
            "total_tokens": use["total_tokens"],
            "search": use["search"],
            "answer": use["answer"],
        },
        "model_name": reply.model or ENGINE_NAME,
        "search_model_name": search_model,
        "finish_reason": reply.finish_reason,
        "llm_calls": use["llm_calls"],
        "trace": prepared.trace,
    }
    from .message import AnswerMessage  # LangChain, only for the seed's message (see there)

    return AnswerMessage(
        content=shown.text,
        references=prepared.references,
        support=shown.support,
        model_answer=shown.model_answer,
        response_metadata=metadata,
        usage_metadata={
            "input_tokens": use["input_tokens"],
            "output_tokens": use["output_tokens"],
            "total_tokens": use["total_tokens"],
        },
    )


def final_chunk(
    prepared: Prepared, reply: LLMReply, retriever: Retriever, verbose: bool
) -> dict[str, Any]:
    """The last item of a stream: references (with evidence), trace and usage, and the
    answer as it is to be shown once complete (``answer``: its citations renumbered in the
    order used, or the offline answer when the model's was set aside), with its support."""
    use = usage(prepared.navs, reply)
    shown = _checked(prepared, reply)
    _cite(prepared, shown.text, retriever)
    report_trace(prepared.trace, use, verbose)
    return {
        "__references__": prepared.references,
        "trace": prepared.trace,
        "usage": use,
        "model_name": reply.model,
        "answer": shown.text,
        "support": shown.support,
        "model_answer": shown.model_answer,
    }


def _checked(prepared: Prepared, reply: LLMReply) -> Checked:
    """The reply with the calculations it asks for computed (:mod:`.calculations`),
    renumbered, checked, and set aside if it cannot be checked (the question is the one
    asked, as the trace keeps it)."""
    query = str(prepared.trace.get("question") or prepared.searched_as or "")
    language = prepared.language(query)
    if reply.model and reply.model != ENGINE_NAME:  # the model's asked calculations, by code
        # in the language the model writes (its prompt asks for the question's, and the
        # check holds it to that): our words beside its own are said in it too
        reply = calculated(prepared, reply, detect_language(query) or language)
    return checked_reply(query, prepared, reply, language)
