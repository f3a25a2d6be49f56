"""Every sentence of an answer checked against the passages it cites: is it supported?

The answer's reader chose this app over a chatbot to see where an answer comes from, so an
answer must not state what its sources do not hold without saying so. Each sentence is
matched to the passages it cites (all passages read when it cites none): its figures (as
printed, in another notation, computed from two of the passages' figures, the mean of
two or three neighbouring cells of a table row, two steps within a period when the
question asks for them (:mod:`.support_steps`), or what the offline engine computes for
the question from the document's tables, in as many steps as it takes), its years, its
names and its key terms must be found there, and a negation must not be turned around
("did not increase" against "increased"). A sentence is **supported**, **partly**
supported (a name, a year or some terms missing, or its figure found only in a passage it
does not cite) or **unsupported** (a figure, or most of its terms, nowhere; its statement
reversed). A garbled reply (:mod:`.garbled`) is unsupported as a whole.

Deterministic, no model call, a few milliseconds: the passages are cut once per answer.
The result is a plain dict (see :func:`check_support`) kept with the answer everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..navigate.ranking import RankingMemory
from ..text.figures import MIN_CONFIRMING_DIGITS, Figure, figures_in
from ..text.messages import in_every_language
from ..text.numbers import years_in
from ..text.working import contradicted, workings
from .claims import (
    REFUSAL,
    Line,
    Passage,
    Sentence,
    answer_sentences,
    compact,
    fiscal_years,
    named_as,
    names_in,
    negated,
    passages_of,
    terms_of,
)
from .garbled import garbled
from .offline.computed import EngineFigure
from .support_figures import NEAREST_PASSAGES, figures_found, has_unit, in_unit
from .support_given import Given, Whole, given_of, missing_figure
from .support_named import asked_rows, named_reproduces

# Share of a sentence's key terms the passages (or the question) must hold: at least the
# first for "supported", the second for "partly"; below it the sentence says something else.
TERMS_SUPPORTED = 0.6
TERMS_PARTLY = 0.34
# A sentence with fewer key terms than this, and no figure or name, claims nothing to check
# ("Here is what the filing says:").
MIN_CLAIM_TERMS = 2
# A line sharing this share of the closest line's terms is as close (see _said_alike).
CLOSE_LINE = 0.8
# A rounded figure whose band is at most this share of its value is looked for in whole
# sections too (see _in_whole).
NARROW_BAND = 0.002
# Below this score, most of a model's answer is unsupported: it is set aside.
SET_ASIDE_BELOW = 0.5
# Questions whose answer is a figure ("How much…", "How many…").
QUOTE_CHARS = 200
_NOTE_LINE = re.compile(r"^[ \t]*_.*_[ \t]*$", re.M)  # our italic notes (a failed call, a cut)
_EXCERPT_MARK = re.compile(r"\[… [\d,]+ (?:more )?characters[^\]]*\]")
# The app's own notes (they are ours, not claims), as the catalogue words them in each
# language: the offline and computed answers' notes, and the computed answer's refusal line
# ("Free cash flow, FY2020: cannot be computed: the document's tables do not print capex,
# 2020. …"), whose placeholders match anything up to the end of its line.
_OUR_NOTES = tuple(
    re.compile(re.sub(r"\\\{\w+\\\}", lambda _: r"[^\n]*?", re.escape(wording))
               + ("(?=\n|$)" if "{" in wording else ""))
    for key in ("note.offline", "note.no_match", "note.computed", "note.not_computed_missing",
                "note.not_computed")
    for wording in in_every_language(key)
)  # fmt: skip


def check_support(
    answer: str,
    sections: Sequence[Mapping[str, Any]],
    question: str = "",
    *,
    model: bool = False,
    language: str = "",
    known: str = "",
    results: Sequence[str] = (),
    engine: Callable[[], Sequence[EngineFigure]] | None = None,
    own_words: str | None = None,
    whole: Whole | None = None,
    memory: RankingMemory | None = None,
) -> dict[str, Any]:
    """The answer's support: ``{"verdict", "score", "flagged", "set_aside", "garbled",
    "missing_figure", "counts", "sentences": [{"text", "start", "end", "verdict", "refs",
    "support": {"ref", "page", "page_unit", "quote"} | None, "missing": [...], "why"}]}``.

    ``sections`` are what was read (``Prepared.sections``: ``ref``, ``text``, ``lead``,
    ``label``, pages). ``model``: a model wrote the answer (its language is checked, and
    ``set_aside`` says whether the offline answer should be shown first instead).
    ``results``: the results the app itself computed from cited cells for this answer
    (``"1.60"``, ``"20.0%"``); a figure agreeing with one is checked, as a printed one is.
    ``engine``: what the offline engine computes for the question from the documents'
    tables (:func:`.offline.computed.engine_figures`), asked only when a sentence states a
    figure the passages neither print nor compute in one step; a figure agreeing with it
    to the digits the sentence prints is supported by the cells it was computed from.
    ``own_words``: what the model wrote itself, when the app wrote the rest (the results it
    computed, the rows an aggregate used): only they are checked for being garbled.
    ``whole``: ref → the sections a cited excerpt was cut from (:func:`.support_given.
    whole_sections`): what the excerpt left out of a section cited is in its source too.
    ``memory``: the retriever's (:class:`~..navigate.ranking.RankingMemory`): the sentences
    the offline engine cut from these sections for its answer, or an earlier check, are
    not cut again (half of a check's time on a 10-K's sections).
    """
    body = _without_notes(answer)
    passages = passages_of(sections, language, memory)
    mine = body if own_words is None else _without_notes(own_words)
    broken = garbled(mine, question) if model else ""  # the offline engine copies lines
    if broken:  # unsupported whatever it says: nothing is looked up, the engine not asked
        rows = [_garbled_row(s, broken) for s in answer_sentences(body) if s.body]
    else:
        context = given_of(question, known, sections, language, results, engine, whole, memory)
        checks = (_check(s, passages, context, language) for s in answer_sentences(body))
        rows = [r for r in checks if r is not None]
    claims = [r for r in rows if r["verdict"] != "none"]
    missing = model and missing_figure(question, claims, passages, language)
    verdict, score, counts = _overall(claims, bool(broken), bool(missing))
    return {
        "verdict": verdict,
        "score": round(score, 3),
        "flagged": verdict != "supported" or bool(broken) or missing,
        "set_aside": model and bool(broken or score < SET_ASIDE_BELOW or missing),
        "garbled": broken,
        "missing_figure": missing,
        "counts": counts,
        "sentences": rows,
    }


def _overall(
    claims: list[dict[str, Any]], broken: bool, missing: bool
) -> tuple[str, float, dict[str, int]]:
    """The whole answer's verdict, score and counts from its sentences' verdicts."""
    counts = {v: sum(r["verdict"] == v for r in claims) for v in ("supported", "partly",
                                                                     "unsupported")}  # fmt: skip
    score = (counts["supported"] + 0.5 * counts["partly"]) / len(claims) if claims else 0.0
    score = 0.0 if broken else score
    verdict = "supported" if claims and score == 1.0 else "partly" if score >= 0.5 else (
        "unsupported")  # fmt: skip
    if not claims and not broken and not missing:
        verdict, score = "supported", 1.0  # nothing claimed: nothing to contradict
    return verdict, score, counts


def _without_notes(answer: str) -> str:
    """The answer without the engine's own notes (they are ours, not claims): the offline
    and computed answers' notes, italic notes, an excerpt's "[… 5,380 characters before]". Offsets are kept (each
    note becomes as many spaces), so a sentence's place is its place in the answer."""
    text = answer
    for pattern in (*_OUR_NOTES, _NOTE_LINE, _EXCERPT_MARK):
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return text


