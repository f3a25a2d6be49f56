"""What a fresh process on the offline engine does not import: LangChain (its messages bring
pydantic's v1 layer, requests and urllib3) and pypdf are paid for only by what uses them, so
a fresh server starts without them (issue #42: a cold server's start-up was a third of its
CPU). Checked in a subprocess, by ``sys.modules``: no timing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("langchain_core", "langchain_openai", "langchain_ollama", "openai", "pypdf")

START = """
import importlib, json, pkgutil, sys
import ui
for module in pkgutil.iter_modules(ui.__path__):  # what app.py imports at start
    importlib.import_module(f"ui.{module.name}")
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in HEAVY)))
"""

ASK = """
import json, sys
from treerag_core import ask, index_document, make_retriever, make_summarizer
doc = index_document(sys.argv[1], summarizer=make_summarizer(None), registry_path=sys.argv[2],
                     verbose=False)
chunks = list(ask("How long is the warranty?", doc, make_retriever(None), stream=True))
assert isinstance(chunks[-1], dict) and chunks[-1]["__references__"]
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in HEAVY)))
"""


def _imported(code: str, *args: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "OLLAMA"))}
    env.update(PYTHONPATH=str(ROOT), TREERAG_PROVIDER="offline")
    done = subprocess.run(
        [sys.executable, "-c", f"HEAVY = {HEAVY!r}\n{code}", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_apps_start_imports_no_model_client_and_no_pypdf() -> None:
    assert _imported(START) == []


def test_an_offline_streamed_answer_imports_no_langchain(tmp_path: Path) -> None:
    source = tmp_path / "guide.md"
    source.write_text("# Warranty\n\nThe widget has a 24 months warranty.\n\n# Prices\n\n49 EUR.\n")
    assert _imported(ASK, str(source), str(tmp_path / "indexed_docs.json")) == []


def test_the_answer_message_is_still_the_seeds_langchain_message() -> None:
    from langchain_core.messages import AIMessage

    import treerag_core
    from treerag_core.answer import AnswerMessage

    assert treerag_core.AnswerMessage is AnswerMessage
    assert issubclass(AnswerMessage, AIMessage)
