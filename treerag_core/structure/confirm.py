"""A model's second look at the headings found only by their look, when a model is set.

Typography alone cannot tell a bold line that starts a section from a bold line that does
not (a person's name in a list, a table's caption, an emphasised sentence). The numbered,
keyword and standard-title headings are sure; the others are *doubtful*, and a model that
reads them with the first words beneath them can set the wrong ones aside. One batched
call per document keeps it inside the indexing budget, and every failure (an error, a
timeout, a reply that is not the JSON asked for) leaves the deterministic result as it was:
the check can only remove headings it was asked about, never add one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import LLMError
from ..llm.call import invoke
from ..llm.prompts import HEADING_CHECK_SYSTEM_PROMPT, HEADING_CHECK_USER_PROMPT, quote_section
from ..llm.replies import json_candidates
from ..llm.schemas import heading_schema
from ..store.base import Cache
from .headings import Heading
from .layout import Layout

log = logging.getLogger("treerag.structure")

# At most this many doubtful headings go in the one call (about 35 tokens each with the
# words under them: ~10,000 tokens, measured on a 10-K); a document with more keeps the rest
# as found (the check is a refinement).
MAX_DOUBTFUL = 300
# The text under a heading shown with it: enough to see whether it starts a section.
BELOW_CHARS = 90


@dataclass(frozen=True)
class Doubt:
    """A heading found only by its look, as the model is shown it."""

    page: int  # 1-based, as printed for the model
    title: str
    below: str


HeadingJudge = Callable[[str, list[Doubt]], set[int]]  # (name, doubts) → rejected indexes


def make_heading_judge(
    llm: Any,
    system_prompt: str = HEADING_CHECK_SYSTEM_PROMPT,
    user_prompt: str = HEADING_CHECK_USER_PROMPT,
    cache: Cache | None = None,
) -> HeadingJudge:
    """The model's check, one call per document; raises :class:`LLMError` on any failure."""

    def judge(name: str, doubts: list[Doubt]) -> set[int]:
        lines = "\n".join(
            f"{n}. (p. {d.page}) {d.title}  —  {d.below}" for n, d in enumerate(doubts, 1)
        )
        user = user_prompt.format(lines=quote_section(lines, {"document": name}))
        reply = invoke(
            llm, system_prompt, user, what="heading check", cache=cache,
            cacheable=lambda text: parse_rejected(text, len(doubts)) is not None,
            schema=heading_schema(range(1, len(doubts) + 1)),
        )  # fmt: skip
        rejected = parse_rejected(reply.text, len(doubts))
        if rejected is None:
            raise LLMError(
                f"The heading check's reply was not the JSON asked for: {reply.text[:120]!r}"
            )
        return rejected

    return judge


def parse_rejected(text: str, count: int) -> set[int] | None:
    """0-based indexes of the lines the reply sets aside; None when it is not the answer."""
    for value in json_candidates(text):
        if isinstance(value, dict) and isinstance(value.get("not_headings"), list):
            numbers = [str(n).strip() for n in value["not_headings"] if not isinstance(n, bool)]
            return {int(n) - 1 for n in numbers if n.isdigit() and 0 < int(n) <= count}
    return None


def checked(
    headings: list[Heading], layout: Layout, judge: Callable[[list[Doubt]], set[int]] | None
) -> tuple[list[Heading], dict[str, Any] | None]:
    """``headings`` less the doubtful ones the model sets aside, and what was done (for the
    document's record); unchanged when there is no model or the check fails."""
    doubtful = [i for i, h in enumerate(headings) if not h.known][:MAX_DOUBTFUL]
    if judge is None or not doubtful:
        return headings, None
    doubts = [_doubt(headings[i], layout) for i in doubtful]
    try:
        rejected = judge(doubts)
    except Exception as exc:  # noqa: BLE001 - any failure keeps the deterministic headings
        log.warning("heading check skipped: %s", exc)
        return headings, {"asked": len(doubts), "set_aside": [], "error": str(exc)[:300]}
    dropped = {doubtful[n] for n in rejected}
    kept = [h for i, h in enumerate(headings) if i not in dropped]
    return kept, {"asked": len(doubts), "set_aside": [headings[i].title for i in sorted(dropped)]}


def _doubt(heading: Heading, layout: Layout) -> Doubt:
    lines = layout.texts[heading.page][heading.end : heading.end + 4]
    below = " ".join(" ".join(lines).split())[:BELOW_CHARS]
    return Doubt(heading.page + 1, " ".join(heading.title.split()), below)
