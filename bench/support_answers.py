"""The answers ``bench.support`` checks for one question: six kinds, right and wrong.

Written the way models write (a fluent sentence with a citation), from the question's gold
answer and company; the wrong ones change one thing each (a figure, the company), or are
fluent but about something else, or garbled the ways small models garble.
"""

from __future__ import annotations

import copy
import hashlib
import math
import re
from dataclasses import dataclass, field
from typing import Any

ARMS = ("a offline", "b right", "c figure changed", "d name swapped", "e unrelated",
        "f garbled")  # fmt: skip
RIGHT = (
    "{company}'s figure for this was {answer} {ref}.",
    "According to the filing, {company} reported {answer} {ref}.",
    "The answer is {answer}, as {company}'s filing shows {ref}.",
)
GENERIC = (
    "The company continued to focus on operational excellence and disciplined capital "
    "allocation, and management expects steady growth across its core markets [S1]."
)
FRENCH = (
    "Selon le rapport annuel, le chiffre demandé pour {company} est de {answer}, ce qui "
    "correspond aux données publiées par la société {ref}."
)
LOOP = "The figure is the figure is the figure is the figure is the figure is the figure [S1]."
# Long gold answers (an analyst's sentence) are stated by their figure alone.
MAX_ANSWER_CHARS = 60
_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")


@dataclass
class Case:
    """One question, the sections read for it, and its answers ``(arm, text, by a model)``."""

    id: str
    set: str
    half: str
    question: str
    item: dict[str, Any]
    sections: list[dict[str, Any]]
    gold_ref: str
    known: str = ""  # the files' names (what ``ask`` passes the check)
    printed: bool = False  # the gold figure's digits are printed in a section read
    answers: list[tuple[str, str, bool]] = field(default_factory=list)
    # the right answer restated: (kind, text, that text with its figure changed or None)
    restated: list[tuple[str, str, str | None]] = field(default_factory=list)
    # what the offline engine computes for the question from the document's tables, asked
    # by the check when a figure is found nowhere (``check_support(engine=…)``)
    engine: Any = None
    # ref → the whole sections a cited excerpt was cut from, as ``ask`` gives the check
    # (``check_support(whole=…)``)
    whole: Any = None


def gold_figure(item: dict[str, Any]) -> Any:
    """The first figure (not a year) of the gold answer, or None."""
    from treerag_core.text.figures import figures_in

    return next((f for f in figures_in(str(item.get("answer") or "")) if not f.year), None)


def _key(company: str) -> str:
    return "".join(ch for ch in company.lower() if ch.isalnum())


def _pick(key: str, options: tuple[str, ...]) -> str:
    return options[hashlib.sha256(key.encode()).digest()[1] % len(options)]


def changed(text: str, figure_text: str) -> str:
    """``text`` with ``figure_text``'s number times 1.1, printed the same way."""
    number = _DIGITS.search(figure_text)
    if number is None:
        return text
    printed = number.group(0)
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    value = float(printed.replace(",", "")) * 1.1
    new = f"{value:,.{decimals}f}" if "," in printed else f"{value:.{decimals}f}"
    if new == printed:
        new = f"{float(printed.replace(',', '')) + 10**-decimals:.{decimals}f}"
    return text.replace(figure_text, figure_text.replace(printed, new), 1)


