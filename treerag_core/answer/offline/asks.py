"""What a question asks to compute: the formula, the periods, and how to print the result.

"What is the FY2015 - FY2017 3 year average net profit margin (as a %) for Best Buy? Round
to one decimal place." asks for the net profit margin (the named metric's formula) in each
of 2015, 2016 and 2017, averaged, printed as a percentage with one decimal. A definition the
question gives ("DPO is defined as: …", "Define working capital ratio as …") wins over the
named table; a growth rate, a change and a CAGR are read from their words. A question
that asks for a figure as printed is no computation: :func:`read_ask` returns None and the
extractive answer copies the row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...text.messages import Phrase
from ...text.metrics import find_metric, metric_key, plain_name
from ...text.numbers import years_in
from .question import REASON

_DEFINED = re.compile(
    r"(?P<name>[^.?!:;]{2,80}?)\s+(?:is|are)\s+(?:being\s+)?defined\s+as:?\s*"
    r"(?P<formula>.+?)(?=\.\s|\.$|$|\?)",
    re.I,
)
# "What was free cash flow in 2019, defined as X minus Y?": a definition inside the ask.
_INLINE = re.compile(r"(?P<name>[^,.?!:;]{2,80}?)\s*[,(]\s*(?:here\s+)?defined\s+as:?\s*"
                     r"(?P<formula>[^?)]+?)(?=\)|\?|\.\s|\.$|$)", re.I)  # fmt: skip
_DEFINE = re.compile(r"\bdefine\s+(?P<name>.{2,80}?)\s+as:?\s*(?P<formula>.+?)(?=\.\s|\.$|$)", re.I)
_NAME_NOISE = re.compile(r"\b(?:here|the|a|an|we)\b", re.I)
_ASKS = re.compile(
    r"\b(?:what (?:is|was|were|are)|what's|how much (?:is|was|did)?|calculate|compute)\s+", re.I
)
_CAGR = re.compile(r"\bcagr\b|compound annual growth", re.I)
# A question asking for a mean (also the support check's: :mod:`..support_steps`).
# "Weighted-average shares" and "weighted average shares" name a row, not an average of
# periods: a weighted or hyphenated "average" is not the frame's word.
_NOT_WEIGHTED = r"(?<!weighted[- ])(?<![-\w])"
AVERAGE_WORDS = re.compile(rf"{_NOT_WEIGHTED}average\b|\bavg\b|\bmean\b", re.I)
_SPAN = re.compile(r"\b(\d+|two|three|four|five)[- ]year\b", re.I)
_CHANGE = re.compile(
    r"\bchange\b|\bgrowth\b|\bgr[eo]w\b|\bincrease[ds]?\b|\bdecrease[ds]?\b|\bdecline[ds]?\b",
    re.I,
)
_YOY = re.compile(r"year[- ]over[- ]year|\byoy\b", re.I)
_PERCENT = re.compile(r"%|\bpercent", re.I)
_SHARE = re.compile(
    r"^(?P<a>.+?)\s+as\s+an?\s+(?:%|percent(?:age)?|share|proportion)\s+of\s+(?P<b>.+)$", re.I
)
# "the ratio of inventories to total assets", "Nike's ratio of…", "the ratio of Nike's
# inventories to total assets", "inventories to total assets ratio": one quantity over
# another, when no known metric is named so (debt to equity is one).
_RATIO_FRAME = re.compile(r"^(?:the\s+)?ratio\s+of\s+|\s+ratio$", re.I)
_RATIO_OF_COMPANY = re.compile(r"\bratio\s+of\s+(?:the\s+)?[^?]*?['’]s\s", re.I)
_RATIO_PAIR = re.compile(r"(?P<a>.+?)\s+to\s+(?P<b>.+)", re.I)
RATIO_OPERAND_WORDS = 6  # a row's name: longer is a sentence the phrase failed to cut
_OPERATORS = re.compile(r"\s(?:\+|-|less|minus|plus|divided by)\s", re.I)
_DECIMALS = re.compile(r"\b(one|two|three|four|1|2|3|4) decimal", re.I)
_WHOLE = re.compile(r"\bnearest (?:whole|integer)|\bwhole number", re.I)
_SCALE = re.compile(r"\bin (?:usd |us\$ |\$ ?)?(thousands|millions|billions)\b", re.I)
_STATEMENT = re.compile(
    r"\b(?:from|in|on|per)\s+(?:the\s+)?(?:cash flow statement|statement of cash flows|income "
    r"statement|balance sheet|p&l(?: statement)?)",
    re.I,
)
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
# Words around a metric's name in a question that are not part of it.
_NOISE = re.compile(
    rf"\b(?:the|year[- ]over[- ]year|yoy|{_NOT_WEIGHTED}average|avg|mean|cagr|compound annual growth rate|"
    r"change in|change of|growth in|growth of|growth rate|growth|change|amount of|year end|"
    r"end of|as of|for the year|grow|grew|rise|rose|increase|increased|decrease|decreased|"
    r"decline|declined|fall|fell|in percent(?:age)?|in %|(?<!\bas a )(?:percentage|percent))(?!\w)",
    re.I,
)
_PERIOD = re.compile(
    r"\b(?:from|between|in|for|during|at|over)?\s*(?:fy|fiscal(?: year)?)?\s*'?(?:19|20)\d\d"
    r"(?:\s*(?:-|–|to|and|through)\s*(?:fy|fiscal(?: year)?)?\s*'?(?:19|20)\d\d)?",
    re.I,
)


@dataclass
class Ask:
    """One computation asked for."""

    # what the headline names: "Days payable outstanding (DPO)"; a Phrase where our words
    # compose it (a metric's name, "3-year average …"), said in the answer's language
    label: str
    formula: str  # read per year by :func:`.formula.parse`
    years: tuple[int, ...]  # the periods the formula is read in (averaged when several)
    kind: str = "amount"  # "percent", "ratio", "days", "amount", "growth", "change", "cagr"
    decimals: int | None = None
    scale: str = ""  # the unit asked ("billions"), if any
    definitions: dict[str, str] = field(default_factory=dict)
    average: bool = False


def definitions(text: str) -> dict[str, str]:
    """``{name: formula}`` for every "X is defined as Y" and "Define X as Y" (lower-case
    names; "Days payable outstanding (DPO)" under both its names)."""
    found: dict[str, str] = {}
    for rx in (_DEFINED, _DEFINE, _INLINE):
        for m in rx.finditer(" ".join(text.split())):
            name = _NAME_NOISE.sub(" ", m.group("name")).strip(" ,:;")
            if rx is _INLINE:
                name = metric_phrase(name) or name
            formula = m.group("formula").strip(" .")
            for alias in _aliases(name):
                found.setdefault(alias, formula)
    return found


def _aliases(name: str) -> list[str]:
    short = re.findall(r"\(([^)]+)\)", name)
    bare = " ".join(re.sub(r"\([^)]*\)", " ", name).split()).lower()
    return [a for a in [bare, *(s.strip().lower() for s in short)] if a]


def asking_sentence(text: str) -> str:
    """The sentence that asks (ends in "?"), or the whole text; a definition inside it
    ("…, defined as X / Y?") is left out (it is read by :func:`definitions`)."""
    parts = re.split(r"(?<=[.!?:])\s+", " ".join(text.split()))
    asked = " ".join(p for p in parts if p.endswith("?")) or " ".join(text.split())
    return re.sub(r"\s*[,(]\s*(?:here\s+)?defined\s+as\b[^?)]*\)?", "", asked, flags=re.I)


def read_ask(question: str) -> Ask | None:
    """What ``question`` asks to compute, or None when it asks for a printed figure or for
    a reason ("Why did the margin fall?": the cause is said in a sentence, not computed)."""
    defs = definitions(question)
    asked = asking_sentence(question)
    if REASON.search(asked):
        return None
    years = tuple(sorted(set(years_in(asked)))) or tuple(sorted(set(years_in(question))))
    if not years:
        return None
    phrase = metric_phrase(asked)
    span = _SPAN.search(asked)
    n = int(_NUMBERS.get(span.group(1).lower(), 0) or span.group(1)) if span else 0
    ask = _structured(question, asked, phrase, years, n)
    if ask is None:
        label, formula, kind = _formula_of(asked, phrase, defs)
        if formula is None:
            return None
        ask = Ask(label, formula, (years[-1],), kind)
    ask.definitions = defs
    ask.decimals = _decimals(question)
    scale = _SCALE.search(question)
    ask.scale = scale.group(1).lower() if scale else ""
    if ask.kind in ("ratio", "days") and _PERCENT.search(asked):
        ask.kind = "percent"
    return ask


def _structured(
    question: str, asked: str, phrase: str, years: tuple[int, ...], n: int
) -> Ask | None:
    """A CAGR, an average over periods, or a change: the quantity in a frame."""
    defs = definitions(question)
    label, formula, kind = _formula_of(asked, phrase, defs)
    inner = formula or phrase
    if _CAGR.search(asked) and len(years) >= 2:
        label = Phrase("computed.label_cagr", name=_title(phrase))
        return Ask(label, inner, (years[0], years[-1]), "cagr")
    if AVERAGE_WORDS.search(asked) and (n or len(years) > 1):
        first = years[0] if len(years) > 1 else years[-1] - n + 1
        over = tuple(range(first, years[-1] + 1))
        title = Phrase("computed.label_average", years=n or len(over), name=label or _title(phrase))
        return Ask(title, inner, over, kind if formula else "amount", average=True)
    if _CHANGE.search(asked) and (len(years) >= 2 or _YOY.search(asked)):
        pair = (years[0], years[-1]) if len(years) >= 2 else (years[-1] - 1, years[-1])
        growth = bool(_PERCENT.search(question)) or bool(re.search(r"\bgr[oe]w", asked, re.I))
        name = label or _title(phrase)
        return Ask(name, inner, pair, "growth" if growth else "change")
    return None


def _formula_of(asked: str, phrase: str, defs: dict[str, str]) -> tuple[str, str | None, str]:
    """The label, formula and kind of the metric the question names (None: a plain quantity)."""
    lowered = asked.lower()
    named = [d for d in defs if re.search(rf"(?<![\w&]){re.escape(d)}(?![\w&])", lowered)]
    known = find_metric(phrase)
    defined = plain_name(max(named, key=len)) if named else ""
    if named and known and defined != known[1] and defined in known[1]:
        named = []  # "EBITDA % margin" with EBITDA defined: the margin is asked
    ratio = _ratio(asked, phrase) if not known and not named else None
    if ratio:  # before the operators: "the ratio of A to Less B" names two rows
        label = phrase if _RATIO_FRAME.search(phrase) else f"ratio of {phrase}"
        return _title(label), f"({ratio[0]}) / ({ratio[1]})", "ratio"
    share = _SHARE.match(phrase) if not named else None
    if share:  # so is "Less current portion as a percentage of long-term debt"
        return _title(phrase), f"({share.group('a')}) / ({share.group('b')})", "percent"
    if _OPERATORS.search(f" {phrase} "):
        return _title(phrase), phrase, "amount"
    if named:
        name = max(named, key=len)
        known = find_metric(name)
        kind = known[0].kind if known else ("percent" if _PERCENT.search(asked) else "ratio")
        if known is None and not re.search(r"ratio|turnover|/|divided", defs[name], re.I):
            kind = "percent" if _PERCENT.search(asked) else "amount"
        return _title(_label_from(asked, name)), defs[name], kind
    if known:
        metric, name = known
        return Phrase(metric_key(metric)), metric.formula, metric.kind
    return "", None, "amount"


def _ratio(asked: str, phrase: str) -> tuple[str, str] | None:
    """The two quantities of "the ratio of A to B" (see _RATIO_FRAME), or None."""
    if not (_RATIO_FRAME.search(phrase) or _RATIO_OF_COMPANY.search(asked)):
        return None
    pair = _RATIO_PAIR.fullmatch(_RATIO_FRAME.sub("", phrase))
    if pair is None or any(len(q.split()) > RATIO_OPERAND_WORDS for q in pair.groups()):
        return None
    return pair.group("a"), pair.group("b")


def _label_from(asked: str, name: str) -> str:
    """A defined name as the question prints it, with its abbreviation ("days payable
    outstanding (DPO)")."""
    m = re.search(rf"[\w&' -]*?{re.escape(name)}[\w&' -]*?(?:\s*\([A-Z&]{{2,8}}\))?", asked, re.I)
    text = metric_phrase(m.group(0)) if m else name
    return text or name


def metric_phrase(asked: str) -> str:
    """The metric a question names, without its asking words, company, periods and frame:
    "What is Amazon's year-over-year change in revenue from FY2016 to FY2017?" → "revenue"."""
    text = re.sub(r"\([^)]*\)", " ", asked).rstrip("?")
    asks = list(_ASKS.finditer(text))
    if asks:
        text = text[asks[-1].end() :]
    if "'s " in text or "’s " in text:
        text = re.split(r"['’]s\s", text, maxsplit=1)[1]
    text = re.sub(r"\s+(?:for|of|at)\s+[A-Z][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*)*\s*$", "", text)
    text = _SCALE.sub(" ", text)
    text = _STATEMENT.sub(" ", text)
    text = _PERIOD.sub(" ", text)
    text = _SPAN.sub(" ", text)
    text = _NOISE.sub(" ", text)
    text = " ".join(text.split()).strip(" ,.:;-")
    return re.sub(r"^(?:of|in|for|at)\s+|\s+(?:of|in|for|at)$", "", text)


def _decimals(question: str) -> int | None:
    m = _DECIMALS.search(question)
    if m:
        word = m.group(1).lower()
        return int(_NUMBERS.get(word, 0) or word)
    return 0 if _WHOLE.search(question) else None


def _title(text: str) -> str:
    text = " ".join(text.split())
    return text[:1].upper() + text[1:] if text else text