def _garbled_row(sentence: Sentence, broken: str) -> dict[str, Any]:
    """A sentence of a garbled reply: unsupported, with its figures counted (none found)."""
    figures = [f.text for f in figures_in(sentence.body) if not f.year]
    return {
        "text": sentence.text, "start": sentence.start, "end": sentence.end,
        "refs": list(sentence.refs), "verdict": "unsupported", "support": None,
        "missing": figures, "figures": len(figures), "why": f"the reply is garbled: {broken}",
    }  # fmt: skip


def _check(
    sentence: Sentence, passages: list[Passage], given: Given, language: str
) -> dict[str, Any] | None:
    """One sentence's verdict, the line that best supports it, and what is missing."""
    text = sentence.body
    printed = figures_in(text)
    figures = [f for f in printed if not f.year]
    years = set(years_in(text)) | set(fiscal_years(text))
    names = names_in(_without_figures(text, printed))
    said = terms_of(text, language)
    terms = said - terms_of(" ".join(names), language)  # names: by name
    row: dict[str, Any] = {
        "text": sentence.text, "start": sentence.start, "end": sentence.end,
        "refs": list(sentence.refs), "verdict": "none", "support": None, "missing": [], "why": "",
    }  # fmt: skip
    if not text or (not figures and not names and len(terms) < MIN_CLAIM_TERMS):
        return row if text else None
    if REFUSAL.search(text) and not figures:
        row["why"] = "says the sources do not answer"
        return row
    if text.endswith(":") and not figures:
        return row  # "It has 2 main parts:": it opens a list, the list says what it claims
    cited = [p for p in passages if p.ref in sentence.refs]
    scope = _nearest(cited or passages, terms)
    found, elsewhere, best = figures_found(
        figures, terms | given.asked, scope, passages, workings(text), given
    )
    found, elsewhere, best = _in_whole(figures, found, elsewhere, best, given, sentence.refs,
                                       said)  # fmt: skip
    found, elsewhere, by_engine = _confirmed(figures, found, elsewhere, given, sentence.refs)
    found, elsewhere, wrong = _named(figures, found, elsewhere, given, cited, passages, text)
    missing = [f.text for f in figures if f not in found and f not in elsewhere]
    missing += _unnamed(text, years, names, scope, given, sentence.refs)
    known = [t for t in terms if t in given.terms or any(p.has_term(t) for p in scope)]
    coverage = len(known) / len(terms) if terms else 1.0
    line, passage = best or _best_line(terms, scope)
    reversed_ = (
        line is not None and negated(text) != line.negated and coverage >= TERMS_PARTLY
        and not _said_alike(negated(text), terms, scope)
    )  # fmt: skip
    row["missing"], row["figures"] = missing, len(figures)
    row["verdict"], row["why"] = _verdict(
        figures, found, elsewhere, missing, coverage, reversed_, len(terms) < MIN_CLAIM_TERMS,
        given.computes, bool(wrong),
    )  # fmt: skip
    if by_engine and best is None and row["verdict"] != "unsupported":
        row["support"] = next(iter(by_engine.values()))
    elif line is not None and passage is not None and row["verdict"] != "unsupported":
        row["support"] = {
            "ref": passage.ref, "page": passage.page(line.offset),
            "page_unit": passage.section.get("page_unit") or "page",
            "quote": line.text[:QUOTE_CHARS],
        }  # fmt: skip
    return row