def answers_for(
    set_name: str, half: str, item: dict[str, Any], prepared: Any, ref: str,
    companies: list[str], donor: dict[str, Any] | None = None,
) -> Case:  # fmt: skip
    """The question's case with its answers of every kind that applies to it."""
    from treerag_core.answer.offline.answerer import offline_reply

    question = item["question"]
    known = " ".join(dict.fromkeys(str(r.get("file_name") or "") for r in prepared.references))
    case = Case(item["id"], set_name, half, question, item,
                copy.deepcopy(prepared.sections), ref, known)  # fmt: skip
    case.answers.append(("a offline", offline_reply(question, prepared).text, False))
    company = str(item.get("company") or "The company")
    figure = gold_figure(item)
    said = str(item.get("answer") or "")
    said = said if len(said) <= MAX_ANSWER_CHARS else (figure.text if figure else "")
    right = ""
    if figure is not None:
        digits = "".join(ch for ch in figure.text if ch.isdigit()).rstrip("0").rstrip(".")
        digits = digits or "0"
        case.printed = any(digits in str(s["text"]).replace(",", "").replace(".", "")
                           for s in prepared.sections)  # fmt: skip
    if ref and figure is not None:
        template = _pick(item["id"], RIGHT)
        right = template.format(company=company, answer=said, ref=f"[{ref}]")
        case.answers.append(("b right", right, True))
        case.restated = restated(item, right, ref)
        case.answers.append(("c figure changed", changed(right, figure.text), True))
        # another company: not this one spelt otherwise ("KRAFTHEINZ" is Kraft Heinz)
        others = [c for c in companies if c and _key(c) != _key(company)]
        other = others[int(hashlib.sha256(item["id"].encode()).hexdigest(), 16) % len(others)]
        case.answers.append(("d name swapped", template.format(
            company=other, answer=said, ref=f"[{ref}]"), True))  # fmt: skip
    if donor is not None:
        donor_said = str(donor.get("answer") or "")
        donor_figure = gold_figure(donor)
        if donor_figure is not None:
            donor_said = donor_said if len(donor_said) <= MAX_ANSWER_CHARS else donor_figure.text
            case.answers.append(("e unrelated", _pick(donor["id"], RIGHT).format(
                company=donor.get("company"), answer=donor_said, ref="[S1]"), True))  # fmt: skip
    case.answers.append(("e unrelated", GENERIC, True))
    first = str(prepared.sections[0]["text"])[:200] if prepared.sections else ""
    base = right or GENERIC
    case.answers += [
        ("f garbled", f"SECTION\n\n{base}", True),
        ("f garbled", f'<section_data ref="S1">\n{first}', True),
        ("f garbled", LOOP, True),
        ("f garbled", " ".join([base] * 3), True),
    ]
    if figure is not None:
        case.answers.append(("f garbled", FRENCH.format(company=company, answer=said,
                                                        ref=f"[{ref or 'S1'}]"), True))  # fmt: skip
    return case


# Right answers restated the ways people write them (issue 38's false alarms): the figure
# at another scale or in another notation, the company by its full name, the year as a
# short fiscal year, the citation after the stop. Each with its figure changed (times 1.1),
# which must still be caught.
LEGAL_FORMS = ("{c}, Inc.", "{c} Corporation")
SENTENCE_FORMS = (
    "{company} reported {answer}. [{ref}] The figure is from its filing.",
    "In short: {answer}. [{ref}]",
)


def restated(item: dict[str, Any], right: str, ref: str) -> list[tuple[str, str, str | None]]:
    """``(kind, restated right answer, the same with its figure changed or None)``."""
    from treerag_core.text.numbers import years_in

    figure = gold_figure(item)
    if not right or figure is None:
        return []
    company = str(item.get("company") or "The company")
    said = str(item.get("answer") or "")
    said = said if len(said) <= MAX_ANSWER_CHARS else figure.text
    out = [("notation", right.replace(figure.text, alt, 1), alt)
           for alt in _notations(figure) if figure.text in right]  # fmt: skip
    shown = company.title() if company.isupper() else company
    out += [("name", right.replace(company, form.format(c=shown), 1), figure.text)
            for form in LEGAL_FORMS]  # fmt: skip
    years = years_in(str(item.get("question") or ""))
    if years and " [" in right:
        body, tail = right.rsplit(" [", 1)
        year = max(years)
        out += [("date", f"{body}{when} [{tail}", figure.text)
                for when in (f" for FY{str(year)[2:]}", f" in fiscal year {year}")]  # fmt: skip
    out += [("sentence", form.format(company=company, answer=said, ref=ref), figure.text)
            for form in SENTENCE_FORMS]  # fmt: skip
    return [(kind, text, changed(text, alt) if alt in text else None) for kind, text, alt in out]


def _notations(figure: Any) -> list[str]:
    """The figure as people also write it: billions for millions ($51.2 billion, $51.2bn,
    US$51.2B), a ratio as a multiple (0.68x), a percentage in words or rounded."""
    value, text = abs(figure.value), figure.text
    if figure.percent:
        return [f"{value:.1f} percent", f"{_significant(value, 2):g}%"]
    if re.fullmatch(r"-?\d*\.\d+", text):
        return [f"{text.lstrip('-')}x"]
    if value >= 1e9:
        billions = _significant(value / 1e9, 3)
        return [f"${billions:g} billion", f"${billions:g}bn", f"US${billions:g}B"]
    return []


def _significant(value: float, digits: int) -> float:
    return round(value, digits - 1 - int(math.floor(math.log10(value)))) if value else 0.0
