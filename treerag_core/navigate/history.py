"""The conversation a question belongs to: earlier turns, checked, resolved and made compact.

``ask(..., history=[...])`` takes the earlier turns oldest first, each
``{"question", "answer", "references"}`` (what ``ask(..., return_raw=False)`` returned, plus
its question). From them one :class:`Conversation` is built per question, and both model
calls read it, so the two-calls-per-question contract holds (no rewrite call):

- the search call sees the recent turns in a compact block (question, the start of the
  answer, the sections it read in *this* document by id), bounded by a token budget;
- the answer call sees the same turns, with sections named by file and path;
- the offline engine searches the question as :mod:`.followup` resolves it, and reads the
  previous answer's sections again when the topic carries over.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import InvalidHistoryError
from ..llm.prompts import HISTORY_TEMPLATE, quote_conversation
from ..text.messages import in_every_language, raised
from ..text.tokens import estimate_tokens, tokenize
from ..tree.outline import page_label
from .followup import Resolution, Terms, resolve, resolve_chain

# The compact history a model call sees, in tokens (chars / 4): four short turns fit, and it
# stays a small share of the search call next to a 40k-character outline.
HISTORY_TOKENS = 600
# Only the most recent turns matter for what "and in 2018?" means; older ones are dropped.
HISTORY_TURNS = 4
# Each earlier answer is cut to its opening: the figure stated, not the whole explanation.
ANSWER_CHARS = 300
# Sections of an earlier turn named in the block (cited ones first).
SECTIONS_PER_TURN = 4
# Sections of the previous answer read again when a follow-up keeps its topic (offline).
CARRIED_SECTIONS = 4
# A history longer than this is refused: it is a mistake, not a conversation.
MAX_HISTORY_TURNS = 1000
MAX_QUESTION_CHARS = 4000


def check_history(history: Sequence[Any] | None) -> list[dict[str, Any]]:
    """The turns as plain dicts (question, answer, references), oldest first;
    ``InvalidHistoryError`` when the history is not a list of such turns."""
    if history is None:
        return []
    if isinstance(history, str | bytes | dict) or not isinstance(history, Sequence):
        raise InvalidHistoryError(
            "history must be a list of earlier turns, oldest first, each "
            '{"question": ..., "answer": ..., "references": [...]}.'
        )
    if len(history) > MAX_HISTORY_TURNS:
        raise raised(
            InvalidHistoryError, "error.history_too_long", count=len(history),
            limit=MAX_HISTORY_TURNS,
        )  # fmt: skip
    turns = []
    for number, turn in enumerate(history, 1):
        if not isinstance(turn, dict) or not str(turn.get("question") or "").strip():
            raise raised(InvalidHistoryError, "error.history_no_question", number=number)
        refs = turn.get("references") or []
        if not isinstance(refs, list) or not all(isinstance(r, dict) for r in refs):
            raise raised(InvalidHistoryError, "error.history_references", number=number)
        turns.append(
            {
                "question": str(turn["question"])[:MAX_QUESTION_CHARS],
                "answer": str(turn.get("answer") or turn.get("content") or ""),
                "references": refs,
            }
        )
    return turns


def _answer_opening(answer: str) -> str:
    for note in in_every_language("note.offline"):
        answer = answer.replace(note, "")
    text = " ".join(answer.split())
    if len(text) <= ANSWER_CHARS:
        return text
    return text[: ANSWER_CHARS - 1].rsplit(" ", 1)[0] + "…"


def _sections(refs: list[dict[str, Any]], doc_id: str | None) -> list[dict[str, Any]]:
    """The turn's sections worth naming: in ``doc_id`` only (when given), cited ones first."""
    mine = [r for r in refs if doc_id is None or str(r.get("doc_id") or "") == doc_id]
    return sorted(mine, key=lambda r: not r.get("cited", True))[:SECTIONS_PER_TURN]


def _turn_text(number: int, turn: dict[str, Any], doc_id: str | None, multi: bool) -> str:
    lines = [f"Q{number}: {' '.join(turn['question'].split())}"]
    answer = _answer_opening(turn["answer"])
    if answer:
        lines.append(f"A{number}: {answer}")
    named = []
    for ref in _sections(turn["references"], doc_id):
        pages = page_label(ref.get("page_start"), ref.get("page_end"), ref.get("page_unit"))
        if doc_id is not None:
            label = f"[{ref.get('node_id')}] {ref.get('title') or ''}"
        else:
            where = f"{ref.get('file_name')} › " if multi else ""
            label = f"{where}{ref.get('path') or ref.get('title') or ''}"
        named.append(label.strip() + (f" ({pages})" if pages else ""))
    if named:
        lines.append("Sections read: " + "; ".join(named))
    return "\n".join(lines)


