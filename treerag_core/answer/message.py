"""``AnswerMessage``, the answer a blocking ``ask`` returns (the seed's contract): a LangChain
``AIMessage`` with the answer's references and support.

In a module of its own, imported when the first ``AnswerMessage`` is made or named, so that
importing the core does not import LangChain: the Streamlit app, the CLI and the workers
stream answers or ask for plain dicts, and on the offline engine they never need it (it
brought pydantic's v1 layer, requests and urllib3 into every fresh server, about 0.15 s).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage


class AnswerMessage(AIMessage):
    """A LangChain ``AIMessage`` with the sections the answer was drawn from, each
    sentence's support (:mod:`.support`) and, when the model's reply was set aside for the
    offline answer, that reply (``model_answer``)."""

    references: list[dict[str, Any]] = []
    support: dict[str, Any] | None = None
    model_answer: str = ""
