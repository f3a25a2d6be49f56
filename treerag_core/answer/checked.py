"""The answer as it is shown: citations numbered in the order used, every sentence checked
against its sources, and a model answer that cannot be checked set aside.

The last step before :mod:`.result` returns an answer, for every way of asking:

- **Citations in the order used.** Sections are numbered as they were read, so a first
  answer could cite ``S24`` first. Once the answer is written its citations are renumbered
  ``S1, S2, …`` in the order it first uses them (the sections it does not cite after them,
  in reading order), in its text, its references and the sections it was read from, so a
  number means the same section in the answer, its Sources line, its evidence and the
  exported Markdown.
- **Support.** :func:`.support.check_support` on the text shown; a figure the sections
  neither print nor compute in one step is compared with what the offline engine computes
  for the question from the documents' tables (:func:`.offline.computed.engine_figures`).
- **Set aside.** When most of a model's answer is unsupported, its reply is garbled, or it
  states no figure where the question asks for one and the sections hold some, the answer
  shown is the offline engine's from the same sections (computed from cited cells when the
  question asks for a ratio, a change or an average), after one line saying why; the
  model's reply is kept (``model_answer``) for a person who wants to see it anyway.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from ..llm.call import LLMReply
from ..text import ENGINE_NAME
from ..text.messages import EN, message
from .context import Prepared
from .offline.computed import computed_reply, engine_figures
from .offline.extractive import extractive_answer
from .support import check_support
from .support_given import whole_sections

SET_ASIDE_NOTE = EN["note.set_aside"]  # English's; the answer's language is used
_CITED = re.compile(r"\[S(\d+)\b")
_REF_IN_CITATION = re.compile(r"\[S\d+[^\]]*\]")
_REF = re.compile(r"\bS(\d+)\b")


@dataclass
class Checked:
    """What is shown, its support, and the model's reply when it was set aside."""

    text: str
    support: dict[str, Any]
    model_answer: str = ""
    model: str = ""  # who wrote the text shown
    extra: dict[str, Any] = field(default_factory=dict)


def checked_reply(query: str, prepared: Prepared, reply: LLMReply, language: str = "") -> Checked:
    """Renumber, check, and set a model's answer aside when it cannot be checked."""
    by_model = bool(reply.model) and reply.model != ENGINE_NAME
    text = renumber(prepared, reply.text)
    known = _known(prepared)
    # Computed at most once per answer: the model's reply and the offline one it may be set
    # aside for are checked against the same result.
    engine = cache(partial(engine_figures, prepared.searched_as or query, prepared.documents,
                           prepared.references, prepared.memory))  # fmt: skip
    whole = whole_sections(prepared.references, prepared.documents)
    support = check_support(text, prepared.sections, query, model=by_model, language=language,
                            known=known, results=prepared.computed, engine=engine,
                            own_words=prepared.model_words, whole=whole,
                            memory=prepared.memory)  # fmt: skip
    if not (support["set_aside"] and prepared.sections and not prepared.overview):
        return Checked(text, support, model=reply.model)
    offline = computed_reply(prepared.searched_as or query, prepared, language) or extractive_answer(
        prepared.searched_as or query, prepared.sections, memory=prepared.memory,
        language=language,
    )[0]  # a ratio asked: computed from cited cells, as offline  # fmt: skip
    shown = f"{message('note.set_aside', language, why=_why(support, language))}\n\n{offline}"
    mapping = order_of_use(shown, prepared)
    shown, model_text = _renumbered(shown, mapping), _renumbered(text, mapping)
    _apply(prepared, mapping)
    offline_support = check_support(shown, prepared.sections, query, language=language,
                                    known=_known(prepared), results=prepared.computed,
                                    engine=engine, whole=whole,
                                    memory=prepared.memory)  # fmt: skip
    offline_support["model"] = {
        key: support[key] for key in ("verdict", "score", "garbled", "missing_figure", "counts")
    }
    prepared.trace["answer_set_aside"] = _why(support)
    return Checked(shown, offline_support, model_text, ENGINE_NAME)


def _known(prepared: Prepared) -> str:
    """What an answer may say without a source besides the question: the files' names, and
    our own words said in the answer's language (:attr:`.context.Prepared.said`)."""
    names = (str(r.get("file_name") or "") for r in prepared.references)
    return " ".join(dict.fromkeys([*names, *prepared.said]))


def _why(support: dict[str, Any], language: str | None = None) -> str:
    if support["garbled"]:
        return support["garbled"]
    counts = support["counts"]
    claims, doubtful = sum(counts.values()), counts["unsupported"] + counts["partly"]
    if doubtful:
        return message("note.why_doubtful", language, doubtful=doubtful, claims=claims)
    return message("note.why_no_figure", language)


def renumber(prepared: Prepared, text: str) -> str:
    """``text`` with its citations numbered in the order it uses them, and the references
    and sections of ``prepared`` numbered (and the references ordered) the same way."""
    mapping = order_of_use(text, prepared)
    _apply(prepared, mapping)
    return _renumbered(text, mapping)


def order_of_use(text: str, prepared: Prepared) -> dict[str, str]:
    """Old ref → new ref: those the text cites first, in order, then the rest as read."""
    known = [str(ref.get("ref")) for ref in prepared.references]
    used = [f"S{n}" for n in _CITED.findall(text)]
    order = list(dict.fromkeys([r for r in used if r in known] + known))
    return {old: f"S{i}" for i, old in enumerate(order, 1)}


def _renumbered(text: str, mapping: dict[str, str]) -> str:
    if all(old == new for old, new in mapping.items()):
        return text

    def citation(m: re.Match[str]) -> str:
        return _REF.sub(lambda r: mapping.get(r.group(0), r.group(0)), m.group(0))

    return _REF_IN_CITATION.sub(citation, text)


def _apply(prepared: Prepared, mapping: dict[str, str]) -> None:
    """The references and sections renumbered (references in their new order)."""
    if all(old == new for old, new in mapping.items()):
        return
    for ref in prepared.references:
        ref["ref"] = mapping.get(str(ref.get("ref")), ref.get("ref"))
    prepared.references.sort(key=lambda r: int(str(r.get("ref", "S0"))[1:] or 0))
    for section in prepared.sections:
        old = str(section.get("ref") or "")
        new = mapping.get(old, old)
        section["ref"] = new
        label = str(section.get("label") or "")
        if label.startswith(f"{old} · "):
            section["label"] = f"{new} · {label[len(old) + 3 :]}"
    prepared.sections.sort(key=lambda s: int(str(s.get("ref", "S0"))[1:] or 0))
