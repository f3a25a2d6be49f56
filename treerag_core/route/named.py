"""What a question names (companies, products, people, titles; periods), and the filters
that follow: the documents about what is named are kept, the others dropped, each with its
reason for the trace.

Why filters and not nudges: "What was 3M's capex in 2018?" is about 3M's 2018 report, and
no weight of shared words should bring another company's filing or last year's report
(which quotes this year's outlook) ahead of it. A name is a capitalised word of the
question ("3M", "Debian", "Best Buy", "JnJ"; an alias as its full name) that the cards of
the documents asked hold in their name (title and file name: the names a card lists from
the document's opening are often its capitalised key terms, "Cash", "Net Sales"); a period
is a year or a quarter. When nothing is named, nothing is filtered.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..navigate.ranking import QUERY_EXPANSIONS
from ..text.messages import Phrase
from ..text.numbers import DATED_MONTH
from ..text.tokens import STOPWORDS, tokenize

# Another way a name is written, as the documents write it. A named constant: a team adds
# its own (a product's code name, a ticker).
# Only names that mean nothing else: a ticker that is also a word ("KO", "GIS") is left out.
ALIASES: dict[str, str] = {
    "jnj": "Johnson Johnson", "j&j": "Johnson Johnson", "mmm": "3M", "amex": "American Express",
    "msft": "Microsoft", "amzn": "Amazon", "coke": "Coca-Cola",
}  # fmt: skip
COMPARE = re.compile(
    r"\b(?:compare[ds]?|comparison|versus|vs\.?|difference between|differ|both|each of|"
    r"which (?:of|company|one))\b", re.I,
)  # fmt: skip
_WORDS = re.compile(r"[^\W_][\w&'’.-]*[^\W_]|[^\W_]")
_POSSESSIVE = re.compile(r"['’]s$", re.I)
_PERIOD_WORD = re.compile(r"^(?:(?:fy|q[1-4]|h[12])'?\d{0,4}|'?\d{2,4})(?:q[1-4])?$", re.I)
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_QUARTER = re.compile(
    r"\bq([1-4])\s*(?:of\s+)?(?:fy\s*)?'?((?:19|20)\d\d)\b|(?:\b|(?<=fy))((?:19|20)\d\d)\s*q([1-4])\b|"
    r"\b(first|second|third|fourth)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?)?"
    r"((?:19|20)\d\d)\b", re.I,
)  # fmt: skip
_JOINERS = re.compile(r"[-'’.&]")
_SHORT_FY = re.compile(r"\bFY\s?'?(\d\d)\b", re.I)  # "FY21": fiscal 2021
_ORDINAL = {"first": "1", "second": "2", "third": "3", "fourth": "4"}
_OWN_QUARTER = re.compile(r"^Q([1-4]) ((?:19|20)\d\d)$")
_FILE_PARTS = re.compile(r"[-_.\s]+")


@dataclass
class Named:
    """What a question names: name terms (each a set of alternative terms), the years and
    quarters asked, and whether it compares."""

    names: list[tuple[str, set[str]]] = field(default_factory=list)  # (as written, terms)
    years: list[str] = field(default_factory=list)
    quarters: list[str] = field(default_factory=list)  # "Q2 2023"
    compares: bool = False


def read_question(query: str) -> Named:
    """The names, periods and comparison a question holds (before any document is read)."""
    runs: list[list[str]] = [[]]
    for match in _WORDS.finditer(query):
        w = _POSSESSIVE.sub("", match.group())
        w = ALIASES.get(w.lower(), w)
        capital = any(c.isupper() for c in w) and not _PERIOD_WORD.match(w)
        if DATED_MONTH.match(query, match.start()):
            capital = False  # "March" of "March 1, 2024": a date's, no name a card holds
        before = query[: match.start()].rstrip()
        opening = (not before or before[-1] in ".?!:") and w.istitle()  # "Explain …"
        vocabulary = w.lower() in QUERY_EXPANSIONS  # "D&A", "P&L": a metric, not a name
        if capital and w.lower() not in STOPWORDS and not opening and not vocabulary:
            runs[-1].append(w)
        elif runs[-1]:
            runs.append([])
    names = []
    for run in (r for r in runs if r):
        parts = [t for w in run for t in tokenize(w)]
        if not parts:
            continue
        joined = {"".join(parts), *("".join(pair) for pair in itertools.pairwise(parts))}
        joined |= {_JOINERS.sub("", t) for t in joined | set(parts)}  # "coca-cola": "cocacola"
        names.append((" ".join(run), {*parts, *joined}))
    quarters = [f"Q{m[1] or m[4] or _ORDINAL[m[5].lower()]} {m[2] or m[3] or m[6]}"
                for m in _QUARTER.finditer(query)]  # fmt: skip
    years = _YEAR.findall(query) + [f"20{y}" for y in _SHORT_FY.findall(query)]
    return Named(names, list(dict.fromkeys(years)), list(dict.fromkeys(quarters)),
                 bool(COMPARE.search(query)))  # fmt: skip


def with_aliases(query: str) -> str:
    """The question with each alias's full name beside it ("JnJ" → "Johnson Johnson")."""
    found = [ALIASES[w.lower()] for w in _WORDS.findall(query) if w.lower() in ALIASES]
    return " ".join([query, *found])


