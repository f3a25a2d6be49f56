"""How the offline engine reads a follow-up question: deterministically, from the turn before.

"What were Amazon's total net sales in 2019?" then "And in 2018?": the second question
alone names nothing to search for. A question that refers back (it starts with "and",
"what about", "same for", …, uses a pronoun, or is only a few words) borrows from the
previous question *as it was searched*, so a chain of follow-ups keeps its subject:

- its periods (years, fiscal years, quarters), unless the new question names its own;
- its names (capitalised words, acronyms: "Amazon", "3M"), unless the new question names one;
- its topic words ("total net sales"), unless the new question brings its own topic and does
  not point back at the old one ("what about operating income?" changes the topic; "how did
  it change?" keeps it).

When the topic is kept, the sections the previous answer used are read again too (they are
where that topic lives). No model is involved: the same history always gives the same search.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..text.tokens import STOPWORDS, tokenize

# Openings that make a question lean on the previous one ("And in 2018?", "What about…").
CONNECTIVES = (
    "and",
    "what about",
    "how about",
    "what of",
    "same for",
    "same question for",
    "the same for",
    "also",
    "or",
    "then",
    "now",
    "but",
    "as for",
    "compared to",
    "versus",
    "vs",
)
# Words that point back at the previous question's subject ("how did it change?").
THING_REFERENCES = frozenset(
    "it that this these those them same such former latter figure number amount one ones".split()
)
# Words that point back at the previous question's company or person ("their margin?").
OWNER_REFERENCES = frozenset("its their they theirs his her he she him".split())
# A question with at most this many words of its own (besides periods) is read as elliptical
# when there is a turn before it: "And net income?" names one thing and relies on the rest.
SHORT_QUESTION_WORDS = 2
# Words that ask, compare, point or place in time, not what is asked about: never a topic
# of their own ("and at the end of 2018?" asks the old topic for another period).
ASKING_WORDS = frozenset(
    """much many tell give show list describe explain compare comparison change changed
    changes differ difference year years yearly annual annually period periods prior
    previous following next last current same again instead versus vs like look please
    value end beginning start close fiscal quarter quarters month months date ended ending
    dated during time""".split()
)
_PERIOD = re.compile(
    r"\b(?:FY\s?'?\d{2,4}|Q[1-4](?:\s?(?:FY)?\s?'?\d{2,4})?|(?:19|20)\d\d|"
    r"(?:first|second|third|fourth)\s+quarter|H[12])\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'’.\-]*[A-Za-z0-9]|[A-Za-z0-9]")


@dataclass(frozen=True)
class Terms:
    """A question taken apart: periods, names, topic words (in order), pointers back."""

    periods: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    topic: tuple[str, ...] = ()
    points_to_thing: bool = False
    points_to_owner: bool = False
    connective: bool = False


@dataclass(frozen=True)
class Resolution:
    """The question as the offline ranking searches it, and what was borrowed to get there."""

    question: str
    searched_as: str
    followup: bool = False
    carried_terms: tuple[str, ...] = ()
    keeps_topic: bool = False  # the previous answer's sections are read again
    why: str = ""
    terms: Terms = field(default_factory=Terms)

    def as_trace(self) -> dict[str, object]:
        return {
            "followup": self.followup,
            "searched_as": self.searched_as,
            "carried_terms": list(self.carried_terms),
            "keeps_topic": self.keeps_topic,
            "why": self.why,
        }


def _strip_possessive(word: str) -> str:
    return re.sub(r"['’]s$", "", word)


def analyse(question: str) -> Terms:
    """Periods, names and topic words of one question (surface forms, in order)."""
    text = " ".join(str(question or "").split())
    periods = tuple(m.group(0) for m in _PERIOD.finditer(text))
    rest = _PERIOD.sub(" ", text)
    lowered = text.lower().lstrip("¿¡\"'( ")
    connective = any(
        lowered == c or lowered.startswith(c + " ") or lowered.startswith(c + ",")
        for c in CONNECTIVES
    )
    names: list[str] = []
    topic: list[str] = []
    thing = owner = False
    for position, match in enumerate(_WORD.finditer(rest)):
        raw = match.group(0)
        word = _strip_possessive(raw)
        low = word.lower()
        if low in THING_REFERENCES:
            thing = True
        if low in OWNER_REFERENCES:
            owner = True
        if low in STOPWORDS or low in ASKING_WORDS or not tokenize(word):
            continue
        first = position == 0
        if any(ch.isupper() for ch in word) and not (first and word[1:].islower()):
            names.append(word)
        elif first and word[:1].isupper() and word[1:].islower() and raw != word:
            names.append(word)  # "Amazon's net sales?": a possessive opening is a name
        else:
            topic.append(low)
    return Terms(
        periods=periods,
        names=tuple(dict.fromkeys(names)),
        topic=tuple(dict.fromkeys(topic)),
        points_to_thing=thing,
        points_to_owner=owner,
        connective=connective,
    )


def resolve(question: str, previous_searched: str | None) -> Resolution:
    """``question`` as searched after a turn that was searched as ``previous_searched``."""
    question = " ".join(str(question or "").split())
    if not previous_searched:
        return Resolution(question, question)
    new = analyse(question)
    own_words = len(new.names) + len(new.topic)
    reasons = []
    if new.connective:
        reasons.append("starts by referring back")
    if new.points_to_thing or new.points_to_owner:
        reasons.append("points back with a pronoun")
    if own_words <= SHORT_QUESTION_WORDS:
        reasons.append(f"names only {own_words} thing(s) of its own")
    if not reasons:
        return Resolution(question, question, why="stands on its own", terms=new)
    old = analyse(previous_searched)
    carried: list[str] = []
    if not new.periods:
        carried += old.periods
    if not new.names:
        carried += old.names
    keeps_topic = not new.topic or new.points_to_thing
    if keeps_topic:
        carried += [w for w in old.topic if w not in new.topic]
    carried = list(dict.fromkeys(carried))
    searched = f"{question} {' '.join(carried)}".strip() if carried else question
    return Resolution(
        question,
        searched,
        followup=True,
        carried_terms=tuple(carried),
        keeps_topic=keeps_topic and bool(old.topic),
        why="; ".join(reasons),
        terms=new,
    )


def resolve_chain(questions: list[str]) -> list[Resolution]:
    """Each question of a conversation resolved against the one before, as searched."""
    out: list[Resolution] = []
    previous: str | None = None
    for question in questions:
        resolution = resolve(question, previous)
        out.append(resolution)
        previous = resolution.searched_as
    return out
