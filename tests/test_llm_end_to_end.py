"""index_document with a model summarizer, then ask, all through the real OpenAI client."""

from __future__ import annotations

import json

from testkit.fake_llm_servers import FakeLLMServer, kind_of, messages_text, openai_chat
from treerag_core import ask, index_document, make_retriever, make_summarizer


def test_index_with_llm_summaries_then_ask(tmp_path) -> None:
    server = FakeLLMServer("openai").start()
    try:

        def reply(request):
            kind = kind_of(request)
            _, user = messages_text(request)
            if kind == "summary":
                title = user.split("\n")[0].removeprefix("Section title: ")
                # more than the title (a summary that only restates it is asked again)
                said = f"Covers {title.lower()}: the rules and time limits that apply."
                return json.dumps({"summary": said, "tags": f"{title}, Acme"})
            if kind == "search":
                line = next(ln for ln in user.splitlines() if "covers refunds" in ln.lower())
                return f"The refund rules are in {line.split(']')[0].split('[')[1]}."
            return "Refunds are possible within 30 days."

        server.reply = reply
        source = tmp_path / "policy.md"
        source.write_text(
            "# Policy\n\nGeneral rules.\n\n## Refunds\n\nRefunds within 30 days.\n\n## Shipping\n\nShips in 2 days.\n"
        )
        progress = []
        doc = index_document(
            str(source),
            summarizer=make_summarizer(openai_chat(server), max_workers=2),
            registry_path=str(tmp_path / "reg.json"),
            verbose=False,
            progress=lambda done, total, msg: progress.append(msg),
        )
        assert (
            "Covers refunds: the rules" in doc["tree_outline"]
            and "Tags: Refunds, Acme" in doc["tree_outline"]
        )
        stats = doc["stats"]["summaries"]
        assert stats["calls"] == 3 and stats["fallbacks"] == 0 and stats["tokens_in"] > 0
        assert any("Summarised" in m for m in progress)
        server.reset()
        result = ask("Can I get a refund?", doc, make_retriever(openai_chat(server)))
        assert server.kinds() == ["search", "answer"]
        assert result.references[0]["title"] == "Refunds"
        assert result.response_metadata["trace"]["documents"][0]["steps"][0]["parsed_as"] == "prose"
    finally:
        server.stop()