def _without_figures(text: str, figures: list[Figure]) -> str:
    """The sentence with its figures blanked: a figure's currency and unit ("US$51.2bn",
    "$51.2B") are no names."""
    for figure in figures:
        text = text[: figure.start] + " " * (figure.end - figure.start) + text[figure.end :]
    return text


def _unnamed(
    text: str, years: set[int], names: list[str], scope: list[Passage], given: Given,
    refs: Sequence[str],
) -> list[str]:  # fmt: skip
    """The sentence's years and names its passages do not print (nor the rest of a section
    it cites, left out of its excerpt), but for a company's full name."""
    full_names = named_as(text, given.companies)
    names = [n for n in names if n not in full_names]
    for where in (scope, [p for ref in refs for p in given.whole_passages(ref)]):
        years = {y for y in years if not _year_found(y, where, given)}
        names = [n for n in names if not _name_found(n, where, given)]
        if not years and not names:
            break
    return [str(y) for y in sorted(years)] + names


def _in_whole(
    figures: list[Figure], found: list[Figure], elsewhere: list[Figure],
    best: tuple[Line, Passage] | None, given: Given, refs: Sequence[str], said: set[str],
) -> tuple[list[Figure], list[Figure], tuple[Line, Passage] | None]:  # fmt: skip
    """With the figures printed in the part of a cited section its excerpt left out: those
    stated to MIN_CONFIRMING_DIGITS digits or more (a long section prints some "10%" or
    "1.8" by chance; it does not print "$510,329 million" by chance), or rounded from such
    a print within a narrow band ("$510 billion" for it: a band of a tenth of a percent; a
    round "$500 million" is not read so, it may meet any "500"); a smaller one only as
    printed on a line every word of which the sentence ``said``: the row it names ("Other
    accrued expenses 76 78" for "Other accrued expenses, 2016: $78 million")."""
    for figure in [f for f in figures if f not in found]:
        line = _whole_line(figure, given, refs, said)
        if line is not None:
            found = [*found, figure]
            elsewhere = [f for f in elsewhere if f is not figure]
            best = best or line
    return found, elsewhere, best


