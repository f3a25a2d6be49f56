"""Sentences as answers: whole sentences that name what is asked and say it in the asked form.

Word overlap alone picks "It should not be inferred that the entire free cash flow amount is
available …" for a capital expenditure question. Here a sentence must be whole (it starts
like a sentence and ends with closing punctuation: never a fragment cut at a line or a table
edge), must not be boilerplate, and gains for fitting the question's kind: a count with its
noun for "how many", a date for "when", a name for "who", an amount for "how much".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...text.numbers import MONTHS, years_in
from ...text.sentences import ENUMERATOR
from ...text.tables import split_row
from ...text.tokens import UNSPACED
from .candidates import AnswerLine, Vocabulary
from .question import Question
from .rows import NAME_BONUS

# Sentences that never answer anything: legal and navigation boilerplate. Lower case;
# extend for other languages.
BOILERPLATE = (
    "forward-looking statement",
    "table of contents",
    "incorporated herein by reference",
    "unless the context otherwise requires",
    "should be read in conjunction",
    "safe harbor",
    "see note",
    "refer to note",
    "this annual report on form",
    "the following table",
    "filed herewith",
)
MIN_SENTENCE_WORDS = 5  # "Net sales grew." answers nothing; a heading is not a sentence
MIN_FIGURE_SENTENCE_WORDS = 4  # …but "Level 3 earns 90,000." states a figure: short is enough
LONG_SENTENCE_WORDS = 60  # longer ones are run-ons or unsplit lists: a reader skims past them
LONG_PENALTY = 0.15
# A sentence naming less than this share of the question's words is not about it.
SENTENCE_MIN_MATCH = 0.25
# How much a sentence gains for fitting the question's kind.
KIND_FIT = 0.25
NOUN_FIT = 0.2  # the count's noun is the asked one ("221,000 people" for "how many people")
LARGEST_COUNT = 0.15
COUNT_NOUN_WORDS = 4  # the noun of "61,800 and 100,300 employees", "35,000 full- and part-time employees"  # the largest count of the asked noun among the sentences (the total)
YEAR_FIT = 0.15  # names the asked year
# A figure within this many words after the metric's name says the metric's value ("The
# effective tax rate was 21.6 percent"), rather than mentioning the metric in passing.
NEAR_WORDS = 6
NEAR_SHARE = 0.75  # … and those words are most of the metric words the sentence has
NEAR_FIT = 0.15
# Shorter is more direct: a sentence loses this much per word past BRIEF_WORDS.
BRIEF_WORDS = 25
PER_EXTRA_WORD = 0.003
OTHER_YEAR = 0.1  # names only other years
# "How many …" or "How much …" asks for a figure: a sentence that gives none keeps this much
# less ("We have works councils …" does not say how many people work there). A year or a
# footnote's marker is not one: "(b) Acquisition of Tyson Foods' pet treats business in
# fiscal 2022." says no amount.
NO_FIGURE = 0.3
_HOW_MUCH = re.compile(r"\bhow much\b", re.I)
ONE_PERIOD = 0.25  # names one of two compared periods
_END = re.compile(r"[.!?。！？؟।][\"'”’)」』]*$")
_NUMBER = re.compile(
    r"(?<![\w$€£¥.,(\-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s*(million|billion|thousand))?"
    r"(?![\d%)])(?:\s+(?:[\w\-]+\s+){0,2}?)?"
)
_DATE = re.compile(
    r"\b(?:" + "|".join(MONTHS) + r")\.?\s+\d{1,2},?\s+(?:19|20)\d\d\b"
    r"|\b\d{1,2}\s+(?:" + "|".join(MONTHS) + r")\.?\s+(?:19|20)\d\d\b"
    r"|\b(?:19|20)\d\d-\d\d-\d\d\b",
    re.I,
)
_NAME = re.compile(r"\b[A-Z][\w&.'’-]*(?:\s+(?:&\s+)?[A-Z][\w&.'’-]*)+")
# Legal-form suffixes that mark a firm's name (extend for other jurisdictions).
_ORGANISATION = re.compile(
    r"\b[A-Z][\w&.'’-]*(?:\s+(?:&\s+)?[A-Z][\w&.'’-]*)*,?\s+"
    r"(?:LLP|LLC|L\.L\.P\.|Inc\.|Corp\.|Corporation|Ltd\.?|plc|PLC|AG|S\.A\.|N\.V\.|GmbH)"
)
_NOUN = re.compile(r"[^\W\d_][\w\-]*")
_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_FIGURE_WORD = re.compile(r"[\d$€£¥(),.%—–-]+")
_PLAIN_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_AMOUNT = re.compile(r"[$€£¥]\s?\d|\d\s?(?:%|percent|million|billion)", re.I)
# A sentence that gives a cause: what a "why" or "what drove" question asks for.
_CAUSE = re.compile(
    r"\b(?:due to|driven by|because|as a result of|resulting from|attributable to|owing to"
    r"|reflect(?:s|ed|ing)?|primarily from|caused by|aufgrund|wegen|en raison de|grâce à"
    r"|debido a|a causa de|dovut[oa] a|devido a|vanwege|из-за)\b|由于|因为|ため|때문",
    re.I,
)


# Characters of scripts written without spaces: about two make a word.
_UNSPACED_CHAR = re.compile(f"[{UNSPACED}]")
CHARS_PER_UNSPACED_WORD = 2


def word_count(sentence: str) -> int:
    """Words as a reader counts them, also where words have no spaces between them."""
    unspaced = len(_UNSPACED_CHAR.findall(sentence))
    if not unspaced:
        return len(sentence.split())
    return len(_UNSPACED_CHAR.sub(" ", sentence).split()) + unspaced // CHARS_PER_UNSPACED_WORD


def is_whole(sentence: str) -> bool:
    """Starts like a sentence (not mid-word, not lower case) and ends with closing
    punctuation; a table row or a run of figures is not a sentence."""
    words = sentence.split()
    shortest = MIN_FIGURE_SENTENCE_WORDS if _PLAIN_NUMBER.search(sentence) else MIN_SENTENCE_WORDS
    if word_count(sentence) < shortest or sentence[:1].islower() or not _END.search(sentence):
        return False
    if split_row(sentence) is not None and len(words) >= MIN_SENTENCE_WORDS:
        return False
    figures = sum(1 for w in words if _FIGURE_WORD.fullmatch(w))
    return figures <= len(words) / 2


def is_boilerplate(sentence: str, phrases: Sequence[str] = BOILERPLATE) -> bool:
    lowered = sentence.lower()
    return any(p in lowered for p in phrases)


def kind_fit(sentence: str, question: Question, vocab: Vocabulary, near: bool) -> float:
    """What the sentence gains for saying the kind of thing asked (``near``: it says a
    figure right after the metric's name)."""
    if question.kind == "reason":
        return KIND_FIT if _CAUSE.search(sentence) else 0.0
    if question.kind == "count":
        return max((fit for fit, _ in counts(sentence, question, vocab)), default=0.0)
    if question.kind == "date":
        return KIND_FIT if _DATE.search(sentence) else (KIND_FIT / 2 if years_in(sentence) else 0.0)
    if question.kind == "name":
        # a firm's or person's name: "Deloitte & Touche LLP" more surely than "the PCAOB"
        if _ORGANISATION.search(sentence):
            return KIND_FIT
        asked = set(question.text.split())
        names = [n for n in _NAME.findall(sentence[1:]) if not set(n.split()) <= asked]
        return KIND_FIT / 2 if names else 0.0
    if question.kind in ("amount", "other") and _AMOUNT.search(sentence):
        # an amount counts when it is the metric's ("… tax rate was 21.6 percent"), not
        # one the sentence gives for something else while naming the metric in passing
        return KIND_FIT if near else 0.0
    return 0.0


def counts(sentence: str, question: Question, vocab: Vocabulary) -> list[tuple[float, float]]:
    """``(fit, count)`` for each count the sentence gives (a number, not a year or a
    percentage): the fit is higher when the words after it are the asked noun."""
    out = []
    for m in _NUMBER.finditer(sentence):
        if m.group(2) is None and m.group(3) is None and years_in(m.group(1)):
            continue  # a year is not a count
        after = sentence[m.end(1) : m.end(1) + 40]
        nouns = set(vocab.stems(" ".join(_NOUN.findall(after)[:COUNT_NOUN_WORDS])))
        value = float(m.group(1).replace(",", "") + (m.group(2) or ""))
        value *= _SCALE.get((m.group(3) or "").lower(), 1)
        out.append((KIND_FIT + (NOUN_FIT if nouns & question.metric_terms() else 0.0), value))
    return out


def value_near_metric(sentence: str, question: Question, vocab: Vocabulary) -> bool:
    """A figure (not a year) comes right after the words naming the metric: within
    ``NEAR_WORDS`` words after most of the metric words the sentence has ("The effective tax
    rate was 21.6 percent", not "tax benefits of $1.0 billion … the effective tax rate"), or
    after the metric's head, the first word the question names it by ("How much goodwill did
    it record on its acquisition of Tyson Foods' pet treats business?": "… pet treats business
    into our balance sheet and recorded goodwill of $762.3 million"; the rest of the metric
    says whose it is, and may come anywhere in the sentence)."""
    terms = question.terms()
    words = sentence.split()
    word_stems = [set(vocab.stems(word)) & terms for word in words]
    named = set().union(*word_stems)
    if not named:
        return False
    head = question.head
    for i, word in enumerate(words):
        digits = word.strip("$€£¥(),.%;:")
        if not _PLAIN_NUMBER.fullmatch(digits) or years_in(digits):
            continue
        before = set().union(*word_stems[max(0, i - NEAR_WORDS) : i])
        if head in before or len(before) >= max(1, round(len(named) * NEAR_SHARE)):
            return True
    return False


def score_sentence(sentence: str, question: Question, vocab: Vocabulary) -> float | None:
    """How well ``sentence`` answers ``question``; None when it is not a candidate."""
    words = vocab.stems(sentence)
    if question.metric_terms().isdisjoint(words):
        return None  # says nothing asked (most sentences)
    named = vocab.names_metric(words, question)
    overlap = vocab.coverage(set(words), question.metric)
    match = 0.5 * named + 0.5 * overlap
    if match < SENTENCE_MIN_MATCH or not is_whole(sentence) or is_boilerplate(sentence):
        return None
    # a count comes before its noun ("6,500 employees"); its fit is judged by counts()
    near = question.kind != "count" and value_near_metric(sentence, question, vocab)
    gain = kind_fit(sentence, question, vocab, near) + (NEAR_FIT if near else 0.0)
    # a sentence saying the names the question asks about gains as a row's label does
    gain += NAME_BONUS * vocab.coverage(set(words), question.subjects) ** 2
    keep = 1.0
    years = set(years_in(sentence))
    matched = years & set(question.years)
    if matched:
        gain += YEAR_FIT
        if question.compare and len(matched) > 1:
            gain += YEAR_FIT  # says both compared periods
    elif question.years and years:
        keep -= OTHER_YEAR
    if question.compare and len(question.years) > 1 and len(matched) < 2:
        keep -= ONE_PERIOD  # cannot compare what it does not say
    if (question.kind == "count" or _HOW_MUCH.search(question.text)) and not states_figure(
        sentence
    ):
        keep -= NO_FIGURE
    length = word_count(sentence)
    keep -= PER_EXTRA_WORD * max(0, length - BRIEF_WORDS)
    if length > LONG_SENTENCE_WORDS:
        keep -= LONG_PENALTY
    score = match * (1 + gain) * keep
    return score


def states_figure(sentence: str) -> bool:
    """Whether the sentence gives a figure: a number that is neither a year nor the marker
    a footnote or a list item opens with."""
    text = ENUMERATOR.sub("", sentence, count=1)
    return any(not years_in(n) for n in _PLAIN_NUMBER.findall(text))


def sentence_candidates(
    question: Question, sentences: Sequence[Sequence[tuple[str, int]]], vocab: Vocabulary
) -> list[AnswerLine]:
    """Every whole, relevant sentence, scored (``sentences[i]`` are section ``i``'s)."""
    out: list[AnswerLine] = []
    for si, spans in enumerate(sentences):
        for sentence, offset in spans:
            score = score_sentence(sentence, question, vocab)
            if score is None:
                continue
            if question.kind == "count":
                named = [n for fit, n in counts(sentence, question, vocab) if fit > KIND_FIT]
                size = max(named, default=0.0)
            else:
                size = 0.0
            key = " ".join(vocab.stems(sentence))
            figures = frozenset(m.group(1) for m in _NUMBER.finditer(sentence))
            said = frozenset(vocab.stems(sentence)) & question.terms()
            out.append(
                AnswerLine("sentence", sentence, score, si, offset, key, figures, said, size)
            )
    if question.kind == "count" and out:
        # the whole is at least each part: "approximately 61,800 employees" is the headcount,
        # "3,700 employees … covered by collective bargaining agreements" a part of it
        largest = max(out, key=lambda c: c.size)
        if largest.size > 0:
            largest.score *= 1 + LARGEST_COUNT
    return out
