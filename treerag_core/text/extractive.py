"""The extractive answer: the document's own sentences that best match the question."""

from __future__ import annotations

from typing import Any

from .bm25 import BM25
from .sentences import split_sentences
from .tokens import tokenize

OFFLINE_NOTE = (
    "(Extractive answer from the offline engine: these are the document's own sentences "
    "that best match the question, not a generated answer.)"
)
NO_MATCH_NOTE = (
    "The offline engine found no sentence in the selected sections that matches the "
    "question, so the document may not contain the answer."
)

MIN_ANSWER_TOKENS = 4


def extractive_answer(
    query: str, sections: list[dict[str, Any]], max_sentences: int = 4
) -> tuple[str, list[int]]:
    """The best-matching sentences, each followed by its section reference.

    ``sections`` are ``{"label": str, "text": str}``; returns the answer text and the
    indexes of the sections it quoted.
    """
    sentences: dict[str, list[str]] = {}
    where: dict[str, tuple[int, int]] = {}
    seen: set[str] = set()
    for si, section in enumerate(sections):
        for pi, sentence in enumerate(split_sentences(section.get("text", ""))):
            tokens = tokenize(sentence)
            normal = " ".join(tokens)
            # A bare label ("Net sales") says nothing on its own; a repeat says it twice.
            if len(tokens) < MIN_ANSWER_TOKENS or normal in seen:
                continue
            seen.add(normal)
            key = f"{si}:{pi}"
            sentences[key] = tokens
            where[key] = (si, pi)
    q = tokenize(query)
    scores = BM25(sentences).scores(q) if sentences else {}
    if not scores:
        return NO_MATCH_NOTE + "\n\n" + OFFLINE_NOTE, []
    best = sorted(scores.items(), key=lambda kv: (-kv[1], where[kv[0]]))[:max_sentences]
    best.sort(key=lambda kv: where[kv[0]])
    lines = []
    used: list[int] = []
    for key, _ in best:
        si, pi = where[key]
        text = split_sentences(sections[si].get("text", ""))[pi]
        lines.append(f"- {text} [{sections[si]['label']}]")
        if si not in used:
            used.append(si)
    return "\n".join(lines) + "\n\n" + OFFLINE_NOTE, used