def _whole_line(
    figure: Figure, given: Given, refs: Sequence[str], said: set[str]
) -> tuple[Line, Passage] | None:
    """The line of a cited whole section that confirms ``figure`` (see _in_whole)."""
    wholes = [p for ref in refs for p in given.whole_passages(ref)]
    if _confirms(figure):
        hit = next(((at, p) for p in wholes if (at := p.find(figure)) is not None), None)
        line = hit[1].line_at(hit[0]) if hit is not None else None
        return (line, hit[1]) if line and hit and _printed_precisely(figure, line) else None
    for passage in wholes:
        for line in (passage.line_at(at) for at in passage.finds(figure)):
            if (
                line is not None
                and line.terms
                and line.terms <= said
                and any(figure.agrees(o) and o.digits <= figure.digits for o in line.figures)
            ):
                return line, passage
    return None


def _confirms(figure: Figure) -> bool:
    """Stated precisely enough to be looked for in a whole section: MIN_CONFIRMING_DIGITS
    significant digits, or as many digits printed (a rounded "$510 billion") in a band
    narrower than NARROW_BAND of its value."""
    if figure.digits >= MIN_CONFIRMING_DIGITS:
        return True
    printed = sum(ch.isdigit() for ch in figure.text)
    return bool(figure.value) and printed >= MIN_CONFIRMING_DIGITS and (
        figure.precision <= NARROW_BAND * abs(figure.value))  # fmt: skip


def _printed_precisely(figure: Figure, line: Line) -> bool:
    """A figure of MIN_CONFIRMING_DIGITS digits, or one the line prints to more digits than
    that (the print a rounded "$510 billion" was rounded from)."""
    return figure.digits >= MIN_CONFIRMING_DIGITS or any(
        figure.agrees(o) and o.digits > MIN_CONFIRMING_DIGITS for o in line.figures
    )


def _confirmed(
    figures: list[Figure], found: list[Figure], elsewhere: list[Figure], given: Given,
    refs: Sequence[str],
) -> tuple[list[Figure], list[Figure], dict[Figure, dict[str, Any]]]:  # fmt: skip
    """With the figures the app computed found: its results from cited cells, the engine's
    for the question (also over a print in an uncited passage: a coincidence, or its cell)."""
    found = found + [f for f in figures if f not in found
                     and any(f.agrees(r) for r in given.results)]  # fmt: skip
    by_engine = _by_engine([f for f in figures if f not in found], given, refs)
    found += [f for f in figures if f not in found and f in by_engine]
    return found, [f for f in elsewhere if f not in found], by_engine


def _by_engine(
    lost: list[Figure], given: Given, refs: Sequence[str]
) -> dict[Figure, dict[str, Any]]:
    """The figures not found in the passages the sentence cites that agree with what the
    engine computes for the question, each with the place of a cell it was computed from
    (one the sentence cites if any)."""
    if not lost or given.engine is None:
        return {}
    out: dict[Figure, dict[str, Any]] = {}
    for result in given.computed():
        for figure in lost:
            stated = [figure]
            if given.unit != 1.0 and not has_unit(figure):
                stated.append(in_unit(figure, given.unit))  # "$8.70" asked in billions
            if figure not in out and any(f.agrees(result.figure) for f in stated):
                cited = [p for p in result.places if p.get("ref") in refs]
                out[figure] = dict((cited or list(result.places) or [{}])[0])
    return out