@dataclass(frozen=True)
class Conversation:
    """What one question needs of its conversation, computed once and shared by every call."""

    question: str
    turns: tuple[dict[str, Any], ...] = ()  # the recent turns that fit, oldest first
    resolution: Resolution | None = None
    budget_tokens: int = HISTORY_TOKENS
    dropped_turns: int = 0  # earlier turns left out (older than the window or the budget)
    _multi: bool = field(default=False, repr=False)
    # The question names another document, entity or topic than the conversation so far:
    # it is asked on its own, the earlier turns shown to no call and routing no document.
    on_its_own: bool = False

    @property
    def searched_as(self) -> str:
        return self.resolution.searched_as if self.resolution else self.question

    def block(self, doc_id: str | None = None) -> str:
        """The turns for a prompt (``HISTORY_TEMPLATE``), or "" without history. With a
        ``doc_id`` (the search call) sections are named by their ids in that document."""
        if not self.turns:
            return ""
        first = len(self.turns)
        parts = [
            _turn_text(first - i, t, doc_id, self._multi) for i, t in enumerate(self.turns[::-1])
        ][::-1]
        return HISTORY_TEMPLATE.format(turns=quote_conversation("\n\n".join(parts)))

    def carried_sections(self, doc_id: str) -> list[str]:
        """The previous answer's sections in ``doc_id`` to read again (offline), if the
        follow-up keeps its topic."""
        if not self.turns or not self.resolution or not self.resolution.keeps_topic:
            return []
        refs = _sections(self.turns[-1]["references"], doc_id)
        return [str(r["node_id"]) for r in refs if r.get("node_id")][:CARRIED_SECTIONS]

    def trace(self) -> dict[str, Any]:
        """What the trace records: the question as searched and the history it was given."""
        out: dict[str, Any] = {"question": self.question, "searched_as": self.searched_as}
        if self.turns or self.dropped_turns:
            out["history"] = {
                "turns_used": len(self.turns),
                "turns_dropped": self.dropped_turns,
                "tokens": estimate_tokens(self.block()),
                "budget_tokens": self.budget_tokens,
            }
        if self.resolution and (self.resolution.followup or self.on_its_own):
            out["followup"] = {**self.resolution.as_trace(), "asked_on_its_own": self.on_its_own}
        return out


def conversation(
    question: str, history: Sequence[Any] | None, budget_tokens: int = HISTORY_TOKENS
) -> Conversation:
    """The question with its recent turns (newest kept first, within ``budget_tokens``)."""
    turns = check_history(history)
    if not turns:
        return Conversation(question, budget_tokens=budget_tokens)
    chain = resolve_chain([t["question"] for t in turns])
    resolution = resolve(question, chain[-1].searched_as)
    if not resolution.followup:
        why = new_subject(resolution.terms, turns)
        if why:  # "What was the revenue of the North region?" after Nike's revenue
            resolution = replace(resolution, why=f"{why}: asked on its own")
            return Conversation(question, (), resolution, budget_tokens, len(turns),
                                on_its_own=True)  # fmt: skip
    multi = len({str(r.get("doc_id")) for t in turns for r in t["references"]}) > 1

    def fits(kept: list[dict[str, Any]]) -> bool:
        trial = Conversation(question, tuple(kept), _multi=multi)
        return estimate_tokens(trial.block()) <= budget_tokens

    kept: list[dict[str, Any]] = []
    for turn in reversed(turns[-HISTORY_TURNS:]):
        if not fits([turn, *kept]):
            break
        kept.insert(0, turn)
    if not kept:  # the newest turn alone is over the budget: it goes, cut to fit
        newest = _shrunk(turns[-1], fits)
        kept = [newest] if fits([newest]) else []
    return Conversation(
        question, tuple(kept), resolution, budget_tokens, len(turns) - len(kept), multi
    )


def new_subject(terms: Terms, turns: list[dict[str, Any]]) -> str:
    """What a question that stands on its own names that the conversation so far does not
    (a name, or a topic none of its words were about), or ``""``: the earlier questions,
    the opening of their answers and the files they read are the conversation."""
    said = " ".join(
        f"{t['question']} {_answer_opening(t['answer'])} "
        + " ".join(str(r.get("file_name") or "") for r in t["references"])
        for t in turns
    )
    known = _compact(said)
    new_names = [name for name in terms.names if _compact(name) not in known]
    if new_names:
        return f"it names {', '.join(new_names)}, which the conversation so far does not"
    asked = set(tokenize(" ".join(t["question"] for t in turns)))
    if terms.topic and not asked.intersection(tokenize(" ".join(terms.topic))):
        return "it asks about another topic than the conversation so far"
    return ""


def _compact(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.lower())


def _shrunk(turn: dict[str, Any], fits: Any) -> dict[str, Any]:
    """One turn cut until it fits: its sections go first, then its answer, then its question
    is shortened (never below a few words)."""
    small = {**turn, "references": list(turn["references"])}
    while not fits([small]):
        if small["references"]:
            small["references"] = small["references"][:-1]
        elif small["answer"]:
            small["answer"] = small["answer"][: len(small["answer"]) // 2].rstrip()
        elif len(small["question"]) > 40:
            small["question"] = small["question"][: len(small["question"]) // 2] + "…"
        else:
            break
    return small
