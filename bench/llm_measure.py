"""Measured figures for the Q&A note (not a test): ``.venv/bin/python -m bench llm_measure``.

A 100-section Markdown document (10 chapters x 10 sections, ~1,500 characters each),
indexed with an LLM summarizer against the fake OpenAI server sleeping 0.2 s per call, at
max_workers 1, 5 and 10; then outline size vs document size and the tokens one question
sends to the answer model vs the whole document.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import time

from testkit.fake_llm_servers import (
    FakeLLMServer,
    default_reply,
    kind_of,
    messages_text,
    openai_chat,
)
from treerag_core import ask, index_document, make_retriever, make_summarizer


def document_text(seed: int = 7) -> str:
    rng = random.Random(seed)
    vocab = [f"term{i}" for i in range(400)]
    parts = []
    for c in range(10):
        parts.append(f"# Chapter {c + 1}: Topic {c + 1}\n\nThis chapter covers topic {c + 1}.\n")
        for s in range(9):
            body = " ".join(rng.choice(vocab) for _ in range(220))
            parts.append(
                f"## {c + 1}.{s + 1} Rule R{c + 1}{s + 1}\n\nRule R{c + 1}{s + 1} says {body}.\n"
            )
    return "\n".join(parts)


def main() -> None:
    text = document_text()
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "rules.md")
    with open(path, "w") as fh:
        fh.write(text)
    server = FakeLLMServer("openai").start()
    server.delay = 0.2

    def reply(request):
        if kind_of(request) == "summary":
            _, user = messages_text(request)
            title = user.split("\n")[0].removeprefix("Section title: ")
            return json.dumps(
                {
                    "summary": f"States {title} and its conditions in detail.",
                    "tags": [title, "Acme"],
                }
            )
        if kind_of(request) == "search":  # a model that finds the rule by its name
            _, user = messages_text(request)
            hits = [
                ln.split("]")[0].split("[")[1]
                for ln in user.splitlines()
                if "Rule R57 " in ln and "- [" in ln
            ]
            return json.dumps({"reasoning": "the rule is named in its title", "node_list": hits})
        return default_reply(request)

    server.reply = reply
    doc = None
    try:
        for workers in (1, 5, 10):
            server.reset()
            started = time.perf_counter()
            doc = index_document(
                path,
                summarizer=make_summarizer(openai_chat(server), max_workers=workers),
                persist=False,
                verbose=False,
            )
            wall = time.perf_counter() - started
            stats = doc["stats"]["summaries"]
            print(
                f"max_workers={workers:2d}: index_document {wall:5.2f} s for {stats['calls']} calls "
                f"(serial estimate {stats['calls'] * 0.2:.1f} s), max in flight {server.max_in_flight}, "
                f"tokens in {stats['tokens_in']}, out {stats['tokens_out']}"
            )
        assert doc is not None
        outline = doc["tree_outline"]
        print(
            f"document {len(text):,} chars ({doc['total_sections']} sections); outline {len(outline):,} chars "
            f"= {len(outline) / len(text):.1%} of the document"
        )
        server.delay = 0
        server.reset()
        result = ask("What does Rule R57 say?", doc, make_retriever(openai_chat(server)))
        usage = result.response_metadata["token_usage"]
        doc_tokens = len(text) // 4
        print(
            f"question: search call {usage['search']['input_tokens']:,} tokens in, answer call "
            f"{usage['answer']['input_tokens']:,} tokens in; whole document ~{doc_tokens:,} tokens; "
            f"answer call = {usage['answer']['input_tokens'] / doc_tokens:.1%} of the document, both calls "
            f"= {usage['prompt_tokens'] / doc_tokens:.1%}; references "
            f"{[r['title'] for r in result.references]}"
        )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