def _named(
    figures: list[Figure], found: list[Figure], elsewhere: list[Figure], given: Given,
    cited: list[Passage], passages: list[Passage], text: str,
) -> tuple[list[Figure], list[Figure], set[int]]:  # fmt: skip
    """With the figures computed from the rows the question names (:mod:`.support_named`):
    from any passage read (those cited first) for a figure found nowhere, from the passages
    cited for one printed only in a passage the sentence does not cite (it computed it
    from its own source). Without those the sentence's own arithmetic does not give
    (their starts returned): a computation stated wrongly is not found by chance."""
    everything = [*cited, *(p for p in passages if p not in cited)]
    rows: dict[bool, list[list[Figure]]] = {}  # the named rows, read once per passage set
    for figure in [f for f in figures if f not in found]:
        moved = figure in elsewhere
        if moved not in rows:
            rows[moved] = asked_rows(given, cited if moved else everything)
        if named_reproduces(figure, given, rows[moved]):
            found = [*found, figure]
            elsewhere = [f for f in elsewhere if f is not figure]
    wrong = {f.start for f in contradicted(text)}
    return ([f for f in found if f.start not in wrong],
            [f for f in elsewhere if f.start not in wrong], wrong)  # fmt: skip


def _nearest(scope: list[Passage], terms: set[str]) -> list[Passage]:
    """A sentence citing nothing is checked against everything read; its lines are then
    looked for in the few passages that hold most of its terms (cutting every passage
    into lines would cost more than the answer)."""
    if len(scope) <= NEAREST_PASSAGES:
        return scope
    hits = [(sum(p.has_term(t) for t in terms), -i) for i, p in enumerate(scope)]
    order = sorted(range(len(scope)), key=lambda i: hits[i], reverse=True)
    return [scope[i] for i in order]


def _verdict(
    figures: list[Figure], found: list[Figure], elsewhere: list[Figure], missing: list[str],
    coverage: float, reversed_: bool, few_terms: bool = False, computes: bool = False,
    wrong: bool = False,
) -> tuple[str, str]:  # fmt: skip
    """The verdict and why, from what was found (``wrong``: a figure its own arithmetic
    does not give)."""
    if wrong:
        return "unsupported", "the arithmetic it shows does not give its figure"
    lost = [f for f in figures if f not in found and f not in elsewhere]
    if figures and len(lost) == len(figures) and computes:
        return "partly", "its figure is not printed in the passages nor computed simply from them"
    if figures and len(lost) == len(figures):
        return "unsupported", "its figures are not in the passages"
    if reversed_:
        return "unsupported", "the passage says the opposite (a negation differs)"
    if lost:
        return "partly", "some of its figures are not in the passages"
    if elsewhere:
        return "partly", "its figure is in a passage it does not cite"
    if missing:
        return "partly", "a name or date is not in the passages"
    floor = TERMS_PARTLY if found else TERMS_SUPPORTED
    if coverage >= floor or (found and few_terms):
        return "supported", ""
    if coverage >= TERMS_PARTLY:
        return "partly", "some of its words are not in the passages"
    return "unsupported", "its words are not in the passages"


def _best_line(terms: set[str], scope: list[Passage]) -> tuple[Line | None, Passage | None]:
    best, where, most = None, None, 0
    for passage in scope[:NEAREST_PASSAGES]:
        for line in passage.lines:
            shared = len(terms & line.terms)
            if shared > most:
                best, where, most = line, passage, shared
    return best, where


def _said_alike(negative: bool, terms: set[str], scope: list[Passage]) -> bool:
    """Whether a line nearly as close to the sentence as the closest one says it the same
    way round (negated or not): only when every close line says the opposite is the
    sentence turned around."""
    lines = [(len(terms & line.terms), line) for p in scope[:NEAREST_PASSAGES] for line in p.lines]
    best = max((shared for shared, _ in lines), default=0)
    return any(shared >= max(1, CLOSE_LINE * best) and line.negated == negative
               for shared, line in lines)  # fmt: skip


def _year_found(year: int, scope: list[Passage], given: Given) -> bool:
    return year in given.years or any(p.has_year(year) for p in scope)


def _name_found(name: str, scope: list[Passage], given: Given) -> bool:
    key = compact(name)
    return not key or key in given.compact or any(key in p.compact for p in scope)