def name_terms(named: Named) -> set[str]:
    """Every form of every name the question gives (what the index is asked for)."""
    return set().union(*(terms for _, terms in named.names)) if named.names else set()


def names_in_file_names(named: Named, rows: Mapping[str, Mapping[str, Any]]) -> dict[str, set[str]]:
    """The name terms each document's file name holds as one of its parts. Why: the index
    keeps a hyphenated word whole ("debian-reference.pdf" holds "debian-reference", not
    "debian"), so without this a question naming Debian would drop the Debian reference
    for a card that "does not name Debian". Underscores and dots already cut words."""
    asked = name_terms(named)
    if not asked:
        return {}
    out: dict[str, set[str]] = {}
    for doc_id, row in rows.items():
        parts = {t for part in _FILE_PARTS.split(str(row.get("file_name") or "")) if part
                 for t in tokenize(part)}  # fmt: skip
        if held := asked & parts:
            out[doc_id] = held
    return out


def name_filter(
    named: Named, card_terms: Mapping[str, set[str]]
) -> tuple[set[str] | None, dict[str, str]]:
    """The documents kept by the names the question gives (None: it names none the cards
    know), and for each document of ``card_terms`` why it was kept or dropped. A name is
    matched by its longest form a card holds ("bestbuy" before "best")."""
    holders: dict[str, set[str]] = {}
    for doc_id, terms in card_terms.items():
        for term in terms:
            holders.setdefault(term, set()).add(doc_id)
    kept: set[str] = set()
    said: dict[str, list[str]] = {}
    for written, terms in named.names:
        forms = sorted((t for t in terms if t in holders), key=lambda t: (-len(t), t))
        if not forms:
            continue
        docs = holders[forms[0]]
        kept |= docs
        for doc_id in docs:
            said.setdefault(doc_id, []).append(written)
    if not kept:
        return None, {}
    asked = ", ".join(dict.fromkeys(w for w, _ in named.names))
    why: dict[str, str] = {
        d: Phrase("route.card_names", names=", ".join(dict.fromkeys(said[d]))) for d in kept
    }
    why.update({d: Phrase("route.card_lacks", names=asked) for d in card_terms if d not in kept})
    return kept, why


def period_filter(
    named: Named, totals: Mapping[str, Mapping[str, Any]], candidates: set[str]
) -> tuple[set[str] | None, dict[str, str]]:
    """The candidates whose own period is the one asked (a quarter's report when a quarter
    is asked, else the asked year's annual document, else any of that year), and those with
    no period of their own; None when nothing is asked or nothing is of that period. With
    several years asked, the latest: its document reports the earlier one beside it."""
    if not named.years and not named.quarters:
        return None, {}
    own = {d: str(totals[d].get("period") or "") for d in candidates if d in totals}
    quarter = {d: bool(_OWN_QUARTER.match(p)) for d, p in own.items()}
    year = {d: m.group(1) if (m := _YEAR.search(p)) else "" for d, p in own.items()}
    tries: list[tuple[str, set[str]]] = []
    for asked in named.quarters:
        tries.append((asked, {d for d, p in own.items() if p == asked}))
    for asked in sorted(set(named.years) | {q[-4:] for q in named.quarters}, reverse=True):
        if not named.quarters:
            tries.append((asked, {d for d in own if year[d] == asked and not quarter[d]}))
        tries.append((asked, {d for d in own if year[d] == asked}))
    for asked, matched in tries:
        if matched:
            unknown = {d for d in candidates if not year.get(d)}
            why: dict[str, str] = {d: Phrase("route.own_period", period=own[d]) for d in matched}
            why.update({d: Phrase("route.other_period", period=own[d], asked=asked) for d in own
                        if d not in matched and year[d]})  # fmt: skip
            return matched | unknown, why
    return None, {}
